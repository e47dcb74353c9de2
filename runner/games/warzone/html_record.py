"""The compact record of a Warzone log for the HTML replay (runner/replay/record.py has its shape).

The board is the log's `map.map` drawn at the file's own coordinates when they are usable, else at a seeded
force-directed layout of the border graph (layout.py says what "usable" means and how the layout works;
computed here, once per record, so the page only scales it):
`board = {"territories": [[id, name, continent, x, y], ...], "edges": [[a, b], ...], "continents": [...]}`.
A frame is the state at the start of a turn (any seat's `state.json`: the board part is public) and the
turn's attacks: `{"o": [owner seat index or -1, armies, ...] per territory, "a": [from, to, conquered, ...]}`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from runner.errors import UserError
from runner.games.warzone.layout import layout, usable
from runner.games.warzone.loading import read_map
from runner.games.warzone.logs import EVENTS_FILE, MAP_FILE, STATE_FILE, seat_folder, turn_folders
from runner.games.warzone.protocol.event_text import render_event
from runner.replay.assemble import read_json, read_match_json, read_text, record_of
from runner.replay.source import Replayed, SeatTurn, Turn

STATS = ("territories", "armies", "cards")
#: the layout's seed for a map without usable coordinates: fixed, so a map always looks the same
LAYOUT_SEED = 0
BOARD_JS = Path(__file__).with_name("html_board.js")
#: a seat's status (spec 4.2 `last_turn.bot.status`) -> its ruling: a fault is the core's to name
STATUS_RULING = {"timeout": "fault", "crash": "fault", "failed_to_start": "fault", "no_file": "none",
                 "refused": "none"}
#: the words shown for a status that is not a fault (spec 4.2 `last_turn.bot.status`)
STATUS_WORDS = {"no_file": "no orders.txt: no orders", "refused": "orders.txt refused (not read): no orders"}


def _coordinates(lines: list[str], line: int) -> tuple[float, float] | None:
    """x, y of a territory from its map line (Domination `id name continent x y`, Conquest `name,x,y,...`)."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    pair = text.split(",")[1:3] if "," in text else text.split()[3:5]
    try:
        return float(pair[0]), float(pair[1])
    except (ValueError, IndexError):
        return None


def _board(path: Path, name: str | None) -> dict[str, Any]:
    data, reading = read_map(path / MAP_FILE, lenient=True, default_name=name)
    warmap = reading.map
    if warmap is None:
        raise UserError(f"{path / MAP_FILE}: the log's map cannot be read")
    lines = data.decode("utf-8", errors="replace").splitlines()  # once: a 5,000-territory map has 5,000 lines
    places: list[tuple[float, float] | None] = [_coordinates(lines, t.line) for t in warmap.territories]
    if not usable(places):
        places = [(float(x), float(y)) for x, y in layout(warmap, LAYOUT_SEED)]
    territories = [[t.id, t.name, t.continent, x, y] for t, (x, y) in zip(warmap.territories, places)]
    edges = sorted({(min(a, b), max(a, b)) for a in warmap.territory_ids for b in warmap.neighbours_of(a)})
    continents = [[c.name, getattr(c, "bonus", 0)] for c in warmap.continents]
    return {"name": warmap.name, "territories": territories, "edges": [list(e) for e in edges],
            "continents": continents}


def _state(folder: Path, seats: list[str]) -> dict[str, Any]:
    for seat in seats:
        found = seat_folder(folder, seat)
        state = read_json(found / STATE_FILE) if found is not None else None
        if isinstance(state, dict):
            return state
    return {}


def _turns(path: Path, seats: list[str], count: int) -> Iterator[Turn]:
    names = {p.get("seat"): p.get("name") for p in (read_match_json(path) or {}).get("players") or []}
    for turn, folder in turn_folders(path):
        state, events = _state(folder, seats), read_json(folder / EVENTS_FILE) or {}
        by_seat = {p.get("seat"): p for p in state.get("players") or []}
        owners = [-1, 0] * count
        for cell in state.get("board") or []:
            i = cell.get("id", 0) - 1
            if 0 <= i < count:
                owners[2 * i:2 * i + 2] = seats.index(cell["owner"]) if cell.get("owner") in seats else -1, \
                    cell.get("armies", 0)
        attacks: list[int] = []
        marks = []
        for event in events.get("events") or []:
            if event.get("result") == "attack":
                attacks += [event.get("from", 0), event.get("to", 0), int(bool(event.get("conquered")))]
                if event.get("conquered"):
                    marks.append(("conquest", f"{names.get(event.get('player'))}: {render_event(event)}"))
            elif event.get("event") == "eliminated":
                marks.append(("elimination", f"{names.get(event.get('player'))} is eliminated"))
            elif event.get("event") == "game_over":
                marks.append(("end", render_event(event)))
        played = [seat in (events.get("bots") or {}) for seat in seats]
        parts = [SeatTurn(_ruling(seat, events, plays, by_seat.get(seat)), None if plays else "")
                 for seat, plays in zip(seats, played)]
        yield Turn(turn, parts, [by_seat.get(seat, {}) for seat in seats], {"o": owners, "a": attacks}, marks)


def html_record(path: Path) -> dict[str, Any]:
    path = Path(path)
    match = read_match_json(path) or {}
    seats = [str(p.get("seat")) for p in match.get("players") or []]
    folders = turn_folders(path)
    if not folders or not seats:
        raise UserError(f"{path}: not a Warzone log (needs match.json and Turn folders)")
    board = _board(path, match.get("map_name"))
    result = " ".join((read_text(folders[-1][1] / "result.txt") or "").split()[:12])
    return record_of(path, Replayed("warzone", "Warzone", seats, STATS,
                                    _turns(path, seats, len(board["territories"])), board, result=result))


def _ruling(seat: str, events: dict[str, Any], played: bool, player: dict[str, Any] | None) -> tuple[str, str]:
    if not played:
        if player and player.get("alive") is False:
            return "out", f"eliminated in turn {player.get('eliminated_turn')}"
        return "out", "did not play this turn" if events else "the match is over"
    status = (events.get("bots") or {}).get(seat, {}).get("status", "ok")
    rejected = (events.get("rejected") or {}).get(seat) or []
    text = "; ".join(f"line {r.get('line')}: {r.get('code')} {r.get('message')}" for r in rejected)
    if status in STATUS_RULING:
        return STATUS_RULING[status], STATUS_WORDS.get(status, status) + (f"; {text}" if text else "")
    if rejected:
        return "invalid", text
    return "ok", "every order accepted"


def board_js() -> str:
    return BOARD_JS.read_text(encoding="utf-8")
