"""`DIR/league.sqlite`: everything a league remembers, in one SQLite file (stdlib `sqlite3`, WAL mode).

One process writes (`league run`; `league player ...` for the odd token change), any number read (the web
pages, `league status`). A finished match is one transaction: its row, its seats with each seat's rating
before and after, and the new ratings; so a league killed at any moment (`kill -9` included) has every
match whole or not at all, and `matches.task` (the scheduling number, unique) keeps a match played again
after a lost worker from being recorded twice.

Tables (the web pages and scripts may read them directly):

* `meta(key, value)`: `settings` (the league's game and options, JSON), `scheduled` (matches handed out).
* `players(id, name, created, retired, token_hash, token_revoked)`: one per submissions subfolder.
* `versions(id, player_id, number, hash, created, nick, language, status, reason, build_output)`: one per
  content of a player's folder; `status` is one of STATUSES.
* `ratings(version_id, role, mu0, sigma0, mu, sigma, games)`: a version's rating per role ('' in games
  without sides; 'defender'/'invader' in Invaders); `mu0`/`sigma0` where it started.
* `matches(id, task, seed, finished, end_reason, rounds, draw, wall_seconds, cpu_seconds, log, forfeit,
  unfinished, details)`: `log` relative to DIR.
* `seats(match_id, position, seat, version_id, role, place, result, started, timeouts, crashes,
  failed_to_start, invalid, disqualified, score, numbers, faults, mu_before, sigma_before, mu_after, sigma_after)`:
  `place` 1 is first (NULL in an unfinished match); `result` win/draw/loss; `score` what sided games rate by (Invaders: turns); `faults` JSON notes with the bot's
  own output; the `mu_*`/`sigma_*` columns are NULL when the match did not change that seat's rating.
* `events(id, time, kind, player, text)`: what the organiser should know (versions, refusals, retirements).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from runner.errors import UserError

DATABASE = "league.sqlite"
SCHEMA_VERSION = 1

# version statuses: only ACTIVE versions are scheduled
PENDING, BUILDING, ACTIVE = "pending", "building", "active"
INVALID, BUILD_FAILED, REPLACED, RETIRED = "invalid", "build failed", "replaced", "retired"
STATUSES = (PENDING, BUILDING, ACTIVE, INVALID, BUILD_FAILED, REPLACED, RETIRED)

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created REAL NOT NULL,
    retired REAL,
    token_hash TEXT,
    token_revoked INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS versions (
    id INTEGER PRIMARY KEY,
    player_id INTEGER NOT NULL REFERENCES players(id),
    number INTEGER NOT NULL,
    hash TEXT NOT NULL,
    created REAL NOT NULL,
    nick TEXT NOT NULL DEFAULT '',
    language TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,
    reason TEXT,
    build_output TEXT,
    UNIQUE (player_id, number)
);
CREATE TABLE IF NOT EXISTS ratings (
    version_id INTEGER NOT NULL REFERENCES versions(id),
    role TEXT NOT NULL DEFAULT '',
    mu0 REAL NOT NULL,
    sigma0 REAL NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (version_id, role)
);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    task INTEGER NOT NULL UNIQUE,
    seed INTEGER NOT NULL,
    finished REAL NOT NULL,
    end_reason TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    draw INTEGER NOT NULL,
    wall_seconds REAL NOT NULL,
    cpu_seconds REAL NOT NULL,
    log TEXT,
    forfeit TEXT,
    unfinished TEXT,
    details TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS seats (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    position INTEGER NOT NULL,
    seat TEXT NOT NULL,
    version_id INTEGER NOT NULL REFERENCES versions(id),
    role TEXT NOT NULL DEFAULT '',
    place INTEGER,
    result TEXT,
    started INTEGER NOT NULL,
    timeouts INTEGER NOT NULL,
    crashes INTEGER NOT NULL,
    failed_to_start INTEGER NOT NULL,
    invalid INTEGER NOT NULL,
    disqualified INTEGER NOT NULL,
    score REAL,
    numbers TEXT NOT NULL DEFAULT '{}',
    faults TEXT NOT NULL DEFAULT '[]',
    mu_before REAL,
    sigma_before REAL,
    mu_after REAL,
    sigma_after REAL,
    PRIMARY KEY (match_id, position)
);
CREATE INDEX IF NOT EXISTS seats_by_version ON seats (version_id, match_id);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    time REAL NOT NULL,
    kind TEXT NOT NULL,
    player TEXT,
    text TEXT NOT NULL
);
"""


