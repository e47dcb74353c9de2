"""Starts 200 detached processes (double fork + setsid, the daemon recipe) that sleep, then answers.

Every other sleeper also wipes its environment and execs `sleep` under a new name, so only a PID namespace
catches it; the name carries the test's tag so the test can still find it in /proc/<pid>/cmdline. The bot
answers only once every sleeper is in its final form (the pipe reaches end of file when the last one has
exec'd or closed it), so what the runner finds does not depend on timing.
"""
import os
import time

tag = os.environ.get("HOSTILE_TAG", "untagged")
ready_read, ready_write = os.pipe()  # close-on-exec, as Python creates it
for i in range(200):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.close(ready_read)
            if i % 2:
                os.execve("/bin/sleep", [f"sleeper-{tag}", "1000000"], {})
            os.close(ready_write)
            time.sleep(10**6)
        os._exit(0)
    os.wait()
os.close(ready_write)
os.read(ready_read, 1)
with open("command.txt", "w") as handle:
    handle.write("0,0,2\n")
