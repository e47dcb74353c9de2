"""The in-process API runs a persistent Lanes or Warzone bot folder through the core's frames, as a match does."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("numpy")

from runner.api.agents import FolderAgent  # noqa: E402
from runner.api.core import Episode, make_setup  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("game", "options", "starts"), [
    ("lanes", {"max_turns": 2}, "TURN 1\n"),
    ("warzone", {"max_turns": 2, "map": str(REPO / "runner/games/warzone/maps/tiny-ring.map")}, "deploy "),
])
def test_a_persistent_starter_folder_answers_through_the_frames(game: str, options: dict, starts: str) -> None:
    setup = make_setup(game, None, None, options)
    episode = Episode(setup, 0)
    seat = setup.game.seats(2)[0]
    agent = FolderAgent(setup.game, seat, REPO / "starter-bots" / game / "python3-persistent")
    try:
        agent.start(episode, seat)
        answer = agent.act()
    finally:
        agent.close()
    assert agent.persistent is None  # closed: the process is gone
    assert (answer.fault, answer.absent, answer.detail) == (None, None, "") and answer.text.startswith(starts)
