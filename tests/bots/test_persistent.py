"""PersistentBot with tiny real bots: one process for the match, one request line and one answer per turn.

The bots follow Tower Defence's convention (the request line is the round, the answer `C;<round>;<command>`),
checked by the game's own `accept_line`. Every misbehaviour becomes TurnOutcome fields, never an exception.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import attrs
import pytest
from botfolders import isolation_modes, write_bot_json

import runner.bots.persistent as persistent_module

from runner.bots import isolation
from runner.bots.definition import load_bot
from runner.bots.languages import LaunchTemplate
from runner.bots.limits import Limits
from runner.bots.outcome import TurnOutcome, TurnStatus
from runner.bots.persistent import UNFLUSHED_HINT, PersistentBot, collect_all, exchange
from runner.games.tower_defence import GAME

QUICK = Limits(timeout_ms=5000)  # generous: python needs ~0.1 s to start, more on a loaded machine

#: The loop every test bot shares: `answer(round, line)` returns the command (None: answer nothing).
LOOP = """
import os, sys, time
def run(answer):
    for line in sys.stdin:
        round_ = int(line.split()[0])
        command = answer(round_, line)
        if command is not None:
            print(f"C;{round_};{command}", flush=True)
"""


@pytest.fixture
def persistent(python_bot) -> Iterator[Callable[..., PersistentBot]]:
    """`persistent(code, limits, startup_ms)` -> a PersistentBot running LOOP + `code`; closed after the test."""
    made: list[PersistentBot] = []

    def make(code: str, limits: Limits = QUICK, startup_ms: int = 10_000, name: str = "bot") -> PersistentBot:
        folder = python_bot(LOOP + textwrap.dedent(code), name)
        bot = PersistentBot(load_bot(folder), limits, GAME.accept_line, GAME.answer_file.name, startup_ms)
        made.append(bot)
        return bot

    yield make
    for bot in made:
        bot.close()


#: how `ask` asks: `PersistentBot.ask` (send, then collect_all), or `exchange` (the match loop's way when every
#: seat is persistent and the turn has no files: its usual turn in runner/bots/_pipes.c where built, or in Python)
WAYS = ("send+collect", "exchange", "exchange, pure Python")
_way = {"now": WAYS[0]}


@pytest.fixture(params=WAYS, autouse=True)
def asking_way(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if request.param == "exchange" and persistent_module._PIPES is None:
        pytest.skip("runner/bots/_pipes.c is not built (or is stale): the pure Python way covers exchange")
    if request.param == "exchange, pure Python":
        monkeypatch.setattr(persistent_module, "_PIPES", None)
    _way["now"] = request.param
    yield request.param
    _way["now"] = WAYS[0]


def ask(bot: PersistentBot, turn: int, files: dict[str, str] | None = None, line: str | None = None) -> TurnOutcome:
    line = str(turn) if line is None else line
    if files or _way["now"] == WAYS[0]:
        return bot.ask(turn, files or {}, line)
    return exchange([bot], turn, [line], lambda: None)[0]


def ask_all(bots: list[PersistentBot], turn: int) -> list[TurnOutcome]:
    """Every bot at once, as the match loop does."""
    if _way["now"] == WAYS[0]:
        return collect_all([(bot, bot.send(turn, {}, str(turn))) for bot in bots])
    return exchange(bots, turn, [str(turn)] * len(bots), lambda: None)


def marked(bot: PersistentBot) -> list[int]:
    """The live processes carrying this bot's marker (zombies excluded)."""
    return isolation.find_marked(f"{isolation.MARKER_ENV}={bot.marker}".encode() + b"\0")


