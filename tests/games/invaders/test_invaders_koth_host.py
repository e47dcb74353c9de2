"""The koth-js host (runner/games/invaders/koth_js/host.js) runs reference-style AIs under node, driven by a
real Session for a few hundred turns. Skipped when node is not installed."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import runner.games.invaders as invaders_package
from runner.games.interface import Answer
from runner.games.invaders import GAME
from runner.games.invaders.rules import constants as C

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

HOST = Path(invaders_package.__file__).parent / "koth_js" / "host.js"
BOTS = Path(__file__).parent / "bots"


class HostedBot:
    """One persistent `node host.js` process: a request line in, an answer line out."""

    def __init__(self, bot_file: str, entry: str) -> None:
        self.process = subprocess.Popen(
            [NODE, str(HOST), str(BOTS / bot_file), entry],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def ask(self, line: str) -> str:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return GAME.accept_line(self.process.stdout.readline(), 0)

    def close(self) -> str:
        """End the process; its stderr text."""
        _, err = self.process.communicate(timeout=10)
        return err


def test_hosted_reference_style_ais_play_a_session() -> None:
    defender, invader = HostedBot("backline.js", "backlineBuilder()"), HostedBot("saver.js", "saverInvader")
    session = GAME.new_session(GAME.configure(None, {"max_turns": 300}), GAME.seats(2), 0, {})
    spawns = 0
    try:
        while session.outcome() is None:
            inputs = session.inputs()
            answers = {
                "defender": Answer(defender.ask(inputs["defender"].line)),
                "invader": Answer(invader.ask(inputs["invader"].line)),
            }
            report = session.play_turn(answers)
            assert "faults" not in report.record and "invader" not in report.rejected, report
            spawns += report.record["sp"]
    finally:
        defender_log, invader_log = defender.close(), invader.close()
    assert session.outcome().reason == "max_turns" and session.turn == 300
    towers = session.state.towers
    assert [t.pos for t in towers if t and t.type == C.TURRET] == [96, 97, 98, 99]
    assert towers[95].type == C.STUNNER
    # 1 gold per 10 turns: an upgrade on turns 100, 200 and 300, from the back of the wall
    assert [t.pos for t in towers if t and t.power == 2] == [97, 98, 99]
    assert spawns > 5 and any(i and i.defense == 2 for i in session.state.invaders)
    assert "upgrading" in defender_log and invader_log == ""


def test_host_answers_null_for_undefined_and_a_fault_line_for_an_exception() -> None:
    bot = HostedBot("saver.js", "throwingInvader")
    try:
        answers = [bot.ask(json.dumps({"turn": t, "side": "invader", "state": {"turnNumber": t}})) for t in (2, 3, 4)]
    finally:
        err = bot.close()
    assert answers[0] == "{}" and answers[1] == "!exception: boom" and answers[2] == "null"
    assert "AI exception on turn 3" in err
    session = GAME.new_session(GAME.configure(None, {}), GAME.seats(2), 0, {})
    session.play_turn({"defender": Answer("null"), "invader": Answer(answers[1])})
    assert session.outcome().details["disqualified"] == "invader"


def test_host_rejects_an_entry_that_is_not_a_function() -> None:
    result = subprocess.run([NODE, str(HOST), str(BOTS / "saver.js"), "42"], capture_output=True, text=True, timeout=10)
    assert result.returncode == 2 and "is not a function" in result.stderr
