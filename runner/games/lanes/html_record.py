"""The compact record of a Lanes log for the HTML replay (runner/replay/record.py has its shape).

One frame per played turn, showing the turn's end: both lanes' towers with their HP after the battle (and
the per-seat numbers then), the soldiers each player deployed that turn (where they entered the opponent's lane) and the turn's 100 timesteps in summary (spec 11
`steps`: soldiers on each lane, each lane's tower HP, both HPs and both purses after every timestep):
`{"t": [[type, col, row, hp, ...] lane 1, [...] lane 2], "d": [[col, count, ...] lane 1, [...] lane 2],
"s": [[...8 numbers] per timestep]}`; type indexes `board["units"]`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from runner.games.lanes.logs import ANSWER, OUTPUT, replay
from runner.games.lanes.protocol.trace import RESULT_NAMES
from runner.games.lanes.rules.state import GameState
from runner.games.lanes.rules.turn import decide
from runner.games.lanes.session import SEATS
from runner.replay.record import RecordBuilder

STATS = ("hp", "money", "towers", "soldiers")
BOARD_JS = Path(__file__).with_name("html_board.js")


def _names(path: Path) -> dict[str, str]:
    import json

    try:
        match = json.loads((Path(path) / "match.json").read_text(encoding="utf-8"))
        found = {p["seat"]: p["name"] for p in match.get("players") or []}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        found = {}
    return {seat: found.get(seat, seat) for seat in SEATS}


def _towers(state: GameState, units: list[str]) -> list[list[int]]:
    return [[value for t in lane for value in (units.index(t.type), t.col, t.row, t.hp)] for lane in state.towers]


def _deployed(after: GameState | None) -> list[list[int]]:
    """Per lane, [col, count, ...] of the soldiers that entered it (lane i is attacked by player 1 - i)."""
    lanes: list[list[int]] = [[], []]
    if after is None or after.last_turn is None:
        return lanes
    for player, schedule in enumerate(after.last_turn.deployments):
        columns: dict[int, int] = {}
        for entry in schedule:
            columns[entry.col] = columns.get(entry.col, 0) + 1
        lanes[1 - player] = [value for col in sorted(columns) for value in (col, columns[col])]
    return lanes


def _ruling(rejected: list[str], commands: list[str] | None) -> tuple[str, str]:
    faults = [line[4:] for line in rejected if line.startswith("E01 ")]
    if faults:
        text = "; ".join(faults)
        return ("timeout" if "time" in text.lower() else "crash" if "crash" in text.lower() or "exit" in text.lower()
                else "none"), text
    if rejected:
        return "invalid", "; ".join(rejected)
    if not commands or len(commands) <= 2:  # just TURN n / END
        return "none", "no orders"
    return "ok", "every order accepted"


def html_record(path: Path) -> dict[str, Any]:
    opened = replay(Path(path))
    log, config = opened.log, opened.log.config
    units = list(config.units)
    names = _names(path)
    builder = RecordBuilder("lanes", "Lanes", [(seat, names[seat]) for seat in SEATS], STATS)
    logged = {turn.turn: turn for turn in log.turns}
    turns = sorted(opened.frames)
    played = [turn for turn in turns if opened.frames[turn][1] is not None] or turns[:1]
    for turn in played:  # a frame is a played turn: its orders and what came of them
        state, record = opened.frames[turn]
        after = opened.frames.get(turn + 1, (state, None))[0] if record is not None else state
        files = logged[turn].seat_files if turn in logged else {}
        commands, rulings, outputs = [], [], []
        for p, seat in enumerate(SEATS):
            if record is None:
                commands.append("")
                rulings.append(("none", "no turn played"))
                outputs.append("")
                continue
            text = files.get(seat, {}).get(ANSWER)
            commands.append(text if text is not None else "\n".join(record["commands"][p]))
            rulings.append(_ruling(record["rejected"][p], record["commands"][p]))
            outputs.append(files.get(seat, {}).get(OUTPUT, ""))
            if rulings[-1][0] not in ("ok", "none"):
                builder.mark(turn, rulings[-1][0], f"{names[seat]}: {rulings[-1][1]}")
            if record["towers_lost"][p]:
                builder.mark(turn, "destroyed", f"{names[seat]} lost {record['towers_lost'][p]} tower(s)")
        builder.add(
            turn,
            [[player.hp for player in after.players], [player.money for player in after.players],
             [len(lane) for lane in after.towers], [sum(player.soldiers.values()) for player in after.players]],
            commands, rulings, outputs,
            {"t": _towers(after, units), "d": _deployed(after if record is not None else None),
             "s": record["steps"] if record else []},
        )
    final_state = opened.frames[turns[-1]][0]
    result = decide(config, final_state)
    if result is not None:
        builder.mark(played[-1], "end", f"result: {RESULT_NAMES[result.winner]}")
    board = {
        "width": config.width, "rows": config.rows, "units": units,
        "letters": [config.units[name].letter for name in units],
        "max_hp": [config.units[name].hp for name in units],
        "timesteps": config.timesteps,
    }
    return builder.build(board)


def board_js() -> str:
    return BOARD_JS.read_text(encoding="utf-8")
