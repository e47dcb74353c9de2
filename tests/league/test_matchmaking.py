"""Matchmaking (pure): the rule's parts, and that a new version finds its level in fewer league matches than
under uniform random pairing (simulated players whose true strengths decide each result)."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from runner.league.matchmaking import Candidate, pick

pytest.importorskip("openskill", reason="ratings need openskill (td-runner[league])")

from runner.league.ratings import Rating, RatingBook, SeatOutcome, successor  # noqa: E402


def candidate(version: int, mu: float = 25.0, sigma: float = 8.0, games: int = 5, **extra) -> Candidate:
    return Candidate(version, extra.pop("player", f"p{version}"), extra.pop("author", ""), extra.pop("role", ""),
                     mu, sigma, games, **extra)


def test_an_unplayed_version_plays_first() -> None:
    pool = [candidate(1, sigma=9), candidate(2, games=0, sigma=1), candidate(3)]
    for seed in range(20):
        assert 2 in pick(pool, ("A", "B"), None, {}, random.Random(seed))


def test_the_most_uncertain_is_the_focus_and_meets_a_close_rating() -> None:
    pool = [candidate(1, mu=40, sigma=2), candidate(2, mu=25, sigma=6), candidate(3, mu=26, sigma=2),
            candidate(4, mu=10, sigma=2)]
    tables = [pick(pool, ("A", "B"), None, {}, random.Random(seed)) for seed in range(200)]
    assert all(2 in table for table in tables)
    opponents = [next(v for v in table if v != 2) for table in tables]
    assert opponents.count(3) > opponents.count(1) and opponents.count(3) > opponents.count(4)


def test_seats_alternate() -> None:
    pool = [candidate(1, sigma=9, first_seats=3, second_seats=1), candidate(2, sigma=2)]
    assert all(pick(pool, ("A", "B"), None, {}, random.Random(seed))[1] == 1 for seed in range(10))


def test_two_versions_of_one_player_never_meet_and_too_few_players_is_none() -> None:
    assert pick([candidate(1, player="x"), candidate(2, player="x")], ("A", "B"), None, {}, random.Random(0)) is None
    table = pick([candidate(1), candidate(2), candidate(3), candidate(4)], ("A", "B", "C"), None, {}, random.Random(1))
    assert len(set(table)) == 3


def test_sided_the_least_met_opponent_of_another_author() -> None:
    sides = ("defender", "invader")
    pool = [candidate(v, role=role, author=author, sigma=9 if v == 1 else 2)
            for v, author in ((1, "ann"), (2, "ann"), (3, "bob"), (4, "cy")) for role in sides]
    meetings = {(1, 3): 4, (1, 4): 1}
    for seed in range(10):
        table = pick(pool, sides, sides, meetings, random.Random(seed))
        assert 1 in table and 4 in table and 2 not in table


def _simulate(seed: int, matchmaking: bool, players: int = 8, warmup: int = 120, limit: int = 300) -> int:
    """League matches until a strong new version of the weakest player has its true rank among the active
    versions (by mu) and keeps it for 10 matches."""
    rng = random.Random(seed)
    truth = {v: float(v) for v in range(players)}  # strength in logits: P(a beats b) = 1 / (1 + e^(b - a))
    book = RatingBook(None)
    for version in truth:
        book.add(version, "", Rating())
    seats = {version: [0, 0] for version in truth}
    meetings: dict[tuple[int, int], int] = {}
    active = set(truth)

    def play(a: int, b: int) -> None:
        a_wins = rng.random() < 1 / (1 + math.exp(truth[b] - truth[a]))
        book.apply([SeatOutcome(a, "", 1 if a_wins else 2), SeatOutcome(b, "", 2 if a_wins else 1)])
        seats[a][0] += 1
        seats[b][1] += 1
        key = (min(a, b), max(a, b))
        meetings[key] = meetings.get(key, 0) + 1

    def choose(use_matchmaking: bool) -> tuple[int, ...]:
        if not use_matchmaking:
            return tuple(rng.sample(sorted(active), 2))
        pool = [Candidate(v, "p0" if v == players else f"p{v}", "", "", book.get(v, "").mu, book.get(v, "").sigma,
                          book.get(v, "").games, *seats[v]) for v in sorted(active)]
        return pick(pool, ("A", "B"), None, meetings, rng)

    for _ in range(warmup):
        play(*choose(False))
    new = players
    truth[new] = players - 0.5  # between the two best
    book.add(new, "", successor(book.get(0, "")))
    seats[new] = [0, 0]
    active = (active - {0}) | {new}
    true_rank = sorted(active, key=lambda v: -truth[v]).index(new)
    streak = 0
    for played in range(1, limit + 1):
        play(*choose(matchmaking))
        rank = sorted(active, key=lambda v: -book.get(v, "").mu).index(new)
        streak = streak + 1 if rank == true_rank else 0
        if streak == 10:
            return played - 9
    return limit


def test_a_new_version_settles_faster_than_under_random_pairing() -> None:
    league = [_simulate(seed, True) for seed in range(30)]
    uniform = [_simulate(seed, False) for seed in range(30)]
    # measured: median 53 league matches vs 158 under random pairing (40 seeds)
    assert statistics.median(league) < 0.6 * statistics.median(uniform), (league, uniform)
