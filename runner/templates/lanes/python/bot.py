"""Lanes starter (td-runner new): reads state.json, writes commands.txt, once per turn.

The plan: a missile tower in front of the goal while money allows, and every owned rifle sent down one
column of the opponent's lane (a new column each turn). Costs are checked before a line is written, so the
file is never rejected. Your strategy goes in `orders`.
"""

import json
import os


def orders(state):
    """This turn's command lines, between TURN and END."""
    me = state["me"]
    money = me["money"]
    lines = []
    built = {(t["col"], t["row"]) for t in me["towers"]}
    free = [(col, 2) for col in range(1, 6) if (col, 2) not in built]
    if money >= 3 + 2 and free:  # a tower, and still enough for a rifle
        lines.append(f"BUILD missile {free[0][0]} {free[0][1]}")
        money -= 3
    rifles = me["soldiers"]["rifle"]
    if money >= 2:
        lines.append("RECRUIT rifle")
        rifles += 1
    if rifles:
        lines.append(f"DEPLOY rifle 1 {state['turn'] % 7} {rifles}")
    return lines


def main():
    with open("state.json", encoding="utf-8") as file:
        state = json.load(file)
    text = "\n".join([f"TURN {state['turn']}", *orders(state), "END"]) + "\n"
    with open("commands.txt.tmp", "w", encoding="utf-8") as out:
        out.write(text)
    os.replace("commands.txt.tmp", "commands.txt")  # the runner never sees half a file


if __name__ == "__main__":
    main()
