"""Writes 400 MiB to stdout and stderr, then answers."""
import os

block = b"flood " * (1 << 17)  # 768 KiB
for i in range(2 * 400 * (1 << 20) // (2 * len(block))):
    os.write(1 if i % 2 else 2, block)
with open("command.txt", "w") as handle:
    handle.write("3,3,1\n")
