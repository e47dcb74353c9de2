"""A bot is not PID 1 of its namespace: its signals and exit status are what they would be outside the runner.

As PID 1, the kernel drops every signal the bot has no handler for when it comes from inside the namespace:
abort() ended in SIGSEGV (glibc's fallback after the ignored SIGABRT) and a self-sent SIGTERM did nothing.
"""

from __future__ import annotations

import signal
import textwrap
import uuid
from pathlib import Path

import attrs
import pytest
from botfolders import isolation_modes, processes_with

from runner.bots.definition import load_bot
from runner.bots.isolation import Isolation, check_isolation
from runner.bots.limits import Limits
from runner.bots.outcome import TurnStatus
from runner.bots.persistent import PersistentBot
from runner.bots.process import run_turn
from runner.games.tower_defence import GAME

FILES = {"state.json": "{}"}
TIMEOUT_MS = 20_000  # far above a Python start on a loaded machine: a bot that survives its own signal times out


def turn(folder: Path, limits: Limits):
    return run_turn(load_bot(folder), FILES, attrs.evolve(limits, timeout_ms=TIMEOUT_MS))


@pytest.mark.parametrize("limits", isolation_modes())
def test_abort_is_reported_as_sigabrt(python_bot, limits: Limits) -> None:
    outcome = turn(python_bot("import os; open('command.txt', 'w').write('1,1,1'); os.abort()"), limits)
    assert (outcome.status, outcome.exit_code, outcome.events) == (
        TurnStatus.CRASH, -signal.SIGABRT, ("killed by SIGABRT",),
    )
    assert outcome.command == "1,1,1"


@pytest.mark.parametrize("limits", isolation_modes())
def test_a_bot_that_sigterms_itself_dies_of_it_at_once(python_bot, limits: Limits) -> None:
    folder = python_bot("""
        import os, signal, time
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(60)
        open("command.txt", "w").write("survived")
    """)
    outcome = turn(folder, limits)
    assert (outcome.status, outcome.exit_code, outcome.events, outcome.command) == (
        TurnStatus.CRASH, -signal.SIGTERM, ("killed by SIGTERM",), "",
    )
    assert outcome.seconds < TIMEOUT_MS / 1000 / 2


@pytest.mark.parametrize("limits", isolation_modes())
def test_the_bot_is_not_pid_1_and_its_children_see_it_as_their_parent(python_bot, limits: Limits) -> None:
    folder = python_bot("""
        import os
        me = os.getpid()
        read, write = os.pipe()
        if os.fork() == 0:
            os.write(write, str(os.getppid() == me).encode())
            os._exit(0)
        os.wait()
        open("command.txt", "w").write(f"{me != 1},{os.read(read, 10).decode()}")
    """)
    outcome = turn(folder, limits)
    assert (outcome.status, outcome.command) == (TurnStatus.OK, "True,True")


@pytest.mark.parametrize("limits", isolation_modes())
def test_exit_codes_above_128_stay_exit_codes(python_bot, limits: Limits) -> None:
    if check_isolation(limits) is Isolation.SANDBOX:
        pytest.skip("bubblewrap reports a death by signal n as exit code 128 + n (runner/bots/README.md)")
    outcome = turn(python_bot("import sys; sys.exit(134)"), limits)
    assert (outcome.status, outcome.exit_code, outcome.events) == (TurnStatus.CRASH, 134, ("exit code 134",))


@pytest.mark.parametrize("limits", isolation_modes())
def test_what_an_aborting_bot_started_dies_with_the_turn(python_bot, limits: Limits, monkeypatch) -> None:
    tag = uuid.uuid4().hex
    monkeypatch.setenv("BOT_TEST_TAG", tag)
    folder = python_bot("""
        import os, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                time.sleep(600)
            os._exit(0)
        os.wait()
        os.abort()
    """)
    outcome = turn(folder, limits)
    assert (outcome.status, outcome.exit_code) == (TurnStatus.CRASH, -signal.SIGABRT)
    assert processes_with(f"BOT_TEST_TAG={tag}") == []


@pytest.mark.parametrize("limits", isolation_modes())
def test_a_persistent_bot_that_aborts_is_described(python_bot, limits: Limits) -> None:
    folder = python_bot(textwrap.dedent("""
        import os, sys
        line = sys.stdin.readline()
        print(f"C;{line.split()[0]};1,1,1", flush=True)
        sys.stdin.readline()
        os.abort()
    """))
    bot = PersistentBot(load_bot(folder), attrs.evolve(limits, timeout_ms=TIMEOUT_MS), GAME.accept_line)
    try:
        assert bot.ask(0, {}, "0").command == "1,1,1"
        outcome = bot.ask(1, {}, "1")
    finally:
        bot.close()
    assert (outcome.status, outcome.exit_code, outcome.events) == (
        TurnStatus.CRASH, -signal.SIGABRT, ("the bot process ended (killed by SIGABRT); it is not restarted",),
    )
