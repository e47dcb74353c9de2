"""Read a bot folder's `bot.json` into a BotDefinition, checking everything that can be checked before round 0.

Every problem is one UserError line naming the file and what is wrong (spec 8.2: the official runner refuses
to start a match with a missing bot folder or an unknown language; we also refuse a missing interpreter or
bot file, which the official runner only discovers as a failing bot every round, and any path of bot.json
that leads outside the folder: runner/bots/containment.py). `load_bot` raises the first;
`check_bot_folder` (`td-runner validate BOT_DIR`) returns them all, so the two can never disagree.

A launch command that uses `{python}` runs the bot's own venv (`<folder>/.venv/bin/python`, made by
`td-runner build`) when there is one; without one, the packages of the bot's requirements.txt must be
installed for td-runner's Python, or the bot is refused with the `td-runner build` line that fixes it.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from runner import schemas
from runner.bots import containment
from runner.bots import languages as lang
from runner.errors import UserError
from runner.schemas import Problem


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
    request: str | None = None  # bot.json "request": a persistent bot's opt-in request format (`Game.request_formats`)
    unset_env: tuple[str, ...] = ()  # left out of the process's environment (its language's LaunchTemplate)


def load_bot(player_dir: Path, languages: Mapping[str, Sequence[str] | lang.LaunchTemplate] | None = None) -> BotDefinition:
    """Load and check `<player_dir>/bot.json`; `languages` overrides launch-table entries (runner config).

    Raises UserError with the first problem (`check_bot_folder` lists them all)."""
    player_dir = Path(player_dir)
    source = player_dir / "bot.json"
    bot, problems = _examine(player_dir, read_bot_json(player_dir), languages)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise UserError(f"{source}: {problems[0]}{more}")
    assert bot is not None
    return bot


def check_bot_folder(player_dir: Path, languages: Mapping[str, Sequence[str] | lang.LaunchTemplate] | None = None,
                     *, before_build: bool = False) -> list[Problem]:
    """Every reason `load_bot` (and so `td-runner match`) would refuse the folder, in the order it checks them.

    `before_build`: only what no build of the folder can change (a folder whose build is still to run, as an
    upload is: its bot file, program, botLocation folder and Python packages are the build's to make).
    Raises UserError only when there is no bot.json object to check (no folder, unreadable, not JSON)."""
    player_dir = Path(player_dir)
    return _examine(player_dir, read_bot_json(player_dir), languages, before_build)[1]


def path_problems(player_dir: Path, data: dict[str, Any]) -> list[Problem]:
    """Every path of bot.json (`data`) that leads outside `player_dir` (runner/bots/containment.py), however
    well the rest of it reads: what `td-runner build` checks before it runs anything of the folder's."""
    location = data.get("botLocation")
    location = location if isinstance(location, str) else ""
    file_name = data.get("botFileName")
    file_name = file_name if isinstance(file_name, str) else ""
    bot_dir = _resolve_bot_dir(player_dir, location)
    command = data.get("command") if data.get("botLanguage") == lang.CUSTOM else None
    argv = None
    if isinstance(command, list) and all(isinstance(part, str) for part in command):
        argv = lang.expand(lang.LaunchTemplate(tuple(command)), file=file_name, directory=str(bot_dir), cores=None)
    return containment.folder_problems(player_dir, location, bot_dir, file_name, argv)


def read_bot_json(player_dir: Path) -> dict[str, Any]:
    """The JSON object in `<player_dir>/bot.json`, unchecked; UserError when there is none."""
    if not player_dir.exists():
        raise UserError(f"bot folder {player_dir} does not exist")
    if not player_dir.is_dir():
        raise UserError(f"bot folder {player_dir} is not a folder")
    return _read_bot_json(player_dir / "bot.json")


def bot_schema_problems(data: Any, language_judged: bool) -> list[Problem]:
    """bot.json against its schema. `language_judged`: the caller has judged botLanguage itself (a language
    that a game or the runner config adds, such as koth-js, is not in the shipped enum; an unknown one it
    words better), so the rest is checked as if a shipped language stood there. The schema's only rule that
    reads botLanguage is "custom or not", which the stand-in keeps: the same problems come out, and a good
    bot.json passes the fast check without loading jsonschema (~80 ms of every koth-js match)."""
    language = data.get("botLanguage") if isinstance(data, dict) else None
    if language_judged and isinstance(language, str) and language != lang.CUSTOM:
        data = {**data, "botLanguage": _STAND_IN}
    return schemas.check_schema(schemas.BOT, data)


def bot_python(player_dir: Path) -> Path | None:
    """The interpreter of the bot's own virtual environment (`<player_dir>/.venv`, made by `td-runner build`),
    or None when it has none."""
    python = Path(os.path.abspath(player_dir)) / VENV / "bin" / "python"
    return python if python.is_file() else None


#: A shipped, non-custom botLanguage standing in for one the language check has already judged.
_STAND_IN = "python3"

#: The bot's own virtual environment, inside the folder that holds bot.json (runner/bots/build.py).
VENV = ".venv"
#: The file naming the packages a Python bot needs (pip's format).
REQUIREMENTS = "requirements.txt"


def _examine(
    player_dir: Path, data: dict[str, Any], languages: Mapping[str, Sequence[str] | lang.LaunchTemplate] | None,
    before_build: bool = False,
) -> tuple[BotDefinition | None, list[Problem]]:
    """The bot, or every problem found: bot.json's own first (its launch cannot be worked out until it is
    right), then each launch problem that does not merely follow from an earlier one."""
    table = lang.language_table(languages)
    language = data.get("botLanguage")
    problems: list[Problem] = []
    extra = False
    if isinstance(language, str):
        reason = _check_language(language, table)
        if reason is not None:
            problems.append(Problem("", reason))
        extra = language in table and language not in lang.DEFAULT_LANGUAGES
    for problem in bot_schema_problems(data, language_judged=bool(problems) or extra):
        # the language check above said it better; a runner config's language is not in the shipped enum
        if problem.where != "$.botLanguage" or not (problems or extra):
            problems.append(problem)
    if problems:
        return None, problems

    bot_dir = _resolve_bot_dir(player_dir, data["botLocation"])
    file_name = data.get("botFileName", "")
    cores = data.get("arguments", {}).get("coreCount")
    template = lang.LaunchTemplate(tuple(data["command"])) if language == lang.CUSTOM else table[language]
    command = lang.expand(template, file=file_name, directory=str(bot_dir), cores=cores, entry=data.get("entry"))
    escapes = containment.folder_problems(player_dir, data["botLocation"], bot_dir, file_name,
                                          command if language == lang.CUSTOM else None)
    if escapes:  # nothing outside the folder is looked at, not even whether it exists
        return None, escapes
    if not bot_dir.is_dir() and not before_build:
        problems.append(Problem("", f"bot folder {bot_dir} (botLocation {data['botLocation']!r}) does not exist"))
    if cores is None and lang.uses_placeholder(template.argv, "cores"):
        reason = f"the launch command for {language} uses {{cores}} but arguments.coreCount is missing"
        problems.append(Problem("", reason))
    if not file_name and lang.uses_placeholder(template.argv, "file"):
        reason = f"the launch command for {language} uses {{file}} but botFileName is missing"
        problems.append(Problem("", reason))
    entry = data.get("entry")
    if entry is None and lang.uses_placeholder(template.argv, "entry"):
        reason = f"botLanguage {language} needs `entry`: the expression that yields the AI function"
        problems.append(Problem("", reason))
    needs_requirements = False
    if lang.uses_placeholder(template.argv, "python"):
        python = bot_python(player_dir)
        if python is not None:  # the bot's own venv replaces td-runner's interpreter (runner/bots/build.py)
            template = attrs.evolve(template, argv=tuple(a.replace("{python}", str(python)) for a in template.argv))
        needs_requirements = python is None
    argv = lang.expand(template, file=file_name, directory=str(bot_dir), cores=cores, entry=entry)
    reason = None
    if before_build:  # the build makes the bot's files; an interpreter on PATH is there or not already
        reason = _check_program(player_dir, bot_dir, argv) if os.sep not in argv[0] else None
        needs_requirements = False
    elif not problems:  # the bot file and a program inside the bot folder can only be looked for now
        if lang.uses_placeholder(template.argv, "file"):
            reason = _check_bot_file(player_dir, bot_dir, file_name)
        reason = reason or _check_program(player_dir, bot_dir, argv)
    elif os.sep not in argv[0]:  # an interpreter on PATH is there or not whatever else is wrong
        reason = _check_program(player_dir, bot_dir, argv)
    if reason is not None:
        problems.append(Problem("", reason))
    reason = _check_requirements(player_dir) if needs_requirements else None
    if reason is not None:
        problems.append(Problem("", reason))
    if problems:
        return None, problems
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
        request=data.get("request"),
        unset_env=template.unset_env,
    ), []


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


