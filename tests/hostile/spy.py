"""A spy bot (and build script): tries to read and write everything a league's bot must not reach.

Run as `python3 spy.py` (a bot turn: it also answers, so it goes on playing) or `python3 spy.py build`. The
places to try are in `targets.json` beside it, written by the test. What it found goes to
`spy-report.json` in its folder and, as one line starting `SPY-REPORT `, to stdout (a league keeps a match's
output in the log, not the bot's scratch copy). Contents are never reported, only sizes, so a test that
runs it unsandboxed leaks nothing into its logs.
"""

import json
import os
import socket
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def attempt(action):
    """'ok: ...' when the action worked, else the exception's class name."""
    try:
        return "ok: " + str(action())
    except Exception as exc:  # noqa: BLE001 - every failure is the answer
        return type(exc).__name__


def read(path):
    with open(path, "rb") as handle:
        return f"{len(handle.read())} bytes"


def listing(path):
    return " ".join(sorted(os.listdir(path)))


def write(path):
    with open(path, "ab") as handle:
        handle.write(b"# the spy was here\n")
    return "written"


def connect(port):
    with socket.create_connection(("127.0.0.1", port), timeout=1):
        return "connected"


def other_processes():
    """Processes in /proc that are not this sandbox's: a command line naming pytest or td-runner."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/cmdline", "rb") as handle:
                    cmdline = handle.read()
            except OSError:
                continue
            if b"pytest" in cmdline or b"runner.cli" in cmdline:
                found.append(int(name))
    return found


def tamper(path):
    """Make a shipped file writable and append to it: in a league seat it is a hard link to the version's
    snapshot, so this would change the frozen version."""
    os.chmod(path, 0o644)
    return write(path)


def fresh(path):
    """`path` made free to write: in a league a seat's shipped files (the build's included) are read-only hard
    links to the version's snapshot, so a bot replaces such a file rather than writing into it."""
    if os.path.exists(path):
        os.unlink(path)
    return path


def main():
    with open(os.path.join(HERE, "targets.json")) as handle:
        targets = json.load(handle)
    report = {
        "uid": os.getuid(),
        "gid": os.getgid(),
        "read": {path: attempt(lambda path=path: read(path)) for path in targets["read"]},
        "list": {path: attempt(lambda path=path: listing(path)) for path in targets["list"]},
        "write": {path: attempt(lambda path=path: write(path)) for path in targets["write"]},
        "network": attempt(lambda: connect(targets["port"])),
        "processes": other_processes(),
        "own": attempt(lambda: write(fresh(os.path.join(HERE, "scratch.txt")))),
        "tamper": attempt(lambda: tamper(os.path.join(HERE, "bot.py"))) if targets.get("tamper") else "not tried",
    }
    with open(fresh(os.path.join(HERE, "spy-report.json")), "w") as handle:
        json.dump(report, handle)
    print("SPY-REPORT " + json.dumps(report), flush=True)
    if sys.argv[1:] != ["build"]:
        with open("command.txt", "w") as handle:
            handle.write("")  # do nothing this round: a valid answer


main()
