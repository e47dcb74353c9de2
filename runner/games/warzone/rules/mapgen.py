"""Seeded random valid maps (spec 3.6 strict): the generator behind `td-runner warzone-map` and the property
tests. Pure: the seed is the only randomness, so the same arguments always give the same map.

Shape: territories are split into continents of near-equal size (ids contiguous per continent); each
continent is a random tree plus a few extra inner borders (so it is connected, spec 3.6
E_CONTINENT_DISCONNECTED); continents are joined in a chain plus a few random cross links (so the map is
connected). A continent's bonus grows with the territories that border another continent, as in Risk:
harder to hold, worth more.
"""

from __future__ import annotations

from runner.games.warzone.rules.board import Continent, Territory, WarMap, build_map
from runner.games.warzone.rules.rng import SplitMix64

MAX_TERRITORIES = 5000  # spec 3.6 E_TOO_LARGE
MAX_CONTINENTS = 1000

_ONSETS = ("b", "br", "c", "d", "dr", "f", "g", "gr", "h", "k", "l", "m", "n", "p", "r", "s", "st", "t", "th",
           "v", "w", "z")
_VOWELS = ("a", "e", "i", "o", "u", "ae", "ia", "ou")
_CODAS = ("", "", "n", "r", "s", "l", "th", "m", "rk", "nd")


def check_generator_args(territories: int, continents: int) -> str | None:
    """Why these sizes cannot make a valid playable map, or None."""
    if not 2 <= territories <= MAX_TERRITORIES:
        return f"--territories must be between 2 and {MAX_TERRITORIES}, not {territories}"
    if not 1 <= continents <= min(territories, MAX_CONTINENTS):
        return f"--continents must be between 1 and {min(territories, MAX_CONTINENTS)}, not {continents}"
    return None


def _word(rng: SplitMix64, syllables: int) -> str:
    parts = []
    for _ in range(syllables):
        parts.append(_ONSETS[rng.below(len(_ONSETS))] + _VOWELS[rng.below(len(_VOWELS))])
    parts.append(_CODAS[rng.below(len(_CODAS))])
    return "".join(parts).capitalize()


def _unique(word: str, taken: set[str], number: int) -> str:
    """`word`, or `word` with the territory/continent number when its case-folded form is taken (spec 3.6
    E_DUPLICATE_NAME compares names ignoring case)."""
    candidate, suffix = word, number
    while candidate.casefold() in taken:
        candidate = f"{word}{suffix}"
        suffix += MAX_TERRITORIES
    taken.add(candidate.casefold())
    return candidate


def generate_map(territories: int, continents: int, seed: int, name: str = "") -> WarMap:
    """A connected map whose continents are connected; names are single ASCII words (both dialects can
    hold them). The caller checks the sizes with `check_generator_args`."""
    if reason := check_generator_args(territories, continents):
        raise ValueError(reason)
    rng = SplitMix64(seed)
    home = [1 + (k * continents) // territories for k in range(territories)]  # contiguous blocks, none empty
    members: list[list[int]] = [[] for _ in range(continents + 1)]
    for index, cid in enumerate(home):
        members[cid].append(index + 1)
    edges: set[tuple[int, int]] = set()

    def join(a: int, b: int) -> None:
        if a != b:
            edges.add((min(a, b), max(a, b)))

    for cid in range(1, continents + 1):
        group = members[cid]
        for index in range(1, len(group)):  # a random tree: each member joins an earlier one
            join(group[rng.below(index)], group[index])
        for _ in range(len(group) // 2):  # extra inner borders make loops (more than one way in)
            join(group[rng.below(len(group))], group[rng.below(len(group))])
        if cid > 1:
            previous = members[cid - 1]
            join(previous[rng.below(len(previous))], group[rng.below(len(group))])
        if cid > 2 and rng.below(3) == 0:  # an occasional cross link to an older continent
            other = members[1 + rng.below(cid - 2)]
            join(other[rng.below(len(other))], group[rng.below(len(group))])
    crossing = {t for a, b in edges if home[a - 1] != home[b - 1] for t in (a, b)}

    taken: set[str] = set()
    continent_list = []
    for cid in range(1, continents + 1):
        border_count = sum(1 for t in members[cid] if t in crossing)
        bonus = max(1, border_count + len(members[cid]) // 5)
        continent_list.append(Continent(cid, _unique(_word(rng, 2), taken, cid), bonus))
    territory_list = [Territory(tid, _unique(_word(rng, 2 + rng.below(2)), taken, tid), home[tid - 1])
                      for tid in range(1, territories + 1)]
    return build_map(name, "domination", continent_list, territory_list, sorted(edges))
