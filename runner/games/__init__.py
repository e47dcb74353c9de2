"""The table of games: name -> the package that implements it. The only module that names game packages.

The core asks here for a `Game` (runner/games/interface.py) and never imports a game package itself; a test
(tests/games/test_boundaries.py) holds that line. A game's package is imported only when it is asked for, so
`td-runner verify` on a Tower Defence log does not pay for loading the other games.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

from runner.errors import UserError
from runner.games.interface import Game

#: Game name -> module defining `GAME`; the first is the default of `td-runner match`.
GAMES: dict[str, str] = {
    "tower-defence": "runner.games.tower_defence",
    "lanes": "runner.games.lanes",
    "invaders": "runner.games.invaders",
    "warzone": "runner.games.warzone",
}

DEFAULT_GAME = "tower-defence"

#: A game's own subcommand (`Game.tools`) -> the game defining it: `td-runner NAME` then loads that game alone,
#: and `td-runner --help` only the games that have tools (tests/games/test_boundaries.py checks this table).
TOOLS: dict[str, str] = {
    "warzone-map": "warzone",
}


def get_game(name: str) -> Game:
    """The game called `name`; UserError naming the known games (and a close match) otherwise."""
    module = GAMES.get(name)
    if module is None:
        import difflib  # only for this message

        close = difflib.get_close_matches(name, list(GAMES), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise UserError(f"unknown game {name!r}{hint}; the games are: {', '.join(GAMES)}")
    return importlib.import_module(module).GAME


def all_games() -> list[Game]:
    """Every game, in table order."""
    return [get_game(name) for name in GAMES]


def game_of_log(path: Path) -> Game:
    """The game a match log belongs to: match.json's `game`, else the game that recognises the folder
    (an official Tower Defence log has no match.json). When nothing recognises it, the default game, whose
    tools then say precisely why it is not a log."""
    path = Path(path)
    summary = path / "match.json"
    if summary.is_file():
        try:
            data = json.loads(summary.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise UserError(f"{summary}: not valid JSON: {exc}") from None
        name = data.get("game", DEFAULT_GAME) if isinstance(data, dict) else DEFAULT_GAME
        return get_game(name)
    for name in GAMES:  # one at a time: an official Tower Defence log loads no other game
        game = get_game(name)
        if game.is_log(path):  # a game may also accept a single file (a reference trace)
            return game
    return get_game(DEFAULT_GAME)
