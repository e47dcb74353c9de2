"""Lanes starter bot (Python 3, standard library only).

How a turn works (docs/rules/lanes.md, 'The bot protocol'):
  * The runner deletes commands.txt, writes map.txt and state.json into this folder, and starts this
    program with this folder as the working directory. You have 5 seconds.
  * state.json holds the turn number, both players' HP, all towers on both lanes, your money and your
    soldiers, a summary of the last turn, and the errors of your last command file.
  * Write commands.txt: "TURN <k>" first, "END" last, and between them any of
        BUILD <missile|rocket|frost|blockade> <col 0..6> <row 0..19>      (on your own lane)
        RECRUIT <shield|rifle|bomb|horse> [<count>]
        DEPLOY <soldier> <timestep 1..100> <col 0..6> [<count>] [advance|fire]   (on the opponent's lane)
    BUILD and RECRUIT are paid at once, in file order. One bad line rejects the whole file, and then
    you do nothing this turn: check money, free cells and the 6-towers-per-row rule yourself.
  * Soldiers you recruit are yours for good; each can be deployed once per turn. They walk from row 20
    towards row 0 and score there (the opponent loses 1 HP). Towers shoot soldiers in range.

This bot: on turn 1 it builds four missiles on row 3 (their range 2 covers every column), and every
turn it recruits rifles with half its money and sends all of its rifles, spread over the columns.
"""

from __future__ import annotations

import json
import os

DEFENCE = [("missile", 0, 3), ("missile", 2, 3), ("missile", 4, 3), ("missile", 6, 3)]


def decide(state: dict) -> list[str]:
    """The command lines for this turn (without TURN and END)."""
    lines = []
    money = state["me"]["money"]
    cost = state["units"]
    taken = {(t["col"], t["row"]) for t in state["me"]["towers"]}
    for tower, col, row in DEFENCE:  # rebuild any missile that was destroyed
        if (col, row) not in taken and money >= cost[tower]["cost"]:
            lines.append(f"BUILD {tower} {col} {row}")
            money -= cost[tower]["cost"]
    recruits = money // 2 // cost["rifle"]["cost"]
    if recruits:
        lines.append(f"RECRUIT rifle {recruits}")
    rifles = state["me"]["soldiers"]["rifle"] + recruits
    width = state["board"]["width"]
    for col in range(width):  # spread every rifle over the columns, all entering at timestep 1
        count = rifles // width + (1 if col < rifles % width else 0)
        if count:
            lines.append(f"DEPLOY rifle 1 {col} {count}")
    return lines


def main() -> None:
    with open("state.json", encoding="utf-8") as handle:
        state = json.load(handle)
    text = "\n".join([f"TURN {state['turn']}", *decide(state), "END"]) + "\n"
    with open("commands.txt.tmp", "w", encoding="utf-8") as handle:  # write, then rename: never half a file
        handle.write(text)
    os.replace("commands.txt.tmp", "commands.txt")


if __name__ == "__main__":
    main()
