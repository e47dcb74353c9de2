"""Asks for several GiB: once in one piece, then 128 MiB at a time, touching every page."""
chunks = []
try:
    chunks.append(bytearray(6 << 30))
    outcome = "6 GiB in one piece"
except MemoryError:
    try:
        while len(chunks) < 48:  # 6 GiB
            chunks.append(bytearray(128 << 20))  # zero-filled, so every page is touched
        outcome = "6 GiB in pieces"
    except MemoryError:
        outcome = f"stopped at {len(chunks) * 128} MiB"
with open("command.txt", "w") as handle:
    handle.write(outcome + "\n")
