"""The page model filled from a league's database (one read-only connection per request).

Every list that grows with the league is read through an index with a LIMIT (recent matches, a player's
recent matches and faults, events), so a page costs the same after ten or ten thousand matches; the
crosstable and the rating chart read all of a league's (a player's) seats, which stays in the milliseconds."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from runner.league import standings as league_standings
from runner.league.standings import StandingRow
from runner.league.settings import SETTINGS_KEY
from runner.league.store import connect, get_meta, loads
from runner.league.web.model import ChartPoint, Crosstable, Event, Fault, Info, MatchRow, PlayerPage, Seat, Version

#: At most this many faults are listed on a player's page (the most recent).
FAULTS_SHOWN = 50
#: At most this many of a player's matches are listed on its page.
PLAYER_MATCHES_SHOWN = 30

_TALLY = ("COUNT(s.place) AS games, COALESCE(SUM(s.result = 'win'), 0) AS wins, "
          "COALESCE(SUM(s.result = 'draw'), 0) AS draws, COALESCE(SUM(s.result = 'loss'), 0) AS losses, "
          "COALESCE(SUM(s.timeouts + s.crashes + s.invalid + s.disqualified), 0) AS faults")


class LeagueSource:
    """A league folder's pages' data; `close()` (or `with`) ends the connection."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.db: sqlite3.Connection = connect(self.folder, readonly=True)

    def __enter__(self) -> LeagueSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    # --- the site -------------------------------------------------------------------------------------

    def info(self) -> Info:
        settings = loads(get_meta(self.db, SETTINGS_KEY), {})
        game = str(settings.get("game", "?"))
        matches = league_standings.match_count(self.db)
        last_event = self.db.execute("SELECT COALESCE(MAX(id), 0) FROM events").fetchone()[0]
        return Info(title=f"{game} league", game=game, matches=matches, state=f"{matches}-{last_event}",
                    has_events=True)

    def standings(self) -> list[StandingRow]:
        return league_standings.standings(self.db)

    def standings_json(self) -> dict[str, Any]:
        return league_standings.standings_json(self.db)

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
        cells = {}
        for row in self.db.execute(
                "SELECT pa.name AS a, pb.name AS b, "
                "SUM(NOT m.draw AND sa.place < sb.place), SUM(m.draw OR sa.place = sb.place), "
                "SUM(NOT m.draw AND sa.place > sb.place) "
                "FROM seats sa JOIN seats sb ON sb.match_id = sa.match_id AND sb.position != sa.position "
                "JOIN matches m ON m.id = sa.match_id "
                "JOIN versions va ON va.id = sa.version_id JOIN players pa ON pa.id = va.player_id "
                "JOIN versions vb ON vb.id = sb.version_id JOIN players pb ON pb.id = vb.player_id "
                "WHERE sa.place IS NOT NULL AND sb.place IS NOT NULL GROUP BY pa.id, pb.id"):
            cells[(row[0], row[1])] = (row[2], row[3], row[4])
        names = tuple(dict.fromkeys(row.name for row in league_standings.standings(self.db)))
        return Crosstable(names, cells)

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
        for version in self.db.execute("SELECT * FROM versions WHERE player_id = ? ORDER BY number",
                                       (player["id"],)).fetchall():
            tally = self.db.execute(f"SELECT {_TALLY} FROM seats s WHERE s.version_id = ?",
                                    (version["id"],)).fetchone()
            versions.append(Version(number=version["number"], hash=version["hash"], created=version["created"],
                                    status=version["status"], reason=version["reason"],
                                    build_output=version["build_output"], nick=version["nick"],
                                    language=version["language"], **{key: tally[key] for key in tally.keys()}))
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