@pytest.mark.parametrize("limits", isolation_modes())
def test_one_process_answers_every_turn_after_its_files_are_written(persistent, limits: Limits) -> None:
    bot = persistent("""
        answered = 0
        def answer(round_, line):
            global answered
            answered += 1  # counts across turns only if the process lives on
            state = open("state.json", encoding="utf-8").read()
            return f"{answered}|{state}|{os.path.exists('command.txt')}"
        run(answer)
    """, attrs.evolve(limits, timeout_ms=5000))
    for turn in range(4):
        (bot.bot.bot_dir / "command.txt").write_text("last round's")  # deleted before the line is sent
        outcome = ask(bot, turn, {"state.json": f"état {turn}", "textMap.txt": "map\n"})
        assert (outcome.status, outcome.command, outcome.exit_code, outcome.events, outcome.output) == (
            TurnStatus.OK, f"{turn + 1}|état {turn}|False", None, (), "",
        )
        assert 0 < outcome.seconds < 5
    assert (bot.bot.bot_dir / "textMap.txt").read_text() == "map\n"


def test_chatty_lines_and_stale_answers_are_output_not_answers(persistent) -> None:
    bot = persistent("""
        def answer(round_, line):
            print("thinking about", round_)
            print(f"C;{round_ - 1};stale")
            print(f"C;{round_}", flush=True)  # not an answer: no command field
            print("to stderr", file=sys.stderr, flush=True)
            time.sleep(0.05)
            return "1,2,3"
        run(answer)
    """)
    for turn in (3, 4):
        outcome = ask(bot, turn)
        assert (outcome.status, outcome.command, outcome.events) == (TurnStatus.OK, "1,2,3", ())
        assert outcome.output.splitlines() == [f"thinking about {turn}", f"C;{turn - 1};stale", f"C;{turn}",
                                               "to stderr"]


def test_lines_after_the_answer_are_next_turns_output(persistent) -> None:
    bot = persistent('run(lambda round_, line: f"ok\\nafter {round_}\\nC;{round_};again")')  # one write
    first = ask(bot, 0)
    assert (first.status, first.command, first.output) == (TurnStatus.OK, "ok", "")
    second = ask(bot, 1)
    assert (second.status, second.command, second.output) == (TurnStatus.OK, "ok", "after 0\nC;0;again\n")

def test_a_slow_answer_times_out_and_is_dropped_next_turn(persistent) -> None:
    bot = persistent("""
        def answer(round_, line):
            if round_ == 1:
                time.sleep(2.5)
            return f"{os.getpid()},{round_}"
        run(answer)
    """, Limits(timeout_ms=1000))
    first = ask(bot, 0)
    assert first.status is TurnStatus.OK
    slow = ask(bot, 1)
    assert (slow.status, slow.command, slow.exit_code, slow.events) == (
        TurnStatus.TIMEOUT, "", None, ("no answer within 1000 ms; the bot keeps running, a late answer is dropped",),
    )
    assert 1.0 <= slow.seconds < 2.0
    assert slow.detail == "did not finish within 1.0 s"  # a per-turn bot's words (Lanes logs them)
    time.sleep(2.0)  # the late answer arrives meanwhile
    late = ask(bot, 2)
    assert (late.status, late.command) == (TurnStatus.OK, f"{first.command.split(',')[0]},2")  # same process
    assert late.output == f"C;1;{first.command.split(',')[0]},1\n"  # the stale answer is output


@pytest.mark.parametrize("limits", isolation_modes())
def test_a_language_can_leave_variables_out_of_the_bots_environment(python_bot, limits: Limits,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A launch template's `unset_env` (Invaders' koth-js host: node spared NODE_EXTRA_CA_CERTS) is left out of
    the bot's environment; the rest is as usual (the runner's own, or the sandbox's few)."""
    monkeypatch.setenv("TD_TEST_LEFT_OUT", "left out")
    monkeypatch.setenv("HOME", "kept")  # passed in every mode, the sandbox's included
    folder = python_bot("""
        import os, sys
        for line in sys.stdin:
            print(os.environ.get("TD_TEST_LEFT_OUT", "-"), os.environ.get("HOME", "-"), flush=True)
    """)
    template = LaunchTemplate(("{python}", "{file}"), unset_env=("TD_TEST_LEFT_OUT",))
    bot = PersistentBot(load_bot(folder, {"python3": template}), limits, lambda line, turn: line, "none.txt",
                        10_000, answers_in_order=True)
    plain = PersistentBot(load_bot(folder), limits, lambda line, turn: line, "none.txt", 10_000,
                          answers_in_order=True)
    try:
        assert bot.bot.unset_env == ("TD_TEST_LEFT_OUT",)
        assert ask(bot, 0).command == "- kept"
        assert ask(plain, 0).command == ("- kept" if limits.sandbox else "left out kept")
    finally:
        bot.close()
        plain.close()


