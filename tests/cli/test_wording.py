"""Words the commands print: plurals that agree with their number, counts that match what is listed,
`--max-rounds 6` ending "after round 6", the fault that decided a match named with its bot and turn, the
unflushed-stdout hint for a persistent bot that never answers, and `--version` naming the compiled parts."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from runner.bundled import copy_reference
from runner.cli import main, version_text
from runner.words import ordinal, plural

REPO = Path(__file__).resolve().parents[2]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_plurals_and_ordinals() -> None:
    assert [plural(n, "match") for n in (0, 1, 2)] == ["0 matches", "1 match", "2 matches"]
    assert [plural(n, "seed") for n in (1, 3)] == ["1 seed", "3 seeds"]
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th"]


def test_max_rounds_6_ends_after_round_6(tmp_path: Path) -> None:
    bots = REPO / "starter-bots"
    code, out, err = run("match", str(bots / "python3"), str(copy_reference("tower-defence", tmp_path / "ref")),
                         "--max-rounds", "6", "--quiet", "--output", str(tmp_path), "--name", "m")
    assert code == 0, err
    assert " after round 6 (" in out, out
    assert json.loads((tmp_path / "m" / "match.json").read_text())["rounds"] == 7  # rounds 0 to 6, as before


def test_lanes_validate_counts_the_problems_it_lists(tmp_path: Path) -> None:
    commands = tmp_path / "commands.txt"
    commands.write_text("TURN 1\nBUILD foo 1 1\nRECRUIT bar\nRECRUIT baz\nEND\n")
    code, out, err = run("validate", "--game", "lanes", str(commands))
    listed = [line for line in out.splitlines() if line.startswith(str(commands))]
    assert code == 1 and len(listed) == 3, out
    assert f"1 of 1 file invalid (3 problems)" in err, err


@pytest.mark.skipif(shutil.which("cc") is None, reason="cc is not installed: no unflushed C bot to build")
def test_a_persistent_bot_that_never_flushes_is_told_why_and_the_result_names_the_fault(tmp_path: Path) -> None:
    bot = tmp_path / "noflush"
    bot.mkdir()
    (bot / "bot.c").write_text('#include <stdio.h>\nint main(void) { char line[1 << 17];\n'
                               '  while (fgets(line, sizeof line, stdin)) printf("null\\n");  /* never flushed */\n'
                               '  return 0; }\n')
    subprocess.run(["cc", "-o", str(bot / "bot"), str(bot / "bot.c")], check=True)
    (bot / "bot.json").write_text(json.dumps({
        "author": "me", "email": "me@example.invalid", "nickName": "NoFlush", "botLocation": "/",
        "botFileName": "bot", "botLanguage": "custom", "command": ["./{file}"], "persistent": True}))
    reference = copy_reference("invaders", tmp_path / "ref")
    code, out, err = run("match", "--game", "invaders", str(reference), str(bot), "--startup-ms", "1000", "--quiet",
                         "--output", str(tmp_path), "--name", "m")
    assert code == 0, err
    # the result line: who was disqualified, in which turn, and why (not "a bot was disqualified (crash, ...)")
    assert "(invader - NoFlush disqualified in turn 1: no start-up and first answer within " in out, out
    assert "crash, time-out or an answer that is not JSON" not in out
    for text in (out, err):
        assert "fflush(stdout)" in text and "setvbuf" in text and "System.out.flush()" in text
        assert "flush=True" in text
    assert "never answered in 1 turn (" in err, err


def test_a_bot_that_answers_late_gets_no_flush_hint(tmp_path: Path) -> None:
    bot = tmp_path / "slow"
    bot.mkdir()
    (bot / "bot.py").write_text("import sys, time\nprint('warming up', flush=True)\ntime.sleep(5)\n")
    (bot / "bot.json").write_text(json.dumps({
        "author": "me", "email": "me@example.invalid", "nickName": "Slow", "botLocation": "/",
        "botFileName": "bot.py", "botLanguage": "python3", "persistent": True}))
    reference = copy_reference("invaders", tmp_path / "ref")
    code, out, err = run("match", "--game", "invaders", str(reference), str(bot), "--startup-ms", "1000", "--quiet",
                         "--output", str(tmp_path), "--name", "m")
    assert code == 0 and "disqualified in turn 1" in out, out + err
    assert "fflush" not in out + err  # it wrote on stdout: flushing is not its problem


def test_version_names_the_compiled_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    from runner.bots import persistent
    from runner.games.invaders import board

    text = version_text()
    assert text.startswith("td-runner ") and "no compiled build" not in text
    if board._COMPILED is not None and persistent._PIPES is not None:
        assert "compiled: the Invaders board, persistent bots' pipes" in text
    monkeypatch.setenv("TD_RUNNER_PURE_PYTHON", "1")
    assert "pure Python everywhere (TD_RUNNER_PURE_PYTHON is set)" in version_text()
    shown = subprocess.run([sys.executable, "-m", "runner", "--version"], capture_output=True, text=True, cwd=REPO,
                           env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)})
    assert shown.returncode == 0 and shown.stdout.startswith("td-runner "), shown.stderr
