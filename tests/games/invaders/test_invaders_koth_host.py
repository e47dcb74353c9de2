"""The koth-js host (runner/games/invaders/koth_js/host.js) runs reference-style AIs under node, driven by a
real Session for a few hundred turns. Skipped when node is not installed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import runner.games.invaders as invaders_package
from runner.bots.definition import load_bot
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


def test_host_reads_requests_in_pieces_and_several_at_once() -> None:
    """The host's blocking reader joins a request split across writes (a UTF-8 character split too), answers
    each of several requests that arrive in one write, in order, and answers a last line without a newline."""
    process = subprocess.Popen([NODE, str(HOST), str(BOTS / "saver.js"), "throwingInvader"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    request = lambda turn: json.dumps({"turn": turn, "side": "invader", "state": {"turnNumber": turn, "n": "é"}},
                                      ensure_ascii=False).encode()
    first = request(1)
    split = first.index("é".encode()) + 1  # inside the two bytes of é
    try:
        process.stdin.write(first[:split])
        process.stdin.flush()
        process.stdin.write(first[split:] + b"\n")
        process.stdin.flush()
        assert process.stdout.readline() == b"{}\n"
        process.stdin.write(request(2) + b"\n" + request(4) + b"\n" + b"not json\n" + request(5))
        process.stdin.close()  # the last request has no newline: answered at the end of input
        rest = process.stdout.read().decode().splitlines()
    finally:
        process.wait(timeout=10)
    assert rest[:2] == ["{}", "null"] and rest[2].startswith("!bad request:") and rest[3] == "{}"
    assert process.returncode == 0 and len(rest) == 4


def test_host_still_answers_when_its_stdin_is_non_blocking() -> None:
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)  # reads fail with EAGAIN while no request is there: the host waits and retries
    try:
        process = subprocess.Popen([NODE, str(HOST), str(BOTS / "saver.js"), "throwingInvader"], stdin=read_end,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    finally:
        os.close(read_end)
    with os.fdopen(write_end, "wb") as requests:
        requests.write(b'{"turn":2,"side":"invader","state":{"turnNumber":2}}\n')
        requests.flush()
        assert process.stdout.readline() == b"{}\n"
        requests.write(b'{"turn":4,"side":"invader","state":{"turnNumber":4}}\n')
    assert process.stdout.read() == b"null\n" and process.wait(timeout=10) == 0


def test_the_host_is_started_without_node_extra_ca_certs() -> None:
    """node loads the certificates NODE_EXTRA_CA_CERTS names at every start (40-90 ms, on a machine behind a
    TLS-inspecting proxy); the host opens no connection, so its bots are started without it."""
    starter = Path(__file__).resolve().parents[3] / "starter-bots" / "invaders" / "koth-turret"
    bot = load_bot(starter, GAME.languages)
    assert bot.argv[:2] == ("node", str(HOST)) and bot.unset_env == ("NODE_EXTRA_CA_CERTS",)
