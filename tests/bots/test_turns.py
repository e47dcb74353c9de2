"""run_turn with tiny real bots: each ordinary misbehaviour becomes TurnOutcome fields, never an exception."""

from __future__ import annotations

import os
import shutil
import sys
import threading
import uuid
from pathlib import Path

import attrs
import pytest
from botfolders import isolation_modes, processes_with, write_bot_json

from runner.bots import isolation
from runner.bots.definition import load_bot
from runner.bots.limits import Limits
from runner.bots.outcome import TurnStatus
from runner.bots.process import run_turn
from runner.errors import UserError
from runner.games.interface import Absent

FILES = {"state.json": '{"a":"é ✓","b":[1,2]}', "textMap.txt": "line 1\r\nline 2\n\n"}
QUICK = Limits(timeout_ms=5000)  # generous: python needs ~0.1 s to start, more on a loaded machine


def turn(folder: Path, limits: Limits = QUICK, files=FILES):
    return run_turn(load_bot(folder), files, limits)


def test_a_good_turn(python_bot) -> None:
    folder = python_bot("""
        import sys
        state = open("state.json", "rb").read()
        text_map = open("textMap.txt", "rb").read()
        print(state.hex(), text_map.hex())
        print("to stderr", file=sys.stderr)
        open("command.txt", "w").write("1,2,3\\n")
    """)
    outcome = turn(folder)
    state, text_map = (bytes.fromhex(part) for part in outcome.output.splitlines()[0].split())
    assert state == FILES["state.json"].encode()  # UTF-8, exact
    assert text_map == b"line 1\r\nline 2\n\n"  # no newline translation
    assert outcome.output.splitlines()[1] == "to stderr"  # one stream, like BotOutput.txt
    assert (outcome.status, outcome.command, outcome.exit_code, outcome.events) == (TurnStatus.OK, "1,2,3", 0, ())
    assert outcome.seconds > 0


def test_writes_nothing_and_last_rounds_command_is_gone(python_bot) -> None:
    folder = python_bot("pass")
    (folder / "command.txt").write_text("9,9,9\n")  # spec 7.4: deleted before the bot runs
    outcome = turn(folder)
    assert (outcome.status, outcome.command, outcome.events) == (TurnStatus.OK, "", ())
    assert (outcome.absent, outcome.detail) == (Absent.NO_FILE, "")  # no file, told apart from an empty one


def test_writes_an_empty_file(python_bot) -> None:
    outcome = turn(python_bot("open('command.txt', 'w').write('  \\n')"))
    assert (outcome.command, outcome.absent) == ("", None)  # blank: "" for every game (Answer.text)


def test_an_answer_file_it_may_not_read_is_refused_with_the_reason(python_bot) -> None:
    outcome = turn(python_bot("import os; os.symlink('/etc/hostname', 'command.txt')"))
    assert (outcome.status, outcome.command, outcome.absent) == (TurnStatus.OK, "", Absent.REFUSED)
    assert outcome.detail == ("wrote a command.txt that cannot be read: command.txt is a symlink to "
                              "/etc/hostname, outside the bot folder")


def test_writes_garbage(python_bot) -> None:
    outcome = turn(python_bot("open('command.txt', 'w').write('hello, world,,\\tx\\n2')"))
    assert (outcome.status, outcome.command, outcome.events) == (TurnStatus.OK, "hello, world,,\tx", ())


def test_exits_non_zero_and_its_command_still_counts(python_bot) -> None:
    folder = python_bot("""
        import sys
        open("command.txt", "w").write("4,5,1")
        print("bye")
        sys.exit(3)
    """)
    outcome = turn(folder)
    assert (outcome.status, outcome.command, outcome.output, outcome.exit_code, outcome.events) == (
        TurnStatus.CRASH, "4,5,1", "bye\n", 3, ("exit code 3",),
    )
    assert outcome.detail == "exited with status 3"  # what games say after "bot " (Lanes' E01)


def test_uncaught_exception_is_a_crash_with_its_traceback(python_bot) -> None:
    outcome = turn(python_bot("raise ValueError('bad bot')"))
    assert (outcome.status, outcome.exit_code, outcome.events) == (TurnStatus.CRASH, 1, ("exit code 1",))
    assert outcome.output.splitlines()[-1] == "ValueError: bad bot"


