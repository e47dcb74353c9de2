"""Warzone's board in the core's HTML replay (runner/replay/default.py: the record played through a session).

The board is the log's `map.map` drawn at the file's own coordinates when they are usable, else at a seeded
force-directed layout of the border graph (layout.py says what "usable" means and how the layout works;
computed here, once per record, so the page only scales it):
`board = {"territories": [[id, name, continent, x, y], ...], "edges": [[a, b], ...], "continents": [...]}`.
A frame is the board at the start of a turn and the turn's attacks:
`{"o": [owner seat index or -1, armies, ...] per territory, "a": [from, to, conquered, ...]}`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from runner.games.warzone.layout import layout, usable
from runner.games.warzone.loading import read_map
from runner.games.warzone.logs import EVENTS_FILE, MAP_FILE
from runner.games.warzone.protocol.event_text import render_event
from runner.logtools.record import MatchRecord
from runner.replay.default import BoardView, Shown

#: the layout's seed for a map without usable coordinates: fixed, so a map always looks the same
LAYOUT_SEED = 0


def _coordinates(lines: list[str], line: int) -> tuple[float, float] | None:
    """x, y of a territory from its map line (Domination `id name continent x y`, Conquest `name,x,y,...`)."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    pair = text.split(",")[1:3] if "," in text else text.split()[3:5]
    try:
        return float(pair[0]), float(pair[1])
    except (ValueError, IndexError):
        return None


def board(folder: Path, warmap: Any) -> dict[str, Any]:
    """The drawing's board: `warmap` (the session's) at the coordinates of the log's map.map, else laid out."""
    data, _ = read_map(folder / MAP_FILE, lenient=True, default_name=warmap.name)
    lines = data.decode("utf-8", errors="replace").splitlines()  # once: a 5,000-territory map has 5,000 lines
    places: list[tuple[float, float] | None] = [_coordinates(lines, t.line) for t in warmap.territories]
    if not usable(places):
        places = [(float(x), float(y)) for x, y in layout(warmap, LAYOUT_SEED)]
    edges = sorted({(min(a, b), max(a, b)) for a in warmap.territory_ids for b in warmap.neighbours_of(a)})
    return {"name": warmap.name, "edges": [list(e) for e in edges],
            "territories": [[t.id, t.name, t.continent, x, y] for t, (x, y) in zip(warmap.territories, places)],
            "continents": [[c.name, getattr(c, "bonus", 0)] for c in warmap.continents]}


def _owners(session: Any) -> list[int]:
    state, seats = session.state, session.seats
    return [value for tid in range(1, len(state.owner)) for value in
            (seats.index(state.owner[tid]) if state.owner[tid] in seats else -1, state.armies[tid])]


def _turn(record: MatchRecord, session: Any, recorded: Any, play: Any) -> Shown:
    owners = _owners(session)
    events = json.loads(play().log_files.get(EVENTS_FILE) or "{}").get("events") or []
    attacks: list[int] = []
    marks = []
    for event in events:
        who = record.names.get(event.get("player"), event.get("player"))
        if event.get("result") == "attack":
            attacks += [event.get("from", 0), event.get("to", 0), int(bool(event.get("conquered")))]
            if event.get("conquered"):
                marks.append(("conquest", f"{who}: {render_event(event)}"))
        elif event.get("event") == "eliminated":
            marks.append(("elimination", f"{who} is eliminated"))
    return {"o": owners, "a": attacks}, marks


VIEW = BoardView(Path(__file__).with_name("html_board.js"), lambda record, session: board(record.path, session.warmap),
                 _turn, end=lambda session: {"o": _owners(session), "a": []})
