"""Warzone starter (td-runner new): reads state.txt, writes orders.txt, once per turn.

The plan: deploy the whole pool on our strongest territory that borders someone else's, then attack its
weakest foreign neighbour with everything there when we outnumber it. Every order names territories we own
and neighbours of them, so none is rejected. Your strategy goes in `orders`.
"""


def read_state(path="state.txt"):
    """Our seat, our pool, and every territory: id -> (owner, armies, neighbour ids)."""
    seat, pool, territories = "", 0, {}
    with open(path, encoding="utf-8") as text:
        for line in text:
            fields = line.split()
            if fields[:1] == ["you"]:
                seat = fields[1]
            elif fields[:1] == ["pool"]:
                pool = int(fields[1])
            elif fields[:1] == ["territory"]:
                neighbours = [] if fields[5] == "-" else [int(n) for n in fields[5].split(",")]
                territories[int(fields[1])] = (fields[2], int(fields[3]), neighbours)
    return seat, pool, territories


def orders(seat, pool, territories):
    """This turn's order lines."""
    front = [(armies, tid) for tid, (owner, armies, neighbours) in territories.items()
             if owner == seat and any(territories[n][0] != seat for n in neighbours)]
    if not front:
        return []
    armies, base = max(front, key=lambda item: (item[0], -item[1]))  # the first of the strongest
    lines = [f"deploy {pool} {base}"] if pool > 0 else []
    armies += pool
    target = min((territories[n][1], n) for n in territories[base][2] if territories[n][0] != seat)
    if armies > 2 * target[0] + 1:
        lines.append(f"advance {armies} {base} {target[1]}")
    return lines


def main():
    lines = orders(*read_state())
    with open("orders.txt", "w", encoding="utf-8") as out:
        out.write("".join(line + "\n" for line in lines))


if __name__ == "__main__":
    main()
