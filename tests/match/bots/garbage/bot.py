with open("command.txt", "wb") as handle:
    handle.write(b"\xff\xfe garbage, not a command\n")
