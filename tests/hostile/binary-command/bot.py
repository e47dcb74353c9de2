"""Writes random binary bytes, invalid UTF-8 included, as its command."""
with open("command.txt", "wb") as handle:
    handle.write(bytes(range(256)) + b"\xff\xfe\xc3\x28\n\x80")
