"""Which matches a tournament plays, in a fixed order, each with an id that says what it is.

A match id is a hash of the settings' fingerprint (game, config, options, limits), the bots' content hashes in
seat order and the seed: the same command always schedules the same ids, a finished one is recognised in
`games.jsonl` whatever order things ran in, and a changed bot is a new match.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from collections.abc import Sequence

import attrs

from runner.errors import UserError
from runner.tournament.entrants import Entrant

ROUND_ROBIN, GAUNTLET = "round-robin", "gauntlet"
FORMATS = (ROUND_ROBIN, GAUNTLET)

#: Games whose two seats are roles, not places at one table: every bot of the first role plays every bot of
#: the second (Invaders spec 18: every defender against every invader, pairs of one author skipped).
SIDED_GAMES: dict[str, tuple[str, str]] = {"invaders": ("defender", "invader")}


@attrs.frozen
class ScheduledMatch:
    """One match to play: seat i is played by the entrant whose hash is `bots[i]`."""

    index: int
    round: int
    seed: int
    seats: tuple[str, ...]
    bots: tuple[str, ...]
    match_id: str


@attrs.frozen
class Format:
    """How to pair the entrants (what `td-runner tournament` was asked for)."""

    name: str = ROUND_ROBIN
    games_per_pair: int = 1  # seeds per pair (each played in both seatings), or rounds of Warzone tables
    seed: int = 0
    baseline: str | None = None  # gauntlet: the hash of the entrant everyone plays
    table_size: int | None = None  # multiplayer games: seats per table
    sides: tuple[tuple[str, ...], tuple[str, ...]] | None = None  # sided games: hashes per role


def match_id(fingerprint: str, bots: Sequence[str], seed: int) -> str:
    text = json.dumps({"settings": fingerprint, "bots": list(bots), "seed": seed}, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def build_schedule(
    game_name: str, seat_names: Sequence[str], entrants: Sequence[Entrant], fmt: Format, fingerprint: str
) -> list[ScheduledMatch]:
    """Every match of the tournament in playing order (whole rounds first, so a stopped tournament is fair)."""
    if fmt.games_per_pair < 1:
        raise UserError(f"--games-per-pair must be at least 1, got {fmt.games_per_pair}")
    if len(entrants) < 2:
        raise UserError(f"a tournament needs at least two bots, got {len(entrants)}")
    hashes = [entrant.hash for entrant in entrants]
    if game_name in SIDED_GAMES:
        tables = _sided(entrants, fmt)
    elif len(seat_names) == 2:
        tables = _pairs(hashes, fmt)
    else:
        tables = _tables(hashes, len(seat_names), fmt)
    schedule = []
    for index, (round_number, seed, bots) in enumerate(tables):
        seats = tuple(seat_names)
        schedule.append(ScheduledMatch(index, round_number, seed, seats, bots, match_id(fingerprint, bots, seed)))
    return schedule


def _pairs(hashes: list[str], fmt: Format) -> list[tuple[int, int, tuple[str, ...]]]:
    """Two seats: every pair (or the baseline against each other bot), each seed in both seatings."""
    if fmt.name == GAUNTLET:
        if fmt.baseline is None:
            raise UserError("--format gauntlet needs --baseline BOT_DIR")
        pairs = [(fmt.baseline, other) for other in hashes if other != fmt.baseline]
    else:
        pairs = list(itertools.combinations(hashes, 2))
    games = []
    for round_number in range(fmt.games_per_pair):
        seed = fmt.seed + round_number
        for first, second in pairs:
            games.append((round_number, seed, (first, second)))
            games.append((round_number, seed, (second, first)))
    return games


def _tables(hashes: list[str], size: int, fmt: Format) -> list[tuple[int, int, tuple[str, ...]]]:
    """Free-for-all tables: each round, the bots in an order drawn from the seed, and n tables of `size`
    consecutive bots (cyclically). Every bot then plays `size` games a round, once in every seat."""
    if fmt.name == GAUNTLET:
        raise UserError("--format gauntlet is for two-seat matches; use round-robin tables for this game "
                        "(or --table-size 2)")
    count = len(hashes)
    games = []
    for round_number in range(fmt.games_per_pair):
        order = random.Random(f"td-runner tables {fmt.seed} {round_number}").sample(hashes, count)
        for table in range(count):
            bots = tuple(order[(table + offset) % count] for offset in range(size))
            games.append((round_number, fmt.seed + round_number * count + table, bots))
    return games


def _sided(entrants: Sequence[Entrant], fmt: Format) -> list[tuple[int, int, tuple[str, ...]]]:
    """Sided games: every bot of the first role against every bot of the second, one author never against
    itself. Without role lists every bot plays both roles."""
    by_hash = {entrant.hash: entrant for entrant in entrants}
    firsts, seconds = fmt.sides or (tuple(by_hash), tuple(by_hash))
    pairs = [(a, b) for a in firsts for b in seconds
             if a != b and not (by_hash[a].author and by_hash[a].author == by_hash[b].author)]
    if not pairs:
        raise UserError("no match to play: every pair of sides is one bot, or two bots of the same bot.json "
                        "author (spec: such pairs are skipped)")
    return [(round_number, fmt.seed + round_number, pair)
            for round_number in range(fmt.games_per_pair) for pair in pairs]
