"""Tower Defence's board in the core's HTML replay (runner/replay/default.py: the record played through a session).

A frame is the state at the start of a round as A's state.json (the log's `JsonMap.json`) gives it, drawn
with the commands both players sent after seeing it: `{"b": [x, y, type, health, construction_left, ...],
"m": [x, y, owner, ...], "c": [curtain A, curtain B]}`, type indexes `board["types"]`, owners 0 (A) and 1
(B). A round's markers are what it did: a building destroyed (not deconstructed), an iron curtain raised.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from runner.games.tower_defence.engine.state import PLAYERS
from runner.logtools.record import MatchRecord, RecordedTurn
from runner.replay.default import BoardView, Shown

TYPES = ("DEFENSE", "ATTACK", "ENERGY", "TESLA")


def _drawn(state: dict[str, Any]) -> tuple[dict[str, Any], dict[tuple[int, int], tuple[str, str]]]:
    """The frame of one state.json, and {(x, y): (owner, type)} of its buildings."""
    buildings: list[int] = []
    missiles: list[int] = []
    where = {}
    for row in state.get("gameMap") or []:
        for cell in row:
            for b in cell.get("buildings") or []:
                kind = b.get("buildingType")
                buildings += [b["x"], b["y"], TYPES.index(kind) if kind in TYPES else 0, b.get("health", 0),
                              max(0, b.get("constructionTimeLeft", 0))]
                where[(b["x"], b["y"])] = (b.get("playerType", "?"), kind)
            missiles += [value for m in cell.get("missiles") or [] for value in
                         (m["x"], m["y"], 0 if m.get("playerType") == "A" else 1)]
    curtains = [bool(player.get("isIronCurtainActive")) for player in (state.get("players") or [])[:2]]
    return {"b": buildings, "m": missiles, "c": curtains}, where


def _turn(record: MatchRecord, session: Any, recorded: RecordedTurn, play: Any) -> Shown:
    frame, before = _drawn(session.observations()["A"])
    play()
    after, standing = _drawn(session.observations()["A"])
    sent = {seat: answer.text.strip() for seat, answer in recorded.answers.items()}
    marks = [("destroyed", f"{owner}'s {kind.lower()} at {x},{y} destroyed") for (x, y), (owner, kind)
             in before.items() if (x, y) not in standing and sent.get(owner) != f"{x},{y},3"]
    marks += [("curtain", f"{seat}'s iron curtain is up") for seat, was, now in zip(PLAYERS, frame["c"], after["c"])
              if now and not was]
    return frame, marks


VIEW = BoardView(Path(__file__).with_name("html_board.js"), lambda record, session: {
    "width": session.config.map_width, "height": session.config.map_height, "types": list(TYPES)}, _turn,
    end=lambda session: _drawn(session.observations()["A"])[0])

