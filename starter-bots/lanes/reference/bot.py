"""Lanes reference bot: a stronger opponent for testing bots (Python 3, standard library only).

Defence: two walls of six blockades (rows 12 and 9, their free cells at opposite ends) so every column
is blocked at least once, a second blocker in the columns a horse could jump through, and a row of
missiles, rockets and a frost tower on row 11 covering the cells where attackers stall (row 13 and
(6,10)). Destroyed pieces are rebuilt first, in that order, every turn.
Attack: all remaining money goes into horses (speed 2: fewest timesteps in tower range; they jump a
single tower), and every horse owned is sent as one group at timestep 1 down the column the
opponent's towers cover least.
"""

from __future__ import annotations

import json
import os

# (tower, col, row) in the order they are (re)built
DEFENCE = (
    [("blockade", col, 12) for col in range(6)]
    + [("blockade", col, 9) for col in range(1, 7)]
    + [("blockade", 6, 8), ("rocket", 1, 11), ("rocket", 4, 11), ("frost", 3, 11)]
    + [("missile", 0, 11), ("missile", 2, 11), ("missile", 5, 11)]
)


def column_danger(state: dict, col: int) -> int:
    """How much the opponent's towers can hurt a group walking down `col` (damage x rows in range)."""
    units, rows = state["units"], state["board"]["rows"]
    danger = 0
    for tower in state["opponent"]["towers"]:
        stats = units[tower["type"]]
        if tower["col"] == col:
            danger += tower["hp"]  # it must be broken (or jumped) before the group passes
        if abs(tower["col"] - col) <= stats["range"]:
            low, high = max(0, tower["row"] - stats["range"]), min(rows - 1, tower["row"] + stats["range"])
            danger += stats["damage"] * (high - low + 1) * (3 if tower["type"] == "rocket" else 1)
    return danger


def decide(state: dict) -> list[str]:
    """The command lines for this turn (without TURN and END)."""
    units = state["units"]
    money = state["me"]["money"]
    taken = {(t["col"], t["row"]) for t in state["me"]["towers"]}
    per_row: dict[int, int] = {}
    for tower in state["me"]["towers"]:
        per_row[tower["row"]] = per_row.get(tower["row"], 0) + 1
    lines = []
    for tower, col, row in DEFENCE:
        cost = units[tower]["cost"]
        full = per_row.get(row, 0) >= state["board"]["max_towers_per_row"]
        if (col, row) in taken or full or cost > money:
            continue
        lines.append(f"BUILD {tower} {col} {row}")
        taken.add((col, row))
        per_row[row] = per_row.get(row, 0) + 1
        money -= cost
    recruits = money // units["horse"]["cost"]
    if recruits:
        lines.append(f"RECRUIT horse {recruits}")
    horses = state["me"]["soldiers"]["horse"] + recruits
    if horses:
        col = min(range(state["board"]["width"]), key=lambda c: (column_danger(state, c), abs(c - 3)))
        lines.append(f"DEPLOY horse 1 {col} {horses}")
    return lines


def main() -> None:
    with open("state.json", encoding="utf-8") as handle:
        state = json.load(handle)
    text = "\n".join([f"TURN {state['turn']}", *decide(state), "END"]) + "\n"
    with open("commands.txt.tmp", "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace("commands.txt.tmp", "commands.txt")


if __name__ == "__main__":
    main()
