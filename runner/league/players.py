"""Players who submit over the web: names, tokens, revocation (`td-runner league player ...`).

A token is 32 random bytes (URL-safe text), shown once when the player is added; the database keeps only its
SHA-256, so a copy of `league.sqlite` gives nobody a way in. A token is looked up by its hash and the hash
compared again in constant time (`hmac.compare_digest`), so neither the lookup nor the comparison tells an
attacker how much of a guess was right.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import shutil
import sqlite3
import time
from pathlib import Path

import attrs

from runner.errors import UserError
from runner.league.store import ACTIVE, BUILDING, PENDING, RETIRED, add_event, transaction

#: A player's name is its submissions folder's name: plain, so it is safe in paths and URLs.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
REMOVED = "removed"  # DIR/removed/<name>-<time>/: where `player remove` puts a player's submissions folder


def check_name(name: str) -> str:
    if not NAME.fullmatch(name):
        raise UserError(f"player name {name!r}: use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit")
    return name


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def add_player(db: sqlite3.Connection, name: str) -> str:
    """Create the player (or give an existing player without a token one); its new token."""
    check_name(name)
    token = secrets.token_urlsafe(32)
    with transaction(db):
        row = db.execute("SELECT * FROM players WHERE name = ?", (name,)).fetchone()
        if row is not None and row["token_hash"] is not None and not row["token_revoked"]:
            raise UserError(f"player {name} already has a token; `league player revoke` it first to issue a new one")
        if row is None:
            db.execute("INSERT INTO players (name, created, token_hash) VALUES (?, ?, ?)",
                       (name, time.time(), token_hash(token)))
        else:
            db.execute("UPDATE players SET token_hash = ?, token_revoked = 0 WHERE id = ?", (token_hash(token), row["id"]))
        add_event(db, "token", name, f"{name}: a submission token was issued")
    return token


def player_of_token(db: sqlite3.Connection, token: str) -> str | None:
    """The name of the player whose live token this is, else None (unknown, revoked or retired)."""
    digest = token_hash(token)
    row = db.execute("SELECT name, token_hash FROM players WHERE token_hash = ? AND token_revoked = 0 "
                     "AND retired IS NULL", (digest,)).fetchone()
    if row is None or not hmac.compare_digest(row["token_hash"], digest):
        return None
    return row["name"]


def revoke(db: sqlite3.Connection, name: str) -> None:
    with transaction(db):
        row = _player(db, name)
        db.execute("UPDATE players SET token_revoked = 1 WHERE id = ?", (row["id"],))
        add_event(db, "revoked", name, f"{name}: token revoked")


def remove(db: sqlite3.Connection, name: str, folder: Path, submissions: Path | None) -> Path | None:
    """Retire the player: its token revoked, its versions no longer scheduled, and its submissions folder moved
    to DIR/removed/ (kept, not deleted, so nothing is lost; the league would otherwise take it up again)."""
    moved = None
    with transaction(db):
        row = _player(db, name)
        db.execute("UPDATE players SET retired = COALESCE(retired, ?), token_revoked = 1 WHERE id = ?",
                   (time.time(), row["id"]))
        db.execute("UPDATE versions SET status = ?, reason = ? WHERE player_id = ? AND status IN (?, ?, ?)",
                   (RETIRED, "the player was removed", row["id"], ACTIVE, PENDING, BUILDING))
        add_event(db, "retired", name, f"{name}: removed by the organiser")
        source = submissions / name if submissions is not None else None
        if source is not None and source.is_dir():
            moved = folder / REMOVED / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}"
            moved.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(source), str(moved))
    return moved


@attrs.frozen
class PlayerInfo:
    name: str
    created: float
    retired: bool
    token: str  # 'yes', 'revoked' or 'none'
    versions: int


def list_players(db: sqlite3.Connection) -> list[PlayerInfo]:
    rows = db.execute("SELECT p.*, (SELECT COUNT(*) FROM versions v WHERE v.player_id = p.id) AS versions "
                      "FROM players p ORDER BY p.name")
    return [PlayerInfo(row["name"], row["created"], row["retired"] is not None,
                       "none" if row["token_hash"] is None else "revoked" if row["token_revoked"] else "yes",
                       row["versions"]) for row in rows]


def _player(db: sqlite3.Connection, name: str) -> sqlite3.Row:
    row = db.execute("SELECT * FROM players WHERE name = ?", (name,)).fetchone()
    if row is None:
        raise UserError(f"no player named {name!r} in this league (`td-runner league player list`)")
    return row
