"""The league's standings as data, read from `league.sqlite`: what `league status`, `/standings.json` and the
web pages show. One row per player (its newest version that is scheduled, else its newest), per role in
sided games, sorted by the conservative rating mu - 3 sigma."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import attrs

from runner.league.store import ACTIVE, BUILDING, PENDING

#: Statuses of a version that is (or will soon be) the one a player plays with.
CURRENT = (ACTIVE, PENDING, BUILDING)


@attrs.frozen
class StandingRow:
    name: str  # the player (its submissions folder's name)
    player_id: int
    version: int  # the version's number for its player (1, 2, ...)
    version_id: int
    hash: str
    role: str  # '' in games without sides
    mu: float
    sigma: float
    games: int
    wins: int
    draws: int
    losses: int
    faults: int  # time-outs + crashes + failures to start + refused answers + disqualifications (a tournament's too)
    status: str  # 'active', or why the version is not scheduled: 'invalid', 'build failed', 'retired', ...
    reason: str | None
    retired: bool
    mean_turns: float | None = None  # a sided tournament's score (Invaders: what its tables sort by); leagues: None

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        data = {"name": self.name, "version": self.version, "mu": round(self.mu, 4), "sigma": round(self.sigma, 4),
                "games": self.games, "status": self.status}
        if self.reason:
            data["reason"] = self.reason
        if self.role:
            data["role"] = self.role
        data.update(wins=self.wins, draws=self.draws, losses=self.losses, faults=self.faults, hash=self.hash)
        return data


def shown_version(db: sqlite3.Connection, player_id: int) -> sqlite3.Row | None:
    """The version a player is listed with: the newest scheduled one (or about to be), else the newest."""
    row = db.execute(f"SELECT * FROM versions WHERE player_id = ? AND status IN ({','.join('?' * len(CURRENT))}) "
                     "ORDER BY status != 'active', number DESC LIMIT 1", (player_id, *CURRENT)).fetchone()
    return row or db.execute("SELECT * FROM versions WHERE player_id = ? ORDER BY number DESC LIMIT 1",
                             (player_id,)).fetchone()


#: A version's (games placed, wins, draws, losses, faults) in a role; the web server keeps them folded in
#: (runner/league/web/ledger.py) instead of counting each version's seats per page.
TallyOf = Callable[[int, str], tuple[int, int, int, int, int]]


def standings(db: sqlite3.Connection, tally_of: TallyOf | None = None) -> list[StandingRow]:
    """Every player's row (per role), best first: active players by mu - 3 sigma, then the rest."""
    rows = []
    for player in db.execute("SELECT * FROM players ORDER BY name"):
        version = shown_version(db, player["id"])
        if version is None:
            continue
        for rating in db.execute("SELECT * FROM ratings WHERE version_id = ? ORDER BY role", (version["id"],)):
            _, wins, draws, losses, faults = (tally_of or _tally(db))(version["id"], rating["role"])
            rows.append(StandingRow(
                name=player["name"], player_id=player["id"], version=version["number"], version_id=version["id"],
                hash=version["hash"], role=rating["role"], mu=rating["mu"], sigma=rating["sigma"],
                games=rating["games"], wins=wins, draws=draws, losses=losses, faults=faults, status=version["status"],
                reason=version["reason"], retired=player["retired"] is not None))
    return sorted(rows, key=lambda row: (row.role, row.status != ACTIVE, -row.ordinal, row.name))


def _tally(db: sqlite3.Connection) -> TallyOf:
    def tally(version: int, role: str) -> tuple[int, int, int, int, int]:
        row = db.execute(
            "SELECT COUNT(s.place), COALESCE(SUM(s.result = 'win'), 0), COALESCE(SUM(s.result = 'draw'), 0), "
            "COALESCE(SUM(s.result = 'loss'), 0), "
            "COALESCE(SUM(s.timeouts + s.crashes + s.failed_to_start + s.invalid + s.disqualified), 0) "
            "FROM seats s WHERE s.version_id = ? AND s.role = ?", (version, role)).fetchone()
        return tuple(row)  # type: ignore[return-value]

    return tally


def match_count(db: sqlite3.Connection) -> int:
    return db.execute("SELECT COUNT(*) FROM matches").fetchone()[0]


def standings_json(db: sqlite3.Connection, tally_of: TallyOf | None = None) -> dict[str, Any]:
    """`league status --json` and `/standings.json`."""
    return {"matches": match_count(db), "players": [row.to_json() for row in standings(db, tally_of)]}
