"""The grade sheet as data, CSV and JSON: one row per entrant (per role in Invaders, per version of a
league player with `--all-versions`), the same columns whatever the sheet was read from.

A few columns only mean something in some sheets and are left out of the others rather than left blank:
`role`, `mean_turns` and `disqualified` in sided games (Invaders: what the spec scores, and the game that
disqualifies), `version` and `status` in a league; and `margin` is left out of sided sheets (both seats
of a match score the same turns there).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

import attrs

#: The columns a sheet shows only when it says so (GradeSheet.extras).
SIDED_COLUMNS = ("role", "mean_turns", "disqualified")
LEAGUE_COLUMNS = ("version", "status")
OPTIONAL_COLUMNS = SIDED_COLUMNS + LEAGUE_COLUMNS


@attrs.frozen
class Against:
    """An entrant's results against one reference bot.

    Games with a winner: the win rate (draws half) and its Wilson interval (`low`, `high`). Sided games
    (Invaders, where a match has a score and no winner): the mean turns, and the fewest and most turns of
    those games as `low` and `high`."""

    reference: str
    games: int
    rate: float | None  # the win rate, or (sided) the mean turns; None without games
    low: float | None
    high: float | None


@attrs.define
class Grade:
    """One entrant's row of the sheet."""

    rank: str  # "1", or "2-3" when the games cannot tell those places apart; "unranked" without games
    rank_best: int | None
    rank_worst: int | None
    name: str
    role: str | None
    version: int | None
    status: str | None
    folder: str
    author: str
    email: str
    nickname: str
    language: str
    hash: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0
    mean_turns: float | None = None  # sided games: the spec's score (defenders: more is better; invaders: fewer)
    margin: float | None = None  # mean of (own score - the other seats' mean score), games with scores only
    crashes: int = 0
    timeouts: int = 0
    invalid: int = 0
    failed_to_start: int = 0  # turns whose process could not be started
    cannot_start: int = 0  # matches the bot could not start at all (forfeits included)
    disqualified: int = 0
    mu: float = 0.0
    sigma: float = 0.0
    ordinal: float = 0.0  # mu - 3 sigma
    against: tuple[Against, ...] = ()

    def to_json(self, extras: Sequence[str]) -> dict[str, Any]:
        data = attrs.asdict(self, recurse=False)
        for key in OPTIONAL_COLUMNS:
            if key not in extras:
                del data[key]
        if "mean_turns" in extras:
            del data["margin"]
        data["against"] = [attrs.asdict(item) for item in self.against]
        for key in ("points", "mu", "sigma", "ordinal", "margin", "mean_turns"):
            if data.get(key) is not None:
                data[key] = round(data[key], 4)
        return data

    def flat(self, references: Sequence[str], extras: Sequence[str]) -> dict[str, Any]:
        """The CSV row: each reference bot as four columns (empty where it does not apply: the reference's
        own row, or in a sided game a bot of the reference's own role)."""
        data = self.to_json(extras)
        versus = {item["reference"]: item for item in data.pop("against")}
        measure = "turns" if "mean_turns" in extras else "rate"
        for name in references:
            item = versus.get(name) or {}
            data[f"vs {name} games"] = item.get("games")
            for column, key in ((measure, "rate"), ("low", "low"), ("high", "high")):
                value = item.get(key)
                data[f"vs {name} {column}"] = None if value is None else round(value, 4)
        return data


@attrs.frozen
class GradeSheet:
    source: str  # "tournament" or "league"
    game: str
    matches: int
    confidence: float
    resamples: int
    sorted_by: str  # what the rows are ordered by, said on the sheet
    rows: tuple[Grade, ...]
    references: tuple[str, ...] = ()  # the --against bots' names
    extras: tuple[str, ...] = ()  # which of OPTIONAL_COLUMNS this sheet shows

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "game": self.game, "matches": self.matches, "confidence": self.confidence,
                "resamples": self.resamples, "sorted_by": self.sorted_by, "references": list(self.references),
                "rows": [row.to_json(self.extras) for row in self.rows]}

    def to_csv(self) -> str:
        buffer = io.StringIO()
        rows = [row.flat(self.references, self.extras) for row in self.rows]
        writer = csv.DictWriter(buffer, list(rows[0]) if rows else ["rank"], lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return buffer.getvalue()
