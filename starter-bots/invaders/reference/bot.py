"""Invaders reference bot (Python 3, standard library only): a stronger player for either side.

Same protocol as the starter bot (one JSON request line in, one JSON answer line out, per turn); the request
says which side to play. Written to beat the starter bots (tests/games/invaders/test_invaders_reference_bot.py).

Defender: a stun lock on cell 0. Two stunners of power 2 (one at cell 0, one at cell 1 with range 1) take turns
(power P stuns for P turns and rests P + 1) so that the invader standing in cell 0 never moves; while it
stands there no other invader can spawn (spec 4 I). The 50 starting gold buys exactly that by turn 5. When an
invader comes with stun resistance, the stunners' power is raised above it; spare gold builds a turret wall
at the far end (never near cell 0: killing the locked invader would free the cell).

Invader: bursts. Turrets shoot only the farthest invader in range, so invaders packed in a queue share the
hits, and the leader of a queue takes the most. It saves until it can pay for a burst of three, then spawns
on consecutive turns: a leader with the whole boost cap, two followers with a tenth of its extra hit points.
Each carries enough stun resistance to shrug off the strongest stunner (it does not spawn while it cannot)
and defense up to the strongest tower's power minus one (so each hit does 1 damage).
"""

import json
import sys

BOARD = 100
BUILD_COST = UPGRADE_COST = 10
BASE_COST = 10
DEF_COST = RES_COST = 10


def towers_of(state, kind=None):
    return [t for t in state["towerSlots"] if t is not None and (kind is None or t["type"] == kind)]


class Defender:
    """A stun lock on cell 0, then a turret wall at the far end."""

    LOCK = ((0, 0), (1, 1))  # (cell, range) of the two stunners, both covering invader cell 0

    def __init__(self):
        self.wall_next = BOARD - 1

    def act(self, state):
        gold = state["defenderGold"]
        if gold < BUILD_COST:
            return None
        towers = state["towerSlots"]
        for pos, _ in self.LOCK:
            if towers[pos] is None:
                return {"action": "build", "type": "stunner", "pos": pos}
        # a stun of power P - stunRes must last 2 turns for two stunners to alternate without a gap
        resist = max((i["stunRes"] for i in state["invaderSlots"][:3] if i is not None), default=0)
        for pos, reach in self.LOCK:
            tower = towers[pos]
            if tower["type"] != "stunner":
                return {"action": "destroy", "pos": pos}
            if tower["power"] < resist + 2 and not self._holding(state):
                return {"action": "upgrade", "pos": pos, "stat": "power"}
            if tower["range"] < reach:
                return {"action": "upgrade", "pos": pos, "stat": "range"}
        return self._wall(state, towers)

    @staticmethod
    def _holding(state):
        """Whether the lock holds now: an upgrade would reset the stunner's cooldown and break it."""
        first = state["invaderSlots"][0]
        return first is not None and first["stunTime"] > 0

    def _wall(self, state, towers):
        while self.wall_next >= 10 and towers[self.wall_next] is not None:
            self.wall_next -= 1
        if self.wall_next >= 10:
            return {"action": "build", "type": "turret", "pos": self.wall_next}
        turrets = towers_of(state, "turret")
        if not turrets:
            return None
        weakest = min(turrets, key=lambda t: (t["range"], -t["pos"]))
        return {"action": "upgrade", "pos": weakest["pos"], "stat": "range"}


class Invader:
    """Bursts of packed invaders, each resisting the strongest stunner and shrugging off turret power."""

    BURST = 3  # invaders per burst and the followers' share of the leader's hit points: tuned against the
    FOLLOWER = 0.1  # starter defender (larger bursts lose too much to the hoarding penalty while saving)

    def __init__(self):
        self.left_in_burst = 0

    def design(self, state):
        """(hp, defense, stunRes) within the boost cap."""
        cap = state["invaderBoostMax"]
        towers = towers_of(state)
        stun = max((t["power"] for t in towers if t["type"] == "stunner"), default=0)
        power = max((t["power"] for t in towers if t["type"] != "stunner"), default=1)
        stun_res = min(stun, cap)
        defense = min(max(power - 1, 0), cap - stun_res)
        return cap - stun_res - defense, defense, stun_res

    def act(self, state):
        if state["invaderSlots"][0] is not None:
            return None  # a spawn into an occupied cell 0 is refused
        hp, defense, stun_res = self.design(state)
        if stun_res < max((t["power"] for t in towers_of(state, "stunner")), default=0):
            return None  # it would be stun-locked in cell 0: wait for the boost cap to grow
        gold = state["invaderGold"]
        fixed = BASE_COST + DEF_COST * defense + RES_COST * stun_res
        if self.left_in_burst == 0:
            # the leader takes most hits; the followers behind it need a fraction of its hit points
            if gold < fixed + hp + (self.BURST - 1) * (fixed + int(hp * self.FOLLOWER)):
                return None
            self.left_in_burst = self.BURST
        else:
            hp = int(hp * self.FOLLOWER)
        if gold < fixed + hp:
            self.left_in_burst = 0
            return None
        self.left_in_burst -= 1
        return {"hp": hp, "defense": defense, "stunRes": stun_res}


def main():
    players = {"defender": Defender(), "invader": Invader()}
    for line in sys.stdin:
        request = json.loads(line)
        action = players[request["side"]].act(request["state"])
        sys.stdout.write(json.dumps(action) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
