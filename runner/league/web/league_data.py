"""The page model filled from a league's database (read-only).

Every list that grows with the league is read through an index with a LIMIT (recent matches, a player's
recent matches and faults, events), so a page costs the same after ten or ten thousand matches; the
standings' and crosstable's counts come from a `Ledger` that folds in only the matches recorded since it
last looked (the server keeps one for its lifetime; a source made without one counts everything once); the
rating chart reads a player's own seats, which stays in the milliseconds."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from runner.league import standings as league_standings
from runner.league.standings import StandingRow
from runner.league.settings import SETTINGS_KEY
from runner.league.store import connect, get_meta, loads
from runner.league.web.ledger import Ledger
from runner.league.web.model import ChartPoint, Crosstable, Event, Fault, Info, MatchRow, PlayerPage, Seat, Version

#: At most this many faults are listed on a player's page (the most recent).
FAULTS_SHOWN = 50
#: At most this many of a player's matches are listed on its page.
PLAYER_MATCHES_SHOWN = 30



def state_key(db: sqlite3.Connection) -> str:
    """What changes whenever a match is recorded or an event lands (versions, builds, uploads): the newest
    match's and event's ids (both only grow), two index look-ups, cheap enough to ask on every request."""
    matches, events = db.execute("SELECT (SELECT COALESCE(MAX(id), 0) FROM matches), "
                                 "(SELECT COALESCE(MAX(id), 0) FROM events)").fetchone()
    return f"{matches}-{events}"


class LeagueSource:
    """A league folder's pages' data; `close()` (or `with`) ends the connection it opened. `db`: a read-only
    connection to use instead (the server's, kept per thread); `ledger`: the counts folded so far."""

    def __init__(self, folder: Path, db: sqlite3.Connection | None = None, ledger: Ledger | None = None) -> None:
        self.folder = Path(folder)
        self._own = db is None
        self.db: sqlite3.Connection = connect(self.folder, readonly=True) if db is None else db
        self.ledger = ledger or Ledger()
        self._folded = False

    def __enter__(self) -> LeagueSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._own:
            self.db.close()

    def _fold(self) -> Ledger:
        if not self._folded:
            self.ledger.fold(self.db)
            self._folded = True
        return self.ledger

    # --- the site -------------------------------------------------------------------------------------

    def info(self) -> Info:
        settings = loads(get_meta(self.db, SETTINGS_KEY), {})
        game = str(settings.get("game", "?"))
        state = state_key(self.db)
        # matches are numbered 1, 2, ... as they are recorded (the recorder's ids), so the newest is the count
        return Info(title=f"{game} league", game=game, matches=int(state.split("-")[0]), state=state,
                    has_events=True)

    def standings(self) -> list[StandingRow]:
        return league_standings.standings(self.db, self._fold().tally)

    def standings_json(self) -> dict[str, Any]:
        return league_standings.standings_json(self.db, self._fold().tally)

    def recent_matches(self, limit: int) -> list[MatchRow]:
        return self._match_rows(self.db.execute("SELECT * FROM matches ORDER BY id DESC LIMIT ?", (limit,)))

    def _match_rows(self, matches: Any) -> list[MatchRow]:
        """MatchRows of `matches` (rows of the matches table), in their order, each with its seats."""
        matches = list(matches)
        seats: dict[int, list[Seat]] = {row["id"]: [] for row in matches}
        if matches:
            marks = ",".join("?" * len(matches))
            for seat in self.db.execute(
                    "SELECT s.match_id, s.role, s.place, v.number, p.name FROM seats s "
                    "JOIN versions v ON v.id = s.version_id JOIN players p ON p.id = v.player_id "
                    f"WHERE s.match_id IN ({marks}) ORDER BY s.match_id, s.position", list(seats)):
                seats[seat["match_id"]].append(Seat(seat["name"], seat["number"], seat["place"], seat["role"]))
        return [MatchRow(id=row["id"], finished=row["finished"], seats=tuple(seats[row["id"]]),
                         end_reason=row["end_reason"], rounds=row["rounds"], wall_seconds=row["wall_seconds"],
                         replay=row["log"] is not None, note=row["forfeit"] or row["unfinished"])
                for row in matches]

    def crosstable(self) -> Crosstable:
        ledger = self._fold()
        names = {row[0]: row[1] for row in self.db.execute("SELECT id, name FROM players")}
        cells = {(names[a], names[b]): cell for (a, b), cell in ledger.crosstable().items()
                 if a in names and b in names}
        return Crosstable(tuple(dict.fromkeys(row.name for row in self.standings())), cells)

    def events(self, limit: int) -> list[Event]:
        return [Event(row["time"], row["kind"], row["player"], row["text"])
                for row in self.db.execute("SELECT * FROM events ORDER BY id DESC LIMIT ?", (limit,))]

    # --- a player ---------------------------------------------------------------------------------------

    def player_names(self) -> list[str]:
        return [row[0] for row in self.db.execute("SELECT name FROM players ORDER BY name")]

    def player(self, name: str) -> PlayerPage | None:
        player = self.db.execute("SELECT * FROM players WHERE name = ?", (name,)).fetchone()
        if player is None:
            return None
        versions = []
        ledger = self._fold()
        for version in self.db.execute("SELECT * FROM versions WHERE player_id = ? ORDER BY number",
                                       (player["id"],)).fetchall():
            games, wins, draws, losses, faults = ledger.tally(version["id"])
            versions.append(Version(number=version["number"], hash=version["hash"], created=version["created"],
                                    status=version["status"], reason=version["reason"],
                                    build_output=version["build_output"], nick=version["nick"],
                                    language=version["language"], games=games, wins=wins, draws=draws,
                                    losses=losses, faults=faults))
        recent = self.db.execute(
            "SELECT m.* FROM versions v JOIN seats s ON s.version_id = v.id JOIN matches m ON m.id = s.match_id "
            "WHERE v.player_id = ? ORDER BY s.match_id DESC LIMIT ?", (player["id"], PLAYER_MATCHES_SHOWN))
        return PlayerPage(name=player["name"], retired=player["retired"] is not None, versions=tuple(versions),
                          charts=self._charts(player["id"]), matches=tuple(self._match_rows(recent)),
                          faults=self._faults(player["id"]))

    def _charts(self, player_id: int) -> tuple[tuple[str, tuple[ChartPoint, ...]], ...]:
        """Per role: where the player's first version started, then its rating after each rated match."""
        charts: dict[str, list[ChartPoint]] = {}
        for start in self.db.execute(
                "SELECT r.role, r.mu0, r.sigma0, v.number FROM versions v JOIN ratings r ON r.version_id = v.id "
                "WHERE v.player_id = ? ORDER BY v.number", (player_id,)):
            charts.setdefault(start["role"], [ChartPoint(0, start["mu0"], start["sigma0"], start["number"])])
        for row in self.db.execute(
                "SELECT s.match_id, s.role, s.mu_after, s.sigma_after, v.number FROM versions v "
                "JOIN seats s ON s.version_id = v.id WHERE v.player_id = ? AND s.mu_after IS NOT NULL "
                "ORDER BY s.match_id", (player_id,)):
            charts.setdefault(row["role"], []).append(
                ChartPoint(row["match_id"], row["mu_after"], row["sigma_after"], row["number"]))
        return tuple((role, tuple(points)) for role, points in sorted(charts.items()))

    def _faults(self, player_id: int) -> tuple[Fault, ...]:
        faults: list[Fault] = []
        for row in self.db.execute(
                "SELECT s.match_id, s.faults, v.number FROM versions v JOIN seats s ON s.version_id = v.id "
                "WHERE v.player_id = ? AND s.faults != '[]' ORDER BY s.match_id DESC LIMIT ?",
                (player_id, FAULTS_SHOWN)):
            faults.extend(fault_rows(row["match_id"], row["number"], row["faults"]))
        return tuple(faults[:FAULTS_SHOWN])

    # --- replays ----------------------------------------------------------------------------------------

    def match_ids(self) -> list[int]:
        return [row[0] for row in self.db.execute("SELECT id FROM matches WHERE log IS NOT NULL ORDER BY id")]

    def match_log(self, match: int) -> Path | None:
        row = self.db.execute("SELECT log FROM matches WHERE id = ?", (match,)).fetchone()
        return None if row is None or row[0] is None else inside(self.folder, row[0])


def fault_rows(match: int, version: int | None, notes: Any) -> list[Fault]:
    """The Faults of one seat's fault notes (a JSON text or a list of {turn, kind, detail, output})."""
    if isinstance(notes, str):
        try:
            notes = json.loads(notes)
        except ValueError:
            notes = [{"detail": notes}]
    return [Fault(match, version, note.get("turn", ""), str(note.get("kind", "")), str(note.get("detail", "")),
                  str(note.get("output") or "")) for note in notes if isinstance(note, dict)]


def inside(folder: Path, relative: str) -> Path | None:
    """`folder/relative` when that stays inside `folder` (a log path never leads the server outside it)."""
    root = folder.resolve()
    path = (root / relative).resolve()
    return path if path.is_relative_to(root) and path != root else None
