"""Grade sheets: one row per entrant with who wrote it, how it did, what went wrong, and a rank range that
shows which places the games cannot tell apart.

`build_sheet` makes the sheet from a `Field` (the rows to grade, their ratings and the matches, as
GameRecords), whatever it was read from; `grade` reads a tournament folder into one (games.jsonl's counted
matches, schedule.json's entrant folders, bots/<hash>/bot.json, the standings recomputed from the same
records), runner/league/grades.py a league's database.

Games without sides: rows sorted by the ordinal (mu - 3 sigma), rank ranges from a bootstrap of a
Bradley-Terry fit of the games. Sided games (Invaders, spec 18): each role graded apart, sorted as the spec
scores it (a defender by its mean turns lasted, more is better; an invader by the mean turns against it,
fewer is better), rank ranges from a bootstrap of the opponents, within the role.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from runner.errors import UserError
from runner.tournament.gradesheet import LEAGUE_COLUMNS, SIDED_COLUMNS, Against, Grade, GradeSheet
from runner.tournament.rankstats import rank_ranges, score_rank_ranges, wilson
from runner.tournament.records import GameRecord, read_counted, read_schedule
from runner.tournament.run import BOTS, SETTINGS_FILE, TournamentSettings
from runner.tournament.schedule import SIDED_GAMES
from runner.tournament.standings import compute_standings, points_share, sided_scores, verdicts

__all__ = ["Entry", "Field", "Reference", "build_sheet", "grade", "pairwise", "bot_json", "text_field"]


@attrs.frozen
class Entry:
    """One row to grade: who it is and its rating. `key` is what the records' seats carry as `hash` (a
    tournament entrant's content hash; a league version's id, since two players may submit one content)."""

    key: str
    name: str
    hash: str
    folder: str
    about: Mapping[str, Any]  # its bot.json
    mu: float
    sigma: float
    role: str | None = None  # sided games: the role this row grades
    version: int | None = None  # a league's version number
    status: str | None = None  # a league version's status

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@attrs.frozen
class Reference:
    """An `--against` bot: its name on the sheet and every key it played under (a league player's versions)."""

    name: str
    keys: frozenset[str]


@attrs.frozen
class Field:
    """What a sheet is made from. `records` hold every counted match, including those of bots that are not
    rows (a league's earlier versions): they still tell the fit how strong the rows' opponents were."""

    source: str  # "tournament" or "league"
    game: str
    entries: tuple[Entry, ...]
    records: tuple[GameRecord, ...]
    sides: tuple[str, str] | None = None
    turn_cap: int | None = None


def build_sheet(field: Field, references: Sequence[Reference] = (), *, confidence: float = 0.95,
                resamples: int = 1000, seed: int = 0) -> GradeSheet:
    """The grade sheet of `field`; UserError for a bad --confidence or --resamples."""
    if not 0 < confidence < 1:
        raise UserError(f"--confidence must be between 0 and 1, got {confidence:g}")
    if resamples < 1:
        raise UserError(f"--resamples must be at least 1, got {resamples}")
    finished = [record for record in field.records if record.unfinished is None]
    counts = _counts(field, finished)
    rows = []
    for entry in field.entries:
        tally = counts.get((entry.key, entry.role), {})
        rows.append(Grade(
            rank="unranked", rank_best=None, rank_worst=None, name=entry.name, role=entry.role,
            version=entry.version, status=entry.status, folder=entry.folder,
            author=text_field(entry.about, "author"), email=text_field(entry.about, "email"),
            nickname=text_field(entry.about, "nickName"), language=text_field(entry.about, "botLanguage"),
            hash=entry.hash, **tally, mu=entry.mu, sigma=entry.sigma, ordinal=entry.ordinal,
            against=tuple(_against(field, finished, entry, reference, confidence) for reference in references
                          if entry.key not in reference.keys)))
    ranges = _ranges(field, finished, rows, confidence, resamples, seed)
    for entry, row in zip(field.entries, rows):
        if (entry.key, entry.role) in ranges:
            row.rank_best, row.rank_worst = best, worst = ranges[(entry.key, entry.role)]
            row.rank = str(best) if best == worst else f"{best}-{worst}"
    extras = (SIDED_COLUMNS if field.sides else ()) + (LEAGUE_COLUMNS if field.source == "league" else ())
    if field.sides:
        first = field.sides[0]
        order = sorted(rows, key=lambda row: (row.role != first, row.mean_turns is None,
                                              -(row.mean_turns or 0) if row.role == first else row.mean_turns or 0,
                                              -row.ordinal, row.name, row.version or 0))
        sorted_by = (f"role; {first}s by mean turns lasted (more is better), {field.sides[1]}s by mean turns "
                     "against them (fewer is better); then ordinal (mu - 3 sigma)")
    else:
        order = sorted(rows, key=lambda row: (-row.ordinal, -row.points, row.name, row.version or 0))
        sorted_by = "ordinal (mu - 3 sigma)"
    return GradeSheet(field.source, field.game, len(field.records), confidence, resamples, sorted_by, tuple(order),
                      tuple(reference.name for reference in references), extras)


def _role_of(field: Field, seat: str) -> str | None:
    return seat if field.sides else None


def _counts(field: Field, finished: Sequence[GameRecord]) -> dict[tuple[str, str | None], dict[str, Any]]:
    """(key, role) -> the row's games, W-D-L, points, mean turns or margin, and each fault kind (faults from
    every match, unfinished ones too, as the standings count them)."""
    counts: dict[tuple[str, str | None], dict[str, Any]] = {}
    turns: dict[tuple[str, str | None], list[int]] = {}
    margins: dict[tuple[str, str | None], list[float]] = {}

    def tally(key: tuple[str, str | None]) -> dict[str, Any]:
        return counts.setdefault(key, {"games": 0, "wins": 0, "draws": 0, "losses": 0, "points": 0.0, "crashes": 0,
                                       "timeouts": 0, "invalid": 0, "failed_to_start": 0, "cannot_start": 0,
                                       "disqualified": 0})

    for record in field.records:
        for seat in record.seats:
            row = tally((seat.hash, _role_of(field, seat.seat)))
            for kind in ("crashes", "timeouts", "invalid", "failed_to_start"):
                row[kind] += getattr(seat, kind)
            row["cannot_start"] += not seat.started
            row["disqualified"] += bool(seat.disqualified)
    for record in finished:
        verdict = verdicts(record)
        scores = {seat.seat: seat.numbers.get("score") for seat in record.seats}
        numeric = all(isinstance(value, (int, float)) for value in scores.values())
        sided = sided_scores(record, field.sides, field.turn_cap) if field.sides else {}
        for seat in record.seats:
            key = (seat.hash, _role_of(field, seat.seat))
            row = tally(key)
            row["games"] += 1
            row[{"win": "wins", "draw": "draws", "loss": "losses"}[verdict[seat.seat]]] += 1
            row["points"] += points_share(record, seat.seat)
            if field.sides:
                turns.setdefault(key, []).append(sided[seat.seat])
            elif numeric and len(record.seats) > 1:
                others = [value for name, value in scores.items() if name != seat.seat]
                margins.setdefault(key, []).append(scores[seat.seat] - sum(others) / len(others))
    for key, values in turns.items():
        counts[key]["mean_turns"] = sum(values) / len(values)
    for key, values in margins.items():
        counts[key]["margin"] = sum(values) / len(values)
    return counts


def _ranges(field: Field, finished: Sequence[GameRecord], rows: Sequence[Grade], confidence: float,
            resamples: int, seed: int) -> dict[tuple[str, str | None], tuple[int, int]]:
    """(key, role) -> rank range, for the rows with at least one finished game (the others are unranked:
    the games say nothing of them)."""
    played = [(entry.key, entry.role) for entry, row in zip(field.entries, rows) if row.games]
    if not field.sides:
        bots = sorted({seat.hash for record in finished for seat in record.seats})
        ranked = [key for key, _ in played]
        ranges = rank_ranges(bots, pairwise(finished), confidence=confidence, resamples=resamples, seed=seed,
                             among=ranked) if ranked else {}
        return {(key, None): ranges[key] for key in ranked}
    result = {}
    for role in field.sides:
        scores: dict[str, dict[str, list[int]]] = {}
        for record in finished:
            turns = sided_scores(record, field.sides, field.turn_cap)
            mine, other = record.seat(role), next(seat for seat in record.seats if seat.seat != role)
            scores.setdefault(mine.hash, {}).setdefault(other.hash, []).append(turns[role])
        ranked = [key for key, row_role in played if row_role == role]
        means = {key: {opponent: sum(values) / len(values) for opponent, values in scores[key].items()}
                 for key in ranked}
        ranges = score_rank_ranges(means, higher_is_better=role == field.sides[0], confidence=confidence,
                                   resamples=resamples, seed=seed) if means else {}
        result.update({(key, role): ranges[key] for key in ranked})
    return result


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


def _against(field: Field, finished: Sequence[GameRecord], entry: Entry, reference: Reference,
             confidence: float) -> Against:
    """The row's results against a reference: its win rate (games with a winner), or (sided games) its mean,
    fewest and most turns against the reference playing the other role."""
    results = []
    for record in finished:
        mine = [seat for seat in record.seats if seat.hash == entry.key and _role_of(field, seat.seat) == entry.role]
        theirs = [seat for seat in record.seats if seat.hash in reference.keys and seat not in mine]
        if len(mine) != 1 or not theirs:
            continue
        if field.sides:
            results.append(float(sided_scores(record, field.sides, field.turn_cap)[mine[0].seat]))
            continue
        place = {seat: index for index, group in enumerate(record.ranking) for seat in group}
        for other in theirs:
            if record.draw or place[mine[0].seat] == place[other.seat]:
                results.append(0.5)
            else:
                results.append(1.0 if place[mine[0].seat] < place[other.seat] else 0.0)
    if not results:
        return Against(reference.name, 0, None, None, None)
    mean = sum(results) / len(results)
    if field.sides:
        return Against(reference.name, len(results), mean, min(results), max(results))
    low, high = wilson(sum(results), len(results), confidence)
    return Against(reference.name, len(results), mean, low, high)


# --- a tournament folder -------------------------------------------------------------------------------------


def grade(folder: Path, against: Sequence[str] = (), *, confidence: float = 0.95, resamples: int = 1000,
          seed: int = 0) -> GradeSheet:
    """The grade sheet of the tournament in `folder`; UserError (one line) for anything wrong with it."""
    field = tournament_field(folder)
    entrants = _entrants(folder, field.records)
    references = [_reference(folder, entrants, bot) for bot in against]
    return build_sheet(field, references, confidence=confidence, resamples=resamples, seed=seed)


def tournament_field(folder: Path) -> Field:
    """A tournament folder as a Field: its counted matches, and its entrants rated as its standings are."""
    settings = _settings(folder)
    sides = SIDED_GAMES.get(settings.game)
    cap = settings.options.get("max_turns")
    cap = cap if isinstance(cap, int) else None
    records = read_counted(folder)
    if not records:
        raise UserError(f"{folder}: no match has been played yet; nothing to grade")
    standings = compute_standings(settings.game, records, sides=sides, turn_cap=cap)
    entrants = _entrants(folder, records)
    entries = []
    for row in standings.rows:
        info = entrants.get(row.hash, {})
        about = bot_json(folder / BOTS / row.hash) or (bot_json(Path(info["folder"])) if info.get("folder") else {})
        entries.append(Entry(row.hash, row.name, row.hash, Path(info.get("folder", "")).name, about, row.mu,
                             row.sigma, role=row.role))
    return Field("tournament", settings.game, tuple(entries), tuple(records), sides, cap)


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


def _reference(folder: Path, entrants: dict[str, dict[str, str]], bot: str) -> Reference:
    """`--against BOT_DIR`: the entrant entered from that folder (same path, else same folder name, else
    the entrant's name)."""
    wanted = os.path.normpath(bot)
    for match in (lambda item: item["folder"] and os.path.normpath(item["folder"]) == wanted,
                  lambda item: item["folder"] and Path(item["folder"]).name == Path(wanted).name,
                  lambda item: item["name"] == bot):
        found = [item for item in entrants.values() if match(item)]
        if len(found) == 1:
            return Reference(found[0]["name"], frozenset({found[0]["hash"]}))
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


def text_field(data: Mapping[str, Any], key: str) -> str:
    """bot.json's `key` when it is a string, else ""."""
    value = data.get(key)
    return value if isinstance(value, str) else ""
