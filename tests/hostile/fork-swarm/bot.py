"""Starts 200 detached processes (double fork + setsid, the daemon recipe) that sleep, then answers.

Every other sleeper also wipes its environment and execs `sleep` under a new name, so only a PID namespace
catches it; the name carries the test's tag so the test can still find it in /proc/<pid>/cmdline.
"""
import os
import time

tag = os.environ.get("HOSTILE_TAG", "untagged")
for i in range(200):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            if i % 2:
                os.execve("/bin/sleep", [f"sleeper-{tag}", "1000000"], {})
            time.sleep(10**6)
        os._exit(0)
    os.wait()
with open("command.txt", "w") as handle:
    handle.write("0,0,2\n")
