"""The Python starter bot (starter-bots/invaders/python3) plays both seats of a Session as a real process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from runner.games.interface import Answer
from runner.games.invaders import GAME

STARTER = Path(__file__).parents[3] / "starter-bots" / "invaders" / "python3"


def test_bot_json_declares_a_persistent_python_bot() -> None:
    data = json.loads((STARTER / "bot.json").read_text())
    assert data["persistent"] is True and data["botLanguage"] == "python3" and data["botFileName"] == "bot.py"


def test_starter_bot_plays_both_sides_without_a_rejection() -> None:
    bots = {
        seat: subprocess.Popen(
            [sys.executable, str(STARTER / "bot.py")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        for seat in GAME.seats(2)
    }
    session = GAME.new_session(GAME.configure(None, {"max_turns": 400}), GAME.seats(2), 0, {})
    spawned = 0
    try:
        while session.outcome() is None:
            answers = {}
            for seat, line in ((s, i.line) for s, i in session.inputs().items()):
                bots[seat].stdin.write(line + "\n")
                bots[seat].stdin.flush()
            for seat, bot in bots.items():
                answers[seat] = Answer(GAME.accept_line(bot.stdout.readline(), session.turn))
            report = session.play_turn(answers)
            assert report.rejected == {} and "faults" not in report.record, report
            spawned += report.record["sp"]
    finally:
        for bot in bots.values():
            bot.stdin.close()
            bot.wait(timeout=10)
    assert session.outcome().reason == "max_turns"
    assert [t.pos for t in session.state.towers if t] == list(range(91, 100))  # 50 gold at start, then 1 per 10 turns
    on_board = sum(1 for i in session.state.invaders if i)
    assert spawned >= 10 and on_board + session.state.invaders_through < spawned  # the wall kills some
