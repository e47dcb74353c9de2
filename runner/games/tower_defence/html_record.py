"""The compact record of a Tower Defence log for the HTML replay (runner/replay/record.py has its shape).

Each frame is the state at the start of a round as the log's `JsonMap.json` (A's view) gives it, with the
commands both players sent after seeing it, the engine's ruling on them (errors come from replaying the
recorded commands, as in the terminal replay) and their bot output. Per frame the board is
`{"b": [x, y, type, health, construction_left, ...], "m": [x, y, owner, ...], "c": [curtain A, curtain B]}`:
building owners follow from the half they stand in, type indexes `board["types"]`, owners 0 (A) and 1 (B).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from runner.games.tower_defence.engine.state import PLAYERS, CommandOrder
from runner.games.tower_defence.logs.layout import BOT_OUTPUT, JSON_MAP, PLAYER_COMMAND, log_game_config, open_match_log
from runner.games.tower_defence.logs.replay import MatchReplay
from runner.games.tower_defence.logs.verify import recorded_order
from runner.replay.record import RecordBuilder

TYPES = ("DEFENSE", "ATTACK", "ENERGY", "TESLA")
STATS = ("health", "energy", "score")
#: A 401-round match must stay under 2 MB (issue 15); ours are about a quarter of that.
MAX_BYTES = 2_000_000
BOARD_JS = Path(__file__).with_name("html_board.js")


def _state(log, number: int) -> dict[str, Any] | None:
    for seat in PLAYERS:  # A's view first: A on the left, as the console map
        text = log.player_file(number, seat, JSON_MAP)
        if text:
            try:
                return json.loads(text)
            except ValueError:
                continue
    return None


def _board(state: dict[str, Any] | None) -> tuple[list[int], list[int], list[bool], dict]:
    """Buildings, missiles, curtains and {(x, y): (owner, type)} of one JsonMap.json."""
    buildings: list[int] = []
    missiles: list[int] = []
    where: dict[tuple[int, int], tuple[str, str]] = {}
    curtains = [False, False]
    if state is None:
        return buildings, missiles, curtains, where
    for row in state.get("gameMap") or []:
        for cell in row:
            for b in cell.get("buildings") or []:
                kind = b.get("buildingType")
                index = TYPES.index(kind) if kind in TYPES else 0
                buildings += [b["x"], b["y"], index, b.get("health", 0), max(0, b.get("constructionTimeLeft", 0))]
                where[(b["x"], b["y"])] = (b.get("playerType", "?"), kind)
            for m in cell.get("missiles") or []:
                missiles += [m["x"], m["y"], 0 if m.get("playerType") == "A" else 1]
    for p, player in enumerate((state.get("players") or [])[:2]):
        curtains[p] = bool(player.get("isIronCurtainActive", player.get("activeIronCurtainLifetime", -1) >= 0))
    return buildings, missiles, curtains, where


def _numbers(state: dict[str, Any] | None) -> list[list[Any]]:
    players = (state or {}).get("players") or []
    by_seat = {p.get("playerType"): p for p in players}
    return [[by_seat.get(seat, {}).get(name) for seat in PLAYERS] for name in STATS]


def _ruling(seat: str, command: str | None, errors: tuple[str, ...], played: bool) -> tuple[str, str]:
    if not played:
        return "out", "the match is over"
    mine = [error.split(": ", 1)[1] if ": " in error else error for error in errors
            if error.startswith(f"Player {seat}")]
    if mine:
        return "invalid", "; ".join(mine)
    if command is None:
        return "none", "no PlayerCommand.txt"
    if command.strip() in ("", "No Command"):
        return "none", "did nothing"
    return "ok", "accepted"


def html_record(path: Path) -> dict[str, Any]:
    log = open_match_log(path)
    config, _ = log_game_config(log)
    replay = MatchReplay(log, config, recorded_order(log) or CommandOrder.B_FIRST)
    final = log.end_game_state()
    names = dict(log.player_dirs)
    builder = RecordBuilder("tower-defence", "Tower Defence", [(seat, names[seat]) for seat in PLAYERS], STATS,
                            turn_word="Round")
    width = height = None
    before: dict = {}
    curtains_before = [False, False]
    last_commands: dict[str, str | None] = {}
    for number in log.rounds:
        state = _state(log, number)
        details = (state or {}).get("gameDetails") or {}
        width, height = width or details.get("mapWidth"), height or details.get("mapHeight")
        buildings, missiles, curtains, where = _board(state)
        played = not (number == log.final_round and final is not None)
        view = replay.round(number)
        commands = {seat: log.player_file(number, seat, PLAYER_COMMAND) for seat in PLAYERS}
        builder.add(
            number,
            _numbers(state),
            [commands[seat] if played else "" for seat in PLAYERS],
            [_ruling(seat, commands[seat], view.errors, played) for seat in PLAYERS],
            [log.player_file(number, seat, BOT_OUTPUT) for seat in PLAYERS],
            {"b": buildings, "m": missiles, "c": curtains},
        )
        if state is not None:
            for (x, y), (owner, kind) in before.items():
                if (x, y) not in where and (last_commands.get(owner) or "").strip() != f"{x},{y},3":
                    builder.mark(number, "destroyed", f"{owner}'s {kind.lower()} at {x},{y} destroyed")
            for p, seat in enumerate(PLAYERS):
                # round 0's state says both curtains are up (lifetime 0, an official quirk): no marker there
                if curtains[p] and not curtains_before[p] and number > 0:
                    builder.mark(number, "curtain", f"{seat}'s iron curtain is up")
            before, curtains_before = where, curtains
        last_commands = commands
        for error in view.errors:
            builder.mark(number, "invalid", error)
    if final is not None:
        builder.mark(log.final_round, "end", final.strip().splitlines()[0] if final.strip() else "game over")
    result = ""
    if final:
        result = " ".join(line.strip() for line in final.strip().splitlines()[:3])
    note = replay.diverged_at is not None and (
        f"our engine's replay differs from this log from round {replay.diverged_at} on: the rulings shown "
        "may be wrong") or ""
    board = {"width": width or 16, "height": height or 8, "types": list(TYPES)}
    return builder.build(board, result=result, note=note, max_bytes=MAX_BYTES)


def board_js() -> str:
    return BOARD_JS.read_text(encoding="utf-8")
