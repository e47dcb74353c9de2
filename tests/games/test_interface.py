"""Every registered game keeps the interface's promises (runner/games/check.py), and the checker is not blind."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.games import GAMES, get_game
from runner.games.check import check_game
from runner.games.interface import Answer, TurnReport

MAPS = Path(__file__).resolve().parents[2] / "runner" / "games" / "warzone" / "maps"
#: The match options a game cannot do without.
NEEDED = {"warzone": {"map": str(MAPS / "tiny-ring.map")}}


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_keeps_the_interface(name: str) -> None:
    assert check_game(get_game(name), NEEDED.get(name), turns=25) == []


def test_the_checker_finds_a_session_that_raises() -> None:
    game = get_game("tower-defence")

    class Fragile:
        def __init__(self, inner) -> None:
            self.inner = inner

        def __getattr__(self, name):
            return getattr(self.inner, name)

        def play_turn(self, answers: dict[str, Answer]) -> TurnReport:
            if any(answer.text.startswith("\x00") for answer in answers.values()):
                raise ValueError("cannot parse")
            return self.inner.play_turn(answers)

    class FragileGame:
        def __getattr__(self, name):
            return getattr(game, name)

        def new_session(self, *args):
            return Fragile(game.new_session(*args))

    problems = check_game(FragileGame(), turns=5)
    assert problems and "play_turn raised ValueError: cannot parse" in problems[0]
