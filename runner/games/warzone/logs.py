"""Warzone match logs on disk (spec 4.7): verify by replaying, diff two logs, validate a map, replay a log.

Layout (written by the core's FolderLog writer): match.json, game-config.json, map.map, and per turn
`Turn 001/events.json` plus `Turn 001/<seat> - <name>/{state.json,state.txt,orders.txt,BotOutput.txt}`;
one last turn folder holds the final state's files and no events.json.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from runner.errors import UserError
from runner.games.interface import Absent, Answer, Check, Fault, FileReport
from runner.games.warzone.loading import check_map, read_map, read_map_bytes
from runner.games.warzone.protocol.config import ConfigError, parse_config
from runner.games.warzone.protocol.event_text import render_event
from runner.games.warzone.protocol.state_json import PROTOCOL
from runner.games.warzone.rules.mapfile import parse_map
from runner.games.warzone.session import WarzoneSession
from runner.replay.record import as_sent
from runner.schemas import Problem, check_schema

MAP_FILE = "map.map"
EVENTS_FILE = "events.json"
STATE_FILE = "state.json"
ORDERS_FILE = "orders.txt"
MAP_KIND, CONFIG_KIND, STATE_KIND, LOG_KIND = "warzone-map", "warzone-config", "warzone-state", "warzone-log"
#: The kinds of file `td-runner validate --kind` may name for Warzone.
KINDS = (MAP_KIND, CONFIG_KIND, STATE_KIND, LOG_KIND)
CONFIG_SCHEMA, STATE_SCHEMA = "warzone/game-config", "warzone/state"
MAX_LINES = 30  # differences listed before the rest are only counted
_TURN_FOLDER = re.compile(r"Turn (\d+)")
#: events.json's bot status -> the fault the replayed answer carries (timeouts keep their partial file).
STATUS_FAULT = {"timeout": Fault.TIMEOUT, "crash": Fault.CRASH}
STATUS_ABSENT = {"no_file": Absent.NO_FILE, "refused": Absent.REFUSED}


def turn_folders(path: Path) -> list[tuple[int, Path]]:
    """The log's turn folders by turn number."""
    found = []
    for child in path.iterdir() if path.is_dir() else ():
        match = _TURN_FOLDER.fullmatch(child.name)
        if match and child.is_dir():
            found.append((int(match.group(1)), child))
    return sorted(found)


def seat_folder(turn_folder: Path, seat: str) -> Path | None:
    for child in sorted(turn_folder.iterdir()):
        if child.is_dir() and child.name.startswith(f"{seat} - "):
            return child
    return None


def is_log(path: Path) -> bool:
    return (path / MAP_FILE).is_file() and any((folder / EVENTS_FILE).is_file() for _, folder in turn_folders(path))


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as problem:
        raise UserError(f"{path}: cannot read: {problem}") from None


def _without_timing(data: Any) -> Any:
    """A copy without `seconds` and `wall_seconds` (spec 4.7: timing fields are not compared)."""
    if isinstance(data, dict):
        return {k: _without_timing(v) for k, v in data.items() if k not in ("seconds", "wall_seconds")}
    if isinstance(data, list):
        return [_without_timing(item) for item in data]
    return data


def first_difference(a: Any, b: Any, where: str = "$") -> str | None:
    """`$.board[2].armies: 5 != 7` for the first place where two JSON values differ, or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{where}.{key}: {'missing' if key not in a else a[key]!r} != " \
                       f"{'missing' if key not in b else b[key]!r}"
            if found := first_difference(a[key], b[key], f"{where}.{key}"):
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for index, (x, y) in enumerate(zip(a, b)):
            if found := first_difference(x, y, f"{where}[{index}]"):
                return found
        return None if len(a) == len(b) else f"{where}: {len(a)} items != {len(b)} items"
    return None if a == b and type(a) is type(b) else f"{where}: {a!r} != {b!r}"


@attrs.frozen
class LogMatch:
    """What a log's match.json and game-config.json say: enough to rebuild its session."""

    seats: tuple[str, ...]
    names: dict[str, str]  # as shown to bots: empty unless the match's options carried them
    seed: int
    match: dict[str, Any]


