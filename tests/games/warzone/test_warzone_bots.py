"""The starter bots (Python, C++) and the reference bot: legal orders, the C++ starter plays the Python
starter's strategy order for order, and the reference bot beats both in at least 9 of 10 seeded 2-player
games (in-process through the Session; the C++ bot runs as a real process per turn)."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from warzone_helpers import MAPS, STARTER, starter_orders

from runner.games.interface import Answer
from runner.games.warzone import GAME

BOTS = STARTER.parents[1]
HARBOUR = GAME.configure(None, {"map": str(MAPS / "td-harbour.map")})


def reference_orders() -> Callable[[dict], list[str]]:
    spec = importlib.util.spec_from_file_location("warzone_reference_bot", BOTS / "reference" / "bot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.choose_orders


REFERENCE = reference_orders()
STARTER_PY = starter_orders()


@pytest.fixture(scope="module")
def cpp_bot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed: the C++ starter bot cannot be built")
    folder = Path(shutil.copytree(BOTS / "cplusplus", tmp_path_factory.mktemp("cpp") / "bot",
                                  ignore=shutil.ignore_patterns("bot")))
    subprocess.run(["sh", str(folder / "build.sh")], check=True, capture_output=True, timeout=120)
    return folder


def process_bot(folder: Path) -> Callable[[dict[str, str]], str]:
    """A per-turn bot process as the runner starts it: state files in, orders.txt out."""
    def ask(files: dict[str, str]) -> str:
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
        (folder / "orders.txt").unlink(missing_ok=True)
        subprocess.run([str(folder / "bot")], cwd=folder, check=True, timeout=10)
        return (folder / "orders.txt").read_text(encoding="utf-8")
    return ask


def in_process(choose: Callable[[dict], list[str]]) -> Callable[[dict[str, str]], str]:
    return lambda files: "".join(line + "\n" for line in choose(json.loads(files["state.json"])))


def play(config, seed: int, bots: dict[str, Callable[[dict[str, str]], str]], on_turn=None):
    """One match; `on_turn(seat, files, text)` sees every answer. Returns the session and rejections."""
    session = GAME.new_session(config, tuple(bots), seed, {})
    rejected = {seat: 0 for seat in bots}
    while session.outcome() is None:
        inputs = session.inputs()
        answers = {}
        for seat in session.active_seats():
            text = bots[seat](dict(inputs[seat].files))
            if on_turn:
                on_turn(seat, inputs[seat].files, text)
            answers[seat] = Answer(text)
        report = session.play_turn(answers)
        for seat, rows in report.rejected.items():
            rejected[seat] += len(rows)
    return session, rejected


def wins_of_reference(opponent, config=HARBOUR, games: int = 10) -> int:
    """Games the reference bot ranks first alone in, seats alternating; it never gets a rejection."""
    wins = 0
    for seed in range(games):
        reference_seat = "AB"[seed % 2]
        bots = {seat: in_process(REFERENCE) if seat == reference_seat else opponent for seat in "AB"}
        session, rejected = play(config, seed, bots)
        assert rejected[reference_seat] == 0
        wins += session.outcome().ranking[0] == (reference_seat,)
    return wins


def test_reference_beats_the_python_starter() -> None:
    assert wins_of_reference(in_process(STARTER_PY)) >= 9


def test_reference_beats_the_cpp_starter(cpp_bot: Path) -> None:
    assert wins_of_reference(process_bot(cpp_bot)) >= 9


@pytest.mark.parametrize("map_name", ["tiny-gates.map", "td-harbour.map"])
def test_cpp_starter_plays_the_python_strategy_legally(cpp_bot: Path, map_name: str) -> None:
    config = GAME.configure(None, {"map": str(MAPS / map_name), "max_turns": 30})
    compared = []

    def same_as_python(seat: str, files, text: str) -> None:
        if seat == "A":
            assert text.splitlines() == STARTER_PY(json.loads(files["state.json"]))
            compared.append(text)

    for seed in range(2):
        _, rejected = play(config, seed, {"A": process_bot(cpp_bot), "B": in_process(REFERENCE)}, same_as_python)
        assert rejected["A"] == 0
    assert compared and any("advance" in text for text in compared)
