"""Warzone persistent starter bot (Python 3, standard library only): one process for the whole match.

How a turn works (docs/rules/warzone.md, 'Persistent bots'):
  * bot.json says "persistent": true, so the runner starts this program once and keeps it running.
  * Each turn it writes on stdin a header line `turn <N> <F>`, then F files, each a line `<name> <size>`
    followed by exactly <size> bytes: state.json and state.txt, the files a per-turn bot finds.
  * The bot answers on stdout with a line `answer <N> <size>` followed by exactly <size> bytes: the text
    of orders.txt, one order a line, checked exactly as a per-turn bot's file. Print anything else to
    stderr: it goes to BotOutput.txt. Flush stdout after each answer. The first answer may take 10 s,
    every later one 2 s.
  * Orders: deploy COUNT TERRITORY, advance COUNT FROM TO, and the cards (bomb, blockade, airlift,
    negotiate, reinforce); docs/rules/warzone.md has them all.

Staying alive means memory: this bot picks one foreign territory next to its own, the weakest, and
remembers it until it owns it. Every turn it deploys its whole pool on its strongest territory next to
that target, attacks the target from there once it has more than twice the defenders, and walks every
other army one step closer to that staging territory.
"""

from __future__ import annotations

import json
import sys
from collections import deque

ATTACK_RATIO = 2


def read_request(stream) -> tuple[int, dict[str, str]] | None:
    """One turn's request: its number and its files by name; None when the runner closed stdin."""
    header = stream.readline()
    if not header:
        return None
    _, turn, count = header.split()
    files = {}
    for _ in range(int(count)):
        name, size = stream.readline().split()
        files[name.decode()] = stream.read(int(size)).decode("utf-8")
    return int(turn), files


def send_answer(stream, turn: int, text: str) -> None:
    data = text.encode("utf-8")
    stream.write(b"answer %d %d\n" % (turn, len(data)) + data)
    stream.flush()


class Bot:
    """What the bot remembers between turns: the territory it is after."""

    def __init__(self) -> None:
        self.target: int | None = None

    def decide(self, state: dict) -> list[str]:
        me = state["you"]
        neighbours = {t["id"]: t["neighbours"] for t in state["map"]["territories"]}
        owner = {square["id"]: square["owner"] for square in state["board"]}
        armies = {square["id"]: square["armies"] for square in state["board"]}
        owned = {tid for tid, seat in owner.items() if seat == me}
        if not owned:
            return []
        reachable = {n for tid in owned for n in neighbours[tid] if owner[n] != me}
        if self.target not in reachable:  # taken (or lost from sight): choose the weakest foreign neighbour
            self.target = min(reachable, key=lambda t: (armies[t], t), default=None)
        if self.target is None:
            return []
        stage = max((tid for tid in owned if self.target in neighbours[tid]), key=lambda t: (armies[t], -t))
        orders = []
        pool = state["me"]["pool"]
        if pool > 0:
            orders.append(f"deploy {pool} {stage}")
            armies[stage] += pool
        if armies[stage] > ATTACK_RATIO * armies[self.target]:
            orders.append(f"advance {armies[stage]} {stage} {self.target}")
        toward = {stage: stage}  # each owned territory's next step on a shortest path to the stage
        queue = deque([stage])
        while queue:
            tid = queue.popleft()
            for n in neighbours[tid]:
                if n in owned and n not in toward:
                    toward[n] = tid
                    queue.append(n)
        orders += [f"advance {armies[tid]} {tid} {toward[tid]}" for tid in sorted(owned)
                   if tid != stage and tid in toward and armies[tid] > 0]
        return orders


def main() -> None:
    bot = Bot()
    while (request := read_request(sys.stdin.buffer)) is not None:
        turn, files = request
        orders = bot.decide(json.loads(files["state.json"]))
        send_answer(sys.stdout.buffer, turn, "".join(f"{order}\n" for order in orders))


if __name__ == "__main__":
    main()
