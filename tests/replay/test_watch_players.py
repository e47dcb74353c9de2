"""`td-runner watch --players N`: Warzone free-for-alls of the bot and N-1 opponents, the bot's place per seed
in the summary against the previous run, and one-line errors for player counts the game does not take."""

from __future__ import annotations

import io
import json
import re
import threading
from pathlib import Path

import pytest

from runner.cli import main
from runner.commands.watch_run import MatchResult, place_of, seat_tables
from runner.commands.watch_summary import ordinal, render_summary
from runner.games.interface import Outcome
from tests.replay.test_watch import _wait_for

ROOT = Path(__file__).resolve().parents[2]
TINY_RING = ROOT / "runner" / "games" / "warzone" / "maps" / "tiny-ring.map"
BOT_JSON = {"author": "test", "email": "test@td-runner.invalid", "nickName": "Tiny", "botLocation": "/",
            "botFileName": "bot.py", "botLanguage": "python3"}
#: A one-line bot: the same order every turn.
BOT_PY = 'open("orders.txt", "w").write({orders!r})\n'


def _tiny_bot(folder: Path, orders: str) -> Path:
    folder.mkdir()
    (folder / "bot.json").write_text(json.dumps(BOT_JSON), encoding="utf-8")
    (folder / "bot.py").write_text(BOT_PY.format(orders=orders), encoding="utf-8")
    return folder


def test_four_player_warzone_runs_show_places_per_seed_and_what_changed(tmp_path: Path) -> None:
    bot = _tiny_bot(tmp_path / "mine", "deploy 99 nowhere\n")
    out, err = io.StringIO(), io.StringIO()
    args = ["watch", str(bot), "--game", "warzone", "--players", "4", "--map", str(TINY_RING), "--max-turns", "3",
            "--seeds", "2", "--runs", "2", "--debounce-ms", "150", "--timeout-ms", "10000",  # a loaded CI machine
            "--output", str(tmp_path / "runs")]
    codes: list[int] = []
    thread = threading.Thread(target=lambda: codes.append(main(args, out=out, err=err)), daemon=True)
    thread.start()
    _wait_for(out, "(Ctrl-C stops)")
    first = out.getvalue()
    assert "warzone, 4 players (the bot + reference x3), 2 seeds per table" in first
    assert "run 1 (start): 2 matches" in first
    assert re.search(r"\n  vs reference x3: won-drew-lost \d-\d-\d  mean place [\d.]+  territories ", first)
    assert re.search(r"\n    seed 0: =?\d(st|nd|rd|th) of 4  seed 1: =?\d(st|nd|rd|th) of 4\n", first)
    assert ("  first invalid command: vs reference x3 seed 0, turn 1: 'deploy 99 nowhere' -> line 1: "
            "E_UNKNOWN_TERRITORY") in first
    (bot / "bot.py").write_text(BOT_PY.format(orders=""), encoding="utf-8")  # now it passes: nothing invalid
    _wait_for(out, "run 2 (the bot changed): 2 matches")
    thread.join(timeout=60)
    assert codes == [0], err.getvalue()
    second = out.getvalue().split("run 2 (the bot changed)")[1]
    assert re.search(r"won-drew-lost \d-\d-\d \(was \d-\d-\d\)  mean place [\d.]+ \((=|was [\d.]+)\)", second)
    assert re.search(r"  invalid 0 \(-\d+\)\n", second) and "  no invalid command" in second
    assert re.search(r"\n    seed 0: \S+ of 4 \((=|was \S+)\)  seed 1: \S+ of 4 \((=|was \S+)\)\n", second)
    replay = Path(second.rsplit("  replay: ", 1)[1].split(" (")[0])
    assert replay.is_file() and replay.parent.name == "run-002"
    logs = sorted(p.name for p in (tmp_path / "runs" / "run-002").iterdir() if p.is_dir())
    assert logs == ["reference-x3-seed0", "reference-x3-seed1"]
    players = json.loads((tmp_path / "runs" / "run-002" / logs[0] / "match.json").read_text())["players"]
    assert [(p["seat"], p["name"]) for p in players] == [
        ("A", "A - Tiny"), ("B", "B - ReferencePython"), ("C", "C - ReferencePython"), ("D", "D - ReferencePython")]


