"""Tower Defence starter (td-runner new): reads textMap.txt, writes command.txt, once per round.

The plan: energy buildings in the back column until there are 6, then attack buildings from the front.
Every move is checked first (own half, free cell, enough energy), so no command is ever refused.
"""

ENERGY, ATTACK = 2, 1
PRICES = {ENERGY: 20, ATTACK: 30}


def read_map(path="textMap.txt"):
    """Our energy and the cells our buildings stand on (built or not), from the text map."""
    energy, mine = None, set()
    with open(path, encoding="utf-8") as text:
        for line in text:
            if line.startswith("Energy :") and energy is None:
                energy = int(line.split(":")[1])  # player A's block comes first: that is us
            elif line.startswith("[") and "] A|" in line:
                x, y = line[1:line.index("]")].split(",")
                mine.add((int(x), int(y), line.split("|")[1]))
    return energy or 0, mine


def choose(energy, mine):
    """The command `x,y,type` for this round, or "" to do nothing."""
    taken = {(x, y) for x, y, _ in mine}
    energy_buildings = sum(1 for *_, kind in mine if kind == "ENERGY")
    if energy_buildings < 6:
        cells, kind = [(x, y) for x in (0, 1) for y in range(8)], ENERGY
    else:
        cells, kind = [(x, y) for x in range(7, 1, -1) for y in range(8)], ATTACK
    free = [cell for cell in cells if cell not in taken]
    if not free or energy < PRICES[kind]:
        return ""  # wait for the energy (or nowhere left to build)
    x, y = free[0]
    return f"{x},{y},{kind}"


def main():
    energy, mine = read_map()
    with open("command.txt", "w", encoding="utf-8") as out:
        out.write(choose(energy, mine))


if __name__ == "__main__":
    main()
