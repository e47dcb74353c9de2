"""Tower Defence reference bot: a stronger opponent to measure your bot against (Python 3, std lib only).

Same file protocol as the starter bots: read `state.json`, write one `x,y,buildingType` line (or nothing)
to `command.txt`.

Strategy (see README.md): a one-move look-ahead. Each round the bot lists a few dozen sensible legal moves
(an energy building at the back of each row, a wall at the front of each row, an attack building in each
row, a tesla tower behind the front column, the iron curtain, or nothing), plays each one forward for
HORIZON rounds with its own copy of the game rules while both sides build nothing else, and keeps the
move whose future looks best: base health, the score, the buildings still standing and the energy in
the bank. Walls therefore go where missiles will land, attack buildings where their missiles will do
damage, and teslas where a shot will kill the most.

Every candidate is checked against the engine's rules first, so the bot never sends an invalid command.
Ties are broken with a pseudo-random generator seeded from the missile ids in the state: matches played
with different seeds differ, while a given state always gives the same move.
"""

from __future__ import annotations

import json
import random
import zlib

DEFENSE, ATTACK, ENERGY, DECONSTRUCT, TESLA, IRON_CURTAIN = 0, 1, 2, 3, 4, 5
TYPE_NAMES = {"DEFENSE": DEFENSE, "ATTACK": ATTACK, "ENERGY": ENERGY, "TESLA": TESLA}
MAX_TESLAS = 2  # engine rule (spec 4.3); not in the state file
ME, THEM = 0, 1

HORIZON = 20  # rounds simulated per candidate: a tesla needs 10 to build and 1 to fire
HEALTH_SCORE_MULTIPLIER = 15  # score per point of base damage; not in state.json (spec 1.1 default)

# Evaluation weights (per point): base health on top of the score each point of damage earns.
W_HEALTH = 40
W_ENERGY = 0.5
#: What a standing building is worth, per building type, on top of its health in points.
BUILDING_VALUE = {DEFENSE: 10, ATTACK: 45, ENERGY: 45, TESLA: 160}


class Rules:
    """The numbers of the game as given in state.json (so a changed config is followed)."""

    def __init__(self, state: dict) -> None:
        details = state["gameDetails"]
        self.width = details["mapWidth"]
        self.height = details["mapHeight"]
        self.half = self.width // 2
        self.max_rounds = details["maxRounds"]
        self.income = details["roundIncomeEnergy"]
        self.stats = {TYPE_NAMES[name]: s for name, s in details["buildingsStats"].items()}
        self.price = {kind: s["price"] for kind, s in self.stats.items()}
        curtain = details["ironCurtainStats"]
        self.curtain_price = curtain["price"]
        self.curtain_rounds = curtain["activeRounds"]
        self.curtain_period = curtain["resetPeriod"]
        self.curtain_score = curtain["constructionScore"]
        # A tesla's energy per shot and range are only in building objects; until a tesla is on the
        # board, assume the official values (spec 1.1).
        self.tesla_shot, self.tesla_range = 100, 9
        for row in state["gameMap"]:
            for cell in row:
                for b in cell["buildings"]:
                    if b["buildingType"] == "TESLA":
                        self.tesla_shot, self.tesla_range = (
                            b["energyPerShot"],
                            b["maxRange"],
                        )


