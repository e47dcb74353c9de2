"""`td-runner validate` in-process: kinds detected, one line per problem, exit codes 0 / 1 / 2."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from runner.cli import main
from runner.games.tower_defence.config_file import game_config_to_json, game_config_to_properties
from runner.games.tower_defence.engine.config import GameConfig
from runner.schemas import MAX_PROBLEMS

REPO = Path(__file__).resolve().parents[2]
EXAMPLE_STATE = Path(__file__).parent / "data" / "example-state.json"
TRACE = "gd-g15-vs-nofile"  # 31 round folders; A - GreedyBot, B - ScriptBot


def _run(*argv: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["validate", *map(str, argv)], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def _write_json(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture
def log(conformance_root: Path, tmp_path: Path) -> Path:
    return shutil.copytree(conformance_root / TRACE, tmp_path / TRACE)


def test_shipped_files_are_valid() -> None:
    paths = [REPO / "game-config.json", REPO / "game-runner-config.json", EXAMPLE_STATE]
    assert _run(*paths) == (0, "", "3 files valid\n")


def test_shipped_bot_json_files_are_valid() -> None:
    bots = sorted(REPO.glob("starter-bots/*/bot.json"))
    assert bots, "no starter bots"
    assert _run(*bots) == (0, "", f"{len(bots)} files valid\n")


def test_official_match_log(log: Path) -> None:
    code, out, err = _run(log)
    states = len(list(log.glob("Round */*/JsonMap.json")))
    # + the layout check, game-config.properties and game-runner-config.json
    assert (code, out, err) == (0, "", f"{states + 3} files valid\n")


def test_match_log_with_td_runner_files(log: Path) -> None:
    _write_json(log / "game-config.json", game_config_to_json(GameConfig()))
    match = json.loads((Path(__file__).parent / "data" / "match.json").read_text(encoding="utf-8"))
    _write_json(log / "match.json", match)
    assert _run(log)[0] == 0
    match["end_reason"] = "bored"
    _write_json(log / "match.json", match)
    code, out, _ = _run(log)
    assert code == 1
    assert out == (
        f"{log / 'match.json'}: $.end_reason: 'bored' is not one of 'health', 'max_rounds', 'do_nothing_limit',"
        " 'interrupted'\n"
    )


def test_broken_match_log_layout_and_state(log: Path) -> None:
    (log / "Round 007" / "B - ScriptBot" / "TextMap.txt").unlink()
    shutil.rmtree(log / "Round 012")
    shutil.copy(log / "Round 003" / "A - GreedyBot" / "JsonMap.json", log / "Round 004" / "A - GreedyBot" / "JsonMap.json")
    code, out, err = _run(log)
    assert code == 1
    assert out.splitlines() == [
        f"{log}: missing round folders: Round 012",
        f"{log}: Round 007/B - ScriptBot/TextMap.txt: missing file",
        f"{log / 'Round 004' / 'A - GreedyBot' / 'JsonMap.json'}: $.gameDetails.round: 3, but the file is in Round 004",
    ]
    assert err.startswith("2 of ") and err.endswith(" files invalid (3 problems)\n")


def test_invalid_state_prints_file_path_and_message(tmp_path: Path) -> None:
    state = json.loads(EXAMPLE_STATE.read_text(encoding="utf-8"))
    del state["gameMap"]
    state["players"][0]["playerType"] = "X"
    path = _write_json(tmp_path / "state.json", state)
    code, out, err = _run(path)
    assert code == 1
    assert out.splitlines() == [
        f"{path}: $: missing key 'gameMap'",
        f"{path}: $.players[0].playerType: 'X' is not one of 'A', 'B'",
    ]
    assert err == "1 of 1 file invalid (2 problems)\n"


def test_properties_game_config(tmp_path: Path) -> None:
    path = tmp_path / "game-config.properties"
    path.write_text(game_config_to_properties(GameConfig()), encoding="ascii")
    assert _run(path)[0] == 0
    path.write_text(game_config_to_properties(GameConfig()).replace("game.config.map-width = 16", "game.config.map-width = 7"))
    assert _run(path)[:2] == (1, f"{path}: game.config.map-width: 7 is not a multiple of 2\n")


def test_runner_config_typo(tmp_path: Path) -> None:
    path = _write_json(tmp_path / "game-runner-config.json", {"verbose": True})
    assert _run(path)[:2] == (1, f"{path}: $: unknown key 'verbose' (did you mean 'verbose-mode'?)\n")


def test_bot_json(tmp_path: Path) -> None:
    path = _write_json(tmp_path / "bot" / "bot.json", {"author": "me", "email": "e", "nickName": "n", "botLocation": "/"})
    code, out, _ = _run(tmp_path / "bot")  # a bot folder means its bot.json
    assert code == 1
    assert f"{path}: $: missing key 'botLanguage'" in out.splitlines()


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("round5.json", "state"),
        ("rules.json", {"mapWidth": 3}),
        ("my-setup.json", {"player-a": "x", "max-runtime-ms": 0}),
        ("summary.json", {"end_reason": "health"}),
        ("me.json", {"nickName": "x"}),
    ],
)
def test_kind_detected_from_content(tmp_path: Path, name: str, data: object) -> None:
    if data == "state":
        data = json.loads(EXAMPLE_STATE.read_text(encoding="utf-8"))
        data["gameDetails"]["round"] = -1
    path = _write_json(tmp_path / name, data)
    code, out, err = _run(path)
    assert code == 1, (out, err)
    assert out.startswith(f"{path}: $")


def test_kind_option_overrides_detection(tmp_path: Path) -> None:
    path = _write_json(tmp_path / "match.json", game_config_to_json(GameConfig()))
    assert _run(path)[0] == 1  # by name: a match.json, which this is not
    assert _run("--kind", "game-config", path) == (0, "", "1 file valid\n")


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (lambda tmp: tmp / "nope.json", "no such file"),
        (lambda tmp: _write_json(tmp / "notes.json", {"hello": 1}), "unknown kind of file"),
        (lambda tmp: (tmp / "notes.txt").write_text("hello") and tmp / "notes.txt", "unknown kind of file"),
        (lambda tmp: tmp, "folder is neither a match log"),
    ],
)
def test_unreadable_or_unknown_exits_2(tmp_path: Path, setup, message: str) -> None:
    path = setup(tmp_path)
    code, out, err = _run(path)
    assert (code, out) == (2, "")
    assert err.startswith(f"{path}: {message}")
    assert err.endswith("1 could not be checked\n")


def test_worst_result_wins(tmp_path: Path) -> None:
    bad = _write_json(tmp_path / "game-config.json", {})
    assert _run(REPO / "game-config.json", bad)[0] == 1
    assert _run(REPO / "game-config.json", bad, tmp_path / "missing.json")[0] == 2


def test_kind_on_a_folder_is_an_error(log: Path) -> None:
    code, _, err = _run("--kind", "state", log)
    assert code == 2 and "is a folder, not a state file" in err


def test_unknown_kind_option_is_a_usage_error() -> None:
    code, _, err = _run("--kind", "cobol", REPO / "game-config.json")
    assert code == 2 and "invalid choice: 'cobol'" in err


def test_long_problem_lists_are_cut(tmp_path: Path) -> None:
    state = json.loads(EXAMPLE_STATE.read_text(encoding="utf-8"))
    for row in state["gameMap"]:
        for cell in row:
            cell["cellOwner"] = "C"
    path = _write_json(tmp_path / "state.json", state)
    code, out, err = _run(path)
    lines = out.splitlines()
    assert code == 1 and len(lines) == MAX_PROBLEMS + 1
    assert lines[-1] == f"{path}: ... and {128 - MAX_PROBLEMS} more problems"
    assert err == "1 of 1 file invalid (128 problems)\n"