def read_match(path: Path) -> LogMatch:
    match = _read_json(path / "match.json")
    players = match.get("players") or []
    seats = tuple(str(p["seat"]) for p in players)
    if not seats or not isinstance(match.get("seed"), int):
        raise UserError(f"{path / 'match.json'}: needs 'seed' and 'players' with seats")
    # the session shows names only when the core passed them as an option (see WarzoneGame.new_session)
    names = (match.get("options") or {}).get("names")
    return LogMatch(seats, dict(names) if isinstance(names, dict) else {}, match["seed"], match)


def session_of_log(path: Path) -> tuple[WarzoneSession, LogMatch]:
    """A fresh session built from the log's map.map, game-config.json and match.json."""
    logged = read_match(path)
    try:
        config = parse_config({k: v for k, v in _read_json(path / "game-config.json").items()})
    except (ConfigError, AttributeError) as problem:
        raise UserError(f"{path / 'game-config.json'}: {problem}") from None
    # an unnamed map took its name from the configured file, not from the log's copy `map.map`
    _, reading = read_map(path / MAP_FILE, config.map_validation == "lenient", Path(config.map).stem)
    warmap = check_map(str(path / MAP_FILE), reading)
    return WarzoneSession(warmap, config.rules, logged.seats, logged.seed, names=logged.names), logged


def _logged_answer(folder: Path | None, bot: dict[str, Any] | None) -> Answer:
    text = ""
    if folder is not None and (folder / ORDERS_FILE).is_file():
        text = (folder / ORDERS_FILE).read_bytes().decode("utf-8", errors="replace")
    status = (bot or {}).get("status", "")
    return Answer(text, STATUS_FAULT.get(status), absent=STATUS_ABSENT.get(status))


def verify(path: Path) -> Check:
    """Replay every turn's orders.txt and compare every state.json and events.json (timing aside)."""
    session, logged = session_of_log(path)
    lines: list[str] = []
    turns = turn_folders(path)
    for number, folder in turns:
        if number != session.turn:
            lines.append(f"{folder.name}: expected Turn {session.turn:03d} next")
            break
        for seat, turn_input in session.inputs().items():
            lines += _compare_file(folder, seat, STATE_FILE, json.loads(turn_input.files[STATE_FILE]))
        events_path = folder / EVENTS_FILE
        if not events_path.is_file():
            if session.outcome() is None:
                lines.append(f"{folder.name}: no {EVENTS_FILE} but the match is not over")
            break
        recorded = _read_json(events_path)
        answers = {seat: _logged_answer(seat_folder(folder, seat), recorded.get("bots", {}).get(seat))
                   for seat in session.active_seats()}
        report = session.play_turn(answers)
        if found := first_difference(_without_timing(recorded), _without_timing(report.record)):
            lines.append(f"{folder.name}/{EVENTS_FILE}: {found}")
    outcome = session.outcome()
    if outcome is None:
        lines.append(f"the log ends after {len(turns)} turn folders but the match is not over")
    else:
        for key, value in (("end_reason", outcome.reason), ("ranking", [list(g) for g in outcome.ranking])):
            if key in logged.match and logged.match[key] != value:
                lines.append(f"match.json: {key} {logged.match[key]!r}, replay gives {value!r}")
    same = not lines
    summary = f"{len(turns)} turn folders replayed: " + ("identical" if same else f"{len(lines)} differences")
    return Check(same, tuple(lines[:MAX_LINES]) + _more(lines) + (summary,), {"differences": lines})


def _compare_file(folder: Path, seat: str, name: str, expected: Any) -> list[str]:
    place = seat_folder(folder, seat)
    if place is None or not (place / name).is_file():
        return [f"{folder.name}: no {name} for seat {seat}"]
    found = first_difference(_without_timing(_read_json(place / name)), _without_timing(expected))
    return [f"{folder.name}/{place.name}/{name}: {found}"] if found else []


def _more(lines: list[str]) -> tuple[str, ...]:
    return (f"... and {len(lines) - MAX_LINES} more",) if len(lines) > MAX_LINES else ()


