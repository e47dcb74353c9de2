"""Standings from records alone: scoring rules, forfeits, unfinished matches, order independence, the match
deadline's rule (no matches played here)."""

from __future__ import annotations

import random
import time
from types import SimpleNamespace

import pytest

from runner.bots.outcome import TurnStatus
from runner.tournament.records import GameRecord, SeatResult
from runner.tournament.standings import compute_standings, render_csv
from runner.tournament.task import MatchOvertime, _never_started, _Watcher, forfeit_ranking


def record(index: int, seats: list[tuple[str, str]], ranking, *, draw: bool = False, **extra) -> GameRecord:
    return GameRecord(match=f"m{index}", index=index, round=0, seed=0,
                      seats=tuple(SeatResult(seat, bot, bot.lower()) for seat, bot in seats),
                      ranking=tuple(tuple(group) for group in ranking), game_ranking=(), draw=draw,
                      end_reason="x", rounds=3, **extra)


def test_forfeit_ranking_moves_non_starters_to_the_bottom() -> None:
    assert forfeit_ranking([["A"], ["B"]], ["A"]) == (("B",), ("A",))
    assert forfeit_ranking([["A", "B"], ["C"]], ["B"]) == (("A",), ("C",), ("B",))
    assert forfeit_ranking([["A"], ["B"]], []) == (("A",), ("B",))
    assert _never_started({TurnStatus.FAILED_TO_START: 3})
    assert not _never_started({TurnStatus.FAILED_TO_START: 2, TurnStatus.CRASH: 1})
    assert not _never_started({})


def test_wins_draws_points_and_crosstable() -> None:
    records = [
        record(0, [("A", "X"), ("B", "Y")], [["A"], ["B"]]),
        record(1, [("A", "Y"), ("B", "X")], [["A", "B"]], draw=True),
        record(2, [("A", "X"), ("B", "Y"), ("C", "Z")], [["C"], ["A", "B"]]),
    ]
    table = compute_standings("g", records)
    rows = {row.name: row for row in table.rows}
    assert (rows["X"].wins, rows["X"].draws, rows["X"].losses) == (1, 1, 1)
    assert rows["X"].points == 1 + 0.5 + 0.25  # beat Y; drew; tied with Y below Z: half of one of two
    assert rows["Z"].points == 1 and rows["Z"].wins == 1
    assert table.crosstable["X"]["Y"] == {"wins": 1, "draws": 2, "losses": 0}
    assert table.crosstable["Z"]["X"] == {"wins": 1, "draws": 0, "losses": 0}
    assert rows["X"].mu > rows["Y"].mu
    assert render_csv(table).splitlines()[0].startswith("name,hash,games,wins,draws,losses,points,mu")


def test_order_of_finishing_does_not_matter() -> None:
    bots = ["P", "Q", "R", "S"]
    rng = random.Random(3)
    records = []
    for index in range(30):
        a, b = rng.sample(bots, 2)
        records.append(record(index, [("A", a), ("B", b)], [["A"], ["B"]] if rng.random() < 0.7 else [["A", "B"]],
                              draw=False))
    expected = compute_standings("g", records).to_json()
    for _ in range(5):
        rng.shuffle(records)
        assert compute_standings("g", records).to_json() == expected


def test_sided_scoring_follows_invaders_spec() -> None:
    """Defenders by mean turns (higher better), invaders by mean turns against (lower better); a forfeit
    scores 0 when the defender could not start, else the cap."""
    def sided(index: int, defender: str, invader: str, score: int | None, started=(True, True)) -> GameRecord:
        seats = (SeatResult("defender", defender, defender.lower(), started=started[0]),
                 SeatResult("invader", invader, invader.lower(), started=started[1]))
        details = {} if score is None else {"score": score}
        return GameRecord(f"s{index}", index, 0, 0, seats, (("invader",), ("defender",)), (), False, "life", 10,
                          details, forfeit=None if score is not None else "cannot start")
    records = [sided(0, "D1", "I1", 100), sided(1, "D2", "I1", 50), sided(2, "D1", "I2", 300),
               sided(3, "D2", "I2", None, started=(True, False))]
    table = compute_standings("invaders", records, sides=("defender", "invader"), turn_cap=1000)
    rows = {(row.name, row.role): row for row in table.rows}
    assert rows[("D1", "defender")].mean_turns == 200 and rows[("D2", "defender")].mean_turns == 525
    assert rows[("I1", "invader")].mean_turns == 75 and rows[("I2", "invader")].mean_turns == 650
    assert [row.name for row in table.rows] == ["D2", "D1", "I1", "I2"]
    assert rows[("I1", "invader")].mu > rows[("I2", "invader")].mu  # I1 ended both its games sooner than I2
    assert table.crosstable["D1"]["I1"]["mean_turns"] == 100


