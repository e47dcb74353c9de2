"""Ranks that say what the games know: a Bradley-Terry fit, bootstrap rank ranges, Wilson intervals; and,
for sided games scored by a number (Invaders' turns), rank ranges from a bootstrap of the opponents.

Pure Python and deterministic (a seeded generator, pairs in sorted order): the same games always give the
same ranges. The fit is order-independent, unlike the OpenSkill ratings the table is sorted by, which is
why it, and not the ratings, decides which entrants cannot be told apart.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from operator import mul
from statistics import NormalDist

#: (bot a, bot b) with a < b -> a's score in each game between them: 1 win, 0.5 draw, 0 loss
Outcomes = Mapping[tuple[str, str], Sequence[float]]

#: Each bot's prior: one game drawn against a virtual opponent of strength 1, so that a bot that won (or
#: lost) every game still has a finite strength.
PRIOR_GAMES = 1.0


def bradley_terry(bots: Sequence[str], outcomes: Outcomes, start: Mapping[str, float] | None = None,
                  iterations: int = 50, tolerance: float = 1e-10) -> dict[str, float]:
    """Each bot's strength p (P(a beats b) = p_a / (p_a + p_b)), draws counted as half a win: the maximum
    of the likelihood (with PRIOR_GAMES) by Newton's method on log p from `start` (default all 1). The
    log-likelihood is strictly concave, so a few steps reach it even when one bot won every game, where
    the textbook minorise-maximise iteration crawls for hundreds of steps."""
    size = len(bots)
    index = {bot: number for number, bot in enumerate(bots)}
    theta = [math.log((start or {}).get(bot, 1.0)) for bot in bots]
    score = [PRIOR_GAMES / 2] * size
    pairs = []
    for (a, b), results in sorted(outcomes.items()):
        if results:
            pairs.append((index[a], index[b], len(results)))
            score[index[a]] += sum(results)
            score[index[b]] += len(results) - sum(results)
    for _ in range(iterations):
        gradient = score[:]
        hessian = [[0.0] * size for _ in range(size)]  # minus the Hessian: positive definite
        for me in range(size):
            chance = 1 / (1 + math.exp(-theta[me]))  # against the prior's opponent, strength 1
            gradient[me] -= PRIOR_GAMES * chance
            hessian[me][me] += PRIOR_GAMES * chance * (1 - chance)
        for first, second, count in pairs:
            chance = 1 / (1 + math.exp(theta[second] - theta[first]))
            weight = count * chance * (1 - chance)
            gradient[first] -= count * chance
            gradient[second] -= count * (1 - chance)
            hessian[first][first] += weight
            hessian[second][second] += weight
            hessian[first][second] -= weight
            hessian[second][first] -= weight
        step = _solve(hessian, gradient)
        largest = max((abs(value) for value in step), default=0.0)
        scale = min(1.0, 4.0 / largest) if largest else 1.0  # a long first step, damped
        theta = [value + scale * change for value, change in zip(theta, step)]
        if largest < tolerance:
            break
    return {bot: math.exp(value) for bot, value in zip(bots, theta)}


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix x = vector, for a symmetric positive definite matrix (Cholesky). The inner products
    are `sum(map(mul, ...))` over row slices: a league's fit of 40 bots solves this a few thousand times."""
    size = len(vector)
    lower = [[0.0] * size for _ in range(size)]
    for row in range(size):
        mine = lower[row]
        for column in range(row + 1):
            total = matrix[row][column] - sum(map(mul, mine[:column], lower[column][:column]))
            mine[column] = math.sqrt(total) if row == column else total / lower[column][column]
    middle = [0.0] * size
    for row in range(size):
        middle[row] = (vector[row] - sum(map(mul, lower[row][:row], middle[:row]))) / lower[row][row]
    result = [0.0] * size
    for row in reversed(range(size)):
        result[row] = (middle[row] - sum(lower[k][row] * result[k] for k in range(row + 1, size))) / lower[row][row]
    return result


def tied_ranks(strength: Mapping[str, float]) -> dict[str, tuple[int, int]]:
    """Each bot's places (best, worst): 1 + the bots stronger, and the bots at least as strong (equal
    strengths, within a relative 1e-9, share their places)."""
    values = list(strength.values())
    places = {}
    for bot, p in strength.items():
        stronger = sum(other > p * (1 + 1e-9) for other in values)
        at_least = sum(other >= p * (1 - 1e-9) for other in values)
        places[bot] = (stronger + 1, at_least)
    return places


def _places(value: Mapping[str, float]) -> dict[str, tuple[int, int]]:
    """`tied_ranks` for any real values, higher first (equal within 1e-9 share their places)."""
    values = list(value.values())
    return {bot: (sum(other > mine + 1e-9 for other in values) + 1, sum(other >= mine - 1e-9 for other in values))
            for bot, mine in value.items()}


