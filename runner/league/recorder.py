"""Writing a finished league match: its log into `DIR/matches/`, its row, seats and ratings into the database.

The order is what makes a kill at any moment harmless: the log is played into a hidden partial folder, renamed
to its final name (the next match id), and then one transaction records the match, its seats and the new
ratings. A league killed between the rename and the commit leaves a log folder no row names: `clean_orphans`
removes it (and any partial folder) when the league starts again, and that match id is used anew. The
match's HTML replay, which the worker wrote beside the partial folder, is moved to `DIR/replays/<id>.html.gz`
after the commit (a kill before that leaves the background builder to make it again).
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import attrs

from runner.league.ratings import Change, RatingBook, Rating, SeatOutcome, places
from runner.league.store import transaction
from runner.replay.cache import place_replay
from runner.tournament.records import GameRecord
from runner.tournament.standings import sided_scores

MATCHES = "matches"


@attrs.frozen
class Seating:
    """Who plays a scheduled match: per seat, the version and its rating role."""

    number: int  # the league's scheduling number (matches.task): recorded once whatever happens
    versions: tuple[int, ...]
    roles: tuple[str, ...]


def log_name(match_id: int) -> str:
    return f"{match_id:06d}"


def clean_orphans(db: sqlite3.Connection, folder: Path) -> int:
    """Remove match folders that no recorded match names (a kill between rename and commit), and partial ones."""
    matches = folder / MATCHES
    if not matches.is_dir():
        return 0
    known = {row[0] for row in db.execute("SELECT log FROM matches WHERE log IS NOT NULL")}
    removed = 0
    for entry in matches.iterdir():
        if f"{MATCHES}/{entry.name}" not in known:
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:  # a replay a worker built beside a partial log (runner/replay/cache.py), or its temporary file
                entry.unlink(missing_ok=True)
            removed += 1
    return removed


def seat_outcomes(record: GameRecord, seating: Seating, sides: tuple[str, str] | None,
                  turn_cap: int | None) -> list[SeatOutcome]:
    seat_names = [seat.seat for seat in record.seats]
    placed = places(record.ranking, seat_names, record.draw)
    scores = sided_scores(record, sides, turn_cap) if sides else {}
    return [SeatOutcome(version, role, placed.get(name, len(seat_names)), scores.get(name))
            for name, version, role in zip(seat_names, seating.versions, seating.roles)]


def record_match(db: sqlite3.Connection, book: RatingBook, folder: Path, record: GameRecord, seating: Seating,
                 partial: Path, sides: tuple[str, str] | None, turn_cap: int | None) -> int:
    """Keep one finished match (see the module docstring); its id."""
    outcomes = seat_outcomes(record, seating, sides, turn_cap)
    finished = record.unfinished is None
    changes: Sequence[Change | None] = book.apply(outcomes) if finished else [None] * len(outcomes)
    match_id = db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM matches").fetchone()[0]
    log = None
    if partial.is_dir():
        final = folder / MATCHES / log_name(match_id)
        shutil.rmtree(final, ignore_errors=True)
        partial.rename(final)
        log = f"{MATCHES}/{final.name}"
    with transaction(db):
        db.execute("INSERT INTO matches (id, task, seed, finished, end_reason, rounds, draw, wall_seconds, cpu_seconds, "
                   "log, forfeit, unfinished, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (match_id, seating.number, record.seed, time.time(), record.end_reason, record.rounds,
                    int(record.draw), record.wall_seconds, record.cpu_seconds, log, record.forfeit, record.unfinished,
                    json.dumps(record.details)))
        for position, (seat, outcome, change) in enumerate(zip(record.seats, outcomes, changes)):
            result = None
            if finished:
                result = "draw" if record.draw else "win" if outcome.place == 1 else "loss"
            before = change.before if change else None
            after = change.after if change else None
            db.execute("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (
                match_id, position, seat.seat, outcome.version, outcome.role, outcome.place if finished else None,
                result, int(seat.started), seat.timeouts, seat.crashes, seat.failed_to_start, seat.invalid,
                int(seat.disqualified), outcome.score, json.dumps(seat.numbers), json.dumps(list(seat.faults)),
                before.mu if before else None, before.sigma if before else None,
                after.mu if after else None, after.sigma if after else None))
            if after is not None:
                db.execute("UPDATE ratings SET mu = ?, sigma = ?, games = ? WHERE version_id = ? AND role = ?",
                           (after.mu, after.sigma, after.games, outcome.version, outcome.role))
    # after the commit: a replay never names a match id that a kill before it would hand out again
    place_replay(folder, match_id, partial)
    return match_id


def load_book(db: sqlite3.Connection, sides: tuple[str, str] | None) -> RatingBook:
    """The ratings as stored, and (sided games) each version's latest score per opponent, from the seats."""
    book = RatingBook(sides)
    for row in db.execute("SELECT * FROM ratings"):
        book.add(row["version_id"], row["role"], Rating(row["mu"], row["sigma"], row["games"]))
    if sides:
        for seats in stored_matches(db):
            for seat in seats:
                opponent = next(other for other in seats if other is not seat)
                book.latest.setdefault((seat.role, opponent.version), {})[seat.version] = float(seat.score or 0)
    return book


def stored_matches(db: sqlite3.Connection) -> list[list[SeatOutcome]]:
    """Every finished match's seats as ratings see them, in the order they were recorded."""
    matches: dict[int, list[SeatOutcome]] = {}
    rows = db.execute("SELECT s.* FROM seats s JOIN matches m ON m.id = s.match_id "
                      "WHERE m.unfinished IS NULL ORDER BY s.match_id, s.position")
    for row in rows:
        matches.setdefault(row["match_id"], []).append(
            SeatOutcome(row["version_id"], row["role"], row["place"], row["score"]))
    return list(matches.values())


def starting_ratings(db: sqlite3.Connection) -> Mapping[tuple[int, str], Rating]:
    return {(row["version_id"], row["role"]): Rating(row["mu0"], row["sigma0"])
            for row in db.execute("SELECT * FROM ratings")}
