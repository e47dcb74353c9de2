"""The official starter bots, built in the sandbox and played in it (issue 31): the sandbox shows a bot only
its folder and its runtime, so each language's runtime (node, the JVM and /etc/java-*, Go's GOROOT and
build cache, a C++ or Rust binary's libraries, rustup's toolchain for a build, the koth-js host inside
td-runner's package) must still be found there."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from runner.bots.isolation import check_isolation
from runner.bots.limits import Limits
from runner.cli import main
from runner.errors import UserError

REPO = Path(__file__).resolve().parents[2]

#: Starter folder -> the programs its build and launch need.
STARTERS = {"javascript": ("node",), "java": ("javac", "java"), "cplusplus": ("g++",), "golang": ("go",),
            "rust": ("cargo",)}


def cli(*args: object) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(arg) for arg in args], out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(autouse=True)
def sandbox_here() -> None:
    try:
        check_isolation(Limits(sandbox=True))
    except UserError as exc:
        pytest.skip(str(exc))


def starter(name: str, tmp_path: Path) -> Path:
    return Path(shutil.copytree(REPO / "starter-bots" / name, tmp_path / name.replace("/", "-"),
                                ignore=shutil.ignore_patterns("target", "__pycache__")))


def check_clean(log: Path) -> None:
    """Every seat of the match answered every turn: no crash, no time-out, no failed start."""
    match = json.loads((log / "match.json").read_text())
    for seat in match["players"]:
        assert (seat["crashes"], seat["timeouts"]) == (0, 0), (seat["name"], seat["events"])
        assert not [event for event in seat["events"] if "start" in str(event)], seat["events"]


@pytest.mark.parametrize("language", sorted(STARTERS))
def test_a_starter_bot_builds_and_plays_in_the_sandbox(language: str, tmp_path: Path) -> None:
    missing = [tool for tool in STARTERS[language] if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed")
    folder = starter(language, tmp_path)
    code, out, err = cli("build", "--sandbox", folder)  # no network: the starters download nothing
    assert code == 0, out + err
    opponent = starter("python3", tmp_path)
    code, out, err = cli("match", folder, opponent, "--sandbox", "--max-rounds", "3", "--output", tmp_path / "logs",
                         "--name", "m", "--quiet")
    assert code == 0, err
    check_clean(tmp_path / "logs" / "m")


def test_koth_js_bots_run_their_host_inside_td_runner_in_the_sandbox(tmp_path: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node not installed")
    army, turret = starter("invaders/koth-army", tmp_path), starter("invaders/koth-turret", tmp_path)
    code, out, err = cli("match", "--game", "invaders", turret, army, "--sandbox", "--max-turns", "30",
                         "--output", tmp_path / "logs", "--name", "m", "--quiet")
    assert code == 0, err
    check_clean(tmp_path / "logs" / "m")
