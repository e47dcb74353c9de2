"""Bots that ship inside the package: each game's reference bot (watch's default opponent) and the starter
templates `td-runner new` writes. Both are package data (pyproject.toml), so they are there after a regular
install, where the repository's starter-bots/ is not.

runner/reference_bots/<game> are symbolic links to the repository's starter-bots/.../reference folders (one
copy of each bot; the wheel holds the files they lead to). A reference bot is never played in place: the
runner writes every turn's files into a bot's folder, and the installed package may be read-only or shared
by several runs, so `copy_reference` gives each user a private copy.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from runner.errors import UserError

PACKAGE = Path(__file__).resolve().parent
REFERENCE_BOTS = PACKAGE / "reference_bots"
TEMPLATES = PACKAGE / "templates"
#: What a copy of a reference bot leaves out: caches its own runs made.
_LEFT_OUT = shutil.ignore_patterns("__pycache__", "*.pyc")


def data_folder(game: str) -> str:
    """A game's folder name under reference_bots/ and templates/ (`tower-defence` -> `tower_defence`)."""
    return game.replace("-", "_")


def reference_bot(game: str) -> Path:
    """The packaged reference bot of `game` (do not play it in place: `copy_reference`)."""
    folder = REFERENCE_BOTS / data_folder(game)
    if not (folder / "bot.json").is_file():
        raise UserError(f"{game}: no reference bot in this installation ({folder} is missing); name an OPPONENT")
    return folder


def copy_reference(game: str, destination: Path) -> Path:
    """A fresh private copy of the game's reference bot at `destination` (replaced if it exists)."""
    source = reference_bot(game)
    if destination.exists():
        shutil.rmtree(destination)
    destination.parent.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copytree(source, destination, ignore=_LEFT_OUT))
