"""Check user and log files against `schema/` (and a few rules a schema cannot say): `td-runner validate`.

A file's kind comes from its name (`bot.json`, `JsonMap.json`, `*.properties`, ...), else from its content.
A folder is a match log (every file of the official layout, spec 7.4) or a bot folder (its bot.json).
Nothing here prints: results are `FileReport`s, worded by runner/commands/validate.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable

import attrs

from runner import config, schemas
from runner.errors import UserError
from runner.matchlog import layout
from runner.schemas import BOT, GAME_CONFIG, MATCH, RUNNER_CONFIG, STATE, Problem

KINDS = (BOT, GAME_CONFIG, RUNNER_CONFIG, STATE, MATCH)

_KIND_BY_NAME = {
    "bot.json": BOT,
    "state.json": STATE,
    layout.JSON_MAP.lower(): STATE,
    "match.json": MATCH,
    config.RUNNER_CONFIG_NAME: RUNNER_CONFIG,
    "game-config.json": GAME_CONFIG,
    "game-config.properties": GAME_CONFIG,
}

_UNKNOWN_KIND = (
    "unknown kind of file: name it bot.json, game-config.json or .properties, game-runner-config.json,"
    " state.json or JsonMap.json, match.json; or give --kind"
)


@attrs.frozen
class FileReport:
    """The verdict on one file: its problems, or why it could not be checked at all (`unreadable`)."""

    path: Path
    kind: str | None
    problems: tuple[Problem, ...] = ()
    unreadable: str | None = None

    @property
    def is_valid(self) -> bool:
        return self.unreadable is None and not self.problems


def validate_path(path: Path | str, kind: str | None = None) -> list[FileReport]:
    """Validate a file (of `kind`, or detected), a match-log folder, or a bot folder."""
    path = Path(path)
    if path.is_dir():
        if kind is not None:
            return [FileReport(path, kind, unreadable=f"is a folder, not a {kind} file")]
        if any(layout.ROUND_DIR.fullmatch(child.name) for child in path.iterdir()):
            return validate_match_log(path)
        if (path / "bot.json").is_file():
            return [validate_file(path / "bot.json", BOT)]
        why = "folder is neither a match log ('Round NNN' folders) nor a bot folder (bot.json)"
        return [FileReport(path, None, unreadable=why)]
    return [validate_file(path, kind)]


def validate_file(path: Path, kind: str | None = None) -> FileReport:
    """Validate one file; `kind` None means detect it."""
    try:
        raw = config.read_file(path, "file")
    except config.UnreadableFile as exc:
        return FileReport(path, kind, unreadable=exc.reason)
    kind = kind or detect_kind(path, raw)
    if kind is None:
        return FileReport(path, None, unreadable=_UNKNOWN_KIND)
    if kind == BOT and not schemas.is_available(BOT):
        return FileReport(path, kind, unreadable=f"no schema for bot.json ({schemas.schema_path(BOT)} is missing)")
    return FileReport(path, kind, tuple(_CHECKERS[kind](path, raw)))


def detect_kind(path: Path, raw: bytes) -> str | None:
    """The kind of file: by name first, then by what the content looks like; None when unsure."""
    name = path.name.lower()
    if name in _KIND_BY_NAME:
        return _KIND_BY_NAME[name]
    if name.endswith(".properties"):
        return GAME_CONFIG
    if name.endswith(".json") and "runner-config" in name:
        return RUNNER_CONFIG
    if name.endswith(".json") and "game-config" in name:
        return GAME_CONFIG
    data, problems = config.decode_json(raw)
    if problems:
        return GAME_CONFIG if b"game.config." in raw else None
    return _kind_of_content(data)


def _kind_of_content(data: Any) -> str | None:
    if not isinstance(data, dict):
        return None
    keys = set(data)
    if keys & {"gameMap", "gameDetails"}:
        return STATE
    if keys & {"end_reason", "wall_seconds"}:
        return MATCH
    if keys & {"botLanguage", "botFileName", "nickName"}:
        return BOT
    if keys & {"mapWidth", "buildings", "ironCurtain"}:
        return GAME_CONFIG
    runner_keys = set(schemas.validator(RUNNER_CONFIG).schema["properties"]) - {"$schema"}
    if keys and keys <= runner_keys | {"$schema"} or keys & {"player-a", "player-b", "max-runtime-ms"}:
        return RUNNER_CONFIG
    return None


# ---------------------------------------------------------------------------------------------------------
# One checker per kind: (path, bytes) -> problems


def _check_game_config(path: Path, raw: bytes) -> list[Problem]:
    return config.parse_game_config(raw, config.game_config_format(path, raw))[1]


def _check_runner_config(path: Path, raw: bytes) -> list[Problem]:
    return config.parse_runner_config(raw, path)[1]


def check_json(name: str, raw: bytes, *rules: Callable[[Any], Iterable[Problem]]) -> tuple[Any, list[Problem]]:
    """Parse JSON, check `schema/<name>.schema.json`, then (only if that passed) the extra rules."""
    data, problems = config.decode_json(raw)
    if problems:
        return None, problems
    problems = schemas.check_schema(name, data)
    if not problems:
        for rule in rules:
            problems.extend(rule(data))
    return data, problems


def _schema_checker(name: str, *rules: Callable[[Any], Iterable[Problem]]) -> Callable[[Path, bytes], list[Problem]]:
    return lambda path, raw: check_json(name, raw, *rules)[1]


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


_CHECKERS: dict[str, Callable[[Path, bytes], list[Problem]]] = {
    GAME_CONFIG: _check_game_config,
    RUNNER_CONFIG: _check_runner_config,
    STATE: _schema_checker(STATE, check_state_board),
    MATCH: _schema_checker(MATCH),
    BOT: _schema_checker(BOT),
}


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
        if child.is_file() and child.name.lower() in _KIND_BY_NAME:
            reports.append(validate_file(child))
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
