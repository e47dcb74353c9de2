"""Tower Defence's files for `td-runner validate`: game configs, JSON states and whole logs in the official layout.

A file's kind comes from its name (`JsonMap.json`, `*.properties`, ...), else from its content. A log folder is
checked file by file plus its layout (spec 7.4). Generic files (bot.json, match.json, the runner config) are the
core's (runner/validate.py); a log's match.json is checked through it too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from runner import config, schemas
from runner.errors import UserError
from runner.games.interface import FileReport
from runner.games.tower_defence import config_file
from runner.games.tower_defence.logs import layout
from runner.schemas import Problem
from runner.validate import check_json, validate_path

#: Schema names (`schema/<name>.schema.json`) of Tower Defence's own files.
GAME_CONFIG, STATE = schemas.GAME_CONFIG, schemas.STATE
KINDS = (GAME_CONFIG, STATE)

_KIND_BY_NAME = {
    "state.json": STATE,
    layout.JSON_MAP.lower(): STATE,
    "game-config.json": GAME_CONFIG,
    "game-config.properties": GAME_CONFIG,
}
_STATE_KEYS = {"gameMap", "gameDetails"}
_CONFIG_KEYS = {"mapWidth", "buildings", "ironCurtain"}


def validate_tower_defence(path: Path, kind: str | None) -> list[FileReport] | None:
    """Reports for a Tower Defence file or log folder; None when `path` is neither."""
    if path.is_dir():
        if kind is None and any(layout.ROUND_DIR.fullmatch(child.name) for child in path.iterdir()):
            return validate_match_log(path)
        return None
    if not path.is_file():
        return None
    try:
        raw = config.read_file(path, "file")
    except config.UnreadableFile as exc:
        return [FileReport(path, kind, unreadable=exc.reason)]
    kind = kind or detect_kind(path, raw)
    if kind is None:
        return None
    return [FileReport(path, kind, tuple(_CHECKERS[kind](path, raw)))]


def detect_kind(path: Path, raw: bytes) -> str | None:
    """STATE or GAME_CONFIG by name, then by content; None when this is not a Tower Defence file.

    `state.json` and `game-config.json` are also other games' names: the core asks the other games first
    and Tower Defence, whose names these were first, last.
    """
    name = path.name.lower()
    if name in _KIND_BY_NAME:
        return _KIND_BY_NAME[name]
    if name.endswith(".properties") or (name.endswith(".json") and "game-config" in name):
        return GAME_CONFIG
    data, problems = config.decode_json(raw)
    if problems:
        return GAME_CONFIG if b"game.config." in raw else None
    keys = set(data) if isinstance(data, dict) else set()
    if keys & _STATE_KEYS:
        return STATE
    if keys & _CONFIG_KEYS:
        return GAME_CONFIG
    return None


def _check_game_config(path: Path, raw: bytes) -> list[Problem]:
    return config_file.parse_game_config(raw, config_file.game_config_format(path, raw))[1]


def check_state_board(state: dict[str, Any]) -> Iterable[Problem]:
    """Rules of a JSON state that its schema cannot express: the board matches mapWidth x mapHeight (spec 7.1)."""
    details = state["gameDetails"]
    width, height = details["mapWidth"], details["mapHeight"]
    board = state["gameMap"]
    if len(board) != height:
        yield Problem("$.gameMap", f"{len(board)} rows, but mapHeight is {height}")
    for y, row in enumerate(board):
        if len(row) != width:
            yield Problem(f"$.gameMap[{y}]", f"{len(row)} cells, but mapWidth is {width}")
        for x, cell in enumerate(row):
            where = f"$.gameMap[{y}][{x}]"
            if (cell["x"], cell["y"]) != (x, y):
                yield Problem(where, f"cell says x={cell['x']}, y={cell['y']}, but sits at x={x}, y={y}")
            owner = "A" if cell["x"] < width // 2 else "B"
            if cell["cellOwner"] != owner:
                yield Problem(f"{where}.cellOwner", f"{cell['cellOwner']!r}, but x={cell['x']} is in {owner}'s half")
            for group in ("buildings", "missiles"):
                for index, thing in enumerate(cell[group]):
                    if (thing["x"], thing["y"]) != (x, y):
                        at = f"at x={thing['x']}, y={thing['y']}, not in its cell"
                        yield Problem(f"{where}.{group}[{index}]", at)
    seats = sorted(player["playerType"] for player in state["players"])
    if seats != ["A", "B"]:
        yield Problem("$.players", f"playerType values are {seats}, expected one 'A' and one 'B'")
    for index, player in enumerate(state["players"]):
        if player["isIronCurtainActive"] != (player["activeIronCurtainLifetime"] >= 0):
            # spec 2.2: active iff lifetime >= 0
            yield Problem(f"$.players[{index}].isIronCurtainActive", "disagrees with activeIronCurtainLifetime >= 0")
    for kind, price in details["buildingPrices"].items():
        stats_price = details["buildingsStats"][kind]["price"]
        if price != stats_price:
            yield Problem(f"$.gameDetails.buildingPrices.{kind}", f"{price}, but buildingsStats says {stats_price}")
    hits = [
        (f"$.teslaHitList[{i}][{j}]", cell) for i, shot in enumerate(state["teslaHitList"]) for j, cell in enumerate(shot)
    ]
    hits += [(f"$.ironCurtainHitList[{i}]", c) for i, c in enumerate(state["ironCurtainHitList"])]
    for where, cell in hits:
        if not (cell["x"] < width and cell["y"] < height):
            yield Problem(where, f"x={cell['x']}, y={cell['y']} is off the {width}x{height} board")



_CHECKERS = {
    GAME_CONFIG: _check_game_config,
    STATE: lambda path, raw: check_json(STATE, raw, check_state_board)[1],
}

#: Files beside the round folders that are checked with the log.
_LOG_FILES = ("game-config.json", "game-config.properties", "match.json", config.RUNNER_CONFIG_NAME)


def _validate_log_file(path: Path) -> list[FileReport]:
    if path.name.lower().startswith("game-config"):
        return validate_tower_defence(path, GAME_CONFIG) or []
    return validate_path(path)  # the core checks the generic files

# ---------------------------------------------------------------------------------------------------------
# Match-log folders


def validate_match_log(path: Path) -> list[FileReport]:
    """Every checkable file of a match log, plus the layout itself (missing rounds, players, files)."""
    try:
        log = layout.open_match_log(path)
    except UserError as exc:
        return [FileReport(path, None, unreadable=str(exc).removeprefix(f"{path}: "))]
    reports = [_check_layout(log)]
    for child in sorted(path.iterdir()):
        if child.is_file() and child.name.lower() in _LOG_FILES:
            reports.extend(_validate_log_file(child))
    for number in log.rounds:
        round_dir = path / layout.round_dir_name(number)
        for player_dir in sorted(round_dir.iterdir()):
            state_file = player_dir / layout.JSON_MAP
            if layout.PLAYER_DIR.fullmatch(player_dir.name) and state_file.is_file():
                reports.append(_validate_round_state(state_file, number))
    return reports


def _validate_round_state(path: Path, number: int) -> FileReport:
    """A JsonMap.json of a match log: a valid state that says the round of its folder."""
    try:
        raw = config.read_file(path, "file")
    except config.UnreadableFile as exc:
        return FileReport(path, STATE, unreadable=exc.reason)
    data, problems = check_json(STATE, raw, check_state_board)
    if not problems and data["gameDetails"]["round"] != number:
        found = data["gameDetails"]["round"]
        problems.append(Problem("$.gameDetails.round", f"{found}, but the file is in {layout.round_dir_name(number)}"))
    return FileReport(path, STATE, tuple(problems))


def _check_layout(log: layout.MatchLog) -> FileReport:
    """Round folders 0..last with no gaps, both players in each, and each player's five files (spec 7.4)."""
    problems = []
    expected = range(log.rounds[0], log.final_round + 1)
    missing = sorted(set(expected) - set(log.rounds))
    if missing:
        problems.append(Problem("", f"missing round folders: {', '.join(layout.round_dir_name(n) for n in missing)}"))
    for number in log.rounds:
        round_name = layout.round_dir_name(number)
        for seat, player_name in log.player_dirs.items():
            player_dir = log.path / round_name / player_name
            if not player_dir.is_dir():
                problems.append(Problem(f"{round_name}/{player_name}", "missing folder"))
                continue
            for name in layout.PLAYER_FILES:
                if not (player_dir / name).is_file():
                    problems.append(Problem(f"{round_name}/{player_name}/{name}", "missing file"))
    return FileReport(log.path, "match-log", tuple(problems))
