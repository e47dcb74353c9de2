"""Which game a log belongs to (runner.games.game_of_log): match.json says it, else the core's record.jsonl
(written before the first turn); only logs from outside (official Tower Defence logs, spec trace files) are
recognised by their files, and a path two games recognise is refused in one line naming them and `--game`."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import runner.games
from runner.cli import main
from runner.errors import UserError
from runner.games import game_of_log, get_game
from runner.matchlog.record import RECORD_FILE, header_line

#: A first row of an Invaders trace (spec 16 keys).
INVADERS_ROW = {"t": 0, "ig": 0, "dg": 0, "tw": [], "iv": []}


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(args), out=out, err=err), out.getvalue(), err.getvalue()


@pytest.fixture
def trace(tmp_path: Path) -> Path:
    path = tmp_path / "trace.jsonl"
    path.write_text(json.dumps(INVADERS_ROW) + "\n", encoding="utf-8")
    return path


def test_a_path_two_games_fit_is_refused_naming_both(trace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lanes = get_game("lanes")
    monkeypatch.setattr(type(lanes), "is_log", lambda self, path: True)  # a lanes trace reader that likes it too
    expected = (f"error: {trace}: no match.json names its game and its files fit lanes and invaders; "
                "name it with --game lanes (or --game invaders)\n")
    for command in (["verify", str(trace)], ["replay", str(trace), "--round", "0"],
                    ["diff", str(trace), str(trace)]):
        assert cli(*command) == (2, "", expected), command


def test_game_picks_the_game_of_a_trace(trace: Path) -> None:
    assert game_of_log(trace).name == "invaders"
    code, out, _ = cli("verify", str(trace), "--game", "invaders")  # the Invaders rules judge the row
    assert code == 1 and out.splitlines()[1] == "  turn 0, trace.jsonl line 1 (the start): $.dg: 0 != 50"
    assert cli("verify", str(trace), "--game", "stone")[2] == (
        "error: unknown game 'stone'; the games are: " + ", ".join(runner.games.GAMES) + "\n")


def test_match_json_names_the_game_and_a_contrary_game_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "match.json").write_text(json.dumps({"game": "lanes"}), encoding="utf-8")
    assert game_of_log(tmp_path).name == "lanes"
    with pytest.raises(UserError, match=r"its match.json says the game is lanes, not invaders"):
        game_of_log(tmp_path, "invaders")


@pytest.mark.parametrize("name", list(runner.games.GAMES))
def test_a_log_without_match_json_is_its_own_games_only(tmp_path: Path, name: str) -> None:
    """A log cut short before match.json: its record.jsonl's first line names the game, whatever its files
    look like, and no other game claims it."""
    game = get_game(name)
    seats = game.seats(game.player_counts[0])
    (tmp_path / RECORD_FILE).write_text(header_line(name, seats, {s: s for s in seats}, 0, {}, {}) + "\n")
    (tmp_path / "Turn 001").mkdir()  # files other games' layouts have: they decide nothing
    (tmp_path / "Turn 001" / "turn.json").write_text("{}")
    (tmp_path / "log.jsonl").write_text(json.dumps(INVADERS_ROW) + "\n")
    assert game_of_log(tmp_path).name == name
    assert [other for other in runner.games.GAMES if get_game(other).is_log(tmp_path)] == []
    with pytest.raises(UserError, match=f"its record.jsonl says the game is {name}, not "):
        game_of_log(tmp_path, next(other for other in runner.games.GAMES if other != name))


def test_an_official_tower_defence_log_asks_no_other_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "Round 000").mkdir()
    asked: list[str] = []
    real = runner.games.get_game
    monkeypatch.setattr(runner.games, "get_game", lambda name: asked.append(name) or real(name))
    assert game_of_log(tmp_path).name == "tower-defence" and asked == ["tower-defence"]
