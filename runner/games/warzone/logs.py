"""What is Warzone's own in its logs and files (spec 4.7): the session of a log (from its map copy), and the
checks of a .map file, a config and a state. Verify, diff, replay and a whole log's validate are the core's
(runner/logtools).

Layout (the core's FolderLog writer): match.json, record.jsonl, game-config.json, map.map, and per turn
`Turn 001/events.json` plus `Turn 001/<seat> - <name>/{state.json,state.txt,orders.txt,BotOutput.txt}`;
one last turn folder holds the final state's files and no events.json.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from runner.errors import UserError
from runner.games.interface import FileReport
from runner.games.warzone.loading import check_map, read_map, read_map_bytes
from runner.games.warzone.protocol.config import ConfigError, parse_config
from runner.games.warzone.protocol.state_json import PROTOCOL
from runner.games.warzone.rules.mapfile import parse_map
from runner.games.warzone.session import WarzoneSession
from runner.schemas import Problem, check_schema

MAP_FILE = "map.map"
EVENTS_FILE = "events.json"
STATE_FILE = "state.json"
ORDERS_FILE = "orders.txt"
MAP_KIND, CONFIG_KIND, STATE_KIND, LOG_KIND = "warzone-map", "warzone-config", "warzone-state", "warzone-log"
#: The kinds of file `td-runner validate --kind` may name for Warzone.
KINDS = (MAP_KIND, CONFIG_KIND, STATE_KIND, LOG_KIND)
CONFIG_SCHEMA, STATE_SCHEMA = "warzone/game-config", "warzone/state"
_TURN_FOLDER = re.compile(r"Turn (\d+)")


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


def session_of_log(record: Any) -> WarzoneSession:
    """A fresh session for a log: its map.map (the map as played, wherever the original file went),
    game-config.json and the record's seats, seed and shown names."""
    path = record.path
    try:
        config = parse_config(json.loads((path / "game-config.json").read_text(encoding="utf-8")))
    except (OSError, ValueError, ConfigError, AttributeError) as problem:
        raise UserError(f"{path / 'game-config.json'}: {problem}") from None
    # an unnamed map took its name from the configured file, not from the log's copy `map.map`
    _, reading = read_map(path / MAP_FILE, config.map_validation == "lenient", Path(config.map).stem)
    warmap = check_map(str(path / MAP_FILE), reading)
    names = record.options.get("names")  # shown to bots only when the core passed them (WarzoneGame.new_session)
    return WarzoneSession(warmap, config.rules, record.seats, record.seed, names=dict(names or {}))


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


def _detect_kind(data: Any) -> str | None:
    if isinstance(data, dict) and data.get("protocol") == PROTOCOL:
        return STATE_KIND
    if isinstance(data, dict) and data.get("game") == "warzone" and "players" not in data:
        return CONFIG_KIND
    return None


def validate(path: Path, kind: str | None, lenient: bool = False) -> list[FileReport] | None:
    """Reports for a Warzone map, config, state or log folder; None for anything this game does not know."""
    path = Path(path)
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
