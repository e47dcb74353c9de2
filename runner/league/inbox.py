"""Events from the web server to the league's database, which only `league run` writes.

The server (`league serve`, a process of its own that opens the database read-only) drops one small JSON
file per event into `DIR/inbox/`, written aside and renamed into place whole; each pass of the league's loop
records them as events and deletes them. Exactly once, even across a kill: the transaction that records a
file's event also marks its name in `meta` (`inbox:<name>`); files are deleted after the commit, and the marks
once their files are gone, so a file found marked was recorded already and is only deleted.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from runner.league.store import transaction

INBOX = "inbox"
MARK = "inbox:"
#: Limits on what a file may carry (anything larger is cut): the events page shows it.
KIND_CHARS, TEXT_CHARS = 32, 2000


def post_event(folder: Path, kind: str, player: str | None, text: str) -> None:
    """Leave an event for the league to record (OSError when the inbox cannot be written)."""
    inbox = folder / INBOX
    inbox.mkdir(exist_ok=True)
    name = f"{time.time_ns():020d}-{os.getpid()}-{secrets.token_hex(4)}.json"
    partial = inbox / f".{name}.partial"
    partial.write_text(json.dumps({"time": time.time(), "kind": kind, "player": player, "text": text}))
    partial.rename(inbox / name)


def pending(folder: Path) -> list[dict]:
    """The events waiting in the inbox (for the server's per-player upload count after a restart)."""
    found = []
    for path in _files(folder):
        event = _read(path)
        if event is not None:
            found.append(event)
    return found


def ingest(db: sqlite3.Connection, folder: Path, log: Callable[[str], None]) -> int:
    """Record the inbox's events (the league's writer connection); how many were recorded."""
    files = _files(folder)
    if not files:
        return 0
    done = {row[0][len(MARK):] for row in db.execute("SELECT key FROM meta WHERE key LIKE ?", (MARK + "%",))}
    recorded = 0
    with transaction(db):
        for path in files:
            if path.name in done:
                continue
            event = _read(path)
            if event is None:
                log(f"{path}: not an event the web server wrote; removed")
            else:
                db.execute("INSERT INTO events (time, kind, player, text) VALUES (?, ?, ?, ?)",
                           (event["time"], event["kind"], event["player"], event["text"]))
                recorded += 1
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, '1')", (MARK + path.name,))
    for path in files:
        path.unlink(missing_ok=True)
    with transaction(db):
        db.execute("DELETE FROM meta WHERE key LIKE ?", (MARK + "%",))
    return recorded


def _files(folder: Path) -> list[Path]:
    try:
        return sorted(path for path in (folder / INBOX).iterdir()
                      if path.suffix == ".json" and not path.name.startswith("."))
    except OSError:  # no inbox yet
        return []


def _read(path: Path) -> dict | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        player = data.get("player")
        return {"time": float(data["time"]), "kind": str(data["kind"])[:KIND_CHARS],
                "player": None if player is None else str(player), "text": str(data["text"])[:TEXT_CHARS]}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
