"""Runner config: every official key (spec 8.1), td-runner's extras, unknown keys refused, paths resolved."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from runner.config import BotLimits, RunnerConfig, load_runner_config
from runner.errors import UserError
from tests.conftest import TRACE_NAMES

REPO = Path(__file__).resolve().parents[2]


def _config_file(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "conf" / "game-runner-config.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _error(path: Path) -> str:
    with pytest.raises(UserError) as caught:
        load_runner_config(path)
    return str(caught.value)


def test_shipped_runner_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # resolution must not depend on the working directory
    config = load_runner_config(REPO / "game-runner-config.json")
    assert config == RunnerConfig(
        source=REPO / "game-runner-config.json",
        round_state_output_location=REPO / "matches",
        game_config_file_location=REPO / "game-config.json",
        verbose_mode=False,
        max_runtime_ms=2000,
        player_a=REPO / "starter-bots" / "python3",
        player_b=REPO / "starter-bots" / "reference",
        is_tournament_mode=False,
    )
    assert config.game_config_file_location.is_file()


@pytest.mark.parametrize("trace", TRACE_NAMES[:1])
def test_official_runner_config_loads(conformance_root: Path, trace: str) -> None:
    path = conformance_root / trace / "game-runner-config.json"
    config = load_runner_config(path)
    folder = path.parent
    assert config.round_state_output_location == folder / "tower-defence-matches"
    assert config.game_config_file_location == folder / "game-config.properties"
    assert (config.verbose_mode, config.max_runtime_ms, config.is_tournament_mode) == (True, 2000, False)
    assert (config.player_a, config.player_b) == (folder / "botA", folder / "botB")


def test_every_key_with_extras(tmp_path: Path) -> None:
    data = {
        "$schema": "../schema/runner-config.schema.json",
        "round-state-output-location": "out/../logs",
        "game-config-file-location": "/etc/td/rules.properties",
        "verbose-mode": True,
        "max-runtime-ms": 500,
        "player-a": "console",
        "player-b": "bots/b",
        "is-tournament-mode": False,
        "sandbox": True,
        "seed": -7,
        "limits": {"memory-mb": 512, "cpu-seconds": 3, "file-size-mb": 10, "open-files": 64, "output-kb": 32},
        "languages": {"python3": ["python3", "-u", "{file}"], "zig": ["./{file}"]},
        "command-order": "A,B",
    }
    path = _config_file(tmp_path, data)
    base = tmp_path / "conf"
    assert load_runner_config(path) == RunnerConfig(
        source=path,
        round_state_output_location=base / "logs",
        game_config_file_location=Path("/etc/td/rules.properties"),
        verbose_mode=True,
        max_runtime_ms=500,
        player_a="console",
        player_b=base / "bots" / "b",
        is_tournament_mode=False,
        sandbox=True,
        seed=-7,
        limits=BotLimits(memory_mb=512, cpu_seconds=3, file_size_mb=10, open_files=64, output_kb=32),
        languages={"python3": ("python3", "-u", "{file}"), "zig": ("./{file}",)},
        command_order="A,B",  # Tower Defence reads it (its --order option)
    )


def test_empty_config_gives_the_defaults(tmp_path: Path) -> None:
    path = _config_file(tmp_path, {})
    assert load_runner_config(path) == RunnerConfig(source=path)
    assert RunnerConfig().command_order is None and RunnerConfig().max_runtime_ms == 2000


def test_relative_path_given_on_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _config_file(tmp_path, {"player-a": "./a"})
    monkeypatch.chdir(tmp_path)
    config = load_runner_config(Path("conf/game-runner-config.json"))
    assert config.player_a == tmp_path / "conf" / "a"
    assert os.path.isabs(config.player_a)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"max-runtime": 2000}, "$: unknown key 'max-runtime' (did you mean 'max-runtime-ms'?)"),
        ({"playerA": "x"}, "$: unknown key 'playerA' (did you mean 'player-a'?)"),
        ({"player_a": "x"}, "$: unknown key 'player_a' (did you mean 'player-a'?)"),
        ({"max-runtime-ms": "2000"}, "$.max-runtime-ms: '2000' is not of type 'integer'"),
        ({"max-runtime-ms": 0}, "$.max-runtime-ms: 0 is less than the minimum of 1"),
        ({"max-runtime-ms": 2.5}, "$.max-runtime-ms: 2.5 is not of type 'integer'"),
        ({"verbose-mode": "true"}, "$.verbose-mode: 'true' is not of type 'boolean'"),
        ({"player-a": ""}, "$.player-a: '' should be non-empty"),
        ({"player-b": None}, "$.player-b: None is not of type 'string'"),
        ({"limits": {"memory": 5}}, "$.limits: unknown key 'memory' (did you mean 'memory-mb'?)"),
        ({"limits": {"open-files": 2}}, "$.limits.open-files: 2 is less than the minimum of 3"),
        ({"limits": {"output-kb": 0}}, "$.limits.output-kb: 0 is less than the minimum of 1"),
        ({"languages": {"python3": []}}, "$.languages.python3: [] should be non-empty"),
        ({"languages": {"python3": ["", "{file}"]}}, "$.languages.python3[0]: '' should be non-empty"),
        ({"languages": {"python3": "python3 {file}"}}, "$.languages.python3: 'python3 {file}' is not of type 'array'"),
        ({"command-order": "C,D"}, "$.command-order: 'C,D' is not one of 'B,A', 'A,B'"),
        ({"seed": True}, "$.seed: True is not of type 'integer'"),
        ([], "$: [] is not of type 'object'"),
    ],
)
def test_bad_runner_configs(tmp_path: Path, data: object, expected: str) -> None:
    path = _config_file(tmp_path, data)
    assert _error(path) == f"runner config {path}: {expected}"


def test_broken_and_missing_files(tmp_path: Path) -> None:
    path = tmp_path / "game-runner-config.json"
    assert _error(path) == f"runner config {path}: no such file"
    path.write_text('{"verbose-mode": true,}', encoding="utf-8")
    assert _error(path).startswith(f"runner config {path}: not valid JSON: ")
    path.write_text('{"seed": 1, "seed": 2}', encoding="utf-8")
    assert _error(path) == f"runner config {path}: duplicate key 'seed'"