def _log_files(path: Path) -> Iterator[tuple[str, Path]]:
    """Every compared file of a log, by its path inside the log."""
    for _, folder in turn_folders(path):
        if (folder / EVENTS_FILE).is_file():
            yield f"{folder.name}/{EVENTS_FILE}", folder / EVENTS_FILE
        for child in sorted(folder.iterdir()):
            if child.is_dir():
                for name in (STATE_FILE, ORDERS_FILE):
                    if (child / name).is_file():
                        yield f"{folder.name}/{child.name[:1]}/{name}", child / name


def diff(path_a: Path, path_b: Path, strict: bool = False) -> Check:
    """Compare two logs file by file (events.json, state.json; orders.txt too with `strict`); timing
    fields only with `strict`."""
    files_a, files_b = dict(_log_files(path_a)), dict(_log_files(path_b))
    lines: list[str] = []
    for key in sorted(files_a.keys() | files_b.keys()):
        if key.endswith(ORDERS_FILE) and not strict:
            continue
        if key not in files_a or key not in files_b:
            lines.append(f"{key}: only in {path_a if key in files_a else path_b}")
            continue
        if key.endswith(ORDERS_FILE):
            if files_a[key].read_bytes() != files_b[key].read_bytes():
                lines.append(f"{key}: the orders differ")
            continue
        a, b = _read_json(files_a[key]), _read_json(files_b[key])
        if not strict:
            a, b = _without_timing(a), _without_timing(b)
        if found := first_difference(a, b):
            lines.append(f"{key}: {found}")
    match_a, match_b = _read_json(path_a / "match.json"), _read_json(path_b / "match.json")
    for field in ("winner", "end_reason", "turns", "ranking"):
        if match_a.get(field) != match_b.get(field):
            lines.append(f"match.json: {field} {match_a.get(field)!r} != {match_b.get(field)!r}")
    same = not lines
    summary = "the logs are identical" + ("" if strict else " (timing aside)") if same else \
        f"{len(lines)} differences"
    return Check(same, tuple(lines[:MAX_LINES]) + _more(lines) + (summary,), {"differences": lines})


def config_problems(data: Any) -> list[Problem]:
    """What is wrong with a Warzone config given as JSON: the schema's problems, else the value checks."""
    problems = list(dict.fromkeys(check_schema(CONFIG_SCHEMA, data)))
    if not problems:
        try:
            parse_config(data)
        except ConfigError as problem:
            problems.append(Problem("", str(problem)))
    return problems


def map_report(path: Path, lenient: bool = False) -> FileReport:
    """A .map file's errors (spec 3.6) as problems `line N: CODE: message`; lenient warnings are not
    problems. Unreadable files and E_READ (bytes that are not text) cannot be checked at all."""
    try:
        reading = parse_map(read_map_bytes(path), lenient=lenient, default_name=path.stem)
    except UserError as problem:
        return FileReport(path, MAP_KIND, unreadable=str(problem))
    errors = [f for f in reading.findings if f.error]
    if any(f.code == "E_READ" for f in errors):
        return FileReport(path, MAP_KIND, unreadable=f"E_READ: {errors[0].message}")
    return FileReport(path, MAP_KIND, tuple(
        Problem(f"line {f.line}" if f.line is not None else "", f"{f.code}: {f.message}") for f in errors))


def log_report(path: Path) -> FileReport:
    """A log is valid when every state.json matches the schema and replaying it reproduces everything."""
    problems: list[Problem] = []
    for _, folder in turn_folders(path):
        for state_file in sorted(folder.glob(f"* - */{STATE_FILE}")):
            try:
                data = json.loads(state_file.read_text(encoding="utf-8"))
            except (OSError, ValueError) as problem:
                problems.append(Problem(str(state_file.relative_to(path)), f"unreadable: {problem}"))
                continue
            problems += [Problem(f"{state_file.relative_to(path)} {p.where}", p.message)
                         for p in dict.fromkeys(check_schema(STATE_SCHEMA, data))]
    try:
        check = verify(path)
    except UserError as problem:
        return FileReport(path, LOG_KIND, unreadable=str(problem))
    problems += [Problem("", line) for line in check.data["differences"]]
    return FileReport(path, LOG_KIND, tuple(problems))


