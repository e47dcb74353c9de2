"""Native bots: the C++ starter plays move for move like the Python starter (both seats, real processes
through `td-runner match`), and the Python reference bot beats the starters (in-process over a Session).
The C++ test skips without g++."""

from __future__ import annotations

import importlib.util
import io
import json
import shutil
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

from runner.cli import main
from runner.games.interface import Answer
from runner.games.invaders import GAME

BOTS = Path(__file__).parents[3] / "starter-bots" / "invaders"
PYTHON = BOTS / "python3"


def load_bot(folder: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"invaders_bot_{folder}", BOTS / folder / "bot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play(defender, invader, max_turns: int) -> tuple[int, int, str]:
    """(turns, defender life, end reason) of a Session played by two in-process strategy objects."""
    session = GAME.new_session(GAME.configure(None, {"max_turns": max_turns}), GAME.seats(2), 0, {})
    while session.outcome() is None:
        request = json.loads(session.inputs()["defender"].line)  # both seats see the same state (spec 4 H)
        answers = {"defender": json.dumps(defender.act(request["state"])),
                   "invader": json.dumps(invader.act(request["state"]))}
        report = session.play_turn({seat: Answer(text) for seat, text in answers.items()})
        assert "faults" not in report.record
    return session.turn, session.state.defender_life, session.outcome().reason


def test_reference_bot_json_is_a_persistent_python_bot() -> None:
    data = json.loads((BOTS / "reference" / "bot.json").read_text())
    assert data["persistent"] is True and data["botLanguage"] == "python3"


def test_reference_beats_the_starters_on_both_sides() -> None:
    starter, reference = load_bot("python3"), load_bot("reference")
    baseline_turns, life, reason = play(starter.Defender(), starter.Invader(), 4000)
    assert reason == "life" and life == 0 and 2000 < baseline_turns < 4000  # starter vs starter: 2930 turns

    # the reference defender outlasts the starter defender against the starter invader: its stun lock holds
    turns, life, reason = play(reference.Defender(), starter.Invader(), baseline_turns + 200)
    assert reason == "max_turns" and life >= 99

    # the reference invader ends the game against the starter defender sooner than the starter invader does
    turns, life, reason = play(starter.Defender(), reference.Invader(), baseline_turns)
    assert reason == "life" and life == 0 and turns < baseline_turns * 0.9


@pytest.fixture(scope="module")
def cpp_bot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed (the C++ starter bot needs it)")
    folder = tmp_path_factory.mktemp("cpp") / "cplusplus"
    shutil.copytree(BOTS / "cplusplus", folder, ignore=shutil.ignore_patterns("bot"))
    subprocess.run(["sh", str(folder / "build.sh")], check=True, capture_output=True, timeout=120)
    return folder


def match_rows(tmp_path: Path, name: str, defender: Path, invader: Path) -> list[dict]:
    err = io.StringIO()
    code = main(["match", "--game", "invaders", "--quiet", "--max-turns", "600", "--output", str(tmp_path),
                 "--name", name, str(defender), str(invader)], out=io.StringIO(), err=err)
    assert code == 0, err.getvalue()
    return [json.loads(line) for line in (tmp_path / name / "log.jsonl").read_text().splitlines()]


def test_cpp_starter_plays_like_the_python_starter(cpp_bot: Path, tmp_path: Path) -> None:
    python_rows = match_rows(tmp_path, "py", PYTHON, PYTHON)
    assert len(python_rows) == 600 and sum(row["sp"] for row in python_rows) >= 10
    assert any(row["da"] and row["da"]["action"] == "upgrade" for row in python_rows)
    assert match_rows(tmp_path, "cpp-defends", cpp_bot, PYTHON) == python_rows
    assert match_rows(tmp_path, "cpp-invades", PYTHON, cpp_bot) == python_rows


def test_the_readme_example_bot_plays_both_sides(tmp_path: Path) -> None:
    readme = (Path(__file__).parents[3] / "runner" / "games" / "invaders" / "README.md").read_text()
    code = readme.split("```python\n", 1)[1].split("```", 1)[0]
    assert len(code.splitlines()) == 10
    (tmp_path / "bot.py").write_text(code)
    bot = json.loads((PYTHON / "bot.json").read_text())
    (tmp_path / "bot.json").write_text(json.dumps({**bot, "nickName": "ReadmeExample"}))
    err = io.StringIO()
    assert main(["match", "--game", "invaders", "--quiet", "--max-turns", "120", "--output", str(tmp_path),
                 "--name", "m", str(tmp_path), str(tmp_path)], out=io.StringIO(), err=err) == 0, err.getvalue()
    rows = [json.loads(line) for line in (tmp_path / "m" / "log.jsonl").read_text().splitlines()]
    assert len(rows) == 120 and all("faults" not in row for row in rows)
    assert [t[0] for t in rows[-1]["tw"]] == list(range(94, 100)) and sum(row["sp"] for row in rows) >= 5
