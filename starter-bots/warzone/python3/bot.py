"""Warzone starter bot (Python 3, standard library only).

Every turn the runner writes `state.json` (and the same facts as lines in `state.txt`) into this folder,
starts this program with the folder as its working directory, and reads ALL of `orders.txt`, one order
per line (blank lines and `#` comments are ignored):

    deploy COUNT TERRITORY          put armies from your pool on a territory of yours
    advance COUNT FROM TO           move into your own neighbour, or attack any other neighbour
    bomb TERRITORY                  (bomb card) halve the armies of a non-own territory next to yours
    blockade TERRITORY              (blockade card) triple your territory's armies; it turns neutral
    airlift COUNT FROM TO           (airlift card) move between two of your territories, any distance
    negotiate SEAT                  (diplomacy card) no attacks or bombs between you two this turn
    reinforce                       (reinforcement card) +5 armies to this turn's pool

TERRITORY is an id (`3`) or a name (`"North Gate"`, quoted if it has spaces or is all digits).
All deploys run first, then everybody's other orders one at a time in round robin, so by the time your
order runs the board may have changed: an attack from a territory you lost is skipped, an advance into
a territory you just conquered is a plain move. Orders the runner rejects are listed in next turn's
`last_turn.rejected`, and cost nothing else. Put your own strategy in `choose_orders`.
"""

import json
from collections import deque

ATTACK_RATIO = 2  # attack only with more than twice the defenders (battles are 60% vs 70% per army)


def fronts_distance(owned, neighbours, owner):
    """Steps from each owned territory to the nearest one that touches a territory not ours."""
    distance = {}
    queue = deque()
    for tid in owned:
        if any(owner[n] != owner[tid] for n in neighbours[tid]):
            distance[tid] = 0
            queue.append(tid)
    while queue:
        tid = queue.popleft()
        for n in neighbours[tid]:
            if n in owned and n not in distance:
                distance[n] = distance[tid] + 1
                queue.append(n)
    return distance


def choose_orders(state):
    """The order lines for this turn, from the parsed state.json."""
    me = state["you"]
    neighbours = {t["id"]: t["neighbours"] for t in state["map"]["territories"]}
    owner = {square["id"]: square["owner"] for square in state["board"]}
    armies = {square["id"]: square["armies"] for square in state["board"]}
    owned = sorted(tid for tid in owner if owner[tid] == me)
    if not owned:
        return []
    hand = state["me"]["hand"]
    pool = state["me"]["pool"]
    orders = []
    if hand["reinforcement"] > 0:
        orders.append("reinforce")
        pool += state["rules"]["reinforcement_card_armies"]

    distance = fronts_distance(set(owned), neighbours, owner)
    fronts = [tid for tid in owned if distance.get(tid) == 0] or owned
    if pool > 0:  # everything on the strongest front territory
        target = max(fronts, key=lambda tid: (armies[tid], -tid))
        orders.append(f"deploy {pool} {target}")
        armies[target] += pool

    enemies = [tid for tid in owner if owner[tid] not in (me, "neutral")]
    if hand["bomb"] > 0:
        bombable = [t for t in enemies if any(owner[n] == me for n in neighbours[t]) and armies[t] > 1]
        if bombable:
            orders.append(f"bomb {max(bombable, key=lambda t: (armies[t], -t))}")

    for tid in fronts:  # attack the weakest foreign neighbour we clearly outnumber
        targets = [n for n in neighbours[tid] if owner[n] != me]
        if not targets or armies[tid] == 0:
            continue
        weakest = min(targets, key=lambda n: (armies[n], n))
        if armies[tid] > ATTACK_RATIO * armies[weakest]:
            orders.append(f"advance {armies[tid]} {tid} {weakest}")
    for tid in owned:  # bring idle armies one step closer to the front
        step = distance.get(tid)
        if step and armies[tid] > 0:
            closer = min((n for n in neighbours[tid] if distance.get(n) == step - 1), default=None)
            if closer is not None:
                orders.append(f"advance {armies[tid]} {tid} {closer}")
    return orders


def main():
    with open("state.json", encoding="utf-8") as handle:
        state = json.load(handle)
    orders = choose_orders(state)
    with open("orders.txt", "w", encoding="utf-8") as handle:
        handle.write("".join(line + "\n" for line in orders))


if __name__ == "__main__":
    main()