def _check_language(language: str, table: Mapping[str, lang.LaunchTemplate]) -> str | None:
    if language in table or language == lang.CUSTOM:
        return None
    if language in lang.UNSUPPORTED:
        return f"botLanguage {language!r} is not supported: {lang.UNSUPPORTED[language]}"
    known = sorted([*table, lang.CUSTOM])
    return f"botLanguage {language!r} is not one of {', '.join(known)}{schemas.did_you_mean(language, known)}"


def _resolve_bot_dir(player_dir: Path, location: str) -> Path:
    """Spec 8.2: the player folder string and botLocation joined WITHOUT a separator, made absolute.

    Every official bot.json writes "/target"-style locations, so the plain join is a path join. A location
    without a leading separator ("sub") joins to "playersub" officially, a sibling of the bot folder, which
    a bot may not name (runner/bots/containment.py); we take the subfolder "player/sub", which is what such
    a bot.json's author meant. Whether the result stays inside the folder is containment's to check.
    """
    if location and not location.startswith(("/", os.sep)):
        return Path(os.path.abspath(os.path.join(player_dir, location)))
    return Path(os.path.abspath(str(player_dir) + location))


def _check_bot_file(player_dir: Path, bot_dir: Path, file_name: str) -> str | None:
    path = bot_dir / file_name
    if path.is_file():
        return None
    built = path.suffix in ("", ".jar", ".exe", ".dll")  # a build's output, not a source file
    hint = f" (build the bot first: td-runner build {player_dir})" if built else ""
    return f"bot file {path} does not exist{hint}"


