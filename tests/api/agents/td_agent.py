"""A deterministic Tower Defence agent: a pure function of its observation (so it plays the same as a per-turn
bot, which is a fresh process every round). Picks among the actions the mask allows, sometimes nothing."""

import numpy as np


def agent(observation):
    me = next(p for p in observation["players"] if p["playerType"] == "A")
    turn = observation["gameDetails"]["round"]
    if (turn + me["energy"]) % 4 == 0:
        return 0
    allowed = np.flatnonzero(observation["action_mask"])
    return int(allowed[(turn * 7919 + me["energy"] * 31 + me["health"]) % len(allowed)])


def stubborn(observation):
    """Always the same text command, accepted or not (exercises rejected commands and the do-nothing count)."""
    return "0,0,1" if observation["gameDetails"]["round"] % 5 else "no,command"
