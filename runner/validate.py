"""Check files against `schema/` (and a few rules a schema cannot say): `td-runner validate`.

The core knows the files every game shares: `bot.json`, `match.json` and the runner config. Anything else
(a game config, a state, a map, a whole log folder) is offered to each game in turn (`Game.validate`); the
first that recognises it checks it. A log folder whose match.json or record.jsonl names its game goes straight
to that game.
Nothing here prints: results are `FileReport`s, worded by runner/commands/validate.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from collections.abc import Sequence
from typing import Any, Callable, Iterable

from runner import config, schemas
from runner.bots.definition import bot_schema_problems, check_bot_folder
from runner.bots.languages import LaunchTemplate
from runner.errors import UserError
from runner.games import DEFAULT_GAME, all_games, get_game
from runner.games.interface import FileReport
from runner.matchlog.record import read_header
from runner.schemas import BOT, MATCH, RUNNER_CONFIG, Problem

#: The kinds of file the core checks itself; games add theirs (`Game.file_kinds`).
CORE_KINDS = (BOT, RUNNER_CONFIG, MATCH)

_KIND_BY_NAME = {"bot.json": BOT, "match.json": MATCH, config.RUNNER_CONFIG_NAME: RUNNER_CONFIG}


def kinds() -> tuple[str, ...]:
    """Every kind `--kind` accepts: the core's, then each game's."""
    found = list(CORE_KINDS)
    for game in all_games():
        found.extend(kind for kind in game.file_kinds if kind not in found)
    return tuple(found)


def validate_path(path: Path | str, kind: str | None = None, options: dict[str, Any] | None = None) -> list[FileReport]:
    """Validate a file (of `kind`, or detected), a match-log folder, or a bot folder (`validate_bot_folder`)."""
    path = Path(path)
    options = options or {}
    if kind is not None and path.is_dir():
        return [FileReport(path, kind, unreadable=f"is a folder, not a {kind} file")]
    if kind in CORE_KINDS:
        return [validate_file(path, kind)]
    if path.is_dir() and kind is None and (path / "bot.json").is_file() and not (path / "match.json").is_file():
        return [validate_bot_folder(path, options.get("game"))]
    if path.is_file() and kind is None:
        core_kind = detect_core_kind(path)
        if core_kind is not None:
            return [validate_file(path, core_kind)]
    for game in _games_for(path, options):
        if kind is not None and kind not in game.file_kinds:
            continue
        reports = game.validate(path, kind, options)
        if reports is not None:
            return reports
    if path.is_dir():
        why = "folder is neither a match log nor a bot folder (bot.json)"
        return [FileReport(path, None, unreadable=why)]
    if not path.exists():
        return [FileReport(path, kind, unreadable="no such file")]
    if kind is not None:
        return [FileReport(path, kind, unreadable=f"no game checks files of kind {kind}")]
    return [FileReport(path, None, unreadable=_unknown_kind())]


def _games_for(path: Path, options: dict[str, Any]) -> list:
    """The games to ask: the one `--game` or the log's match.json names, else every game in registry order."""
    name = options.get("game") or _logged_game(path)
    if name:
        return [get_game(name)]
    # Tower Defence last: `state.json` and `game-config.json` were its names before there were other games
    games = all_games()
    return [g for g in games if g.name != DEFAULT_GAME] + [g for g in games if g.name == DEFAULT_GAME]


