"""Tower Defence's files for `td-runner validate`, kinds known by name, else by content: game configs (.json or
official .properties), JSON states (the schema, then the board rules a schema cannot say) and a log folder's
official layout (spec 7.4); the generic files beside a log (match.json, the runner config) are the core's."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import Any

from runner import config, schemas
from runner.errors import UserError
from runner.games.interface import FileReport
from runner.games.tower_defence import config_file
from runner.games.tower_defence.logs import layout
from runner.schemas import Problem
from runner.validate import check_json, file_report, validate_path

GAME_CONFIG, STATE = schemas.GAME_CONFIG, schemas.STATE
_STATE_NAMES = ("state.json", layout.JSON_MAP.lower())
_MARKS = {STATE: {"gameMap", "gameDetails"}, GAME_CONFIG: {"mapWidth", "buildings", "ironCurtain"}}  # by content
#: the files beside the round folders that are checked with a log
_LOG_FILES = ("game-config.json", "game-config.properties", "match.json", config.RUNNER_CONFIG_NAME)


def validate_tower_defence(path: Path, kind: str | None) -> list[FileReport] | None:
    """Reports for a Tower Defence file or log folder; None when `path` is neither."""
    if path.is_dir():
        found = kind is None and any(layout.ROUND_DIR.fullmatch(child.name) for child in path.iterdir())
        return validate_match_log(path) if found else None
    if not path.is_file():
        return None
    try:
        kind = kind or detect_kind(path, config.read_file(path, "file"))
    except config.UnreadableFile as exc:
        return [FileReport(path, kind, unreadable=exc.reason)]
    return None if kind is None else [file_report(path, kind, _check_state if kind == STATE else _check_config)]


def detect_kind(path: Path, raw: bytes) -> str | None:
    """STATE or GAME_CONFIG by name, then by content; None when this is not a Tower Defence file (`state.json`
    and `game-config.json` are other games' names too: the core asks Tower Defence, whose names they were, last)."""
    name = path.name.lower()
    if name in _STATE_NAMES:
        return STATE
    if name.endswith(".properties") or (name.endswith(".json") and "game-config" in name):
        return GAME_CONFIG
    data, problems = config.decode_json(raw)
    if problems:
        return GAME_CONFIG if b"game.config." in raw else None
    keys = set(data) if isinstance(data, dict) else set()
    return next((kind for kind, marks in _MARKS.items() if keys & marks), None)


def _check_config(path: Path, raw: bytes) -> list[Problem]:
    return config_file.parse_game_config(raw, config_file.game_config_format(path, raw))[1]


def _check_state(path: Path, raw: bytes, round_number: int | None = None) -> list[Problem]:
    """A state's problems; in a log's round folder it must also say that round."""
    data, problems = check_json(STATE, raw, check_state_board)
    if not problems and round_number is not None and data["gameDetails"]["round"] != round_number:
        folder = layout.round_dir_name(round_number)
        problems.append(Problem("$.gameDetails.round", f"{data['gameDetails']['round']}, but the file is in {folder}"))
    return problems


def check_state_board(state: dict[str, Any]) -> Iterable[Problem]:
    """Rules of a JSON state that its schema cannot express: the board matches mapWidth x mapHeight (spec 7.1)."""
    details, board = state["gameDetails"], state["gameMap"]
    width, height = details["mapWidth"], details["mapHeight"]
    if len(board) != height:
        yield Problem("$.gameMap", f"{len(board)} rows, but mapHeight is {height}")
    for y, row in enumerate(board):
        if len(row) != width:
            yield Problem(f"$.gameMap[{y}]", f"{len(row)} cells, but mapWidth is {width}")
        for x, cell in enumerate(row):
            where = f"$.gameMap[{y}][{x}]"
            if (cell["x"], cell["y"]) != (x, y):
                yield Problem(where, f"cell says x={cell['x']}, y={cell['y']}, but sits at x={x}, y={y}")
            if cell["cellOwner"] != (owner := "A" if cell["x"] < width // 2 else "B"):
                yield Problem(f"{where}.cellOwner", f"{cell['cellOwner']!r}, but x={cell['x']} is in {owner}'s half")
            for group in ("buildings", "missiles"):
                for index, thing in enumerate(cell[group]):
                    if (thing["x"], thing["y"]) != (x, y):
                        yield Problem(f"{where}.{group}[{index}]", f"at x={thing['x']}, y={thing['y']}, not in its cell")
    seats = sorted(player["playerType"] for player in state["players"])
    if seats != ["A", "B"]:
        yield Problem("$.players", f"playerType values are {seats}, expected one 'A' and one 'B'")
    for index, player in enumerate(state["players"]):
        if player["isIronCurtainActive"] != (player["activeIronCurtainLifetime"] >= 0):  # spec 2.2
            yield Problem(f"$.players[{index}].isIronCurtainActive", "disagrees with activeIronCurtainLifetime >= 0")
    for kind, price in details["buildingPrices"].items():
        if price != (stats_price := details["buildingsStats"][kind]["price"]):
            yield Problem(f"$.gameDetails.buildingPrices.{kind}", f"{price}, but buildingsStats says {stats_price}")
    hits = [(f"$.teslaHitList[{i}][{j}]", c) for i, shot in enumerate(state["teslaHitList"]) for j, c in enumerate(shot)]
    hits += [(f"$.ironCurtainHitList[{i}]", cell) for i, cell in enumerate(state["ironCurtainHitList"])]
    for where, cell in hits:
        if not (cell["x"] < width and cell["y"] < height):
            yield Problem(where, f"x={cell['x']}, y={cell['y']} is off the {width}x{height} board")


def validate_match_log(path: Path) -> list[FileReport]:
    """A log folder: its layout (round folders 0..last with no gaps, both players' folders in each with their
    five files: spec 7.4), the files beside the round folders, and every round's JsonMap.json."""
    try:
        log = layout.open_match_log(path)
    except UserError as exc:
        return [FileReport(path, None, unreadable=str(exc).removeprefix(f"{path}: "))]
    missing = [layout.round_dir_name(n) for n in sorted(set(range(log.final_round + 1)) - set(log.rounds))]
    problems = [Problem("", f"missing round folders: {', '.join(missing)}")] if missing else []
    states = []
    for number, player in ((number, player) for number in log.rounds for player in log.player_dirs.values()):
        folder = f"{layout.round_dir_name(number)}/{player}"
        if not (path / folder).is_dir():
            problems.append(Problem(folder, "missing folder"))
            continue
        problems += [Problem(f"{folder}/{name}", "missing file") for name in layout.PLAYER_FILES
                     if not (path / folder / name).is_file()]
        if (state := path / folder / layout.JSON_MAP).is_file():
            states.append(file_report(state, STATE, partial(_check_state, round_number=number)))
    beside = [report for child in sorted(path.iterdir()) if child.is_file() and child.name.lower() in _LOG_FILES
              for report in validate_path(child, None, {"game": "tower-defence"})]
    return [FileReport(path, "match-log", tuple(problems)), *beside, *states]