def _detect_kind(data: Any) -> str | None:
    if isinstance(data, dict) and data.get("protocol") == PROTOCOL:
        return STATE_KIND
    if isinstance(data, dict) and data.get("game") == "warzone" and "players" not in data:
        return CONFIG_KIND
    return None


def _is_warzone_log(path: Path) -> bool:
    try:
        return json.loads((path / "match.json").read_text(encoding="utf-8")).get("game") == "warzone"
    except (OSError, ValueError, AttributeError):
        return is_log(path)


def validate(path: Path, kind: str | None, lenient: bool = False) -> list[FileReport] | None:
    """Reports for a Warzone map, config, state or log folder; None for anything this game does not know."""
    path = Path(path)
    if path.is_dir():
        return [log_report(path)] if kind in (None, LOG_KIND) and _is_warzone_log(path) else None
    if kind == MAP_KIND or (kind is None and path.suffix.lower() == ".map"):
        return [map_report(path, lenient)]
    if kind not in (None, CONFIG_KIND, STATE_KIND):
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as problem:
        return [FileReport(path, kind, unreadable=problem.strerror or str(problem))] if kind else None
    except ValueError as problem:
        return [FileReport(path, kind, (Problem("", f"not valid JSON: {problem}"),))] if kind else None
    kind = kind or _detect_kind(data)
    if kind == CONFIG_KIND:
        return [FileReport(path, kind, tuple(config_problems(data)))]
    if kind == STATE_KIND:
        return [FileReport(path, kind, tuple(dict.fromkeys(check_schema(STATE_SCHEMA, data))))]
    return None


_PRIVATE_LINES = ("you ", "pool ", "hand ", "rejected ")


@attrs.frozen
class WarzoneReplay:
    """A log opened for the terminal: per turn, the state as state.txt shows it and the turn's events."""

    path: Path
    folders: dict[int, Path]

    @property
    def turns(self) -> tuple[int, ...]:
        return tuple(self.folders)

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats of the first turn folder (`A - name` -> `A`)."""
        first = next(iter(self.folders.values()))
        return tuple(child.name.split(" - ")[0] for child in sorted(first.iterdir()) if " - " in child.name)

    @classmethod
    def open(cls, path: Path) -> WarzoneReplay:
        folders = dict(turn_folders(path))
        if not folders:
            raise UserError(f"{path}: no turn folders (Turn 001, ...): not a Warzone log")
        return cls(path, folders)

    def render(self, turn: int, seat: str | None = None) -> list[Any]:
        """The state at the start of `turn` (a seat's own view with `seat`, else the public part) and the
        events of the turn; with `seat`, that bot's orders and output too."""
        folder = self.folders[turn]
        seats = [child for child in sorted(folder.iterdir()) if child.is_dir()]
        chosen = next((s for s in seats if seat and s.name.startswith(f"{seat} - ")), seats[0] if seats else None)
        lines: list[Any] = [f"{folder.name}"]
        if chosen is not None and (chosen / "state.txt").is_file():
            state = chosen.joinpath("state.txt").read_text(encoding="utf-8").splitlines()
            lines += [line for line in state if seat or not line.startswith(_PRIVATE_LINES)]
        if (folder / EVENTS_FILE).is_file():
            record = _read_json(folder / EVENTS_FILE)
            lines.append("events:")
            lines += ["  " + render_event(event) for event in record.get("events", [])]
            for who, rows in record.get("rejected", {}).items():
                if seat not in (None, who):
                    continue
                sent = next((s / ORDERS_FILE for s in seats if s.name.startswith(f"{who} - ")), None)
                if rows and sent is not None and sent.is_file() and not seat:  # with `seat`: orders.txt below
                    lines.append(f"  {who} sent: {as_sent(sent.read_text(encoding='utf-8', errors='replace'))}")
                lines += [f"  {who} rejected line {r['line']}: {r['code']} {r['message']}" for r in rows]
        if seat and chosen is not None:
            for name in (ORDERS_FILE, "BotOutput.txt"):
                if (chosen / name).is_file():
                    lines.append(f"{name}:")
                    lines += ["  " + line for line in (chosen / name).read_text(errors="replace").splitlines()]
        return lines