def _logged_game(path: Path) -> str | None:
    """The game a log folder (or a file in one) names: match.json's, else record.jsonl's header (a log cut
    short before match.json was written)."""
    folder = path if path.is_dir() else path.parent
    try:
        data = json.loads((folder / "match.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = read_header(folder)
    name = data.get("game") if isinstance(data, dict) else None
    return name if isinstance(name, str) and name in {g.name for g in all_games()} else None


def _unknown_kind() -> str:
    return f"unknown kind of file: name it bot.json, match.json or game-runner-config.json, or give --kind ({', '.join(kinds())})"


def validate_file(path: Path, kind: str) -> FileReport:
    """Validate one generic file of a known kind."""
    if kind == BOT and not schemas.is_available(BOT) and path.is_file():
        return FileReport(path, kind, unreadable=f"no schema for bot.json ({schemas.schema_path(BOT)} is missing)")
    return file_report(path, kind, _CHECKERS[kind])


def file_report(path: Path, kind: str, check: Callable[[Path, bytes], list[Problem]]) -> FileReport:
    """The report on one file of a known kind: `check(path, its bytes)`'s problems, or why it cannot be read
    (any game's files: the core's kinds here, a game's own through its `validate`)."""
    try:
        raw = config.read_file(path, "file")
    except config.UnreadableFile as exc:
        return FileReport(path, kind, unreadable=exc.reason)
    return FileReport(path, kind, tuple(check(path, raw)))


def validate_bot_folder(folder: Path, game: str | None = None, *, before_build: bool = False) -> FileReport:
    """A bot folder: its bot.json, then everything `td-runner match` checks before round 0 (`load_bot`:
    botLocation folder, bot file, interpreter, a Python bot's requirements), each problem on its own.

    With `game` (validate --game) the launch table is exactly that game's match's; without, a bot.json names
    no game, so a language any game adds (Invaders' koth-js) is accepted. `before_build`: only what the
    folder's build cannot change (`check_bot_folder`)."""
    source = folder / "bot.json"
    report = validate_file(source, BOT)
    if report.unreadable is not None:
        return report
    try:
        problems = check_bot_folder(folder, launch_languages(game), before_build=before_build)
    except UserError:  # not a JSON object: the report above says so
        return report
    return FileReport(source, BOT, tuple(problems))


def launch_languages(game: str | None = None) -> dict[str, Sequence[str] | LaunchTemplate]:
    """The languages `td-runner match --game GAME` adds to the launch table: the game's own (every game's
    when None: koth-js), then those of ./game-runner-config.json when it is valid (an invalid one is reported
    when it is validated)."""
    languages: dict[str, Sequence[str] | LaunchTemplate] = {}
    for each in [get_game(game)] if game else all_games():
        languages.update(each.languages)
    path = Path(config.RUNNER_CONFIG_NAME)
    if path.is_file():
        try:
            languages.update(config.load_runner_config(path).languages)
        except UserError:
            pass
    return languages


def detect_core_kind(path: Path) -> str | None:
    """A generic kind by file name, or by content for JSON files that say what they are."""
    name = path.name.lower()
    if name in _KIND_BY_NAME:
        return _KIND_BY_NAME[name]
    if name.endswith(".json") and "runner-config" in name:
        return RUNNER_CONFIG
    if not name.endswith(".json"):
        return None
    try:
        data, problems = config.decode_json(config.read_file(path, "file"))
    except config.UnreadableFile:
        return None
    if problems or not isinstance(data, dict):
        return None
    keys = set(data)
    if keys & {"end_reason", "wall_seconds"}:
        return MATCH
    if keys & {"botLanguage", "botFileName", "nickName"}:
        return BOT
    runner_keys = set(schemas.validator(RUNNER_CONFIG).schema["properties"]) - {"$schema"}
    if keys and keys <= runner_keys | {"$schema"} or keys & {"player-a", "player-b", "max-runtime-ms"}:
        return RUNNER_CONFIG
    return None


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


def _check_runner_config(path: Path, raw: bytes) -> list[Problem]:
    return config.parse_runner_config(raw, path)[1]


def _check_match(path: Path, raw: bytes) -> list[Problem]:
    """match.json: the generic schema, then the game config it embeds against its game's checks."""
    data, problems = check_json(MATCH, raw)
    if problems or not isinstance(data, dict):
        return problems
    name = data.get("game", "tower-defence")
    try:
        game = get_game(name)
    except UserError:  # an unknown game: the schema check above already named it
        return problems
    for problem in game.config_problems(data["game_config"]):
        problems.append(Problem(f"$.game_config{problem.where.removeprefix('$')}", problem.message))
    return problems


_CHECKERS: dict[str, Callable[[Path, bytes], list[Problem]]] = {
    RUNNER_CONFIG: _check_runner_config,
    MATCH: _check_match,
    BOT: lambda path, raw: _check_bot(raw),
}


def _check_bot(raw: bytes) -> list[Problem]:
    """bot.json against its schema, whose language list is the common one: a language a game adds (Invaders'
    koth-js) is not refused here, as `validate BOT_DIR` and `match` accept it."""
    data, problems = config.decode_json(raw)
    if problems:
        return problems
    language = data.get("botLanguage") if isinstance(data, dict) else None
    return bot_schema_problems(data, language_judged=isinstance(language, str) and language in launch_languages())
