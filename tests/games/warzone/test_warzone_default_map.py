"""Warzone plays with no options, like every other game: no `--map` plays the default shipped map, `--map NAME`
plays a shipped map by its name, a file by that path comes first, and `td-runner warzone-map --list` shows
the shipped maps. The same default reaches tournaments and `runner.api`."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from warzone_helpers import MAPS, STARTER

from runner.cli import main
from runner.games.warzone.loading import load_config, shipped_maps
from runner.games.warzone.maplist import describe_shipped_maps
from runner.games.warzone.protocol.config import DEFAULT_MAP


def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def bots(tmp_path: Path) -> tuple[str, str]:
    return tuple(str(shutil.copytree(STARTER.parent, tmp_path / name)) for name in ("a", "b"))


def play(tmp_path: Path, bots: tuple[str, str], name: str, *options: str) -> Path:
    code, _, err = run_cli("match", "--game", "warzone", *bots, "--max-turns", "2", "--quiet",
                           "--output", str(tmp_path / "out"), "--name", name, *options)
    assert code == 0, err
    return tmp_path / "out" / name


def assert_every_log_played_the_default(folder: Path) -> None:
    copies = list(folder.rglob("map.map"))
    assert copies and all(copy.read_bytes() == (MAPS / f"{DEFAULT_MAP}.map").read_bytes() for copy in copies)


def test_the_default_is_a_small_shipped_map_with_real_coordinates() -> None:
    assert DEFAULT_MAP in shipped_maps()
    config = load_config(None, {})
    assert (config.config.map, config.warmap.name) == (DEFAULT_MAP, DEFAULT_MAP)
    assert len(config.warmap.territories) <= 20
    # the file gives every territory its own point (Conquest: `name,x,y,continent,...`), so replays draw it
    rows = (MAPS / f"{DEFAULT_MAP}.map").read_text().split("[Territories]")[1].strip().splitlines()
    points = {tuple(row.split(",")[1:3]) for row in rows}
    assert len(points) == len(config.warmap.territories)


def test_match_without_map_plays_the_default_map(tmp_path: Path, bots: tuple[str, str]) -> None:
    log = play(tmp_path, bots, "default")
    assert (log / "map.map").read_bytes() == (MAPS / f"{DEFAULT_MAP}.map").read_bytes()
    assert json.loads((log / "game-config.json").read_text())["map"] == DEFAULT_MAP
    assert run_cli("verify", str(log))[0] == 0
    code, out, _ = run_cli("validate", str(log))
    assert code == 0, out


@pytest.mark.parametrize("given", ["td-harbour", "td-quad-24.map"])
def test_map_by_a_shipped_name(tmp_path: Path, bots: tuple[str, str], given: str) -> None:
    log = play(tmp_path, bots, "named", "--map", given)
    assert (log / "map.map").read_bytes() == (MAPS / f"{given.removesuffix('.map')}.map").read_bytes()
    assert json.loads((log / "game-config.json").read_text())["map"] == given


def test_a_file_of_that_name_comes_before_the_shipped_map(tmp_path: Path, bots: tuple[str, str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(MAPS / "tiny-ring.map", tmp_path / "td-harbour.map")
    log = play(tmp_path, bots, "local", "--map", "td-harbour.map")
    assert (log / "map.map").read_bytes() == (MAPS / "tiny-ring.map").read_bytes()


def test_a_config_file_may_name_a_shipped_map_or_a_file_beside_it(tmp_path: Path) -> None:
    config = tmp_path / "game-config.json"
    config.write_text(json.dumps({"game": "warzone", "map": "td-archipelago", "max_turns": 5}))
    loaded = load_config(config, {})
    assert (loaded.warmap.name, loaded.config.rules.max_turns) == ("td-archipelago", 5)
    shutil.copy(MAPS / "tiny-gates.map", tmp_path / "td-archipelago.map")  # beside the config: comes first
    config.write_text(json.dumps({"game": "warzone", "map": "td-archipelago.map"}))
    assert load_config(config, {}).warmap.name == "td-archipelago"  # tiny-gates names none: the file's stem
    assert load_config(config, {}).map_bytes == (MAPS / "tiny-gates.map").read_bytes()
    config.write_text(json.dumps({"game": "warzone", "max_turns": 5}))  # no map: the default
    assert load_config(config, {}).warmap.name == DEFAULT_MAP
    assert load_config(config, {"map": "tiny-ring"}).warmap.name == "tiny-ring"  # --map over the file's


def test_unknown_map_is_one_line_naming_the_shipped_maps(tmp_path: Path, bots: tuple[str, str]) -> None:
    out = tmp_path / "out"
    code, _, err = run_cli("match", "--game", "warzone", *bots, "--map", "td-harbor", "--output", str(out))
    assert code == 2 and len(err.splitlines()) == 1
    assert err.startswith("error: map td-harbor: no such file, nor a shipped map's name (") and "td-harbour" in err
    assert not out.exists()  # no match folder


def test_help_names_the_default(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit):
        main(["match", "--game", "warzone", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert f"default {DEFAULT_MAP}" in help_text and "warzone-map --list" in help_text


def test_warzone_map_list_shows_every_shipped_map() -> None:
    code, out, err = run_cli("warzone-map", "--list")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["name", "territories", "continents", "dialect", "notes"]
    rows = {line.split()[0]: line.split() for line in lines[1:]}
    assert set(rows) == set(shipped_maps()) and len(rows) == 9
    assert rows["td-harbour"][1:5] == ["14", "4", "conquest", "default"]
    assert rows["td-archipelago"][1:4] == ["42", "6", "domination"]
    assert "E_ASYMMETRIC_BORDER" in " ".join(rows["tiny-oneway"])  # a test map strict refuses, said so
    described = {each.name: each for each in describe_shipped_maps()}
    assert described["tiny-split"].strict_errors == ("E_CONTINENT_DISCONNECTED",)
    assert all(not each.strict_errors for name, each in described.items() if name.startswith("td-"))


def test_warzone_map_without_sizes_is_one_line() -> None:
    code, _, err = run_cli("warzone-map")
    assert code == 2 and err == "error: warzone-map: --territories N and --continents K are required (or --list)\n"


def test_tournament_without_map_plays_the_default(tmp_path: Path, bots: tuple[str, str]) -> None:
    second = Path(bots[1]) / "bot.json"  # a tournament refuses two copies of one bot
    second.write_text(json.dumps({**json.loads(second.read_text()), "nickName": "Second", "author": "second"}))
    out = tmp_path / "t"
    code, _, err = run_cli("tournament", *bots, "--game", "warzone", "--max-turns", "1", "--output", str(out),
                           "--workers", "1")
    assert code == 0, err
    assert_every_log_played_the_default(out)


def test_watch_without_map_plays_the_default(tmp_path: Path, bots: tuple[str, str]) -> None:
    out = tmp_path / "runs"
    code, _, err = run_cli("watch", bots[0], "--game", "warzone", "--max-turns", "1", "--seeds", "1", "--runs", "1",
                           "--output", str(out))
    assert code == 0, err
    assert_every_log_played_the_default(out)


def test_api_parallel_env_uses_the_default_map() -> None:
    pytest.importorskip("pettingzoo")
    from runner.api import parallel_env

    env = parallel_env("warzone", max_turns=2)
    observations, _ = env.reset(seed=0)
    assert observations["A"]["map"]["name"] == DEFAULT_MAP