class World:
    """A mutable copy of the game from our side: we are player 0 on the left (x < half), they are 1.

    buildings: (x, y) -> [owner, type, health, construction time left, cooldown]
    missiles:  [x, y, owner]
    """

    __slots__ = (
        "buildings",
        "curtain_left",
        "curtain_ready",
        "energy",
        "health",
        "missiles",
        "round",
        "rules",
        "score",
    )

    @classmethod
    def from_state(cls, state: dict, rules: Rules) -> World:
        w = cls()
        w.rules = rules
        w.round = state["gameDetails"]["round"]
        players = {p["playerType"]: p for p in state["players"]}
        order = (players["A"], players["B"])  # pick by label: "A" is always us
        w.energy = [p["energy"] for p in order]
        w.health = [p["health"] for p in order]
        w.score = [p["score"] for p in order]
        w.curtain_left = [p["activeIronCurtainLifetime"] for p in order]
        w.curtain_ready = [p["ironCurtainAvailable"] for p in order]
        w.buildings = {}
        w.missiles = []
        for row in state["gameMap"]:
            for cell in row:
                for b in cell["buildings"]:
                    owner = ME if b["playerType"] == "A" else THEM
                    w.buildings[(b["x"], b["y"])] = [
                        owner,
                        TYPE_NAMES[b["buildingType"]],
                        b["health"],
                        b["constructionTimeLeft"],
                        b["weaponCooldownTimeLeft"],
                    ]
                for m in cell["missiles"]:
                    w.missiles.append([m["x"], m["y"], ME if m["playerType"] == "A" else THEM])
        return w

    def copy(self) -> World:
        w = World()
        w.rules = self.rules
        w.round = self.round
        w.buildings = {pos: list(b) for pos, b in self.buildings.items()}
        w.missiles = [list(m) for m in self.missiles]
        w.energy = list(self.energy)
        w.health = list(self.health)
        w.score = list(self.score)
        w.curtain_left = list(self.curtain_left)
        w.curtain_ready = list(self.curtain_ready)
        return w

    # -- legality (spec 4.3) --------------------------------------------------------------------------

    def can_build(self, x: int, y: int, kind: int) -> bool:
        """Would the engine accept our command to build `kind` at (x, y) (our view)?"""
        r = self.rules
        if not (0 <= x < r.half and 0 <= y < r.height) or (x, y) in self.buildings:
            return False
        if kind == TESLA and sum(1 for b in self.buildings.values() if b[0] == ME and b[1] == TESLA) >= MAX_TESLAS:
            return False
        return self.energy[ME] >= r.price[kind]

    def can_use_iron_curtain(self) -> bool:
        return self.curtain_ready[ME] and self.energy[ME] >= self.rules.curtain_price and self.curtain_left[ME] < 1

    # -- one round (spec 3.2), our move only: the opponent is assumed to build nothing ----------------

    def play(self, move: tuple[int, int, int] | None) -> None:
        r = self.rules
        if move is not None:
            x, y, kind = move
            if kind == IRON_CURTAIN:
                self.curtain_left[ME] = r.curtain_rounds
                self.curtain_ready[ME] = False
                self.energy[ME] -= r.curtain_price
                self.score[ME] += r.curtain_score
            else:
                s = r.stats[kind]
                self.buildings[(x, y)] = [
                    ME,
                    kind,
                    s["health"],
                    s["constructionTime"],
                    0,
                ]
                self.energy[ME] -= s["price"]
                self.score[ME] += s["constructionScore"]
        buildings = self.buildings
        for b in buildings.values():  # phase 2
            b[3] -= 1
        reset = self.round != 0 and self.round % r.curtain_period == 0
        for p in (ME, THEM):  # phase 3
            if reset:
                self.curtain_ready[p] = True
                self.curtain_left[p] = max(0, self.curtain_left[p])
            self.curtain_left[p] -= 1
        teslas = sorted(
            ((b[3], pos, b) for pos, b in buildings.items() if b[1] == TESLA and b[3] <= -1),
            key=lambda t: t[0],
        )
        for _, pos, b in teslas:  # phase 4
            if self.energy[b[0]] >= r.tesla_shot and b[4] == 0:
                self.energy[b[0]] -= r.tesla_shot
                self._tesla_shot(pos, b[0])
                b[4] = r.stats[TESLA]["weaponCooldownPeriod"]
            elif b[4] > 0:
                b[4] -= 1
        attack = r.stats[ATTACK]
        for (x, y), b in buildings.items():  # phase 5
            if b[1] == ATTACK and b[3] <= -1:
                if b[4] > 0:
                    b[4] -= 1
                else:
                    self.missiles.append([x, y, b[0]])
                    b[4] = attack["weaponCooldownPeriod"]
        self._move_missiles(attack["weaponSpeed"], attack["weaponDamage"])
        for pos in [pos for pos, b in buildings.items() if b[2] <= 0]:  # phase 7
            del buildings[pos]
        for p in (ME, THEM):  # phase 8
            income = r.income + sum(
                r.stats[ENERGY]["energyGeneratedPerTurn"]
                for b in buildings.values()
                if b[0] == p and b[1] == ENERGY and b[3] <= -1
            )
            self.energy[p] += income
            self.score[p] += income
        self.round += 1

    def _damage(self, attacker: int, b: list, amount: int) -> None:
        lost = min(b[2], amount)
        b[2] -= lost
        self.score[attacker] += lost * self.rules.stats[b[1]]["destroyMultiplier"]

    def _hit_base(self, attacker: int, amount: int) -> None:
        victim = 1 - attacker
        lost = min(self.health[victim], amount)
        self.health[victim] -= lost
        self.score[attacker] += lost * HEALTH_SCORE_MULTIPLIER

    def _tesla_shot(self, pos: tuple[int, int], owner: int) -> None:
        r = self.rules
        victim = 1 - owner
        if self.curtain_left[victim] >= 0:
            return  # blocked by the curtain (energy still spent)
        tx, ty = pos
        damage = r.stats[TESLA]["weaponDamage"]
        if tx == (r.half - 1 if owner == ME else r.half):
            self._hit_base(owner, damage)
        step = 1 if owner == ME else -1
        for d in range(1, r.tesla_range + 1):
            x = tx + step * d
            for y in (ty - 1, ty, ty + 1):  # the top-most target in the column
                b = self.buildings.get((x, y))
                if b is not None and b[0] == victim and b[3] <= -1 and b[2] > 0:
                    self._damage(owner, b, damage)
                    break

    def _move_missiles(self, speed: int, damage: int) -> None:
        r = self.rules
        left = {m_id: speed for m_id in range(len(self.missiles))}
        missiles = self.missiles
        alive = [True] * len(missiles)
        for _ in range(speed):
            for i, m in enumerate(missiles):
                if not alive[i] or left[i] <= 0:
                    continue
                left[i] -= 1
                owner = m[2]
                victim = 1 - owner
                m[0] += 1 if owner == ME else -1
                x = m[0]
                if x == (r.half if owner == ME else r.half - 1) and self.curtain_left[victim] >= 0:
                    alive[i] = False
                    continue
                if x < 0 or x >= r.width:
                    self._hit_base(owner, damage)
                    alive[i] = False
                    continue
                b = self.buildings.get((x, m[1]))
                if b is not None and b[0] == victim and b[3] <= -1 and b[2] > 0:
                    self._damage(owner, b, damage)
                    alive[i] = False
        self.missiles = [m for i, m in enumerate(missiles) if alive[i]]

    # -- evaluation -----------------------------------------------------------------------------------

    def value(self) -> float:
        """How good this future is for us: positive = ahead."""
        total = (self.score[ME] - self.score[THEM]) + W_HEALTH * (self.health[ME] - self.health[THEM])
        total += W_ENERGY * (self.energy[ME] - self.energy[THEM])
        for b in self.buildings.values():
            worth = BUILDING_VALUE[b[1]] + b[2]
            total += worth if b[0] == ME else -worth
        return total


