"""`td-runner watch` on a compiled bot: it builds before every run, so an edit of the source plays the new
binary; a build error is the run's result; edits made while a run is going on give exactly one more run;
with no opponent named it plays a copy of the packaged reference bot, for every game; a game without
randomness plays one seed. The bot is `td-runner new`'s C starter for Lanes (a one-turn match)."""

from __future__ import annotations

import io
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from runner.bundled import REFERENCE_BOTS
from runner.cli import build_parser, main
from runner.commands.new import write_starter
from runner.commands.watch import _plan, watch
from runner.games import GAMES

needs_cc = pytest.mark.skipif(shutil.which("cc") is None, reason="cc is not installed: no C starter to build")


class Output:
    """The lines `watch` prints, and a hook called with each (the test's edits happen there)."""

    def __init__(self, hook: Callable[[str], None] = lambda line: None) -> None:
        self.lines: list[str] = []
        self.hook = hook
        self.lock = threading.Lock()

    def __call__(self, line: str) -> None:
        with self.lock:
            self.lines.append(line)
        self.hook(line)

    @property
    def text(self) -> str:
        with self.lock:
            return "\n".join(self.lines)

    def wait_for(self, text: str, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while text not in self.text:
            assert time.monotonic() < deadline, f"{text!r} never printed; output:\n{self.text}"
            time.sleep(0.05)


def start_watch(bot: Path, runs: Path, out: Output, *extra: str) -> tuple[threading.Event, threading.Thread]:
    args = build_parser("watch", ["watch", "--game", "lanes"]).parse_args(
        ["watch", str(bot), "--game", "lanes", "--debounce-ms", "150", "--output", str(runs), *extra])
    stop = threading.Event()
    thread = threading.Thread(target=watch, args=(_plan(args), out, stop), daemon=True)
    thread.start()
    return stop, thread


def edit(bot: Path, old: str, new: str) -> None:
    source = bot / "bot.c"
    text = source.read_text()
    assert old in text
    source.write_text(text.replace(old, new))


@needs_cc
def test_an_edit_is_built_and_played_and_a_build_error_is_the_run_result(tmp_path: Path) -> None:
    bot = tmp_path / "mine"
    write_starter(bot, "lanes", "c")
    assert not (bot / "bot").exists()  # never built by hand: watch builds it
    out = Output()
    stop, thread = start_watch(bot, tmp_path / "runs", out)
    try:
        out.wait_for("(Ctrl-C stops)")
        assert "  built (build.sh: sh build.sh, " in out.text
        assert "run 1 (start): 1 match in " in out.text and "no invalid command" in out.text
        played = sorted(p.name for p in (tmp_path / "runs" / "run-001").iterdir() if p.is_dir())
        assert played == ["reference-seed0"]  # Lanes ignores the seed: one seed
        # the new binary plays: a tower on column 9 is refused (E09), which the old binary never wrote
        edit(bot, 'fprintf(out, "BUILD missile %d 2\\n", col);', 'fprintf(out, "BUILD missile %d 2\\n", col + 8);')
        out.wait_for("run 2 (the bot changed): 1 match")
        assert "first invalid command: vs reference seed 0, turn 1: " in out.text and "E09" in out.text
        # a build error: the compiler's words are the run's result, and no match is played
        edit(bot, "int main(void) {", "int main(void) { this is not C;")
        out.wait_for("run 3 (the bot changed): build failed (build.sh): `sh build.sh` exited with code 1")
        out.wait_for("(Ctrl-C stops)", 10)
        third = out.text.split("run 3 starting", 1)[1]
        assert "  | bot.c:" in third and "error" in third and "match in" not in third
        assert not (tmp_path / "runs" / "run-003").exists()
    finally:
        stop.set()
        thread.join(timeout=30)


@needs_cc
def test_edits_during_a_run_give_exactly_one_more_run(tmp_path: Path) -> None:
    bot = tmp_path / "mine"
    write_starter(bot, "lanes", "c")

    def during_run_one(line: str) -> None:
        if line.startswith("run 1 starting"):  # the run is under way: its build and match come after this
            for n in range(3):  # several saves, one run
                edit(bot, "int main(void) {", f"int main(void) {{ /* edit {n} */")

    out = Output(during_run_one)
    stop, thread = start_watch(bot, tmp_path / "runs", out)
    try:
        out.wait_for("run 2 (the bot changed during run 1): 1 match")
        out.wait_for("(Ctrl-C stops)", 10)
        time.sleep(1.5)  # ten debounce times: nothing else changed, so nothing else runs
        assert "run 3" not in out.text, out.text
        assert out.text.count("(Ctrl-C stops)") == 1  # run 1 went straight on to run 2
    finally:
        stop.set()
        thread.join(timeout=30)


#: game -> a short match's options, and the number of seeds watch plays by default
SHORT = {"tower-defence": (["--max-rounds", "3"], 2), "lanes": ([], 1), "warzone": (["--max-turns", "2"], 2),
         "invaders": (["--max-turns", "30"], 1)}


@pytest.mark.parametrize("game", list(GAMES))
def test_with_no_opponent_watch_plays_a_copy_of_the_packaged_reference(
        game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bot = tmp_path / "mine"
    write_starter(bot, game, "python")
    monkeypatch.chdir(tmp_path)  # outside the repository
    options, seeds = SHORT[game]
    out, err = io.StringIO(), io.StringIO()
    code = main(["watch", str(bot), "--game", game, "--runs", "1", "--output", "runs", *options], out=out, err=err)
    assert code == 0, err.getvalue()
    text = out.getvalue()
    assert f"1 opponent x {seeds} seed{'s' if seeds > 1 else ''};" in text
    assert f"run 1 (start): {seeds} match{'es' if seeds > 1 else ''} in " in text and "  vs reference: " in text
    copy = tmp_path / "runs" / "reference"
    packaged = REFERENCE_BOTS / game.replace("-", "_")
    assert (copy / "bot.json").read_bytes() == (packaged / "bot.json").read_bytes()
    assert not any(p.name in ("state.json", "textMap.txt", "state.txt") for p in packaged.iterdir()
                   if p.stat().st_mtime > copy.stat().st_mtime)  # the packaged folder was not played in
