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
        parser.add_argument(option.flag, dest=option.dest, type=option.type, metavar=option.metavar,
                            choices=option.choices, default=None, help=option.help + default)


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
