"""Writes a 200 MiB command.txt: a valid first line, then 200 MiB of digits with no line break."""
with open("command.txt", "wb") as handle:
    handle.write(b"4,4,2\n")
    block = b"9" * (1 << 20)
    handle.writelines(block for _ in range(200))