def candidate_moves(world: World) -> list[tuple[int, int, int] | None]:
    """A short list of sensible legal moves; None means do nothing."""
    r = world.rules
    moves: list[tuple[int, int, int] | None] = [None]
    for y in range(r.height):
        free = [x for x in range(r.half) if (x, y) not in world.buildings]
        if not free:
            continue
        back, front = free[0], free[-1]
        for x, kind in ((back, ENERGY), (back, ATTACK), (front, DEFENSE)):
            if world.can_build(x, y, kind):
                moves.append((x, y, kind))
        for x in (
            r.half - 2,
            r.half - 1,
        ):  # teslas reach 9 columns: from here, the whole enemy half
            if world.can_build(x, y, TESLA):
                moves.append((x, y, TESLA))
    if world.can_use_iron_curtain():
        moves.append((0, 0, IRON_CURTAIN))
    return moves


def choose_move(state: dict) -> tuple[int, int, int] | None:
    rules = Rules(state)
    world = World.from_state(state, rules)
    ids = "".join(m["id"] for row in state["gameMap"] for cell in row for m in cell["missiles"])
    rng = random.Random(zlib.crc32(ids.encode()) ^ world.round)
    horizon = min(HORIZON, rules.max_rounds + 1 - world.round)
    best, best_value = None, None
    for move in candidate_moves(world):
        future = world.copy()
        future.play(move)
        for _ in range(horizon - 1):
            if future.health[ME] <= 0 or future.health[THEM] <= 0:
                break
            future.play(None)
        value = future.value() + rng.random()  # the noise only breaks ties
        if best_value is None or value > best_value:
            best, best_value = move, value
    return best


def decide(state: dict) -> str:
    """The command line for this state ("" = do nothing)."""
    move = choose_move(state)
    return "" if move is None else "{},{},{}".format(*move)


def main() -> None:
    with open("state.json", encoding="utf-8") as f:
        command = decide(json.load(f))
    with open("command.txt", "w", encoding="utf-8") as f:
        f.write(command)


if __name__ == "__main__":
    main()