@pytest.mark.parametrize("limits", isolation_modes())
def test_killed_by_a_signal(python_bot, limits: Limits) -> None:
    outcome = turn(python_bot("import ctypes; ctypes.string_at(0)"), attrs.evolve(limits, timeout_ms=5000))
    assert (outcome.status, outcome.exit_code, outcome.events) == (TurnStatus.CRASH, -11, ("killed by SIGSEGV",))
    assert outcome.detail == "was killed by SIGSEGV"


@pytest.mark.parametrize("limits", isolation_modes())
def test_times_out_and_a_command_written_before_counts(python_bot, limits: Limits) -> None:
    folder = python_bot("""
        import time
        open("command.txt", "w").write("7,7,2")
        print("thinking", flush=True)
        time.sleep(60)
    """)
    outcome = turn(folder, attrs.evolve(limits, timeout_ms=1000))
    assert (outcome.status, outcome.command, outcome.exit_code, outcome.events) == (
        TurnStatus.TIMEOUT, "7,7,2", None, ("timed out after 1000 ms, process tree killed",),
    )
    assert outcome.output == "thinking\n"
    assert outcome.seconds >= 1.0


def test_times_out_without_a_command(python_bot) -> None:
    outcome = turn(python_bot("while True: pass"), Limits(timeout_ms=300))
    assert (outcome.status, outcome.command, outcome.events) == (
        TurnStatus.TIMEOUT, "", ("timed out after 300 ms, process tree killed",),
    )
    assert (outcome.detail, outcome.absent) == ("did not finish within 0.3 s", Absent.NO_FILE)  # fault and no file


@pytest.mark.parametrize("limits", isolation_modes())
def test_nothing_outlives_the_turn(python_bot, limits: Limits, monkeypatch) -> None:
    tag = uuid.uuid4().hex
    monkeypatch.setenv("BOT_TEST_TAG", tag)
    folder = python_bot("""
        import os, time
        for _ in range(5):
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    time.sleep(600)
                os._exit(0)
            os.wait()  # the middle process is gone before the answer: only the 5 sleepers are left over
        open("command.txt", "w").write("1,1,1")
    """)
    outcome = turn(folder, attrs.evolve(limits, timeout_ms=5000))
    assert (outcome.status, outcome.command) == (TurnStatus.OK, "1,1,1")
    assert processes_with(f"BOT_TEST_TAG={tag}") == []
    if isolation.check_isolation(limits) is isolation.Isolation.PROCESS_GROUP:
        assert outcome.events == ("killed 5 leftover processes",)


def test_output_is_capped_and_the_rest_counted(python_bot) -> None:
    outcome = turn(python_bot("import sys; sys.stdout.write('x' * 3048)"), Limits(output_cap_bytes=1000))
    assert outcome.output == "x" * 1000
    assert outcome.events == ("output truncated: 2 KiB dropped",)


def test_memory_limit(python_bot) -> None:
    folder = python_bot("""
        try:
            block = bytearray(1 << 30)
            answer = "got 1 GiB"
        except MemoryError:
            answer = "MemoryError"
        open("command.txt", "w").write(answer)
    """)
    assert turn(folder, Limits(memory_bytes=256 << 20)).command == "MemoryError"


def test_file_size_limit(python_bot) -> None:
    folder = python_bot("""
        import errno
        try:
            open("big.bin", "wb").write(b"x" * (2 << 20))
            answer = "wrote 2 MiB"
        except OSError as exc:
            answer = errno.errorcode[exc.errno]
        open("command.txt", "w").write(answer)
    """)
    assert turn(folder, Limits(file_size_bytes=1 << 20)).command == "EFBIG"


def test_open_files_limit(python_bot) -> None:
    folder = python_bot("""
        handles = []
        try:
            while len(handles) < 100:
                handles.append(open("bot.py"))
        except OSError:
            pass
        count = len(handles)
        for handle in handles:
            handle.close()
        open("command.txt", "w").write(str(count < 16))
    """)
    assert turn(folder, Limits(open_files=16)).command == "True"


def test_state_json_symlink_is_replaced_not_written_through(python_bot, tmp_path: Path) -> None:
    folder = python_bot("pass")
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    os.symlink(victim, folder / "state.json")
    outcome = turn(folder)
    assert outcome.status is TurnStatus.OK
    assert victim.read_text() == "precious\n"
    assert not (folder / "state.json").is_symlink()
    assert (folder / "state.json").read_text(encoding="utf-8") == FILES["state.json"]


