import sys

with open("command.txt", "w") as handle:
    handle.write("0,0,2\n")
print("about to fail")
sys.exit(3)
