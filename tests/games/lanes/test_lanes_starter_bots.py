"""The lanes starter bots play legal orders, and the reference bot beats them (in-process Sessions)."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

from runner.games.interface import Answer
from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.session import LanesSession
from tests.games.lanes.lanes_logs import Script

BOTS = Path(__file__).parents[3] / "starter-bots" / "lanes"


def load(kind: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"lanes_{kind}_bot", BOTS / kind / "bot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def in_process(module: ModuleType) -> Script:
    def answer(turn: int, state: str) -> Answer:
        return Answer("\n".join([f"TURN {turn}", *module.decide(json.loads(state)), "END"]) + "\n")

    return answer


def play(config: LanesConfig, p1: Script, p2: Script) -> LanesSession:
    session = LanesSession(config)
    scripts = {"P1": p1, "P2": p2}
    while session.outcome() is None:
        inputs = session.inputs()
        report = session.play_turn({s: scripts[s](session.turn, inputs[s].files["state.json"]) for s in scripts})
        assert report.rejected == {}, report.rejected  # every bot here plays legal orders
    return session


CONFIGS = [LanesConfig(), LanesConfig(start_hp=40), LanesConfig(start_hp=100, start_money=60)]


@pytest.mark.parametrize("config", CONFIGS, ids=["spec", "hp40", "hp100-money60"])
@pytest.mark.parametrize("reference_seat", ["P1", "P2"])
def test_reference_beats_the_python_starter(config: LanesConfig, reference_seat: str) -> None:
    reference, starter = in_process(load("reference")), in_process(load("python3"))
    pair = (reference, starter) if reference_seat == "P1" else (starter, reference)
    assert play(config, *pair).outcome().winner == reference_seat


def test_python_starter_writes_its_file_by_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "state.json").write_text(LanesSession(LanesConfig()).inputs()["P1"].files["state.json"])
    monkeypatch.chdir(tmp_path)
    load("python3").main()
    assert (tmp_path / "commands.txt").read_text().startswith("TURN 1\nBUILD missile 0 3\n")
    assert not (tmp_path / "commands.txt.tmp").exists()


@pytest.fixture(scope="module")
def cpp_bot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed")
    folder = Path(shutil.copytree(BOTS / "cplusplus", tmp_path_factory.mktemp("cpp") / "bot"))
    subprocess.run(["sh", "build.sh"], cwd=folder, check=True, capture_output=True, timeout=120)
    return folder


def as_process(folder: Path) -> Script:
    """The bot run as the core would: files written into its folder, the process started there."""

    def answer(turn: int, state: str) -> Answer:
        (folder / "commands.txt").unlink(missing_ok=True)
        (folder / "state.json").write_text(state)
        subprocess.run(["./bot"], cwd=folder, check=True, timeout=10)
        return Answer((folder / "commands.txt").read_text())

    return answer


@pytest.mark.parametrize("config", CONFIGS[:2], ids=["spec", "hp40"])
def test_reference_beats_the_cpp_starter(cpp_bot: Path, config: LanesConfig) -> None:
    reference = in_process(load("reference"))
    assert play(config, as_process(cpp_bot), reference).outcome().winner == "P2"
    assert play(config, reference, as_process(cpp_bot)).outcome().winner == "P1"