def test_in_order_answers_without_turn_numbers_drop_the_late_line(python_bot) -> None:
    """Invaders' lines carry no turn (`Game.answers_in_order`): after a time-out, the next line is the late
    answer, dropped, and every later turn still gets its own answer (not the one before)."""
    folder = python_bot("""
        import sys, time
        for line in sys.stdin:
            turn = int(line)
            if turn == 1:
                time.sleep(2.0)
            print(f"answer {turn}", flush=True)
    """)
    bot = PersistentBot(load_bot(folder), Limits(timeout_ms=1000), lambda line, turn: line, "none.txt",
                        10_000, answers_in_order=True)
    try:
        assert bot.ask(0, {}, "0").command == "answer 0"
        assert bot.ask(1, {}, "1").status is TurnStatus.TIMEOUT
        time.sleep(1.5)  # the late "answer 1" arrives meanwhile
        second = bot.ask(2, {}, "2")
        assert (second.status, second.command) == (TurnStatus.OK, "answer 2")
        assert second.output == "answer 1\n" and "dropped 1 late answer to an earlier turn" in second.events
        assert bot.ask(3, {}, "3").command == "answer 3"
    finally:
        bot.close()


def test_the_start_up_limit_is_for_the_first_turn_only(persistent) -> None:
    slow_start = persistent("""
        time.sleep(1.5)
        def answer(round_, line):
            if round_ == 1:
                time.sleep(1.5)
            return "ok"
        run(answer)
    """, Limits(timeout_ms=500), startup_ms=5000)
    first = ask(slow_start, 0)
    assert (first.status, first.command) == (TurnStatus.OK, "ok")
    assert first.seconds >= 1.5
    second = ask(slow_start, 1)
    assert second.status is TurnStatus.TIMEOUT
    assert second.events == ("no answer within 500 ms; the bot keeps running, a late answer is dropped",)

    silent = persistent("run(lambda round_, line: None)", Limits(timeout_ms=300), startup_ms=1500)
    first = ask(silent, 0)
    assert (first.status, first.events) == (TurnStatus.TIMEOUT, (  # nothing on stdout: the unflushed-answer hint
        "no start-up and first answer within 1500 ms; the bot keeps running, a late answer is dropped",
        UNFLUSHED_HINT))
    assert first.seconds >= 1.5
    second = ask(silent, 1)  # a bot that never answered gets the turn limit, not the start-up one, again
    assert second.status is TurnStatus.TIMEOUT and second.seconds < 1.2
    assert second.events == ("no answer within 300 ms; the bot keeps running, a late answer is dropped",)


def test_a_crash_is_described_and_every_later_turn_fails_without_a_restart(persistent) -> None:
    bot = persistent("""
        open("starts.txt", "a").write("started\\n")
        def answer(round_, line):
            if round_ == 1:
                print("about to fail", file=sys.stderr)
                sys.exit(3)
            return "ok"
        run(answer)
    """)
    assert ask(bot, 0).command == "ok"
    crash = ask(bot, 1)
    reason = "the bot process ended (exit code 3); it is not restarted"
    assert (crash.status, crash.command, crash.exit_code, crash.events) == (TurnStatus.CRASH, "", 3, (reason,))
    assert crash.detail == "exited with status 3"
    assert crash.output == "about to fail\n"
    for turn in (2, 3):
        later = ask(bot, turn)
        # the crash still in force: the game sees it, but it was told (and is counted) once, at its own turn
        assert (later.status, later.exit_code, later.events, later.seconds) == (TurnStatus.CRASH, 3, (), 0.0)
        assert later.repeated and not crash.repeated
    assert (bot.bot.bot_dir / "starts.txt").read_text() == "started\n"


