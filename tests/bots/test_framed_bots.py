"""PersistentBot speaking the core's frames (Lanes' answer file) with tiny real bots that misbehave: floods,
oversized answers, a process that dies in the middle of a frame, wrong headers. Never an exception."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterator

import pytest

from runner.bots.definition import load_bot
from runner.bots.limits import Limits
from runner.bots.outcome import TurnStatus
from runner.bots.persistent import PersistentBot
from runner.games import get_game
from runner.match import open_persistent

QUICK = Limits(timeout_ms=5000)  # generous: python needs ~0.1 s to start, more on a loaded machine
FILES = {"state.json": '{"turn": 1}', "map.txt": "..\n"}

#: the request loop every test bot shares: `answer(turn, files)` writes what it likes on stdout
LOOP = """
import os, sys
out = sys.stdout.buffer
def run(answer):
    while header := sys.stdin.buffer.readline():
        _, turn, count = header.split()
        files = {}
        for _ in range(int(count)):
            name, size = sys.stdin.buffer.readline().split()
            files[name.decode()] = sys.stdin.buffer.read(int(size)).decode()
        answer(int(turn), files)
        out.flush()
def frame(turn, data):
    out.write(b"answer %d %d\\n" % (turn, len(data)) + data)
"""


@pytest.fixture
def framed(python_bot) -> Iterator[Callable[[str], PersistentBot]]:
    made: list[PersistentBot] = []

    def make(code: str) -> PersistentBot:
        bot = open_persistent(get_game("lanes"), load_bot(python_bot(LOOP + textwrap.dedent(code))), QUICK)
        made.append(bot)
        return bot

    yield make
    for bot in made:
        bot.close()


def test_a_flood_and_an_oversized_answer_are_capped_and_the_frames_stay_in_step(framed) -> None:
    bot = framed("""
        def answer(turn, files):
            out.write(b"noise\\n" * 500_000)  # 3 MB of output lines first
            frame(turn, b"TURN %d\\n" % turn + b"#" * 70_000)
        run(answer)
    """)
    first = bot.ask(1, FILES, "")
    assert first.status is TurnStatus.OK and len(first.command) == 65_537  # the answer file's cap: 64 KiB + 1
    assert first.command.startswith("TURN 1\n") and first.absent is None
    assert "commands.txt larger than 64.0 KiB (68.4 KiB), read the first 64.0 KiB" in first.events
    assert any(event.startswith("output truncated") for event in first.events)
    second = bot.ask(2, FILES, "")
    assert second.status is TurnStatus.OK and second.command.startswith("TURN 2\n")


def test_the_files_arrive_whole_and_none_is_no_file(framed) -> None:
    bot = framed("""
        def answer(turn, files):
            if turn == 2:
                out.write(b"answer 2 none\\n")
            else:
                frame(turn, repr(sorted(files.items())).encode())
        run(answer)
    """)
    assert bot.ask(1, FILES, "").command == repr(sorted(FILES.items()))
    nothing = bot.ask(2, FILES, "")
    assert (nothing.status, nothing.command, nothing.absent.value) == (TurnStatus.OK, "", "no_file")


def test_wrong_headers_are_told_and_a_death_mid_frame_is_one_crash(framed) -> None:
    bot = framed("""
        def answer(turn, files):
            if turn == 1:
                out.write(b"answer one 5\\n")   # no header: output, and a note
                frame(turn + 5, b"later")        # a turn still to come: dropped, and a note
                frame(turn, b"ok")
            else:
                out.write(b"answer 2 100\\npartial")
                out.flush()
                os._exit(4)
        run(answer)
    """)
    first = bot.ask(1, FILES, "")
    assert first.command == "ok" and "answer one 5" in first.output
    assert any("is no answer header" in event for event in first.events)
    assert "dropped an answer to turn 6, which is not this turn (1)" in first.events
    died = bot.ask(2, FILES, "")
    assert died.status is TurnStatus.CRASH and died.detail == "exited with status 4"
    assert "partial" in died.output and not died.repeated
    again = bot.ask(3, FILES, "")
    assert again.status is TurnStatus.CRASH and again.repeated
