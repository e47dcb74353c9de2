"""The benchmark's in-process player as an agent file: a uniformly random action among those the mask allows.

benchmarks/api.py plays it through `parallel_env` and, wrapped by `runner.api.write_bot`, as a bot process per
turn: the same player in the same kind of game both ways. A per-turn bot is a new process each round, so the
generator is seeded from the observation (round and energy) to keep the function pure.
"""

import random


def agent(observation):
    me = next(p for p in observation["players"] if p["playerType"] == "A")  # every bot sees itself as A
    chooser = random.Random(observation["gameDetails"]["round"] * 100_003 + me["energy"])
    return int(chooser.choice(observation["action_mask"].nonzero()[0]))
