"""Short matches of scripted console players, played in-process by the real match loop (no processes), for
the log tools' tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from runner.games import get_game
from runner.match import Player
from runner.play import MatchPlan, start_match

SHORT = {"max_turns": 4, "max_rounds": 4}  # whichever turn cap a game's options have


def steady(seat: str, view: str) -> str:
    return "null"  # nothing every game can play on: refused or no action, never a disqualification


def play(game_name: str, folder: Path, first_seat: Callable[[int], str] | None = None) -> Path:
    """One short match of console players answering `steady`; `first_seat(call)` answers for the first seat."""
    game = get_game(game_name)
    seats = game.seats(game.player_counts[0])
    values = {option.dest: option.default for option in game.options}
    values.update({dest: value for dest, value in SHORT.items() if dest in values})
    plan = MatchPlan(game, tuple(Player(seat, f"{seat} - Script", None) for seat in seats), values,
                     game.configure(None, values))
    calls: list[str] = []

    def answer(seat: str, view: str) -> str:
        calls.append(seat)
        if seat == seats[0] and first_seat is not None:
            return first_seat(calls.count(seat))
        return steady(seat, view)

    summary = start_match(plan, folder, console_input=answer).run()
    assert summary.rounds >= 2, f"{game_name}: the match lasted {summary.rounds} turn(s)"
    return folder
