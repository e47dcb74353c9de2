"""Lanes persistent starter bot (Python 3, standard library only): one process for the whole match.

How a turn works (docs/rules/lanes.md, 'Persistent bots'):
  * bot.json says "persistent": true, so the runner starts this program once and keeps it running.
  * Each turn it writes on stdin a header line `turn <N> <F>`, then F files, each a line `<name> <size>`
    followed by exactly <size> bytes: map.txt, errors.txt and state.json, the files a per-turn bot finds.
  * The bot answers on stdout with a line `answer <N> <size>` followed by exactly <size> bytes: the text
    of commands.txt ("TURN <k>" first, "END" last), checked exactly as a per-turn bot's file. Print
    anything else to stderr (or as whole stdout lines that do not start with `answer`): it goes to
    BotOutput.txt. Flush stdout after each answer. The first answer may take 10 s, every later one 5 s.
  * The commands: BUILD <tower> <col> <row> (own lane, rows 0..19, at most 6 towers a row), RECRUIT
    <soldier> [<count>], DEPLOY <soldier> <timestep> <col> [<count>] [advance|fire]; one bad line
    rejects the whole file.

Staying alive means memory: this bot counts where the opponent sent its soldiers over the whole match,
builds one missile a turn (with at most half its money) in the column it attacked most, recruits rifles
with the rest, and sends every rifle down the column of the opponent's lane that the fewest of its
towers can reach.
"""

from __future__ import annotations

import json
import sys

TOWER = "missile"
SOLDIER = "rifle"
MAX_COUNT = 1000  # a DEPLOY line's count is 1..1000


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
    """What the bot remembers between turns: how many enemy soldiers came down each column so far."""

    def __init__(self) -> None:
        self.pressure: list[int] | None = None

    def decide(self, state: dict) -> list[str]:
        """The command lines for this turn (without TURN and END)."""
        width, top_row = state["board"]["width"], state["board"]["max_build_row"]
        per_row = state["board"]["max_towers_per_row"]
        if self.pressure is None:
            self.pressure = [0] * width
        for _, col, _ in (state["last_turn"] or {}).get("opponent_deployments", ()):
            self.pressure[col] += 1
        units, money = state["units"], state["me"]["money"]
        lines = []
        mine = {(t["col"], t["row"]) for t in state["me"]["towers"]}
        if money // 2 >= units[TOWER]["cost"]:  # one missile, in the most attacked column, lowest free row
            col = max(range(width), key=lambda c: (self.pressure[c], -abs(c - width // 2)))
            row = next((r for r in range(1, top_row + 1) if (col, r) not in mine
                        and sum(1 for c, r2 in mine if r2 == r) < per_row), None)
            if row is not None:
                lines.append(f"BUILD {TOWER} {col} {row}")
                money -= units[TOWER]["cost"]
        recruits = min(money // units[SOLDIER]["cost"], MAX_COUNT)
        if recruits:
            lines.append(f"RECRUIT {SOLDIER} {recruits}")
        reach = units[TOWER]["range"]
        enemy = [t["col"] for t in state["opponent"]["towers"]]
        target = min(range(width), key=lambda c: (sum(1 for t in enemy if abs(t - c) <= reach), c))
        left = state["me"]["soldiers"][SOLDIER] + recruits
        timestep = 1
        while left > 0:  # every rifle, in lines of at most 1000, a timestep apart
            lines.append(f"DEPLOY {SOLDIER} {timestep} {target} {min(left, MAX_COUNT)}")
            left -= MAX_COUNT
            timestep += 1
        return lines


def main() -> None:
    bot = Bot()
    while (request := read_request(sys.stdin.buffer)) is not None:
        turn, files = request
        state = json.loads(files["state.json"])
        send_answer(sys.stdout.buffer, turn, "\n".join([f"TURN {state['turn']}", *bot.decide(state), "END"]) + "\n")


if __name__ == "__main__":
    main()
