"""`td-runner languages --game NAME`: the launch table a match of that game uses (the common languages, the
game's own, the runner config's over both), and whether a host script the package ships is really there."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from runner.cli import main
from runner.games import GAMES
from runner.games.invaders.game import KOTH_HOST, InvadersGame


def table(*args: str) -> dict[str, str]:
    out, err = io.StringIO(), io.StringIO()
    assert main(["languages", *args], out=out, err=err) == 0, err.getvalue()
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["language", "command", "line", "installed"]
    return {line.split()[0]: line for line in lines[1:]}


def test_invaders_table_has_koth_js_with_the_shipped_host() -> None:
    rows = table("--game", "invaders")
    assert rows["koth-js"].split()[1:5] == ["node", str(KOTH_HOST), "{file}", "{entry}"]
    assert KOTH_HOST.is_file() and "MISSING" not in rows["koth-js"] and "only" not in rows["koth-js"]
    assert ("NOT INSTALLED" in rows["koth-js"]) == (shutil.which("node") is None)
    assert {"java", "python3", "c++", "custom"} <= set(rows)


def test_a_game_without_languages_of_its_own_has_the_common_table() -> None:
    rows = table("--game", "lanes")
    assert "koth-js" not in rows and set(rows) == set(table("--game", "tower-defence"))
    assert rows["python3"].split()[2] == "{file}"


def test_without_game_every_games_languages_are_marked_with_their_game() -> None:
    rows = table()
    assert rows["koth-js"].endswith("; invaders only") and "only" not in rows["python3"]


def test_a_missing_host_script_is_reported(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    gone = tmp_path / "host.py"
    monkeypatch.setattr(InvadersGame, "languages", {"koth-js": ("{python}", str(gone), "{file}")})
    assert table("--game", "invaders")["koth-js"].endswith(f"but {gone} is MISSING")


def test_the_runner_config_overrides_a_game_language(tmp_path: Path) -> None:
    config = tmp_path / "game-runner-config.json"
    config.write_text(json.dumps({"languages": {"koth-js": ["node", "my-host.js", "{file}"]}}))
    row = table("--game", "invaders", "--config", str(config))["koth-js"]
    assert row.split()[1:4] == ["node", "my-host.js", "{file}"] and "only" not in row


def test_unknown_game_is_one_line() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["languages", "--game", "lanez"], out=out, err=err) == 2
    assert err.getvalue() == f"error: unknown game 'lanez' (did you mean 'lanes'?); the games are: {', '.join(GAMES)}\n"
