"""`td-runner games`: the games this runner hosts, one line each (name, players, bot mode, summary)."""

from __future__ import annotations

import argparse

from runner.errors import ExitCode
from runner.games import all_games
from runner.games.interface import Game

EXITS = "exit codes: 0, 70 a bug"


def add_arguments(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    pass


def players_text(game: Game) -> str:
    counts = game.player_counts
    if len(counts) == 1:
        return f"{counts[0]} players"
    return f"{counts[0]}-{counts[-1]} players"


def modes_text(game: Game) -> str:
    modes = [game.default_mode] + sorted(set(game.bot_modes) - {game.default_mode}, key=lambda m: m.value)
    return " or ".join(mode.value for mode in modes)


def run(args: argparse.Namespace, streams) -> int:
    games = all_games()
    width = max(len(game.name) for game in games)
    for game in games:
        print(f"{game.name:<{width}}  {players_text(game):<11}  bots {modes_text(game):<23}  {game.summary}",
              file=streams.out)
    return ExitCode.OK
