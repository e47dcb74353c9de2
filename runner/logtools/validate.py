"""`validate` of a game's files by convention: the schemas under `schema/<game>/` (`game-config.schema.json`,
`state.schema.json`, ...) name the kinds `<game>-config`, `<game>-state`, ...; a whole log is `<game>-log`
(valid when every seat's files that have a schema pass it and `verify` reproduces it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from runner.errors import UserError
from runner.games.interface import FileReport, FolderLog
from runner.logtools.record import is_record_log, open_record
from runner.logtools.verify import verify_log
from runner.schemas import SCHEMA_DIR, Problem, check_schema

_SUFFIX = ".schema.json"


def schema_kinds(game_name: str) -> dict[str, str]:
    """kind -> schema name (for runner.schemas) of every schema under schema/<game>/."""
    folder = SCHEMA_DIR / game_name
    found = {}
    for path in sorted(folder.glob(f"*{_SUFFIX}")) if folder.is_dir() else ():
        stem = path.name[: -len(_SUFFIX)]
        kind = "config" if stem == "game-config" else stem
        found[f"{game_name}-{kind}"] = f"{game_name}/{stem}"
    return found


def file_kinds(game_name: str) -> tuple[str, ...]:
    return (*schema_kinds(game_name), f"{game_name}-log")


def validate_path(game: Any, path: Path, kind: str | None) -> list[FileReport] | None:
    """Reports for a file of one of the game's kinds (given, or detected by `Game.detect_kind`) or a whole log
    (one the core wrote, or one from outside the game reads); None when `path` is nothing this game knows."""
    path = Path(path)
    log_kind = f"{game.name}-log"
    if kind == log_kind or (kind is None and (is_record_log(path) or game.is_log(path))):
        return [log_report(game, path)]
    kinds = schema_kinds(game.name)
    if path.is_dir() or kind not in (None, *kinds):
        return None
    problem = None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        return [FileReport(path, kind, unreadable=error.strerror or str(error))] if kind else None
    except ValueError as error:
        data, problem = NOT_JSON, Problem("", f"not valid JSON: {error}")
    kind = kind or game.detect_kind(path, data)
    if kind not in kinds:
        return None
    if problem is not None:
        return [FileReport(path, kind, (problem,))]
    problems = list(dict.fromkeys(check_schema(kinds[kind], data)))
    if not problems and kind.endswith("-config"):
        problems = list(game.config_problems(data))
    return [FileReport(path, kind, tuple(problems))]


#: what `Game.detect_kind` is given for a file that is not JSON
NOT_JSON = object()


def kind_by_name(game_name: str, path: Path) -> str | None:
    """`GameDefaults.detect_kind`: the kind whose schema names the file (`state.json` is `<game>-state`)."""
    return next((k for k, schema in schema_kinds(game_name).items() if path.name == schema.split("/")[1] + ".json"),
                None)


def log_report(game: Any, path: Path) -> FileReport:
    """A log is valid when its seats' files pass their schemas and replaying it reproduces everything."""
    kind = f"{game.name}-log"
    try:
        record = open_record(game, path)
        check = verify_log(game, path, record)  # the record read once
    except UserError as error:  # its message names the path, which the report prints itself
        return FileReport(path, kind, unreadable=str(error).removeprefix(f"{path}: "))
    problems: list[Problem] = []
    schemas = {schema.split("/")[1] + ".json": schema for schema in schema_kinds(game.name).values()}
    if isinstance(record.log, FolderLog):
        for turn in record.turns:
            for seat in turn.answers:
                for name, schema in schemas.items():
                    file = record.seat_file(turn.turn, seat, record.logged_name(name))
                    if file.is_file():
                        problems += _file_problems(file, path, schema)
    problems += [Problem("", line) for line in check.data.get("differences", ())]
    return FileReport(path, kind, tuple(problems))


def _file_problems(file: Path, root: Path, schema: str) -> list[Problem]:
    where = str(file.relative_to(root))
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        return [Problem(where, f"unreadable: {error}")]
    return [Problem(f"{where} {p.where}", p.message) for p in dict.fromkeys(check_schema(schema, data))]
