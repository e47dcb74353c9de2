"""Warzone through the real core in-process: `td-runner match/verify/validate/replay` with real bot processes.

The registry does not list warzone yet (the core's engineer integrates it), so each test adds it to the
table for its own duration only.
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from warzone_helpers import MAPS, STARTER

import runner.games
from runner.cli import main


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(runner.games.GAMES, "warzone", "runner.games.warzone")


def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def bots(tmp_path: Path) -> tuple[Path, Path]:
    return tuple(Path(shutil.copytree(STARTER.parent, tmp_path / name)) for name in ("a", "b"))


def test_match_verify_validate_replay(tmp_path: Path, bots: tuple[Path, Path]) -> None:
    code, out, err = run_cli("match", "--game", "warzone", "--map", str(MAPS / "tiny-gates.map"), *map(str, bots),
                             "--output", str(tmp_path), "--name", "m", "--quiet", "--seed", "5", "--max-turns", "4")
    assert code == 0, err
    log = tmp_path / "m"
    match = json.loads((log / "match.json").read_text())
    assert (match["game"], match["end_reason"], match["draw"]) == ("warzone", "max_turns", True)
    assert (log / "map.map").read_bytes() == (MAPS / "tiny-gates.map").read_bytes()
    assert json.loads((log / "Turn 001" / "events.json").read_text())["turn"] == 1
    state = json.loads(next((log / "Turn 002").glob("A - */state.json")).read_text())
    assert state["last_turn"]["bot"]["status"] == "ok"
    for directory in bots:  # spec 8 P7: the seed is in no file a bot can read
        for path in directory.rglob("*"):
            if path.is_file() and path.suffix in (".json", ".txt"):
                assert '"seed"' not in path.read_text()
    assert run_cli("verify", str(log))[0] == 0
    assert run_cli("validate", str(log))[0] == 0
    code, out, _ = run_cli("replay", str(log), "--round", "2", "--player", "B")
    assert code == 0 and "\nB: deploy" in out and "--- B bot output ---" in out  # the core's replay (runner/logtools)


def test_user_errors_are_one_line(tmp_path: Path, bots: tuple[Path, Path]) -> None:
    code, _, err = run_cli("match", "--game", "warzone", *map(str, bots), "--map", "td-nowhere", "--output",
                           str(tmp_path))
    assert code == 2 and err.startswith("error: map td-nowhere: no such file, nor a shipped map's name (")
    code, _, err = run_cli("match", "--game", "warzone", "--map", str(MAPS / "tiny-split.map"), *map(str, bots),
                           "--output", str(tmp_path))
    assert code == 2 and "tiny-split.map:7: E_CONTINENT_DISCONNECTED" in err


def test_validate_map_exit_codes() -> None:
    assert run_cli("validate", str(MAPS / "tiny-oneway.map"))[0] == 1
    assert run_cli("validate", str(MAPS / "tiny-oneway.map"), "--lenient")[0] == 0
    code, out, _ = run_cli("validate", str(MAPS / "tiny-oneway.map"))
    assert "line 12: E_ASYMMETRIC_BORDER" in out