def _check_program(player_dir: Path, bot_dir: Path, argv: tuple[str, ...]) -> str | None:
    """The program must exist now: a missing interpreter is a setup error, not 400 crashed rounds."""
    program = argv[0]
    command = shlex.join(argv)
    if os.sep in program:
        path = bot_dir / program  # relative names run from the bot folder, its working directory
        if not path.is_file():
            return f"bot {player_dir} needs {path} which does not exist (command: {command})"
        if not os.access(path, os.X_OK):
            return f"bot file {path} is not executable (chmod +x it; command: {command})"
    elif shutil.which(program) is None:
        return f"bot {player_dir} needs `{program}` which is not installed (command: {command})"
    return None


def _check_requirements(player_dir: Path) -> str | None:
    """A Python bot without its own venv runs with td-runner's interpreter: it must already have every
    package the bot's requirements.txt names (by distribution name; versions are not compared)."""
    path = player_dir / REQUIREMENTS
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot read {path}: {exc.strerror or exc}"
    missing = [name for name in requirement_names(text) if not _is_installed(name)]
    if not missing:
        return None
    shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
    return (f"{path} needs {shown}, which td-runner's Python ({sys.executable}) lacks: run "
            f"`td-runner build {player_dir}` to install them in {player_dir / VENV}")


_REQUIREMENT_NAME = re.compile(r"([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*(?:[<>=!~;@]|$)")


def requirement_names(text: str) -> list[str]:
    """The distribution names a pip requirements file asks for, in order; a line that names a path, a URL
    or anything else this cannot read is returned whole (such a requirement cannot be looked up)."""
    names = []
    for line in text.splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith(("#", "-")):  # comments, and options (--index-url, -r, -c, -e ...)
            continue
        match = _REQUIREMENT_NAME.match(line)
        names.append(match.group(1) if match else line)
    return names


def _is_installed(name: str) -> bool:
    import importlib.metadata  # here: ~20 ms of start-up (it loads the email package) that only this check needs

    try:
        importlib.metadata.distribution(name)
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return False
    return True
