"""Read a bot folder's `bot.json` into a BotDefinition, checking everything that can be checked before round 0.

Every problem is one UserError line naming the file and what is wrong (spec 8.2: the official runner refuses
to start a match with a missing bot folder or an unknown language; we also refuse a missing interpreter or
bot file, which the official runner only discovers as a failing bot every round).
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from runner import schemas
from runner.bots import languages as lang
from runner.errors import UserError


@attrs.frozen
class BotDefinition:
    """A bot ready to run: where it lives and the exact argv that starts it."""

    player_dir: Path  # the folder the user named (holds bot.json)
    bot_dir: Path  # absolute: state files are written and command.txt read here; the process's cwd
    nick_name: str
    author: str
    email: str
    language: str
    file_name: str  # "" for a custom bot without botFileName
    argv: tuple[str, ...]
    core_count: int | None = None
    persistent: bool = False  # bot.json "persistent": one process for the whole match (td-runner extension)
    entry: str | None = None  # bot.json "entry" (koth-js bots)


def load_bot(player_dir: Path, languages: Mapping[str, Sequence[str]] | None = None) -> BotDefinition:
    """Load and check `<player_dir>/bot.json`; `languages` overrides launch-table entries (runner config)."""
    player_dir = Path(player_dir)
    if not player_dir.exists():
        raise UserError(f"bot folder {player_dir} does not exist")
    if not player_dir.is_dir():
        raise UserError(f"bot folder {player_dir} is not a folder")
    source = player_dir / "bot.json"
    data = _read_bot_json(source)
    table = lang.language_table(languages)
    language = data.get("botLanguage")
    extra = False
    if isinstance(language, str):
        _check_language(source, language, table)
        extra = language in table and language not in lang.DEFAULT_LANGUAGES
    _check_schema(source, data, language_is_extra=extra)

    bot_dir = _resolve_bot_dir(player_dir, data["botLocation"])
    if not bot_dir.is_dir():
        raise UserError(f"{source}: bot folder {bot_dir} (botLocation {data['botLocation']!r}) does not exist")
    file_name = data.get("botFileName", "")
    cores = data.get("arguments", {}).get("coreCount")
    template = lang.LaunchTemplate(tuple(data["command"])) if language == lang.CUSTOM else table[language]
    if cores is None and lang.uses_placeholder(template.argv, "cores"):
        raise UserError(f"{source}: the launch command for {language} uses {{cores}} but arguments.coreCount is missing")
    if not file_name and lang.uses_placeholder(template.argv, "file"):
        raise UserError(f"{source}: the launch command for {language} uses {{file}} but botFileName is missing")
    entry = data.get("entry")
    if entry is None and lang.uses_placeholder(template.argv, "entry"):
        raise UserError(f"{source}: botLanguage {language} needs `entry`: the expression that yields the AI function")
    argv = lang.expand(template, file=file_name, directory=str(bot_dir), cores=cores, entry=entry)
    if lang.uses_placeholder(template.argv, "file"):
        _check_bot_file(source, bot_dir, file_name)
    _check_program(source, player_dir, bot_dir, argv)
    return BotDefinition(
        player_dir=player_dir,
        bot_dir=bot_dir,
        nick_name=data["nickName"],
        author=data["author"],
        email=data["email"],
        language=language,
        file_name=file_name,
        argv=argv,
        core_count=cores,
        persistent=data.get("persistent", False),
        entry=entry,
    )


def _read_bot_json(source: Path) -> dict[str, Any]:
    try:
        raw = source.read_bytes()
    except FileNotFoundError:
        raise UserError(f"{source}: no such file (a bot folder needs a bot.json)") from None
    except OSError as exc:
        raise UserError(f"{source}: cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")  # editors on Windows add a byte-order mark; the official Gson reader copes
    except UnicodeDecodeError as exc:
        raise UserError(f"{source}: not UTF-8 text (byte {exc.start})") from None
    try:
        data = schemas.parse_json(text)
    except schemas.JSONSyntaxError as exc:
        raise UserError(f"{source}: {exc}") from None
    if not isinstance(data, dict):
        raise UserError(f"{source}: expected a JSON object, found {type(data).__name__}")
    return data


def _check_language(source: Path, language: str, table: Mapping[str, lang.LaunchTemplate]) -> None:
    if language in table or language == lang.CUSTOM:
        return
    if language in lang.UNSUPPORTED:
        raise UserError(f"{source}: botLanguage {language!r} is not supported: {lang.UNSUPPORTED[language]}")
    known = sorted([*table, lang.CUSTOM])
    raise UserError(
        f"{source}: botLanguage {language!r} is not one of {', '.join(known)}{schemas.did_you_mean(language, known)}"
    )


def _check_schema(source: Path, data: dict[str, Any], *, language_is_extra: bool) -> None:
    problems = schemas.check_schema(schemas.BOT, data)
    if language_is_extra:  # added by the runner config, so the shipped enum does not list it
        problems = [problem for problem in problems if problem.where != "$.botLanguage"]
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise UserError(f"{source}: {problems[0]}{more}")


def _resolve_bot_dir(player_dir: Path, location: str) -> Path:
    """Spec 8.2: the player folder string and botLocation joined WITHOUT a separator, made absolute.

    Every official bot.json writes "/target"-style locations, so the plain join is a path join. A location
    without a leading separator ("sub") joins to "playersub" officially; when that does not exist we take
    the subfolder "player/sub", which is what such a bot.json's author meant.
    """
    joined = Path(os.path.abspath(str(player_dir) + location))
    if location and not location.startswith(("/", os.sep)) and not joined.is_dir():
        return Path(os.path.abspath(os.path.join(player_dir, location)))
    return joined


def _check_bot_file(source: Path, bot_dir: Path, file_name: str) -> None:
    path = bot_dir / file_name
    if not path.is_file():
        hint = " (build the bot first?)" if path.suffix in ("", ".jar", ".exe", ".dll") else ""
        raise UserError(f"{source}: bot file {path} does not exist{hint}")


def _check_program(source: Path, player_dir: Path, bot_dir: Path, argv: tuple[str, ...]) -> None:
    """The program must exist now: a missing interpreter is a setup error, not 400 crashed rounds."""
    program = argv[0]
    command = shlex.join(argv)
    if os.sep in program:
        path = bot_dir / program  # relative names run from the bot folder, its working directory
        if not path.is_file():
            raise UserError(f"{source}: bot {player_dir} needs {path} which does not exist (command: {command})")
        if not os.access(path, os.X_OK):
            raise UserError(f"{source}: bot file {path} is not executable (chmod +x it; command: {command})")
    elif shutil.which(program) is None:
        raise UserError(f"{source}: bot {player_dir} needs `{program}` which is not installed (command: {command})")
