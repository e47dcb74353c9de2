"""Seals on the league's bot snapshots (`DIR/bots/<hash>/`): what each one held when it became playable.

A version plays from its snapshot, never from the player's folder; a snapshot deleted or changed behind the
league's back (a cleaner, a person, a bot writing through a link) would make every match of that version
fail or play something else. So when a version becomes playable (after its build, which writes into the
snapshot), the league writes a seal, `DIR/bots/.seals/<hash>.json`: the snapshot's content hash and a cheap
stat signature (every file's path, size, mode and modification time). `check` compares a snapshot with its
seal: the signature on the usual pass (stats only), the whole content when asked or when the signature
moved; the league then heals the version (see `Registrar.heal`).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path

from runner.tournament.entrants import content_hash, folder_files

SEALS = ".seals"
MISSING = "the league's copy of this version was deleted"
ALTERED = "the league's copy of this version was changed since it was built"


def stat_signature(folder: Path, ignored: Iterable[str] = ()) -> str:
    """A hash of every file's relative path, size, mode and modification time (OSError when unreadable)."""
    digest = hashlib.sha256()
    for path, relative in folder_files(folder, ignored):
        info = path.lstat()
        digest.update(f"{relative}\0{info.st_size}\0{info.st_mode}\0{info.st_mtime_ns}\0".encode())
    return digest.hexdigest()


def seal_path(snapshot: Path) -> Path:
    return snapshot.parent / SEALS / f"{snapshot.name}.json"


def seal(snapshot: Path, ignored: Iterable[str] = ()) -> None:
    """Record what `snapshot` holds now (written aside, then renamed: a seal is whole or absent)."""
    ignored = tuple(ignored)
    record = {"hash": content_hash(snapshot, ignored), "stats": stat_signature(snapshot, ignored)}
    path = seal_path(snapshot)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    partial.write_text(json.dumps(record))
    partial.replace(path)


def check(snapshot: Path, ignored: Iterable[str] = (), *, full: bool = False) -> str | None:
    """Why `snapshot` no longer holds what it was sealed with, or None. A snapshot without a seal (made by an
    older td-runner) is sealed as it is: nothing tells what its build added."""
    ignored = tuple(ignored)
    if not (snapshot / "bot.json").is_file():
        return MISSING
    try:
        record = json.loads(seal_path(snapshot).read_text())
    except (OSError, ValueError):
        record = None
    try:
        if record is None:
            seal(snapshot, ignored)
            return None
        if not full and stat_signature(snapshot, ignored) == record.get("stats"):
            return None
        if content_hash(snapshot, ignored) != record.get("hash"):
            return ALTERED
    except OSError:
        return MISSING
    if not full:  # touched, not changed: the signature follows
        seal(snapshot, ignored)
    return None


def unseal(snapshot: Path) -> None:
    seal_path(snapshot).unlink(missing_ok=True)
