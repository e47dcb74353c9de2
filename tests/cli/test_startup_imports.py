"""What a command loads: a match imports its own game only, and neither rich (with --quiet) nor jsonschema;
`--help` imports no subcommand module and no game without a tool. Start-up time is most of a short
command's wall time (benchmarks/startup.py measures it); these tests guard the laziness, not the time."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import runner
from runner.commands import COMMANDS
from runner.games import GAMES, TOOLS, all_games

REPO = Path(__file__).resolve().parent.parent.parent
PACKAGE_PARENT = str(Path(runner.__file__).resolve().parent.parent)

#: Loaded only for worded schema problems, rich output, or a requirements.txt check (importlib.metadata).
HEAVY = ("rich", "jsonschema", "referencing", "importlib.metadata")

#: game -> (turn-limit flag, its two starter bots): one short match each; every registered game needs one.
MATCHES = {
    "tower-defence": ("--max-rounds", "python3", "reference"),
    "lanes": ("--max-turns", "lanes/python3", "lanes/reference"),
    "warzone": ("--max-turns", "warzone/python3", "warzone/reference"),
    "invaders": ("--max-turns", "invaders/koth-turret", "invaders/koth-army"),
}

#: Runs `main(argv)` in a fresh interpreter and prints the exit code and every module loaded.
_PROBE = """
import json, sys
from runner.cli import main
try:
    code = main(json.loads(sys.argv[1]))
except SystemExit as exit:  # --help
    code = exit.code
loaded = list(sys.modules)
print(json.dumps({"code": code, "loaded": loaded}))
"""


def loaded_by(argv: list[str], cwd: Path) -> tuple[int, set[str]]:
    env = {**os.environ, "PYTHONPATH": PACKAGE_PARENT}
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(argv)], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return result["code"], set(result["loaded"])


def heavy(modules: set[str]) -> list[str]:
    return sorted(name for name in modules if name in HEAVY or name.split(".")[0] in HEAVY)


def game_packages(modules: set[str]) -> set[str]:
    """The registry names of the game packages among `modules`."""
    return {name for name, module in GAMES.items() if module in modules}


def test_every_registered_game_has_a_short_match() -> None:
    """MATCHES is per-game data; a game in the registry but not in it fails here, by name."""
    assert sorted(MATCHES) == sorted(GAMES)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_quiet_match_loads_its_game_only_and_no_heavy_library(game: str, tmp_path: Path) -> None:
    flag, first, second = MATCHES[game]
    if game == "invaders" and shutil.which("node") is None:
        pytest.skip("node is not installed")
    bots = [shutil.copytree(REPO / "starter-bots" / name, tmp_path / f"bot{i}") for i, name in enumerate((first, second))]
    code, modules = loaded_by(["match", "--game", game, "--quiet", "--output", str(tmp_path), "--name", "m",
                               flag, "1", *map(str, bots)], tmp_path)
    assert code == 0
    assert (tmp_path / "m" / "match.json").is_file()  # the match was played, not refused early
    assert game_packages(modules) == {game}
    assert heavy(modules) == []
    assert sorted(m for m in modules if m.startswith(MATCH_NEEDS_NONE)) == []


#: Loaded by no match: the HTML replay, tournaments, the league, and Lanes' log tools (trace files)
MATCH_NEEDS_NONE = ("runner.replay", "runner.tournament", "runner.league", "runner.games.lanes.logs")


@pytest.mark.parametrize("game", ["lanes", "warzone"])
def test_a_match_of_persistent_bots_starts_no_thread_pool(game: str, tmp_path: Path) -> None:
    """Persistent bots are asked on the match loop and the log is written there too (runner/match.py): no
    concurrent.futures (and the logging it loads), a few ms of every match's fixed cost."""
    bots = [shutil.copytree(REPO / "starter-bots" / game / "python3-persistent", tmp_path / f"bot{i}")
            for i in range(2)]
    code, modules = loaded_by(["match", "--game", game, "--quiet", "--output", str(tmp_path), "--name", "m",
                               "--max-turns", "2", *map(str, bots)], tmp_path)
    assert code == 0
    assert json.loads((tmp_path / "m" / "match.json").read_text())["rounds"] >= 1
    assert sorted(m for m in modules if m.startswith(("concurrent", "logging"))) == []


def test_help_imports_no_command_module_and_only_games_with_tools(tmp_path: Path) -> None:
    code, modules = loaded_by(["--help"], tmp_path)
    assert code == 0
    assert sorted(m for m in modules if m.startswith("runner.commands.")) == []
    assert game_packages(modules) == set(TOOLS.values())
    assert heavy(modules) == []


def test_help_lists_every_command_and_tool() -> None:
    from runner.cli import build_parser

    text = build_parser().format_help()
    for name in [*COMMANDS, *TOOLS]:
        assert f"    {name}" in text


def test_the_tool_table_names_every_games_tools() -> None:
    """runner.games.TOOLS lets the CLI route `td-runner warzone-map` without loading every game: it must list
    exactly the tools the games define."""
    assert {tool.name: game.name for game in all_games() for tool in game.tools} == TOOLS


def test_every_command_of_the_help_table_has_a_module_with_its_parts() -> None:
    import importlib

    for name in COMMANDS:
        module = importlib.import_module(f"runner.commands.{name}")
        assert module.EXITS and callable(module.add_arguments) and callable(module.run), name
