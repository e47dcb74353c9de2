"""Points command.txt at /etc/passwd (and state.json at a file outside its folder)."""
import os

os.symlink("/etc/passwd", "command.txt")
os.remove("state.json")
os.symlink(os.path.abspath("../victim.txt"), "state.json")
