"""Tower Defence starter bot (Python 3, standard library only).

Every round the runner writes `state.json` into this folder, starts this program with the folder as
its working directory, and reads the first line of `command.txt`:

    x,y,buildingType     0 defence, 1 attack, 2 energy, 3 deconstruct, 4 tesla, 5 iron curtain
    (empty file)         do nothing this round

You always see yourself as player "A" on the left: your half is x = 0..7, the enemy's x = 8..15.
A command the engine rejects wastes the round, so every move below is checked first (`can_build`,
`can_use_iron_curtain`). Put your own strategy in `choose_move`.
"""

import json

DEFENSE, ATTACK, ENERGY, DECONSTRUCT, TESLA, IRON_CURTAIN = 0, 1, 2, 3, 4, 5
TYPE_NAMES = {"DEFENSE": DEFENSE, "ATTACK": ATTACK, "ENERGY": ENERGY, "TESLA": TESLA}
MAX_TESLAS = 2  # engine rule; not part of the state file

ENERGY_BUILDINGS_WANTED = 8
CURTAIN_MISSILE_THRESHOLD = 4
TESLA_RESERVE = 150  # energy to keep on top of the tower's price so it can fire


class Game:
    """The parts of state.json this bot uses, in the bot's own (always "A") view."""

    def __init__(self, state):
        details = state["gameDetails"]
        self.width = details["mapWidth"]
        self.height = details["mapHeight"]
        self.half = self.width // 2
        self.prices = {TYPE_NAMES[name]: price for name, price in details["buildingPrices"].items()}
        self.curtain_price = details["ironCurtainStats"]["price"]
        players = {p["playerType"]: p for p in state["players"]}  # pick by label, never by index
        self.me = players["A"]
        self.enemy = players["B"]
        self.buildings = []  # (x, y, owner, type)
        self.enemy_missiles = 0
        self.occupied = set()
        for row in state["gameMap"]:
            for cell in row:
                for b in cell["buildings"]:
                    self.buildings.append((b["x"], b["y"], b["playerType"], TYPE_NAMES[b["buildingType"]]))
                    self.occupied.add((b["x"], b["y"]))
                self.enemy_missiles += sum(1 for m in cell["missiles"] if m["playerType"] == "B")

    def count(self, owner, kind, y=None):
        """How many buildings of `kind` `owner` has (in row `y` if given); unfinished ones count."""
        return sum(1 for bx, by, bo, bt in self.buildings if bo == owner and bt == kind and (y is None or by == y))

    def enemies_near_row(self, y):
        """Enemy buildings in rows y-1..y+1: what a tesla in row y can reach."""
        return sum(1 for _, by, owner, _ in self.buildings if owner == "B" and abs(by - y) <= 1)

    def can_build(self, x, y, kind):
        """True if the engine would accept building `kind` at (x, y) this round."""
        if not (0 <= x < self.half and 0 <= y < self.height):
            return False  # only our own half
        if (x, y) in self.occupied:
            return False
        if kind == TESLA and self.count("A", TESLA) >= MAX_TESLAS:
            return False
        return self.me["energy"] >= self.prices[kind]

    def can_use_iron_curtain(self):
        return (
            self.me["ironCurtainAvailable"]
            and self.me["energy"] >= self.curtain_price
            and self.me["activeIronCurtainLifetime"] < 1
        )

    def first_free(self, y, columns):
        """The first x in `columns` whose cell in row `y` is empty, or None."""
        for x in columns:
            if (x, y) not in self.occupied:
                return x
        return None


def choose_move(game):
    """Return (x, y, type) or None. A simple plan: shield, defend, grow the economy, then attack."""
    front_to_back = range(game.half - 1, -1, -1)
    back_to_front = range(game.half)

    # 1. Many enemy missiles in flight: raise the iron curtain (blocks them at the middle for 6 rounds).
    if game.enemy_missiles >= CURTAIN_MISSILE_THRESHOLD and game.can_use_iron_curtain():
        return (0, 0, IRON_CURTAIN)

    # 2. Put a defence wall at the front of every row where the enemy has an attack building.
    threatened = [y for y in range(game.height) if game.count("B", ATTACK, y) > 0 and game.count("A", DEFENSE, y) == 0]
    threatened.sort(key=lambda y: -game.count("B", ATTACK, y))  # most attackers first
    for y in threatened:
        x = game.first_free(y, front_to_back)
        if x is not None:
            # Wait for the energy rather than spend it elsewhere: this row is under fire.
            return (x, y, DEFENSE) if game.can_build(x, y, DEFENSE) else None

    # 3. Energy buildings pay for themselves after 7 rounds: build them early, at the back.
    if game.count("A", ENERGY) < ENERGY_BUILDINGS_WANTED:
        for x in back_to_front:
            for y in range(game.height):
                if game.can_build(x, y, ENERGY):
                    return (x, y, ENERGY)

    # 4. Rich? A tesla tower near the front hits up to 9 enemy buildings in a 3-row band.
    if game.me["energy"] >= game.prices[TESLA] + TESLA_RESERVE:
        x = game.half - 2
        for y in sorted(range(game.height), key=lambda y: -game.enemies_near_row(y)):
            if game.can_build(x, y, TESLA):
                return (x, y, TESLA)

    # 5. Attack the row where the enemy has the fewest defences, from the back of our half.
    rows = sorted(range(game.height), key=lambda y: (game.count("B", DEFENSE, y), y))
    for y in rows:
        x = game.first_free(y, back_to_front)
        if x is not None:
            return (x, y, ATTACK) if game.can_build(x, y, ATTACK) else None
    return None


def main():
    with open("state.json", encoding="utf-8") as f:
        game = Game(json.load(f))
    move = choose_move(game)
    with open("command.txt", "w", encoding="utf-8") as f:
        if move is not None:
            f.write("{},{},{}".format(*move))


if __name__ == "__main__":
    main()