def test_interpreter_gone_since_loading(tmp_path: Path) -> None:
    interpreter = tmp_path / "python-copy"
    shutil.copy(sys.executable, interpreter)
    folder = write_bot_json(tmp_path / "bot", botLanguage="custom", command=[str(interpreter), "-c", "pass"])
    bot = load_bot(folder)
    interpreter.unlink()
    outcome = run_turn(bot, FILES, QUICK)
    assert (outcome.status, outcome.command, outcome.exit_code) == (TurnStatus.FAILED_TO_START, "", None)
    assert outcome.events == (f"failed to start: {interpreter} is missing or not executable",)


def test_bot_folder_gone_since_loading(python_bot) -> None:
    folder = python_bot("pass")
    bot = load_bot(folder)
    shutil.rmtree(folder)
    outcome = run_turn(bot, FILES, QUICK)
    assert outcome.status is TurnStatus.FAILED_TO_START
    assert outcome.events == (f"bot folder {folder} cannot be opened (No such file or directory)",)


def test_two_bots_at_once_from_two_threads(python_bot) -> None:
    bots = [load_bot(python_bot(f"open('command.txt', 'w').write('{n},{n},0')", name=f"bot{n}")) for n in (1, 2)]
    results: dict[int, list[str]] = {1: [], 2: []}

    def play(n: int) -> None:
        for _ in range(5):
            results[n].append(run_turn(bots[n - 1], FILES, QUICK).command)

    threads = [threading.Thread(target=play, args=(n,)) for n in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == {1: ["1,1,0"] * 5, 2: ["2,2,0"] * 5}


def test_sandbox_without_bubblewrap_is_a_clear_error(python_bot, monkeypatch) -> None:
    monkeypatch.setattr(isolation, "_bwrap_path", lambda: None)
    with pytest.raises(UserError) as caught:
        isolation.check_isolation(Limits(sandbox=True))
    assert str(caught.value) == (
        "--sandbox needs bubblewrap (`bwrap`), which is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    )


def test_limits_reject_nonsense() -> None:
    with pytest.raises(ValueError, match="timeout_ms must be a positive integer"):
        Limits(timeout_ms=0)


def sandbox_or_skip() -> Limits:
    limits = Limits(sandbox=True, timeout_ms=5000)
    try:
        isolation.check_isolation(limits)
    except UserError as exc:
        pytest.skip(str(exc))
    return limits


def test_sandbox_passes_only_harmless_environment_variables(python_bot, monkeypatch) -> None:
    limits = sandbox_or_skip()
    monkeypatch.setenv("CLOUD_SECRET_TOKEN", "hunter2")
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    folder = python_bot("""
        import os
        print(sorted(key for key in os.environ if key in ("CLOUD_SECRET_TOKEN", "LC_ALL", "PATH", "TMPDIR")))
    """)
    assert turn(folder, limits).output == "['LC_ALL', 'PATH', 'TMPDIR']\n"
    assert "CLOUD_SECRET_TOKEN" in turn(folder, attrs.evolve(limits, sandbox=False)).output


def test_sandbox_hides_the_opponents_folder(python_bot) -> None:
    limits = sandbox_or_skip()
    opponent = python_bot("pass", name="opponent")
    (opponent / "command.txt").write_text("1,1,1\n")
    folder = python_bot(f"""
        import os
        try:
            answer = open({str(opponent / "command.txt")!r}).read().strip()
        except OSError as exc:
            answer = type(exc).__name__
        open("command.txt", "w").write(answer)
    """)
    # without any isolation it is there (with a PID namespace, the bot's own /tmp hides it when under /tmp)
    assert turn(folder, attrs.evolve(limits, sandbox=False, pid_namespace=False)).command == "1,1,1"
    assert turn(folder, attrs.evolve(limits, hidden_paths=[opponent])).command == "FileNotFoundError"
    # hiding a folder that holds the bot's own folder too: the bot's folder stays visible and writable
    assert turn(folder, attrs.evolve(limits, hidden_paths=[folder.parent])).command == "FileNotFoundError"
    assert (opponent / "command.txt").read_text() == "1,1,1\n"