def connect(folder: Path, *, create: bool = False, readonly: bool = False) -> sqlite3.Connection:
    """A connection to `folder/league.sqlite` (rows as sqlite3.Row); UserError when it is not a league."""
    path = folder / DATABASE
    if not create and not path.is_file():
        raise UserError(f"{folder} is not a league folder ({DATABASE} is missing); start one with td-runner league run")
    try:
        if readonly:
            connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30, check_same_thread=False)
        else:
            if create and not path.exists():
                try:
                    _create(path)
                except (OSError, sqlite3.Error) as exc:
                    raise UserError(f"{path}: cannot create the league database: "
                                    f"{getattr(exc, 'strerror', None) or exc}") from None
            connection = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
        connection.row_factory = sqlite3.Row
        if not readonly:
            connection.execute("PRAGMA journal_mode=WAL")  # already so in every league made here; a copy may not be
            connection.execute("PRAGMA synchronous=NORMAL")  # WAL: a commit survives a process kill
            connection.execute("PRAGMA foreign_keys=ON")
            if create:  # a league made by an older td-runner gets the tables added since
                connection.executescript(SCHEMA)
                connection.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
                connection.execute("INSERT OR IGNORE INTO meta VALUES ('scheduled', '0')")
        connection.execute("SELECT 1 FROM meta LIMIT 1")
        return connection
    except sqlite3.Error as exc:
        raise UserError(f"{path}: not a league database: {exc}") from None


def _create(path: Path) -> None:
    """A new league database, built under a temporary name and linked into place whole: a reader that finds
    `league.sqlite` (a web page, `league status`, a script polling for it) never sees it without its tables."""
    path.parent.mkdir(parents=True, exist_ok=True)
    building = path.with_name(f".{path.name}.{os.getpid()}.new")
    building.unlink(missing_ok=True)
    try:
        connection = sqlite3.connect(building, isolation_level=None)
        try:
            connection.execute("PRAGMA journal_mode=WAL")  # kept in the file's header
            connection.executescript(f"BEGIN;\n{SCHEMA}\nCOMMIT;")
            connection.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            connection.execute("INSERT INTO meta VALUES ('scheduled', '0')")
        finally:
            connection.close()  # the last connection: checkpointed, its -wal and -shm files removed
        try:
            os.link(building, path)
        except FileExistsError:  # another process made it first: theirs stands
            pass
        except OSError:  # a file system without hard links: a rename, which is whole too
            if not path.exists():
                os.replace(building, path)
    finally:
        for suffix in ("", "-wal", "-shm"):
            building.with_name(building.name + suffix).unlink(missing_ok=True)


@contextlib.contextmanager
def transaction(connection: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception: all of it is written, or none."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield connection
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


def get_meta(connection: sqlite3.Connection, key: str) -> str | None:
    row = connection.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else row[0]


def set_meta(connection: sqlite3.Connection, key: str, value: str) -> None:
    connection.execute("INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                       (key, value))


def add_event(connection: sqlite3.Connection, kind: str, player: str | None, text: str) -> None:
    connection.execute("INSERT INTO events (time, kind, player, text) VALUES (?, ?, ?, ?)",
                       (time.time(), kind, player, text))


def loads(text: str | None, default: Any) -> Any:
    """A JSON column's value (`default` for NULL)."""
    return default if text is None else json.loads(text)
