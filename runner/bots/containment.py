"""Every path a bot.json names stays inside its bot folder (the folder that holds bot.json).

A bot folder is what a player hands over; the runner reads files in it, runs what it names and, in the
sandbox, binds it writable. A path that leads out of it (`"botLocation": "/../victim"`, a `botFileName` or
a custom `command` argument through `..`, an absolute path, or a symlink to somewhere else) would make the
runner run, read or expose another folder: another player's bot, the league's database. So each such path
is resolved with its symlinks followed and must land inside the folder's own resolved path, or the folder is
refused with one line naming the field.

`folder_problems` is called by `definition._examine` (so by `td-runner validate`, `match`, `tournament`,
`build` and league registration, which all check a folder that way); `launch_problem` repeats the cheap part
just before a bot starts, since a folder can change between the check and the launch.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from runner.schemas import Problem

#: Files the runner itself reads or runs from the bot folder, besides those bot.json names: the build
#: script and the Python requirements (a symlink there would have the runner read a file of its choosing),
#: and the bot's own venv (its interpreter is started).
RUNNER_FILES = ("bot.json", "build.sh", "requirements.txt", ".venv")


def is_inside(folder_real: str, path: str) -> bool:
    """Whether `path`, with symlinks followed, is `folder_real` (a resolved path) or lies under it."""
    real = os.path.realpath(path)
    return real == folder_real or real.startswith(folder_real.rstrip(os.sep) + os.sep)


def folder_problems(
    player_dir: Path, location: str, bot_dir: Path, file_name: str, command: Sequence[str] | None
) -> list[Problem]:
    """Each bot.json field (and runner-read file) that leads outside `player_dir`, one Problem per field.

    `bot_dir` is botLocation resolved (definition._resolve_bot_dir); `command` is a custom bot's argv with
    its placeholders filled in (None for a language of the launch table, whose argv the runner wrote).
    """
    real = os.path.realpath(player_dir)
    problems: list[Problem] = []
    for name in RUNNER_FILES:
        path = os.path.join(player_dir, name)
        if os.path.lexists(path) and not is_inside(real, path):
            problems.append(Problem("", f"{name} is a link that leads outside the bot folder"))
    if not is_inside(real, str(bot_dir)):
        problems.append(Problem("$.botLocation", f"{location!r} leads outside the bot folder"))
        return problems  # every other path is taken from there: saying so again adds nothing
    if file_name and not is_inside(real, os.path.join(bot_dir, file_name)):
        problems.append(Problem("$.botFileName", f"{file_name!r} leads outside the bot folder"))
    for index, part in enumerate(command or ()):
        if _names_a_path(bot_dir, part, index) and not is_inside(real, os.path.join(bot_dir, part)):
            problems.append(Problem(f"$.command[{index}]", f"{part!r} leads outside the bot folder"))
    return problems


def _names_a_path(bot_dir: Path, part: str, index: int) -> bool:
    """Whether a command element is a path the bot folder must hold: a relative one with a separator
    (`./bot`, `../x.py`), `..`, a plain name that exists there (it may be a symlink), or an absolute one
    inside the folder's own path (`{dir}/{file}`). Any other absolute element is left alone: the program
    is the machine's interpreter (`/usr/bin/python3`), and an argument is only text for the bot (the
    sandbox decides what it can open)."""
    if not part or part.startswith("-"):
        return False
    if os.path.isabs(part):
        return index > 0 and part.startswith(os.path.abspath(bot_dir) + os.sep)
    return os.sep in part or part == ".." or os.path.lexists(os.path.join(bot_dir, part))


def launch_problem(player_dir: Path, bot_dir: Path, file_name: str) -> str | None:
    """Why the bot must not start now (its folder changed since it was checked), or None. Cheap: a few
    realpath calls, run before every launch."""
    real = os.path.realpath(player_dir)
    if not is_inside(real, str(bot_dir)):
        return f"the bot folder {bot_dir} now leads outside {player_dir}"
    if file_name and not is_inside(real, os.path.join(bot_dir, file_name)):
        return f"the bot file {file_name} now leads outside {player_dir}"
    return None
