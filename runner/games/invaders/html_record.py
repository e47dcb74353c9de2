"""The compact record of an Invaders log (or spec 16 trace) for the HTML replay (runner/replay/record.py).

One frame per played turn: the 100-cell path after the turn as `[towers, invaders]`, where `towers` is a
100-character string (T turret, B bomb, S stunner, lower case while cooling down, `.` empty) and
`invaders` is flat `[pos, hp, maxhp, stun_time, ...]`. The per-seat numbers are life (shared), gold and
units on the path (towers; invaders). Bots run persistently, so the log keeps no bot output.
A 20,000-turn match is about 4 MB; the core thins longer ones to `MAX_BYTES`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from runner.games.invaders import logs
from runner.games.invaders.rules import constants as C
from runner.games.invaders.rules.turn import APPLIED, NO_ACTION
from runner.games.invaders.session import DEFENDER, INVADER, SEATS
from runner.replay.record import RecordBuilder

MAX_BYTES = 9_500_000  # issue 15: a 20,000-turn match under 10 MB
LETTERS = {C.TURRET: "T", C.BOMB: "B", C.STUNNER: "S"}
STATS = ("life", "gold", "units")
BOARD_JS = Path(__file__).with_name("html_board.js")
_ANSWER = {DEFENDER: ("da", "dr"), INVADER: ("ia", "ir")}


def _towers(row: dict[str, Any]) -> str:
    cells = ["."] * C.BOARD_LENGTH
    for pos, kind, _power, _range, cooldown, _level in row.get("tw") or []:
        letter = LETTERS.get(kind, "?")
        cells[pos] = letter.lower() if cooldown else letter
    return "".join(cells)


def _invaders(row: dict[str, Any]) -> list[Any]:
    flat: list[Any] = []
    for pos, hp, maxhp, _defense, _stun_res, stun_time in row.get("iv") or []:
        flat += [pos, hp, maxhp, stun_time]
    return flat


def _ruling(seat: str, row: dict[str, Any]) -> tuple[str, str]:
    fault = (row.get("faults") or {}).get(seat)
    if fault:
        kind = "timeout" if fault in ("timeout", "over_budget") else "crash"
        return kind, f"fault: {fault}" + ("; disqualified" if seat in (row.get("dq") or ()) else "")
    answer, result = (row.get(key) for key in _ANSWER[seat])
    if result == APPLIED:
        return "ok", "applied"
    if result in (NO_ACTION, None):
        return "none", "no action" if answer is None else "nothing to do"
    return "invalid", str(result)


def _names(path: Path) -> dict[str, str]:
    summary = logs.read_match_json(path) if Path(path).is_dir() else None
    found = {p.get("seat"): p.get("name") for p in (summary or {}).get("players") or []}
    return {seat: found.get(seat) or seat for seat in SEATS}


def html_record(path: Path) -> dict[str, Any]:
    names = _names(path)
    builder = RecordBuilder("invaders", "Invaders", [(seat, names[seat]) for seat in SEATS], STATS)
    last = None
    for row in logs.iter_rows(path):
        if not isinstance(row, dict) or "ia" not in row:  # a trace's turn-0 row: nothing played yet
            continue
        towers, invaders = _towers(row), _invaders(row)
        rulings = [_ruling(seat, row) for seat in SEATS]
        builder.add(
            row["t"],
            [[row["life"], row["life"]], [row["dg"], row["ig"]],
             [len(row.get("tw") or ()), len(row.get("iv") or ())]],
            [_command(row.get(_ANSWER[seat][0])) for seat in SEATS],
            rulings,
            ["", ""],
            [towers, invaders],
        )
        for seat, (kind, text) in zip(SEATS, rulings):
            if kind != "ok" and kind != "none":
                builder.mark(row["t"], kind, f"{names[seat]}: {text}")
        if last is not None and row.get("thru", 0) > last.get("thru", 0):
            builder.mark(row["t"], "breach", f"{row['thru'] - last.get('thru', 0)} invader(s) got through, "
                         f"life {row['life']}")
        if row.get("end"):
            builder.mark(row["t"], "end", "the defender's life reached 0")
        last = row
    if not builder.turns:
        from runner.errors import UserError

        raise UserError(f"{path}: no played turns in this log")
    return builder.build({"length": C.BOARD_LENGTH}, max_bytes=MAX_BYTES,
                         note="bots run persistently: the log keeps no bot output")


def _command(answer: Any) -> str:
    return "" if answer is None else json.dumps(answer, separators=(",", ":"))


def board_js() -> str:
    return BOARD_JS.read_text(encoding="utf-8")
