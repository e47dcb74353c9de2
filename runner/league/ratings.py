"""A league's ratings: OpenSkill Plackett-Luce, one rating per version and role, updated match by match.

`RatingBook` is the only place a rating changes. The league applies each match to it as the match is
recorded, and `recompute` applies the stored matches again, in the order they were recorded, to a fresh book
started from each version's stored starting rating: the two give the same numbers by construction, which is
how a league's standings can be checked against its own history.

* Games without sides (Tower Defence, Lanes, Warzone): a match is one rating event, its seats ranked as the
  game ranked them (a draw: all equal).
* Sided games (Invaders): a defender and an invader never compete with each other; spec 18 ranks defenders
  by turns lasted and invaders by turns against them. So a match D vs I rates D against the latest result of
  every other defender version against the same invader version I (more turns is better), and I against
  the latest result of every other invader version against D (fewer is better); only D and I move. The first
  meeting with an opponent nobody else has met yet rates nobody (it still counts as a game).
* A new version starts from its player's previous version's rating with the uncertainty widened by
  `WIDEN` (capped at a new player's), so it moves fast and is scheduled first, but need not climb from zero.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from runner.errors import UserError

MU, SIGMA = 25.0, 25.0 / 3  # a new player's rating (OpenSkill's defaults)
BETA = 25.0 / 6  # OpenSkill's performance spread: the scale of "close in rating"
WIDEN = SIGMA / 3  # added to a player's uncertainty when it submits a new version

Key = tuple[int, str]  # (version id, role)


@attrs.frozen
class Rating:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative estimate the tables sort by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


def successor(previous: Rating | None) -> Rating:
    """Where a player's new version starts: the last version's mu, its sigma widened; a new player: defaults."""
    if previous is None:
        return Rating()
    return Rating(previous.mu, min(SIGMA, previous.sigma + WIDEN))


@attrs.frozen
class SeatOutcome:
    """One seat of a finished match as ratings see it."""

    version: int
    role: str  # '' in games without sides
    place: int  # 1 is first; equal places are ties
    score: float | None = None  # sided games: the match's turns (spec 18)


@attrs.frozen
class Change:
    before: Rating
    after: Rating


def _model() -> Any:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise UserError("leagues need the openskill package: pip install 'td-runner[league]'") from None
    return PlackettLuce()


class RatingBook:
    """Every version's current rating per role, and (sided games) each one's latest score per opponent."""

    def __init__(self, sides: tuple[str, str] | None) -> None:
        self.sides = sides
        self.ratings: dict[Key, Rating] = {}
        #: sided games: (role, opponent version) -> {version: its latest score against that opponent}
        self.latest: dict[tuple[str, int], dict[int, float]] = {}
        self._model = _model()

    def add(self, version: int, role: str, start: Rating) -> None:
        self.ratings.setdefault((version, role), start)

    def get(self, version: int, role: str) -> Rating:
        return self.ratings[(version, role)]

    def apply(self, seats: Sequence[SeatOutcome]) -> list[Change | None]:
        """Rate one finished match; per seat, its rating before and after (None: unchanged by design)."""
        if self.sides is not None:
            return self._apply_sided(seats)
        keys = [(seat.version, seat.role) for seat in seats]
        before = [self.ratings[key] for key in keys]
        teams = [[self._model.rating(mu=rating.mu, sigma=rating.sigma)] for rating in before]
        rated = self._model.rate(teams, ranks=[seat.place for seat in seats])
        changes: list[Change | None] = []
        for key, old, (new,) in zip(keys, before, rated):
            after = Rating(new.mu, new.sigma, old.games + 1)
            self.ratings[key] = after
            changes.append(Change(old, after))
        return changes

    def _apply_sided(self, seats: Sequence[SeatOutcome]) -> list[Change | None]:
        first_role = self.sides[0]  # type: ignore[index]
        changes: list[Change | None] = []
        for seat in seats:
            opponent = next(other for other in seats if other is not seat)
            score = float(seat.score or 0)
            higher_is_better = seat.role == first_role
            others = {version: value for version, value in self.latest.get((seat.role, opponent.version), {}).items()
                      if version != seat.version and (version, seat.role) in self.ratings}
            old = self.ratings[(seat.version, seat.role)]
            new = attrs.evolve(old, games=old.games + 1)
            if others:
                entries = [(seat.version, score), *sorted(others.items())]
                values = sorted({value for _, value in entries}, reverse=higher_is_better)
                ranks = [values.index(value) + 1 for _, value in entries]
                teams = [[self._model.rating(mu=self.ratings[(version, seat.role)].mu,
                                             sigma=self.ratings[(version, seat.role)].sigma)] for version, _ in entries]
                (rated, *_) = self._model.rate(teams, ranks=ranks)
                new = Rating(rated[0].mu, rated[0].sigma, old.games + 1)
            changes.append(Change(old, new))
        for seat, change in zip(seats, changes):
            opponent = next(other for other in seats if other is not seat)
            self.ratings[(seat.version, seat.role)] = change.after  # type: ignore[union-attr]
            self.latest.setdefault((seat.role, opponent.version), {})[seat.version] = float(seat.score or 0)
        return changes


def places(ranking: Sequence[Sequence[str]], seats: Sequence[str], draw: bool) -> dict[str, int]:
    """Each seat's place from a ranking of seat groups (1 is first; a draw: everyone first)."""
    if draw:
        return {seat: 1 for seat in seats}
    return {seat: position for position, group in enumerate(ranking, 1) for seat in group}


def recompute(starts: Mapping[Key, Rating], matches: Iterable[Sequence[SeatOutcome]],
              sides: tuple[str, str] | None) -> dict[Key, Rating]:
    """Every rating from the starting ones and the finished matches in the order they were recorded."""
    book = RatingBook(sides)
    for key, start in starts.items():
        book.add(*key, start)
    for seats in matches:
        book.apply(seats)
    return dict(book.ratings)
