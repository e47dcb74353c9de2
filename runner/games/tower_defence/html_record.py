"""The compact record of a Tower Defence log for the HTML replay (runner/replay/record.py has its shape).

Each frame is the state at the start of a round as the log's `JsonMap.json` (A's view) gives it, with the
commands both players sent after seeing it, the engine's ruling on them (errors come from replaying the
recorded commands, as in the terminal replay) and their bot output. Per frame the board is
`{"b": [x, y, type, health, construction_left, ...], "m": [x, y, owner, ...], "c": [curtain A, curtain B]}`:
building owners follow from the half they stand in, type indexes `board["types"]`, owners 0 (A) and 1 (B).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from runner.games.tower_defence.engine.state import PLAYERS
from runner.games.tower_defence.logs.layout import JSON_MAP, PLAYER_COMMAND, open_match_log
from runner.logtools.replay import RecordReplay, replay_log
from runner.replay.assemble import record_of
from runner.replay.source import Replayed, SeatTurn, Turn

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


def _numbers(state: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Each seat's numbers (PLAYERS order)."""
    by_seat = {p.get("playerType"): p for p in (state or {}).get("players") or []}
    return [{name: by_seat.get(seat, {}).get(name) for name in STATS} for seat in PLAYERS]


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


def _turns(log, replay: RecordReplay, final: str | None, size: list[int]) -> Iterator[Turn]:
    """Each round's numbers, rulings and board; `size` gets the board's width and height as the states say."""
    before: dict = {}
    curtains_before = [False, False]
    last_commands: dict[str, str | None] = {}
    for number in log.rounds:
        state = _state(log, number)
        details = (state or {}).get("gameDetails") or {}
        if not size and details.get("mapWidth"):
            size[:] = [details["mapWidth"], details.get("mapHeight") or 8]
        buildings, missiles, curtains, where = _board(state)
        played = not (number == log.final_round and final is not None)
        report = replay.frames[number].report if number in replay.frames else None
        errors = report.events if report is not None else ()
        commands = {seat: log.player_file(number, seat, PLAYER_COMMAND) for seat in PLAYERS}
        marks = []
        if state is not None:
            marks += [("destroyed", f"{owner}'s {kind.lower()} at {x},{y} destroyed")
                      for (x, y), (owner, kind) in before.items()
                      if (x, y) not in where and (last_commands.get(owner) or "").strip() != f"{x},{y},3"]
            # round 0's state says both curtains are up (lifetime 0, an official quirk): no marker there
            marks += [("curtain", f"{seat}'s iron curtain is up") for p, seat in enumerate(PLAYERS)
                      if curtains[p] and not curtains_before[p] and number > 0]
            before, curtains_before = where, curtains
        last_commands = commands
        if final is not None and number == log.final_round:
            marks.append(("end", final.strip().splitlines()[0] if final.strip() else "game over"))
        seats = [SeatTurn(_ruling(seat, commands[seat], errors, played), None if played else "") for seat in PLAYERS]
        yield Turn(number, seats, _numbers(state), {"b": buildings, "m": missiles, "c": curtains}, marks)


def html_record(path: Path) -> dict[str, Any]:
    from runner.games.tower_defence import GAME

    log = open_match_log(path)
    replay = replay_log(GAME, path)
    final = log.end_game_state()
    size: list[int] = []  # the board's width and height, from the first state that gives them
    result = " ".join(line.strip() for line in (final or "").strip().splitlines()[:3])

    def note() -> str:
        return "" if replay.parted is None else (
            f"our engine's replay differs from this log from round {replay.parted[0]} on: the rulings shown "
            "may be wrong")

    return record_of(path, Replayed(
        "tower-defence", "Tower Defence", PLAYERS, STATS, _turns(log, replay, final, size),
        lambda: {"width": (size or [16, 8])[0], "height": (size or [16, 8])[1], "types": list(TYPES)},
        turn_word="Round", names=dict(log.player_dirs), result=result, note=note, max_bytes=MAX_BYTES))


def board_js() -> str:
    return BOARD_JS.read_text(encoding="utf-8")
