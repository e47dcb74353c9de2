"""Tries to write next to its folder, in /tmp, in the home folder and over td-runner's own files."""
import os
import sys

tag = os.environ.get("HOSTILE_TAG", "untagged")
targets = [
    os.path.abspath(f"../outside-{tag}.txt"),
    f"/tmp/outside-{tag}.txt",
    os.path.expanduser(f"~/outside-{tag}.txt"),
    os.path.join(os.path.dirname(sys.executable), f"outside-{tag}.txt"),
]
for target in targets:
    try:
        with open(target, "w") as handle:
            handle.write("escaped\n")
        print("wrote", target)
    except OSError as exc:
        print("refused", target, exc.strerror)
with open("command.txt", "w") as handle:
    handle.write("6,6,0\n")
