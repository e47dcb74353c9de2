"""A league's grade sheet (`td-runner grades LEAGUE_DIR`): the same sheet as a tournament's, read from
`league.sqlite` (read-only) and the versions' snapshots `DIR/bots/<hash>/bot.json`.

One row per player, for the version it is listed with on the standings (`standings.shown_version`: its
newest scheduled one), or one per version with `all_versions`; per role in Invaders. Every recorded match
counts, those of earlier versions included: they say how strong the current versions' opponents were. The
ratings (mu, sigma and the ordinal the rows are sorted by) are the league's own.

The league may be writing while this reads: the database is opened read-only and read in one transaction
(one consistent state), and a busy database is tried again for up to `BUSY_WAIT_S` seconds.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from runner.errors import UserError
from runner.league.standings import shown_version
from runner.league.store import DATABASE
from runner.tournament.grades import Entry, Field, Reference, bot_json
from runner.tournament.records import GameRecord, SeatResult
from runner.tournament.schedule import SIDED_GAMES

#: How long a busy (locked) database is tried again before giving up, in seconds.
BUSY_WAIT_S = 20.0
BOTS = "bots"


def league_field(folder: Path, against: Sequence[str] = (), *, all_versions: bool = False
                 ) -> tuple[Field, list[Reference]]:
    """The league in `folder` as a Field, and the --against players as references; UserError (one line)
    for an empty league, a database that stays locked, or a reference that is not a player."""
    path = folder / DATABASE
    deadline = time.monotonic() + BUSY_WAIT_S
    while True:
        try:
            return _read(folder, path, against, all_versions)
        except sqlite3.OperationalError as exc:
            if not _busy(exc):
                raise UserError(f"{path}: cannot read the league database: {exc}") from None
            if time.monotonic() >= deadline:
                raise UserError(f"{path}: the database stayed locked for {BUSY_WAIT_S:g} s (another process holds "
                                "it); try again") from None
            time.sleep(0.2)
        except sqlite3.DatabaseError as exc:
            raise UserError(f"{path}: not a league database: {exc}") from None


def _busy(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def _read(folder: Path, path: Path, against: Sequence[str], all_versions: bool) -> tuple[Field, list[Reference]]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1.0)
    try:
        db.row_factory = sqlite3.Row
        db.execute("BEGIN")  # one snapshot for every read below
        settings_row = db.execute("SELECT value FROM meta WHERE key = 'settings'").fetchone()
        if settings_row is None:
            raise UserError(f"{folder}: the league has not started yet (no settings); nothing to grade")
        settings = json.loads(settings_row[0])
        game = str(settings.get("game", ""))
        sides = SIDED_GAMES.get(game)
        cap = settings.get("options", {}).get("max_turns")
        players = db.execute("SELECT * FROM players ORDER BY name").fetchall()
        if not players:
            raise UserError(f"{folder}: the league has no players yet; nothing to grade")
        records = _records(db, sides)
        if not records:
            raise UserError(f"{folder}: no match of the league has finished yet; nothing to grade")
        entries = _entries(db, folder, players, all_versions)
        references = [_reference(db, folder, players, bot) for bot in against]
        db.execute("COMMIT")
    finally:
        db.close()
    return Field("league", game, tuple(entries), tuple(records), sides, cap if isinstance(cap, int) else None), \
        references


def _entries(db: sqlite3.Connection, folder: Path, players: Sequence[sqlite3.Row], all_versions: bool) -> list[Entry]:
    entries = []
    for player in players:
        if all_versions:
            versions = db.execute("SELECT * FROM versions WHERE player_id = ? ORDER BY number",
                                  (player["id"],)).fetchall()
        else:
            shown = shown_version(db, player["id"])
            versions = [shown] if shown is not None else []
        for version in versions:
            about: dict[str, Any] = bot_json(folder / BOTS / version["hash"]) or {
                "nickName": version["nick"], "botLanguage": version["language"]}
            for rating in db.execute("SELECT * FROM ratings WHERE version_id = ? ORDER BY role", (version["id"],)):
                entries.append(Entry(str(version["id"]), player["name"], version["hash"], player["name"], about,
                                     rating["mu"], rating["sigma"], role=rating["role"] or None,
                                     version=version["number"], status=version["status"]))
    return entries


def _records(db: sqlite3.Connection, sides: tuple[str, str] | None) -> list[GameRecord]:
    """Every recorded match as a GameRecord whose seats carry the version id as `hash` (and, in sided games,
    the score the league rated by in `details`)."""
    names = {row["id"]: row["name"] for row in
             db.execute("SELECT v.id, p.name FROM versions v JOIN players p ON p.id = v.player_id")}
    seats: dict[int, list[sqlite3.Row]] = {}
    for row in db.execute("SELECT * FROM seats ORDER BY match_id, position"):
        seats.setdefault(row["match_id"], []).append(row)
    records = []
    for match in db.execute("SELECT * FROM matches ORDER BY id"):
        mine = seats.get(match["id"], [])
        if not mine:
            continue
        places: dict[int, list[str]] = {}
        for seat in mine:
            if seat["place"] is not None:
                places.setdefault(seat["place"], []).append(_seat(seat))
        ranking = tuple(tuple(places[place]) for place in sorted(places))
        details = json.loads(match["details"] or "{}")
        scores = [seat["score"] for seat in mine if seat["score"] is not None]
        if sides and scores:
            details = {**details, "score": int(scores[0])}
        records.append(GameRecord(
            match=str(match["id"]), index=match["id"], round=0, seed=match["seed"],
            seats=tuple(SeatResult(_seat(seat), names.get(seat["version_id"], "?"), str(seat["version_id"]),
                                   bool(seat["started"]), seat["timeouts"], seat["crashes"], seat["failed_to_start"],
                                   seat["invalid"], bool(seat["disqualified"]), json.loads(seat["numbers"] or "{}"))
                        for seat in mine),
            ranking=ranking, game_ranking=ranking, draw=bool(match["draw"]), end_reason=match["end_reason"],
            rounds=match["rounds"], details=details, forfeit=match["forfeit"], unfinished=match["unfinished"]))
    return records


def _seat(seat: sqlite3.Row) -> str:
    """A seat's name in the GameRecord: its role in sided games (the grades tell roles by seat name), else
    the seat's own name."""
    return seat["role"] or seat["seat"]


def _reference(db: sqlite3.Connection, folder: Path, players: Sequence[sqlite3.Row], bot: str) -> Reference:
    """`--against NAME|BOT_DIR`: the player of that name (a submissions folder is named by its player); every
    version of it counts."""
    name = Path(bot.rstrip("/")).name or bot
    player = next((row for row in players if row["name"] in (bot, name)), None)
    if player is None:
        raise UserError(f"--against {bot}: not a player of the league in {folder} "
                        f"({', '.join(row['name'] for row in players)})")
    keys = frozenset(str(row[0]) for row in db.execute("SELECT id FROM versions WHERE player_id = ?", (player["id"],)))
    return Reference(player["name"], keys)
