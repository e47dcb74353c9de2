"""Ranks that say what the games know: a Bradley-Terry fit, bootstrap rank ranges, Wilson intervals.

Pure Python and deterministic (a seeded generator, pairs in sorted order): the same games always give the
same ranges. The fit is order-independent, unlike the OpenSkill ratings the table is sorted by, which is
why it, and not the ratings, decides which entrants cannot be told apart.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from statistics import NormalDist

#: (bot a, bot b) with a < b -> a's score in each game between them: 1 win, 0.5 draw, 0 loss
Outcomes = Mapping[tuple[str, str], Sequence[float]]

#: Each bot's prior: one game drawn against a virtual opponent of strength 1, so that a bot that won (or
#: lost) every game still has a finite strength.
PRIOR_GAMES = 1.0


def bradley_terry(bots: Sequence[str], outcomes: Outcomes, start: Mapping[str, float] | None = None,
                  iterations: int = 500, tolerance: float = 1e-10) -> dict[str, float]:
    """Each bot's strength p (P(a beats b) = p_a / (p_a + p_b)), draws counted as half a win, fitted by
    Hunter's minorise-maximise updates from `start` (default all 1)."""
    strength = {bot: (start or {}).get(bot, 1.0) for bot in bots}
    score = {bot: PRIOR_GAMES / 2 for bot in bots}
    games: dict[str, list[tuple[str, int]]] = {bot: [] for bot in bots}
    for (a, b), results in sorted(outcomes.items()):
        if not results:
            continue
        score[a] += sum(results)
        score[b] += len(results) - sum(results)
        games[a].append((b, len(results)))
        games[b].append((a, len(results)))
    for _ in range(iterations):
        change = 0.0
        for bot in bots:
            p = strength[bot]
            denominator = PRIOR_GAMES / (p + 1.0) + sum(n / (p + strength[other]) for other, n in games[bot])
            new = score[bot] / denominator
            change = max(change, abs(new - p) / p)
            strength[bot] = new
        if change < tolerance:
            break
    return strength


def tied_ranks(strength: Mapping[str, float]) -> dict[str, tuple[int, int]]:
    """Each bot's places (best, worst): 1 + the bots stronger, and the bots at least as strong (equal
    strengths, within rounding, share their places)."""
    values = list(strength.values())
    places = {}
    for bot, p in strength.items():
        stronger = sum(other > p * (1 + 1e-9) for other in values)
        at_least = sum(other >= p * (1 - 1e-9) for other in values)
        places[bot] = (stronger + 1, at_least)
    return places


def rank_ranges(bots: Sequence[str], outcomes: Outcomes, *, confidence: float = 0.95, resamples: int = 1000,
                seed: int = 0) -> dict[str, tuple[int, int]]:
    """Each bot's rank range at `confidence`: the games of every pair resampled with replacement (the
    schedule's design kept), Bradley-Terry refitted, and the bot's best and worst place taken at the
    interval's ends. Bots whose order the games do not settle get overlapping ranges."""
    full = bradley_terry(bots, outcomes)
    generator = random.Random(f"td-runner grades {seed}")
    pairs = sorted(outcomes)
    bests: dict[str, list[int]] = {bot: [] for bot in bots}
    worsts: dict[str, list[int]] = {bot: [] for bot in bots}
    for _ in range(resamples):
        sample = {pair: [generator.choice(outcomes[pair]) for _ in outcomes[pair]] for pair in pairs}
        for bot, (best, worst) in tied_ranks(bradley_terry(bots, sample, start=full)).items():
            bests[bot].append(best)
            worsts[bot].append(worst)
    tail = (1 - confidence) / 2
    ranges = {}
    for bot in bots:
        best, worst = sorted(bests[bot]), sorted(worsts[bot])
        low = best[math.floor(tail * (len(best) - 1))] if best else 1
        high = worst[math.ceil((1 - tail) * (len(worst) - 1))] if worst else len(bots)
        ranges[bot] = (low, high)
    return ranges


def wilson(successes: float, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a rate (successes may count draws as halves); (0, 1) with no trials."""
    if trials == 0:
        return 0.0, 1.0
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    rate = successes / trials
    centre = (rate + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)
