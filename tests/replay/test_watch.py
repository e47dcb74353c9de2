"""`td-runner watch`: a run at start, a new run after a real edit of the bot, none for files the runner or an
editor write, a summary compared with the previous run, a clean stop on Ctrl-C."""

from __future__ import annotations

import io
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from runner.cli import main
from runner.commands.watch import MatchResult, content_hash, render_summary, runner_files
from runner.games import get_game

ROOT = Path(__file__).resolve().parents[2]
INVADERS = ROOT / "starter-bots" / "invaders"


def _wait_for(stream: io.StringIO, text: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while text not in stream.getvalue():
        assert time.monotonic() < deadline, f"{text!r} never printed; output:\n{stream.getvalue()}"
        time.sleep(0.05)


def test_an_edit_starts_a_new_run_and_runner_or_editor_files_do_not(tmp_path: Path) -> None:
    bot = tmp_path / "mine"
    shutil.copytree(INVADERS / "python3", bot)
    out, err = io.StringIO(), io.StringIO()
    args = ["watch", str(bot), "--game", "invaders", "--max-turns", "60", "--seeds", "2", "--runs", "2",
            "--debounce-ms", "200", "--output", str(tmp_path / "runs")]
    codes: list[int] = []
    thread = threading.Thread(target=lambda: codes.append(main(args, out=out, err=err)), daemon=True)
    thread.start()
    _wait_for(out, "(Ctrl-C stops)")
    assert "run 1 (start): 2 matches" in out.getvalue()
    assert "  vs reference: won-drew-lost " in out.getvalue()
    (bot / "state.json").write_text('{"turn": 1}', encoding="utf-8")  # what the runner writes
    (bot / ".bot.py.swp").write_bytes(b"vim")  # an editor's temp file
    (bot / "__pycache__").mkdir(exist_ok=True)
    (bot / "__pycache__" / "bot.cpython-311.pyc").write_bytes(b"\0")
    time.sleep(1.2)  # well past the debounce
    assert "run 2" not in out.getvalue()
    with (bot / "bot.py").open("a", encoding="utf-8") as handle:
        handle.write("\n# a real edit\n")
    _wait_for(out, "run 2 (the bot changed): 2 matches")
    thread.join(timeout=30)
    assert codes == [0], err.getvalue()
    text = out.getvalue()
    assert "(was " in text.split("run 2 (the bot changed)")[1]  # compared with run 1
    replay = text.rsplit("  replay: ", 1)[1].split(" (")[0]
    assert Path(replay).is_file() and Path(replay).parent.name == "run-002"
    # the default opponent is a private copy of the packaged reference bot, kept beside the runs
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == ["reference", "run-001", "run-002"]


def test_ctrl_c_stops_cleanly(tmp_path: Path) -> None:
    bot = tmp_path / "mine"
    shutil.copytree(INVADERS / "python3", bot)
    process = subprocess.Popen(
        [sys.executable, "-m", "runner", "watch", str(bot), "--game", "invaders", "--max-turns", "20",
         "--seeds", "1", "--output", str(tmp_path / "runs")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        lines = []
        for line in process.stdout:
            lines.append(line)
            if "(Ctrl-C stops)" in line:
                break
        process.send_signal(signal.SIGINT)
        rest, errors = process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == 0, errors
    assert rest.strip().endswith("stopped")


def test_content_hash_sees_code_not_runner_files(tmp_path: Path) -> None:
    ignored = runner_files(get_game("tower-defence"))
    assert {"state.json", "textMap.txt", "command.txt"} <= ignored
    (tmp_path / "bot.py").write_text("print(1)\n")
    first = content_hash(tmp_path, ignored)
    (tmp_path / "state.json").write_text("{}")
    (tmp_path / "command.txt").write_text("1,2,3")
    (tmp_path / "bot.py~").write_text("old")
    (tmp_path / ".#bot.py").write_text("lock")
    assert content_hash(tmp_path, ignored) == first
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "helper.py").write_text("x = 1\n")
    second = content_hash(tmp_path, ignored)
    assert second != first
    (tmp_path / "lib" / "helper.py").write_text("x = 1\n")  # saved again, same bytes
    assert content_hash(tmp_path, ignored) == second


def test_summary_names_the_first_invalid_command_and_the_changes(tmp_path: Path) -> None:
    def result(seed, outcome, score, faults, invalid, first=None):
        return MatchResult("reference", seed, tmp_path / f"s{seed}", outcome, score, "score", faults, invalid,
                           first, tmp_path / f"s{seed}.html")

    before = [result(0, "lost", 400, 1, 0), result(1, "lost", 420, 0, 0)]
    after = [result(0, "won", 500, 0, 2, "round 5: '9,9,9' -> Out of map bounds, X:9 Y: 9"),
             result(1, "lost", 440, 0, 0)]
    lines = render_summary(2, "the bot changed", 1.5, after, before, tmp_path)
    assert lines[0].startswith("run 2 (the bot changed): 2 matches in 1.5 s")
    assert lines[1] == ("  vs reference: won-drew-lost 1-0-1 (was 0-0-2)  score 470 (+60)  faults 0 (-1)  "
                        "invalid 2 (+2)")
    assert lines[2] == "  first invalid command: vs reference seed 0, round 5: '9,9,9' -> Out of map bounds, X:9 Y: 9"
    assert lines[3] == f"  replay: {tmp_path / 's1.html'} (lost vs reference, seed 1)"
