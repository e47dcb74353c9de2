"""Which game a log belongs to (runner.games.game_of_log): match.json says it; a log without one whose files fit
two games is refused in one line naming them and `--game`, never given to the first game that likes it."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import runner.games
from runner.cli import main
from runner.errors import UserError
from runner.games import game_of_log, get_game

#: A first row of an Invaders trace (spec 16 keys): Lanes also takes any folder holding a log.jsonl.
INVADERS_ROW = {"t": 0, "ig": 0, "dg": 0, "tw": [], "iv": []}


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(args), out=out, err=err), out.getvalue(), err.getvalue()


@pytest.fixture
def ambiguous(tmp_path: Path) -> Path:
    log = tmp_path / "log"
    log.mkdir()
    (log / "log.jsonl").write_text(json.dumps(INVADERS_ROW) + "\n", encoding="utf-8")
    assert get_game("lanes").is_log(log) and get_game("invaders").is_log(log)
    return log


def test_a_log_two_games_fit_is_refused_naming_both(ambiguous: Path) -> None:
    expected = (f"error: {ambiguous}: no match.json names its game and its files fit lanes and invaders; "
                "name it with --game lanes (or --game invaders)\n")
    for command in (["verify", str(ambiguous)], ["replay", str(ambiguous), "--round", "0"],
                    ["replay", str(ambiguous), "--html"], ["diff", str(ambiguous), str(ambiguous)]):
        assert cli(*command) == (2, "", expected), command


def test_game_picks_the_game_of_such_a_log(ambiguous: Path) -> None:
    assert game_of_log(ambiguous, "invaders").name == "invaders"
    code, out, _ = cli("verify", str(ambiguous), "--game", "invaders")  # the Invaders rules judge the row
    assert code == 1 and out.splitlines()[1] == "turn 0: dg: expected 0, got 50"
    assert cli("verify", str(ambiguous), "--game", "lanes")[0] == 0  # the Lanes tools find no turn of theirs in it
    assert cli("verify", str(ambiguous), "--game", "stone")[2] == (
        "error: unknown game 'stone'; the games are: " + ", ".join(runner.games.GAMES) + "\n")


def test_match_json_names_the_game_and_a_contrary_game_is_an_error(ambiguous: Path) -> None:
    (ambiguous / "match.json").write_text(json.dumps({"game": "lanes"}), encoding="utf-8")
    assert game_of_log(ambiguous).name == "lanes"
    with pytest.raises(UserError, match=r"its match.json says the game is lanes, not invaders"):
        game_of_log(ambiguous, "invaders")


def test_an_official_tower_defence_log_asks_no_other_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "Round 000").mkdir()
    asked: list[str] = []
    real = runner.games.get_game
    monkeypatch.setattr(runner.games, "get_game", lambda name: asked.append(name) or real(name))
    assert game_of_log(tmp_path).name == "tower-defence" and asked == ["tower-defence"]


def test_a_log_one_game_fits_is_that_games(tmp_path: Path) -> None:
    (tmp_path / "Turn 001").mkdir()
    (tmp_path / "Turn 001" / "turn.json").write_text("{}", encoding="utf-8")
    assert game_of_log(tmp_path).name == "lanes"