def test_the_rating_history_starts_at_the_default_and_ends_at_the_table() -> None:
    """Standings.history (the tournament pages' charts): each bot's starting rating at match 0, then one point
    per rated match, numbered in schedule order, ending at the rating the table shows; sided games rate a
    round's matches together, numbered by the round's last match."""
    records = [record(0, [("A", "X"), ("B", "Y")], [["A"], ["B"]]),
               record(1, [("A", "Y"), ("B", "Z")], [["B"], ["A"]]),
               record(2, [("A", "X"), ("B", "Z")], [["A"], ["B"]])]
    table = compute_standings("g", records)
    for row in table.rows:
        points = table.history[(row.hash, None)]
        assert points[0][0] == 0 and points[0][1] == pytest.approx(25.0)
        assert points[-1][1:] == (row.mu, row.sigma)
    assert [match for match, _, _ in table.history[("x", None)]] == [0, 1, 3]
    assert [match for match, _, _ in table.history[("y", None)]] == [0, 1, 2]
    assert "history" not in table.to_json()  # standings.json stays as it was


def test_unfinished_matches_count_faults_but_no_result() -> None:
    """A match stopped at --match-timeout: its bots' time-outs and crashes count, and `unfinished`; games,
    wins, points, ratings and the crosstable are those of the finished matches alone."""
    finished = [record(0, [("A", "X"), ("B", "Y")], [["A"], ["B"]]),
                record(2, [("A", "Y"), ("B", "Z")], [["B"], ["A"]])]
    cut = GameRecord(match="m1", index=1, round=0, seed=0, ranking=(), game_ranking=(), draw=False,
                     seats=(SeatResult("A", "Y", "y", timeouts=2), SeatResult("B", "X", "x", crashes=1)),
                     end_reason="match_timeout", rounds=7, unfinished="stopped at the match time limit of 1 s")
    assert cut.winner is None and GameRecord.from_json(cut.to_json()) == cut
    table = compute_standings("g", [*finished, cut]).to_json()
    alone = compute_standings("g", finished).to_json()
    assert table["matches"] == 3 and table["crosstable"] == alone["crosstable"]
    rows, rows_alone = ({row["name"]: row for row in t["rows"]} for t in (table, alone))
    assert (rows["Y"]["unfinished"], rows["Y"]["timeouts"], rows["X"]["unfinished"], rows["X"]["crashes"]) == (1, 2, 1, 1)
    assert rows["Z"]["unfinished"] == 0
    ignore = {"unfinished", "timeouts", "crashes"}
    for name, row in rows.items():
        assert {k: v for k, v in row.items() if k not in ignore} == {k: v for k, v in rows_alone[name].items()
                                                                       if k not in ignore}


def test_unfinished_sided_match_is_not_scored() -> None:
    seats = (SeatResult("defender", "D", "d"), SeatResult("invader", "I", "i"))
    done = GameRecord("s0", 0, 0, 0, seats, (("invader",), ("defender",)), (), False, "life", 40, {"score": 40})
    cut = GameRecord("s1", 1, 0, 0, seats, (), (), False, "match_timeout", 900, unfinished="stopped")
    rows = compute_standings("invaders", [done, cut], sides=("defender", "invader"), turn_cap=1000).rows
    assert [(row.role, row.games, row.mean_turns, row.unfinished) for row in rows] == [
        ("defender", 1, 40, 1), ("invader", 1, 40, 1)]


def test_the_deadline_stops_a_game_in_progress_only() -> None:
    """Past the deadline, a turn that ends the game lets it end (its result stands); any other stops it."""
    watcher = _Watcher(("A", "B"), 30)
    watcher.deadline = time.monotonic() - 1
    ended, going_on = SimpleNamespace(outcome=lambda: "over"), SimpleNamespace(outcome=lambda: None)
    watcher.round_played(5, ended, None, {})
    with pytest.raises(MatchOvertime):
        watcher.round_played(5, going_on, None, {})
    assert _Watcher(("A", "B"), None).round_played(5, going_on, None, {}) is None  # no limit: never stops
