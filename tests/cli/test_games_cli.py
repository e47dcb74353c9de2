"""`td-runner games`, `td-runner languages`, and `match --game` choosing a game and its options."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from runner.cli import main
from runner.games import GAMES, get_game
from runner.games.interface import BotMode

REPO = Path(__file__).resolve().parents[2]


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(args), out=out, err=err), out.getvalue(), err.getvalue()


def test_games_lists_every_game_with_players_and_bot_mode() -> None:
    code, out, _ = cli("games")
    lines = out.splitlines()
    assert code == 0 and [line.split()[0] for line in lines] == list(GAMES)
    rows = {line.split()[0]: line for line in lines}
    assert "2 players" in rows["tower-defence"] and "per-turn or persistent" in rows["tower-defence"]
    assert "2-6 players" in rows["warzone"] and "bots persistent" in rows["invaders"]
    # Lanes and Warzone bots may stay alive too, through the core's frames (issue 35)
    assert "per-turn or persistent" in rows["lanes"] and "per-turn or persistent" in rows["warzone"]


def test_languages_prints_the_launch_table_and_what_is_installed() -> None:
    code, out, _ = cli("languages")
    rows = {line.split()[0]: line for line in out.splitlines()[1:]}
    assert code == 0 and {"java", "python3", "c++", "custom"} <= set(rows)
    assert "the Python running td-runner" in rows["python3"]
    assert rows["java"].split()[1:4] == ["java", "-jar", "{file}"]
    assert ("NOT INSTALLED" in rows["php"]) == (shutil.which("php") is None)


def test_unknown_game_is_one_line_with_a_suggestion(tmp_path: Path) -> None:
    code, _, err = cli("match", "--game", "lanez", "a", "b", "--output", str(tmp_path))
    assert code == 2 and err == "error: unknown game 'lanez' (did you mean 'lanes'?); the games are: " + \
        ", ".join(GAMES) + "\n"


def test_each_game_shows_its_own_options_in_help(capsys: pytest.CaptureFixture) -> None:
    for game, flag in (("warzone", "--map FILE|NAME"), ("invaders", "--faults"), ("lanes", "--max-turns N"),
                       ("tower-defence", "--max-rounds N")):
        with pytest.raises(SystemExit):
            cli("match", "--game", game, "--help")
        help_text = capsys.readouterr().out
        assert f"{game} options:" in help_text and flag in help_text, game


def test_a_game_option_of_another_game_is_refused(tmp_path: Path) -> None:
    code, _, err = cli("match", "--game", "lanes", "x", "y", "--map", "m.map", "--output", str(tmp_path))
    assert code == 2 and "unrecognized arguments: --map m.map" in err


def test_warzone_unknown_map_and_wrong_player_counts_are_one_line(tmp_path: Path) -> None:
    bot = str(REPO / "starter-bots" / "warzone" / "python3")
    code, _, err = cli("match", "--game", "warzone", bot, bot, "--map", "nowhere.map", "--output", str(tmp_path))
    assert code == 2 and err.startswith("error: map nowhere.map: no such file") and len(err.splitlines()) == 1
    code, _, err = cli("match", "--game", "lanes", bot, "--output", str(tmp_path))
    assert code == 2 and err == "error: give two players (bot folders or 'console') for lanes, got 1\n"
    many = [bot] * 7
    code, _, err = cli("match", "--game", "warzone", *many, "--map", "m.map", "--output", str(tmp_path))
    assert code == 2 and "give 2 to 6 players" in err


def test_a_persistent_bot_in_a_per_turn_game_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game of the registry now lets a bot stay alive; a game whose bots run per turn only refuses one."""
    monkeypatch.setattr(type(get_game("lanes")), "bot_modes", frozenset({BotMode.PER_TURN}))
    bot = shutil.copytree(REPO / "starter-bots" / "lanes" / "python3", tmp_path / "bot")
    data = json.loads((bot / "bot.json").read_text())
    (bot / "bot.json").write_text(json.dumps({**data, "persistent": True}))
    code, _, err = cli("match", "--game", "lanes", str(bot), str(bot), "--output", str(tmp_path))
    assert code == 2 and err == f"error: {bot / 'bot.json'}: persistent is true, but lanes bots run once per turn\n"


def test_runner_config_game_is_the_default_and_its_game_config_stays_with_its_game(tmp_path: Path) -> None:
    """A runner config for Tower Defence (game-config-file-location) does not hand its file to lanes."""
    config = tmp_path / "game-runner-config.json"
    config.write_text(json.dumps({"game-config-file-location": str(REPO / "game-config.json")}))
    bots = [str(REPO / "starter-bots" / "lanes" / name) for name in ("python3", "reference")]
    code, _, err = cli("match", "--config", str(config), "--game", "lanes", *bots, "--output", str(tmp_path),
                       "--name", "m", "--quiet")
    assert (code, err) == (0, "")
    assert json.loads((tmp_path / "m" / "match.json").read_text())["game"] == "lanes"
    config.write_text(json.dumps({"game": "lanes"}))
    code, _, err = cli("match", "--config", str(config), *bots, "--output", str(tmp_path), "--name", "n", "--quiet")
    assert (code, err) == (0, "")
    assert json.loads((tmp_path / "n" / "match.json").read_text())["game"] == "lanes"


def test_a_bad_game_option_value_is_worded_by_the_game(tmp_path: Path) -> None:
    code, _, err = cli("match", "--game", "lanes", "x", "y", "--max-turns", "0", "--output", str(tmp_path))
    assert code == 2 and err == "error: td-runner match: argument --max-turns: '0' is not a positive integer\n"
    code, _, err = cli("match", "x", "y", "--max-rounds", "abc", "--output", str(tmp_path))  # Tower Defence
    assert code == 2 and err == "error: td-runner match: argument --max-rounds: 'abc' is not a whole number\n"
    code, _, err = cli("match", "x", "y", "--max-rounds", "-3", "--output", str(tmp_path))
    assert code == 2 and err == "error: td-runner match: argument --max-rounds: '-3' is not 0 or more\n"
