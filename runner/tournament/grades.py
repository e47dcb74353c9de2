"""A tournament's grade sheet: one row per entrant with who wrote it, how it did, what went wrong, and a
rank range that shows which places the games cannot tell apart.

Everything comes from the tournament folder: games.jsonl (the counted matches, `records.read_counted`),
schedule.json (each entrant's folder), bots/<hash>/bot.json (author, email, nickname, language) and the
standings recomputed from the same records (mu, sigma, the ordinal the table is sorted by).
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from runner.errors import UserError
from runner.tournament.rankstats import rank_ranges, wilson
from runner.tournament.records import GameRecord, read_counted, read_schedule
from runner.tournament.run import BOTS, SETTINGS_FILE, TournamentSettings
from runner.tournament.schedule import SIDED_GAMES
from runner.tournament.standings import compute_standings


@attrs.frozen
class Against:
    """An entrant's results against one reference bot: its win rate (draws half) and Wilson interval."""

    reference: str
    games: int
    rate: float | None
    low: float
    high: float


@attrs.define
class Grade:
    """One entrant's row of the sheet."""

    rank: str  # "1", or "2-3" when the games cannot tell those places apart
    rank_best: int
    rank_worst: int
    name: str
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
    margin: float | None = None  # mean of (own score - the other seats' mean score), games with scores only
    crashes: int = 0
    timeouts: int = 0
    invalid: int = 0
    failed_to_start: int = 0  # turns whose process could not be started
    cannot_start: int = 0  # matches the bot could not start at all (forfeits included)
    mu: float = 0.0
    sigma: float = 0.0
    ordinal: float = 0.0  # mu - 3 sigma: the table's sort key
    against: tuple[Against, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data = attrs.asdict(self, recurse=False)
        data["against"] = [attrs.asdict(item) for item in self.against]
        for key in ("points", "mu", "sigma", "ordinal", "margin"):
            if data[key] is not None:
                data[key] = round(data[key], 4)
        return data

    def flat(self, references: Sequence[str]) -> dict[str, Any]:
        """The CSV row: each reference bot as four columns (empty in the reference's own row)."""
        data = self.to_json()
        versus = {item["reference"]: item for item in data.pop("against")}
        for name in references:
            item = versus.get(name)
            data[f"vs {name} games"] = item["games"] if item else None
            data[f"vs {name} rate"] = None if item is None or item["rate"] is None else round(item["rate"], 4)
            data[f"vs {name} low"] = round(item["low"], 4) if item else None
            data[f"vs {name} high"] = round(item["high"], 4) if item else None
        return data


@attrs.frozen
class GradeSheet:
    game: str
    matches: int
    confidence: float
    resamples: int
    rows: tuple[Grade, ...]
    references: tuple[str, ...] = ()  # the --against bots' names

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "matches": self.matches, "confidence": self.confidence,
                "resamples": self.resamples, "sorted_by": "ordinal (mu - 3 sigma)",
                "references": list(self.references),
                "rows": [row.to_json() for row in self.rows]}

    def to_csv(self) -> str:
        buffer = io.StringIO()
        rows = [row.flat(self.references) for row in self.rows]
        writer = csv.DictWriter(buffer, list(rows[0]) if rows else ["rank"], lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return buffer.getvalue()


def grade(folder: Path, against: Sequence[str] = (), *, confidence: float = 0.95, resamples: int = 1000,
          seed: int = 0) -> GradeSheet:
    """The grade sheet of the tournament in `folder`; UserError (one line) for anything wrong with it."""
    if not 0 < confidence < 1:
        raise UserError(f"--confidence must be between 0 and 1, got {confidence:g}")
    if resamples < 1:
        raise UserError(f"--resamples must be at least 1, got {resamples}")
    settings = _settings(folder)
    if settings.game in SIDED_GAMES:
        raise UserError(f"{folder}: {settings.game} tournaments rank two roles apart; grades are for "
                        "tournaments where every bot plays every seat")
    records = read_counted(folder)
    standings = compute_standings(settings.game, records)
    entrants = _entrants(folder, records)
    references = [_reference(folder, entrants, bot) for bot in against]
    hashes = [row.hash for row in standings.rows]
    outcomes = pairwise(records)
    ranges = rank_ranges(hashes, outcomes, confidence=confidence, resamples=resamples, seed=seed)
    faults = _faults(records)
    margins = _margins(records)
    rows = []
    for row in standings.rows:
        info = entrants.get(row.hash, {})
        data = bot_json(folder / BOTS / row.hash) or (bot_json(Path(info["folder"])) if info.get("folder") else {})
        best, worst = ranges[row.hash]
        rows.append(Grade(
            rank=str(best) if best == worst else f"{best}-{worst}", rank_best=best, rank_worst=worst,
            name=row.name, folder=Path(info.get("folder", "")).name, author=text_field(data, "author"),
            email=text_field(data, "email"), nickname=text_field(data, "nickName"),
            language=text_field(data, "botLanguage"),
            hash=row.hash, games=row.games, wins=row.wins, draws=row.draws, losses=row.losses, points=row.points,
            margin=margins.get(row.hash), **faults.get(row.hash, {}), mu=row.mu, sigma=row.sigma,
            ordinal=row.ordinal,
            against=tuple(_against(outcomes, row.hash, ref, name, confidence)
                          for ref, name in references if ref != row.hash)))
    return GradeSheet(settings.game, len(records), confidence, resamples, tuple(rows),
                      tuple(name for _, name in references))


def pairwise(records: Sequence[GameRecord]) -> dict[tuple[str, str], list[float]]:
    """Every finished match as games between each two of its seats: (a, b) with a < b -> a's score in each
    (1 above, 0.5 level or a drawn match, 0 below), in schedule order."""
    outcomes: dict[tuple[str, str], list[float]] = {}
    for record in sorted(records, key=lambda r: (r.index, r.match)):
        if record.unfinished is not None:
            continue
        place = {seat: index for index, group in enumerate(record.ranking) for seat in group}
        for first in record.seats:
            for second in record.seats:
                if first.hash >= second.hash:
                    continue
                if record.draw or place[first.seat] == place[second.seat]:
                    score = 0.5
                else:
                    score = 1.0 if place[first.seat] < place[second.seat] else 0.0
                outcomes.setdefault((first.hash, second.hash), []).append(score)
    return outcomes


def _against(outcomes: dict[tuple[str, str], list[float]], bot: str, reference: str, name: str,
             confidence: float) -> Against:
    if bot < reference:
        scores = outcomes.get((bot, reference), [])
    else:
        scores = [1 - score for score in outcomes.get((reference, bot), [])]
    low, high = wilson(sum(scores), len(scores), confidence)
    return Against(name, len(scores), sum(scores) / len(scores) if scores else None, low, high)


def _faults(records: Sequence[GameRecord]) -> dict[str, dict[str, int]]:
    """Each fault kind counted apart, from every counted match (unfinished ones too, as the standings)."""
    counts: dict[str, dict[str, int]] = {}
    for record in records:
        for seat in record.seats:
            row = counts.setdefault(seat.hash, {"crashes": 0, "timeouts": 0, "invalid": 0, "failed_to_start": 0,
                                                "cannot_start": 0})
            row["crashes"] += seat.crashes
            row["timeouts"] += seat.timeouts
            row["invalid"] += seat.invalid
            row["failed_to_start"] += seat.failed_to_start
            row["cannot_start"] += not seat.started
    return counts


def _margins(records: Sequence[GameRecord]) -> dict[str, float]:
    """Mean score margin per bot over the finished matches where every seat has a numeric `score`."""
    totals: dict[str, list[float]] = {}
    for record in records:
        scores = {seat.seat: seat.numbers.get("score") for seat in record.seats}
        if record.unfinished is not None or not all(isinstance(v, (int, float)) for v in scores.values()):
            continue
        for seat in record.seats:
            others = [value for key, value in scores.items() if key != seat.seat]
            if others:
                totals.setdefault(seat.hash, []).append(scores[seat.seat] - sum(others) / len(others))
    return {bot: sum(values) / len(values) for bot, values in totals.items()}


def _settings(folder: Path) -> TournamentSettings:
    path = folder / SETTINGS_FILE
    if not folder.is_dir():
        raise UserError(f"tournament folder {folder} does not exist")
    try:
        return TournamentSettings.from_json(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        raise UserError(f"{path}: no such file (is {folder} a tournament folder?)") from None
    except (OSError, ValueError, TypeError) as exc:
        raise UserError(f"{path}: not a tournament settings file: {exc}") from None


def _entrants(folder: Path, records: Sequence[GameRecord]) -> dict[str, dict[str, str]]:
    """hash -> {hash, name, folder}: from schedule.json, written by every run; a folder from before it
    existed has only the records' names (its folder column stays empty)."""
    schedule = read_schedule(folder)
    if schedule is None:
        return {seat.hash: {"hash": seat.hash, "name": seat.bot, "folder": ""}
                for record in records for seat in record.seats}
    return {item["hash"]: item for item in schedule.get("entrants", []) if isinstance(item, dict)}


def _reference(folder: Path, entrants: dict[str, dict[str, str]], bot: str) -> tuple[str, str]:
    """`--against BOT_DIR`: the entrant entered from that folder (same path, else same folder name, else
    the entrant's name)."""
    wanted = os.path.normpath(bot)
    for match in (lambda item: item["folder"] and os.path.normpath(item["folder"]) == wanted,
                  lambda item: item["folder"] and Path(item["folder"]).name == Path(wanted).name,
                  lambda item: item["name"] == bot):
        found = [item for item in entrants.values() if match(item)]
        if len(found) == 1:
            return found[0]["hash"], found[0]["name"]
    raise UserError(f"--against {bot}: not a bot of the tournament in {folder} "
                    f"({', '.join(sorted(item['folder'] or item['name'] for item in entrants.values()))})")


def bot_json(bot_folder: Path) -> dict[str, Any]:
    """A folder's bot.json object; empty when there is none (a bot that could not start has no snapshot).
    Also the tournament pages' source of an entrant's nickname and language."""
    try:
        data = json.loads((bot_folder / "bot.json").read_text(encoding="utf-8-sig"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def text_field(data: dict[str, Any], key: str) -> str:
    """bot.json's `key` when it is a string, else ""."""
    value = data.get(key)
    return value if isinstance(value, str) else ""
