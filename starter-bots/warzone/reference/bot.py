"""Warzone reference bot (Python 3, standard library only): a stronger opponent to test starter bots against.

Plan each turn, from `state.json`:

1. play a reinforcement card at once (its armies join this turn's pool);
2. pick targets: foreign territories next to ours, scored by how cheap they are and how much they help
   (finishing a continent, breaking an enemy's continent); neutral blockades are left alone unless cheap;
3. put the whole pool where it makes the best attack possible (one strong stack beats spread armies:
   battles kill 60% of attackers' count and 70% of defenders', so an attack needs about 1.7x the
   defenders, plus a margin, to win in one round);
4. attack every target a stack can take with that margin, largest stacks first; bomb the strongest enemy
   territory next to us when holding a bomb card; airlift the biggest idle interior stack to the front;
5. walk the other interior armies one step towards the nearest front.

All orders are legal against the state at the start of the turn; some may be skipped at execution time
(a source lost earlier in the turn), which costs nothing.
"""

import json
from collections import deque

MARGIN = 2  # armies beyond the expected need, so an attack rarely fails (failed attacks lose armies)


def needed(defenders):
    """Attackers that conquer `defenders` in one round with high probability (60% attacker kill rate)."""
    return int(defenders / 0.6 * 1.15) + MARGIN if defenders else 1


def distances_to_front(owned, neighbours, owner, me):
    """Steps from each owned territory to the nearest owned territory touching a foreign one."""
    distance, queue = {}, deque()
    for tid in owned:
        if any(owner[n] != me for n in neighbours[tid]):
            distance[tid] = 0
            queue.append(tid)
    while queue:
        tid = queue.popleft()
        for n in neighbours[tid]:
            if owner[n] == me and n not in distance:
                distance[n] = distance[tid] + 1
                queue.append(n)
    return distance


def choose_orders(state):
    """The order lines for this turn, from the parsed state.json."""
    me = state["you"]
    neighbours = {t["id"]: t["neighbours"] for t in state["map"]["territories"]}
    continent_of = {t["id"]: t["continent"] for t in state["map"]["territories"]}
    members = {c["id"]: c["territories"] for c in state["map"]["continents"]}
    bonus = {c["id"]: c["bonus"] for c in state["map"]["continents"]}
    owner = {square["id"]: square["owner"] for square in state["board"]}
    armies = {square["id"]: square["armies"] for square in state["board"]}
    owned = [tid for tid in owner if owner[tid] == me]
    if not owned:
        return []
    hand = state["me"]["hand"]
    pool = state["me"]["pool"]
    orders = []
    if hand["reinforcement"] > 0:
        orders.append("reinforce")
        pool += state["rules"]["reinforcement_card_armies"]

    def value(target):
        """How much taking `target` is worth, per army it costs."""
        cid = continent_of[target]
        group = members[cid]
        mine_after = sum(1 for t in group if owner[t] == me) + 1
        worth = 1.0 + 3.0 * mine_after / len(group)
        if mine_after == len(group):
            worth += 2.0 * max(bonus[cid], 1)  # completes a continent
        holder = owner[target]
        if holder not in (me, "neutral") and all(owner[t] == holder for t in group):
            worth += 1.5 * max(bonus[cid], 1)  # breaks an enemy continent
        if holder == "neutral":
            worth -= 1.0  # neutral land pays the same but never attacks us: less urgent
        return worth / needed(armies[target])

    # 3. deploy: the front territory with the best reachable target after adding the whole pool
    fronts = [tid for tid in owned if any(owner[n] != me for n in neighbours[tid])] or owned
    best = None
    for tid in fronts:
        for target in neighbours[tid]:
            if owner[target] != me and armies[tid] + pool >= needed(armies[target]):
                score = (value(target), armies[tid])
                if best is None or score > best[0]:
                    best = (score, tid)
    if best is None:  # nothing reachable this turn: build up where the enemy is weakest around us
        stack = max(fronts, key=lambda tid: (armies[tid], -tid))
    else:
        stack = best[1]
    if pool > 0:
        orders.append(f"deploy {pool} {stack}")
        armies[stack] += pool

    # 4. bomb the strongest enemy territory next to us
    if hand["bomb"] > 0:
        bombable = [t for t in owner if owner[t] not in (me, "neutral") and armies[t] >= 4
                    and any(owner[n] == me for n in neighbours[t])]
        if bombable:
            target = max(bombable, key=lambda t: (armies[t], -t))
            orders.append(f"bomb {target}")
            armies[target] //= 2

    # attacks: biggest stacks first, each takes the best targets it can afford with the margin
    claimed = set()
    for tid in sorted(fronts, key=lambda t: -armies[t]):
        targets = sorted((n for n in neighbours[tid] if owner[n] != me and n not in claimed),
                         key=lambda n: -value(n))
        for target in targets:
            cost = needed(armies[target])
            if armies[tid] >= cost:
                # a lone target next to nothing else of theirs: send everything; else keep the rest home
                send = armies[tid] if len(targets) == 1 else cost + armies[target] // 2
                send = min(send, armies[tid])
                orders.append(f"advance {send} {tid} {target}")
                armies[tid] -= send
                claimed.add(target)

    # 5. interior armies: airlift the biggest idle stack to the main stack, walk the rest towards a front
    distance = distances_to_front(owned, neighbours, owner, me)
    interior = [tid for tid in owned if distance.get(tid, 0) > 0 and armies[tid] > 0]
    if hand["airlift"] > 0 and interior:
        biggest = max(interior, key=lambda t: (armies[t], -t))
        if armies[biggest] >= 5 and biggest != stack:
            orders.append(f"airlift {armies[biggest]} {biggest} {stack}")
            armies[biggest] = 0
    for tid in owned:
        step = distance.get(tid)
        if step and armies[tid] > 0:
            closer = [n for n in neighbours[tid] if distance.get(n) == step - 1]
            if closer:
                orders.append(f"advance {armies[tid]} {tid} {max(closer, key=lambda n: (armies[n], -n))}")
    return orders


def main():
    with open("state.json", encoding="utf-8") as handle:
        state = json.load(handle)
    orders = choose_orders(state)
    with open("orders.txt", "w", encoding="utf-8") as handle:
        handle.write("".join(line + "\n" for line in orders))


if __name__ == "__main__":
    main()
