"""Per-game options (`runner.games.interface.Option`) on argparse parsers, shared by the subcommands."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import Any

from runner.games.interface import Option


def add_game_options(parser: argparse.ArgumentParser, options: Iterable[Option]) -> None:
    """Add each option once (two games may declare the same flag; the first declaration wins).

    Defaults stay None in argparse so a command can tell "not given" from a value; `chosen_options` applies
    the declared default afterwards.
    """
    seen = {action.dest for action in parser._actions}
    for option in options:
        if option.dest in seen:
            continue
        seen.add(option.dest)
        default = f" (default {option.default})" if option.default is not None else ""
        parser.add_argument(option.flag, dest=option.dest, type=_worded(option.type), metavar=option.metavar,
                            choices=option.choices, default=None, help=option.help + default)


def add_log_game_option(parser: argparse.ArgumentParser) -> None:
    """`--game NAME` of a log tool: a log without match.json whose files fit two games names its game so
    (runner.games.game_of_log says when)."""
    parser.add_argument("--game", metavar="NAME",
                        help="the game of a log without match.json whose files fit more than one game")


def _worded(convert: Any) -> Any:
    """The option's type, with its own ValueError message shown instead of argparse's "invalid <function
    name> value" (`--max-turns: '0' is not a positive integer`)."""
    if convert in (str, int, float):
        return convert

    def checked(text: str) -> Any:
        try:
            return convert(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    checked.__name__ = getattr(convert, "__name__", "value")
    return checked


def chosen_options(args: argparse.Namespace, options: Iterable[Option], fallback: dict[str, Any] | None = None) -> dict[str, Any]:
    """The values of `options` from parsed `args`; not given: `fallback` (e.g. the runner config), else the
    option's default."""
    values = {}
    for option in options:
        value = getattr(args, option.dest, None)
        if value is None and fallback is not None:
            value = fallback.get(option.dest)
        values[option.dest] = option.default if value is None else value
    return values