def _interval(bests: Mapping[str, list[int]], worsts: Mapping[str, list[int]], confidence: float,
              size: int) -> dict[str, tuple[int, int]]:
    """Each bot's central `confidence` interval of its places over the resamples."""
    tail = (1 - confidence) / 2
    ranges = {}
    for bot in bests:
        best, worst = sorted(bests[bot]), sorted(worsts[bot])
        low = best[math.floor(tail * (len(best) - 1))] if best else 1
        high = worst[math.ceil((1 - tail) * (len(worst) - 1))] if worst else size
        ranges[bot] = (low, high)
    return ranges


def rank_ranges(bots: Sequence[str], outcomes: Outcomes, *, confidence: float = 0.95, resamples: int = 1000,
                seed: int = 0, among: Sequence[str] | None = None) -> dict[str, tuple[int, int]]:
    """Each bot's rank range at `confidence`: a parametric bootstrap. Every pair's games are played again
    from the fitted strengths (as many games, the pair's share of draws kept, the rest won with the
    probability the fit gives), Bradley-Terry refitted, and the bot's best and worst place taken at the
    interval's ends. Bots whose order the games do not settle get overlapping ranges.

    Why not resample the games themselves: a pair whose games all went one way (a deterministic game
    played twice) would never vary, so two identical bots that met a third bot a different number of
    times (a league's matchmaking) would keep the order that difference gives them in every resample.

    `among`: rank only these bots (a league's current versions), the fit still taking every bot's games
    (its old versions link the field)."""
    ranked = list(among if among is not None else bots)
    full = bradley_terry(bots, outcomes)
    generator = random.Random(f"td-runner grades {seed}")
    model = []
    for pair in sorted(outcomes):
        results = outcomes[pair]
        if not results:
            continue
        draws = sum(result == 0.5 for result in results) / len(results)
        expected = full[pair[0]] / (full[pair[0]] + full[pair[1]])  # a's expected score
        win = min(1.0, max(0.0, (expected - draws / 2) / (1 - draws))) if draws < 1 else 0.0
        model.append((pair, len(results), draws, win))
    bests: dict[str, list[int]] = {bot: [] for bot in ranked}
    worsts: dict[str, list[int]] = {bot: [] for bot in ranked}
    for _ in range(resamples):
        sample = {pair: [0.5 if generator.random() < draws else float(generator.random() < win)
                         for _ in range(count)] for pair, count, draws, win in model}
        strength = bradley_terry(bots, sample, start=full)
        for bot, (best, worst) in tied_ranks({bot: strength[bot] for bot in ranked}).items():
            bests[bot].append(best)
            worsts[bot].append(worst)
    return _interval(bests, worsts, confidence, len(ranked))


def score_rank_ranges(scores: Mapping[str, Mapping[str, float]], *, higher_is_better: bool,
                      confidence: float = 0.95, resamples: int = 1000, seed: int = 0) -> dict[str, tuple[int, int]]:
    """Rank ranges of bots scored by their mean against a field of opponents (Invaders, spec 18: each
    defender's mean turns over the invaders it met). `scores`: bot -> opponent -> the bot's mean score
    against it. The opponents are resampled with replacement, the same draw for every bot (two bots with
    equal results against each opponent stay equal), and each bot ranked by its mean over the drawn
    opponents it met (all of its own when it met none of them): the spread of the spec's own score had the
    field of opponents been another. A bot never meets its own author's bot, so the means are over
    different opponents; that is the spec's score, and the ranges show how much it hangs on the field."""
    generator = random.Random(f"td-runner grades {seed}")
    opponents = sorted({opponent for results in scores.values() for opponent in results})
    sign = 1.0 if higher_is_better else -1.0
    bests: dict[str, list[int]] = {bot: [] for bot in scores}
    worsts: dict[str, list[int]] = {bot: [] for bot in scores}
    for _ in range(resamples):
        drawn = [generator.choice(opponents) for _ in opponents]
        means = {}
        for bot, results in scores.items():
            met = [results[opponent] for opponent in drawn if opponent in results] or list(results.values())
            means[bot] = sign * sum(met) / len(met) if met else 0.0
        for bot, (best, worst) in _places(means).items():
            bests[bot].append(best)
            worsts[bot].append(worst)
    return _interval(bests, worsts, confidence, len(scores))


def wilson(successes: float, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a rate (successes may count draws as halves); (0, 1) with no trials."""
    if trials == 0:
        return 0.0, 1.0
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    rate = successes / trials
    centre = (rate + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)
