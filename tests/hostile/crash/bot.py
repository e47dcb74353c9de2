"""Writes garbage everywhere and exits 3."""
import sys

with open("command.txt", "w") as handle:
    handle.write("\x00\x07garbage,,;;\n")
print("about to fail")
print("Traceback: nothing to see", file=sys.stderr)
sys.exit(3)
