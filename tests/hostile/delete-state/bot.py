"""Reports whether its state files are there, then deletes them (and everything else it may touch)."""
import os

present = [name for name in ("state.json", "textMap.txt") if os.path.exists(name)]
print("present:", ",".join(present))
for name in present:
    os.remove(name)
os.mkdir("textMap.txt")  # a folder where the runner writes a file next turn
with open("command.txt", "w") as handle:
    handle.write("5,5,0\n" if len(present) == 2 else "missing state\n")