@pytest.mark.parametrize("limits", isolation_modes())
def test_killed_by_a_signal_is_described_in_every_isolation_mode(persistent, limits: Limits) -> None:
    bot = persistent("""
        def answer(round_, line):
            if round_ == 1:
                print("waiting to be killed", flush=True)
                time.sleep(60)
            return "ok"
        run(answer)
    """, attrs.evolve(limits, timeout_ms=5000))
    assert ask(bot, 0).command == "ok"
    threading.Timer(0.5, kill_python_of, (bot,)).start()  # from outside: the bot is PID 1 of its namespace
    outcome = ask(bot, 1)
    assert (outcome.status, outcome.exit_code, outcome.events) == (
        TurnStatus.CRASH, -signal.SIGKILL,
        ("the bot process ended (killed by SIGKILL (the CPU time limit, or the kernel's out-of-memory killer)); "
         "it is not restarted",),
    )
    assert outcome.output == "waiting to be killed\n"  # and not the unshare wrapper's complaint


def kill_python_of(bot: PersistentBot) -> None:
    for pid in marked(bot):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                argv = handle.read().split(b"\0")
            if b"bot.py" in argv and os.path.basename(argv[0]).startswith(b"python"):  # not a launch wrapper
                os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def test_a_bot_that_cannot_start_fails_every_turn(tmp_path: Path) -> None:
    interpreter = tmp_path / "python-copy"
    shutil.copy(sys.executable, interpreter)
    folder = write_bot_json(tmp_path / "bot", botLanguage="custom", command=[str(interpreter), "-c", "pass"])
    bot = PersistentBot(load_bot(folder), QUICK, GAME.accept_line)
    interpreter.unlink()
    try:
        for turn in range(3):
            outcome = ask(bot, turn, {"state.json": "{}"})
            told = (f"failed to start: {interpreter} is missing or not executable",) if turn == 0 else ()
            assert (outcome.status, outcome.command, outcome.exit_code, outcome.events, outcome.repeated) == (
                TurnStatus.FAILED_TO_START, "", None, told, turn > 0,
            )  # told (and counted) once, at the first turn; every later turn fails the same way
        assert (folder / "state.json").read_text() == "{}"  # the files still come first
    finally:
        bot.close()


def test_output_floods_are_capped_and_counted(persistent) -> None:
    bot = persistent("""
        def answer(round_, line):
            if round_ == 0:
                sys.stdout.write("\\n" * 1_000_000)  # empty lines: each must cost the runner next to nothing
            elif round_ == 1:
                sys.stdout.write("y" * (3 << 20) + "\\n")  # one line longer than any the runner holds
            else:
                sys.stderr.write("z" * 3_000_000)
                sys.stderr.flush()
            return "ok"
        run(answer)
    """, Limits(timeout_ms=10_000, output_cap_bytes=1000))
    expected = {0: "\n" * 1000, 1: "y" * 1000, 2: "z" * 1000}
    dropped = {0: 1_000_000 - 1000, 1: (3 << 20) + 1 - 1000, 2: 3_000_000 - 1000}
    for turn in range(3):
        outcome = ask(bot, turn)
        assert (outcome.status, outcome.command) == (TurnStatus.OK, "ok")
        assert outcome.output == expected[turn]
        assert outcome.events == (f"output truncated: {format_dropped(dropped[turn])} dropped",)
        assert outcome.seconds < 8


def format_dropped(count: int) -> str:
    from runner.bots.outcome import format_size

    return format_size(count)


def test_a_request_longer_than_the_pipe_arrives_whole(persistent) -> None:
    bot = persistent("""
        time.sleep(1.0)  # not reading yet: the runner cannot write the whole line at once
        run(lambda round_, line: len(line))
    """)
    for turn in range(3):
        outcome = ask(bot, turn, line=f"{turn} " + "x" * 300_000)
        assert (outcome.status, outcome.command) == (TurnStatus.OK, str(len(f"{turn} ") + 300_000 + 1))


