"""Load the runner config (the official `game-runner-config.json` keys plus td-runner's extras, spec 8.1), and
the helpers every config reader shares (file reading, JSON decoding, one-line problem reports).

A game's own config file format lives in its folder (runner/games/<name>/).

Every problem becomes one `UserError` line naming the file and the key. The `parse_*` functions return all
problems instead of raising, for `td-runner validate`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import attrs

from runner import schemas
from runner.errors import UserError
from runner.schemas import Problem

def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(word.title() for word in rest)


def snake(name: str) -> str:
    return re.sub(r"[A-Z]", lambda m: "_" + m.group().lower(), name).replace("-", "_")


def kebab(name: str) -> str:
    return name.replace("_", "-")


# ---------------------------------------------------------------------------------------------------------
# Runner config


#: The file name the official runner reads from its working directory (spec 8.1).
RUNNER_CONFIG_NAME = "game-runner-config.json"
CONSOLE = "console"


@attrs.frozen
class BotLimits:
    """The runner config's `limits`, as written; None = not set there (runner.bots.limits keeps its default)."""

    memory_mb: int | None = None
    cpu_seconds: int | None = None
    file_size_mb: int | None = None
    open_files: int | None = None
    output_kb: int | None = None


@attrs.frozen
class RunnerConfig:
    """How to run a match (spec 8.1 keys plus td-runner's extras); paths already resolved.

    `player_a`/`player_b` are a bot folder, the word "console" (a human at the terminal), or None when the
    config names no player (the CLI must then give both). `languages` maps a botLanguage to an argv
    template; how templates are expanded is runner.bots' business.
    """

    source: Path | None = None
    round_state_output_location: Path = Path("matches")
    game_config_file_location: Path | None = None
    verbose_mode: bool = False
    max_runtime_ms: int = 2000
    player_a: Path | str | None = None
    player_b: Path | str | None = None
    is_tournament_mode: bool = False
    sandbox: bool = False
    seed: int | None = None
    limits: BotLimits = BotLimits()
    languages: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    command_order: str | None = None  # Tower Defence's `command-order` (A,B or B,A), read by that game
    game: str | None = None  # the game to play (td-runner extra; default tower-defence)


def load_runner_config(path: Path | str) -> RunnerConfig:
    """Load a `game-runner-config.json`; relative paths in it resolve against the file's own folder."""
    path = Path(path)
    config, problems = parse_runner_config(read_file(path, "runner config"), path)
    if problems:
        raise UserError(one_line(f"runner config {path}", problems))
    assert config is not None
    return config


def parse_runner_config(raw: bytes, path: Path) -> tuple[RunnerConfig | None, list[Problem]]:
    """Check a runner config; the record is None when there are problems."""
    data, problems = decode_json(raw)
    if not problems:
        problems = schemas.check_schema(schemas.RUNNER_CONFIG, data)
    if problems:
        return None, problems
    base = Path(os.path.abspath(path)).parent
    values: dict[str, Any] = {"source": path}
    for key, value in data.items():
        name = snake(key)
        if key == "$schema":
            continue
        if key in ("round-state-output-location", "game-config-file-location"):
            value = _resolve(base, value)
        elif key in ("player-a", "player-b"):
            value = value if value == CONSOLE else _resolve(base, value)
        elif key == "limits":
            value = BotLimits(**{snake(k): v for k, v in value.items()})
        elif key == "languages":
            value = {language: tuple(argv) for language, argv in value.items()}
        values[name] = value
    return RunnerConfig(**values), []


def _resolve(base: Path, value: str) -> Path:
    """`base / value`, made absolute and normalised (`./x` and `a/../x` collapse) without following links."""
    return Path(os.path.normpath(base / os.path.expanduser(value)))


# ---------------------------------------------------------------------------------------------------------
# Shared helpers


class UnreadableFile(UserError):
    """A file that cannot be read at all; `reason` says why in plain words."""

    def __init__(self, what: str, path: Path, reason: str) -> None:
        super().__init__(f"{what} {path}: {reason}")
        self.reason = reason


def read_file(path: Path, what: str) -> bytes:
    """The file's bytes, or UnreadableFile ("<what> <path>: no such file", ...)."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise UnreadableFile(what, path, "no such file") from None
    except IsADirectoryError:
        raise UnreadableFile(what, path, "is a folder, not a file") from None
    except OSError as exc:
        raise UnreadableFile(what, path, f"cannot read: {exc.strerror or exc}") from None


def decode_json(raw: bytes) -> tuple[Any, list[Problem]]:
    """Parse UTF-8 JSON (a byte-order mark is tolerated); problems instead of exceptions."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return None, [Problem("", f"not UTF-8 text (byte {exc.start})")]
    try:
        return schemas.parse_json(text), []
    except schemas.JSONSyntaxError as exc:
        return None, [Problem("", str(exc))]


def read_json_file(path: Path, what: str) -> Any:
    """A JSON file's data; UserError in one line ("<what> <path>: ...") when it cannot be read or parsed."""
    data, problems = decode_json(read_file(path, what))
    if problems:
        raise UserError(one_line(f"{what} {path}", problems))
    return data


def one_line(subject: str, problems: list[Problem]) -> str:
    """`subject: first problem`, plus how many more there are (the CLI prints one line per error)."""
    text = f"{subject}: {problems[0]}"
    if len(problems) > 1:
        text += f" (and {len(problems) - 1} more; `td-runner validate` lists them all)"
    return text
