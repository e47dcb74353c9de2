"""Invaders starter bot (Python 3, standard library only): plays either side, one process per match.

Each turn the runner writes one line to stdin and waits for one line on stdout:

    in:  {"turn": T, "side": "defender" | "invader", "state": {...}}
    out: an action as JSON, or null to do nothing

Defender actions: {"action": "build", "type": "turret" | "bomb" | "stunner", "pos": 0..99},
{"action": "upgrade", "pos": P, "stat": "power" | "range"}, {"action": "destroy", "pos": P}.
Invader action: {"hp": H, "defense": D, "stunRes": S} (whole numbers >= 0; costs 10 + H + 10D + 10S gold,
and H + D + S may not exceed invaderBoostMax), or null.

Rules of the protocol: print exactly one line per request and flush it; anything else you want to see goes
to stderr. A crash, a line that is not JSON or a slow answer disqualifies the bot. Keep any memory in this
process (the `Defender` / `Invader` objects live for the whole match).
"""

import json
import sys

BUILD_COST = 10
UPGRADE_COST = 10
BASE_COST = 10
DEF_COST = 10


class Defender:
    """Walls the far end of the path with turrets, then upgrades their power from the back."""

    def __init__(self):
        self.wall = list(range(99, 89, -1))  # where turrets go, farthest first
        self.next_upgrade = 0

    def act(self, state):
        if state["defenderGold"] < BUILD_COST:
            return None
        towers = state["towerSlots"]
        for pos in self.wall:
            if towers[pos] is None:
                return {"action": "build", "type": "turret", "pos": pos}
        pos = self.wall[self.next_upgrade % len(self.wall)]
        self.next_upgrade += 1
        return {"action": "upgrade", "pos": pos, "stat": "power"}


class Invader:
    """Spends every boost point, a defense point first (turret damage is power - defense, at least 1)."""

    def act(self, state):
        if state["invaderSlots"][0] is not None:
            return None  # a spawn into an occupied cell 0 is refused
        cap = state["invaderBoostMax"]
        defense = 1 if cap >= 1 else 0
        hp = cap - defense
        if state["invaderGold"] < BASE_COST + hp + DEF_COST * defense:
            return None
        return {"hp": hp, "defense": defense, "stunRes": 0}


def main():
    players = {"defender": Defender(), "invader": Invader()}
    for line in sys.stdin:
        request = json.loads(line)
        action = players[request["side"]].act(request["state"])
        sys.stdout.write(json.dumps(action) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