def test_a_bot_that_stops_reading_stdin_times_out_instead_of_blocking_the_runner(persistent) -> None:
    bot = persistent("""
        print("C;0;ok", flush=True)
        time.sleep(60)  # never reads its stdin
    """, Limits(timeout_ms=300), startup_ms=3000)
    results: list[TurnOutcome] = []

    def play() -> None:
        for turn in range(4):
            results.append(ask(bot, turn, line=f"{turn} " + "x" * 100_000))

    player = threading.Thread(target=play, daemon=True)  # a regression hangs this thread, not the test run
    player.start()
    player.join(timeout=20)
    assert not player.is_alive(), "ask() blocked writing the request"
    assert [outcome.status for outcome in results] == [TurnStatus.OK] + [TurnStatus.TIMEOUT] * 3
    assert all(outcome.seconds < 1.5 for outcome in results[1:])


@pytest.mark.parametrize("limits", isolation_modes())
def test_close_kills_the_whole_process_tree(persistent, limits: Limits) -> None:
    bot = persistent("""
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                time.sleep(600)
            os._exit(0)
        os.wait()  # the middle process is gone: the sleeper is an orphan in its own session
        run(lambda round_, line: "ok")
    """, attrs.evolve(limits, timeout_ms=5000))
    assert ask(bot, 0).command == "ok"
    assert len(marked(bot)) >= 2  # the bot and its sleeper (and the launch wrappers) carry the marker
    bot.close()
    assert marked(bot) == []
    bot.close()  # idempotent
    after = ask(bot, 1)  # the match loop never asks after close; if it did, nothing would be started
    assert (after.status, after.events) == (TurnStatus.CRASH, ("the bot was closed by the runner",))
    assert marked(bot) == []


def test_stderr_written_just_before_each_answer_is_that_turns_output(persistent) -> None:
    """No pause between the stderr line and the answer: the poll that shows the answer shows the stderr too
    (stdout is polled before stderr), so every turn's output holds its own line, never the next turn's."""
    bot = persistent("""
        def answer(round_, line):
            print(f"err {round_}", file=sys.stderr, flush=True)
            return "ok"
        run(answer)
    """)
    for turn in range(1, 301):
        outcome = ask(bot, turn)
        assert (outcome.command, outcome.output) == ("ok", f"err {turn}\n"), turn


def test_lines_written_one_by_one_stay_in_order_with_the_answer(persistent) -> None:
    """Each line in its own write, with pauses: the wait that takes a whole-line answer in one read also
    keeps a whole line that is no answer (and stderr in between) as this turn's output, in order."""
    bot = persistent("""
        def answer(round_, line):
            print(f"note {round_}", flush=True)
            time.sleep(0.01)
            print(f"err {round_}", file=sys.stderr, flush=True)
            time.sleep(0.01)
            print(f"C;{round_ - 1};stale", flush=True)
            time.sleep(0.01)
            return "ok"
        run(answer)
    """)
    for turn in range(1, 6):
        outcome = ask(bot, turn)
        assert (outcome.status, outcome.command, outcome.events) == (TurnStatus.OK, "ok", ())
        assert sorted(outcome.output.splitlines()) == sorted([f"note {turn}", f"err {turn}", f"C;{turn - 1};stale"])
        assert outcome.output.index(f"note {turn}") < outcome.output.index(f"C;{turn - 1};stale")


def test_an_answered_bots_stderr_while_another_thinks_is_this_turns_output(persistent) -> None:
    """Two bots collected together: the quick one answers, then writes stderr while the slow one thinks;
    that stderr belongs to this turn, and the quick one's stdout written after its answer to the next."""
    quick = persistent("""
        def answer(round_, line):
            print(f"C;{round_};quick", flush=True)
            time.sleep(0.02)
            print(f"after {round_}", file=sys.stderr, flush=True)
            print(f"C;{round_};extra", flush=True)
            return None
        run(answer)
    """)
    slow = persistent("""
        def answer(round_, line):
            time.sleep(0.1)
            return "slow"
        run(answer)
    """, name="slow")
    for turn in range(1, 4):
        fast_outcome, slow_outcome = ask_all([quick, slow], turn)
        assert (fast_outcome.command, slow_outcome.command) == ("quick", "slow")
        expected = f"after {turn}\n" if turn == 1 else f"C;{turn - 1};extra\nafter {turn}\n"
        assert fast_outcome.output == expected, turn
