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


def game_of_log(path: Path, name: str | None = None) -> Game:
    """The game a match log belongs to: match.json's `game`, else its record.jsonl's (written before the first
    turn), else `name` (a command's `--game`), else the game that recognises a log from outside (an official
    Tower Defence log, a game's spec trace file). The default game's official layout is taken at once: `td-runner
    verify` of one loads no other game. Anything else is asked of every game, and a path two games recognise is
    a UserError naming them rather than a guess. When nothing recognises it, the default game, whose tools then
    say precisely why it is not a log."""
    path = Path(path)
    summary = path / "match.json"
    if summary.is_file():
        try:
            data = json.loads(summary.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise UserError(f"{summary}: not valid JSON: {exc}") from None
        named = data.get("game", DEFAULT_GAME) if isinstance(data, dict) else DEFAULT_GAME
        if name is not None and name != named:
            raise UserError(f"{path}: its match.json says the game is {named}, not {name}")
        return get_game(named)
    from runner.matchlog.record import read_header  # here: runner.matchlog imports this package's interface

    header = read_header(path)  # a log the core wrote names its game from its first line on
    if header is not None:
        named = str(header.get("game", DEFAULT_GAME))
        if name is not None and name != named:
            raise UserError(f"{path}: its record.jsonl says the game is {named}, not {name}")
        return get_game(named)
    if name is not None:
        return get_game(name)
    default = get_game(DEFAULT_GAME)
    if default.is_log(path):  # a game may also accept a single file (a reference trace)
        return default
    claimants = [other for other in GAMES if other != DEFAULT_GAME and get_game(other).is_log(path)]
    if len(claimants) > 1:
        raise UserError(f"{path}: no match.json names its game and its files fit {' and '.join(claimants)}; "
                        f"name it with --game {claimants[0]} (or --game {claimants[1]})")
    return get_game(claimants[0]) if claimants else default
