"""A deterministic Invaders agent for either side, a pure function of the request (spec 18 actions)."""

import json


def agent(observation):
    state = observation["state"]
    turn = observation["turn"]
    if observation["side"] == "defender":
        if state["defenderGold"] < 10:
            return "null"
        pos = 99 - (turn % 10)
        if state["towerSlots"][pos] is None:
            return json.dumps({"action": "build", "type": "turret", "pos": pos})
        return json.dumps({"action": "upgrade", "pos": pos, "stat": "power" if turn % 2 else "range"})
    if state["invaderSlots"][0] is not None or state["invaderGold"] < 10 + state["invaderBoostMax"]:
        return "null"
    return json.dumps({"hp": state["invaderBoostMax"], "defense": 0, "stunRes": 0})