@pytest.mark.parametrize(("game", "players", "problem"), [
    ("warzone", "7", "--players 7: warzone is played by 2 to 6 players"),
    ("warzone", "1", "--players 1: warzone is played by 2 to 6 players"),
    ("invaders", "3", "--players 3: invaders is played by 2 players"),
    ("warzone", "four", "argument --players: invalid int value: 'four'"),
])
def test_a_player_count_the_game_does_not_take_is_one_line(tmp_path: Path, game: str, players: str,
                                                           problem: str) -> None:
    bot = _tiny_bot(tmp_path / "mine", "")
    out, err = io.StringIO(), io.StringIO()
    code = main(["watch", str(bot), "--game", game, "--players", players, "--runs", "1",
                 "--output", str(tmp_path / "runs")], out=out, err=err)
    assert code == 2
    assert err.getvalue().count("\n") == 1 and problem in err.getvalue(), err.getvalue()
    assert not (tmp_path / "runs").exists()


def test_tables_cycle_the_opponents_until_each_has_played() -> None:
    a, b, c = Path("x/a"), Path("y/b"), Path("z/c")
    assert [(t.label, t.folder, t.opponents) for t in seat_tables([a, b, c], 3)] == [
        ("a, b", "a+b", (a, b)), ("c, a", "c+a", (c, a))]
    assert [(t.label, t.folder) for t in seat_tables([Path("starter/reference")], 4)] == [
        ("reference x3", "reference-x3")]
    assert [(t.label, t.folder) for t in seat_tables([a, b], 6)] == [("a, b, a, b, a", "a+b+a+b+a")]
    # two players: one table per opponent, named as before; folders of the same name kept apart
    assert [(t.label, t.folder) for t in seat_tables([a, Path("w/a"), b], 2)] == [
        ("a", "a"), ("a #2", "a-2"), ("b", "b")]


def test_places_count_the_seats_above_and_mark_ties() -> None:
    outcome = Outcome("max_turns", (("C",), ("A", "D"), ("B",)), draw=True)
    assert [place_of(outcome, seat) for seat in "ABCD"] == [(2, True), (4, False), (1, False), (2, True)]
    assert place_of(None, "A") == (None, False)
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 103)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "103rd"]
    assert ordinal(2, tied=True) == "=2nd" and ordinal(None) == "-"


def test_summary_of_four_seats_compares_places_with_the_previous_run(tmp_path: Path) -> None:
    def result(seed, outcome, place, tied=False, invalid=0, first=None):
        return MatchResult("reference x3", seed, tmp_path / f"s{seed}", outcome, 3, "territories", 0, invalid,
                           first, tmp_path / f"s{seed}.html", 4, place, tied)

    before = [result(0, "drew", 3), result(1, "lost", 4), result(2, "drew", 2, tied=True)]
    after = [result(0, "won", 1), result(1, "drew", 4, invalid=1, first="turn 2: 'x' -> unknown order"),
             result(2, "drew", 2, tied=True)]
    lines = render_summary(3, "the bot changed", 4.0, after, before, tmp_path)
    assert lines == [
        f"run 3 (the bot changed): 3 matches in 4.0 s; logs in {tmp_path}",
        "  vs reference x3: won-drew-lost 1-2-0 (was 0-2-1)  mean place 2.33 (was 3)  territories 3 (=)  "
        "faults 0 (=)  invalid 1 (+1)",
        "    seed 0: 1st of 4 (was 3rd)  seed 1: 4th of 4 (=)  seed 2: =2nd of 4 (=)",
        "  first invalid command: vs reference x3 seed 1, turn 2: 'x' -> unknown order",
        f"  replay: {tmp_path / 's1.html'} (4th of 4, drew vs reference x3, seed 1)",
    ]
    first_run = render_summary(1, "start", 4.0, before, None, tmp_path)
    assert first_run[1:3] == ["  vs reference x3: won-drew-lost 0-2-1  mean place 3  territories 3  faults 0  "
                              "invalid 0", "    seed 0: 3rd of 4  seed 1: 4th of 4  seed 2: =2nd of 4"]
