"""Whom a league plays next, from the ratings (pure: candidates and a seeded random source in, a table out).

The rule (README, "Run a league"):

1. **Focus.** A version that has not played yet plays first (the oldest such). Otherwise the focus is the
   version (and role, in sided games) whose rating is the most uncertain: the largest sigma, each multiplied
   by a random factor in [0.85, 1.15] so that near-equal players take turns (and divided by
   sqrt(1 + its matches in flight), so that parallel workers do not all wait on one version's results). Playing shrinks sigma, so every
   version comes round; a new version, whose sigma starts wide, plays most matches until it has settled.
2. **Opponents.** Games without sides: each other player's version is drawn with a weight that is highest
   for a close rating, `exp(-(mu - mu_focus)^2 / (2 c^2))` with `c = sqrt(2) * BETA`, divided by
   `1 + sqrt(meetings)` so that the same pair does not meet over and over; Warzone draws `table size - 1`
   of them without replacement. Invaders: the focus's opponent (of the other side) is the one it has met the
   fewest times, ties drawn at random; a version of the same author is not an opponent while any other is
   (spec 18). Two versions of one player never meet.
3. **Seats.** Two-seat games: the focus takes the seat it has played less often (a tie: drawn), so every
   version alternates seats. Tables: the order is drawn. Sided games: the roles are the seats.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

import attrs

from runner.league.ratings import BETA

NOISE = 0.15  # the focus's random factor: sigma * U(1 - NOISE, 1 + NOISE)
CLOSENESS = math.sqrt(2) * BETA


@attrs.frozen
class Candidate:
    """An active version in one role, as matchmaking sees it."""

    version: int
    player: str
    author: str
    role: str  # '' in games without sides
    mu: float
    sigma: float
    games: int
    first_seats: int = 0  # two-seat games: matches it played in the first seat
    second_seats: int = 0
    in_flight: int = 0  # matches it is playing right now (their results not in yet)


def pick(candidates: Sequence[Candidate], seats: Sequence[str], sides: tuple[str, str] | None,
         meetings: Mapping[tuple[int, int], int], rng: random.Random) -> tuple[int, ...] | None:
    """The versions of the next match in seat order; None when there are not enough players.

    `meetings[(a, b)]` (a < b) counts the finished matches in which versions a and b met."""
    if sides is not None:
        return _pick_sided(candidates, sides, meetings, rng)
    if len({candidate.player for candidate in candidates}) < len(seats):
        return None
    focus = _focus(candidates, rng)
    table = [focus]
    pool = [c for c in candidates if c.player != focus.player]
    while len(table) < len(seats):
        weights = [_closeness(focus, c) / (1 + math.sqrt(_met(meetings, focus, c))) for c in pool]
        chosen = _draw(pool, weights, rng)
        table.append(chosen)
        pool = [c for c in pool if c.player != chosen.player]
    if len(seats) == 2:
        first = focus.first_seats < focus.second_seats or (
            focus.first_seats == focus.second_seats and rng.random() < 0.5)
        ordered = table if first else table[::-1]
    else:
        ordered = list(table)
        rng.shuffle(ordered)
    return tuple(c.version for c in ordered)


def _pick_sided(candidates: Sequence[Candidate], sides: tuple[str, str], meetings: Mapping[tuple[int, int], int],
                rng: random.Random) -> tuple[int, ...] | None:
    playable = [c for c in candidates if any(o.role != c.role and o.player != c.player for o in candidates)]
    if not playable:
        return None
    focus = _focus(playable, rng)
    rivals = [c for c in candidates if c.role != focus.role and c.player != focus.player]
    other_authors = [c for c in rivals if not (c.author and c.author == focus.author)]
    rivals = other_authors or rivals
    fewest = min(_met(meetings, focus, c) for c in rivals)
    opponent = rng.choice([c for c in rivals if _met(meetings, focus, c) == fewest])
    by_role = {focus.role: focus.version, opponent.role: opponent.version}
    return tuple(by_role[role] for role in sides)


def _focus(candidates: Sequence[Candidate], rng: random.Random) -> Candidate:
    fresh = [c for c in candidates if c.games + c.in_flight == 0]
    if fresh:
        return min(fresh, key=lambda c: (c.version, c.role))
    factors = [rng.uniform(1 - NOISE, 1 + NOISE) / math.sqrt(1 + c.in_flight) for c in candidates]
    return max(zip(candidates, factors), key=lambda pair: pair[0].sigma * pair[1])[0]


def _closeness(focus: Candidate, other: Candidate) -> float:
    return math.exp(-((other.mu - focus.mu) ** 2) / (2 * CLOSENESS**2))


def _met(meetings: Mapping[tuple[int, int], int], a: Candidate, b: Candidate) -> int:
    return meetings.get((min(a.version, b.version), max(a.version, b.version)), 0)


def _draw(pool: Sequence[Candidate], weights: Sequence[float], rng: random.Random) -> Candidate:
    total = sum(weights)
    if total <= 0:  # every weight underflowed (ratings far apart): the closest
        return pool[max(range(len(pool)), key=lambda i: weights[i])]
    return rng.choices(pool, weights=weights, k=1)[0]
