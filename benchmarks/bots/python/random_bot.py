"""The fastest honest Python bot for random masked games: standard library only, no runner.api, no numpy.

Each turn it reads state.json, lists the moves the rules accept (a building it can afford on a free cell of its
half, at most two teslas, deconstruct on a built cell; the iron curtain is left out), picks one at random
(do nothing among them) and writes command.txt. benchmarks/api.py uses it as the lower bound of what the same
games cost through bot processes.
"""

import json
import random

with open("state.json", encoding="utf-8") as handle:
    state = json.load(handle)
details = state["gameDetails"]
me = next(p for p in state["players"] if p["playerType"] == "A")  # every bot sees itself as A
half = details["mapWidth"] // 2
teslas = 0
built = set()
for row in state["gameMap"]:
    for cell in row[:half]:
        for building in cell["buildings"]:
            built.add((cell["x"], cell["y"]))
            teslas += building["buildingType"] == "TESLA"
kinds = [kind for kind, name in ((0, "DEFENSE"), (1, "ATTACK"), (2, "ENERGY"), (4, "TESLA"))
         if me["energy"] >= details["buildingPrices"][name] and (name != "TESLA" or teslas < 2)]
moves = [""]
for y in range(details["mapHeight"]):
    for x in range(half):
        moves += [f"{x},{y},3"] if (x, y) in built else [f"{x},{y},{kind}" for kind in kinds]
command = random.Random(details["round"] * 100_003 + me["energy"]).choice(moves)
if command:
    with open("command.txt", "w", encoding="utf-8") as handle:
        handle.write(command)
