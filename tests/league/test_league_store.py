"""`league.sqlite` is made whole: whoever finds the file finds its tables (a page, `league status`, a script)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from runner.errors import UserError
from runner.league import store


def test_the_database_appears_only_with_its_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[bool, list[str], str]] = []
    real_link = os.link

    def watching_link(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
        building = sqlite3.connect(source)  # read-write, so that closing it removes its -wal and -shm
        tables = sorted(row[0] for row in building.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
        mode = building.execute("PRAGMA journal_mode").fetchone()[0]
        building.close()
        seen.append((Path(target).exists(), tables, mode))
        real_link(source, target)

    monkeypatch.setattr(os, "link", watching_link)
    folder = tmp_path / "league"
    store.connect(folder, create=True).close()
    [(existed, tables, mode)] = seen
    assert not existed
    assert {"meta", "players", "versions", "ratings", "matches", "seats", "events"} <= set(tables)
    assert mode == "wal"
    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith("league.sqlite")) == []
    reader = store.connect(folder, readonly=True)
    assert store.get_meta(reader, "scheduled") == "0"
    assert store.get_meta(reader, "schema") == str(store.SCHEMA_VERSION)
    reader.close()


def test_opening_again_keeps_what_is_there(tmp_path: Path) -> None:
    folder = tmp_path / "league"
    db = store.connect(folder, create=True)
    store.set_meta(db, "scheduled", "7")
    db.close()
    db = store.connect(folder, create=True)
    assert store.get_meta(db, "scheduled") == "7"
    db.close()


def test_a_file_that_is_no_league_is_named(tmp_path: Path) -> None:
    (tmp_path / store.DATABASE).write_text("not sqlite at all\n" * 100)
    with pytest.raises(UserError, match="not a league database"):
        store.connect(tmp_path, readonly=True)


def test_a_folder_that_cannot_be_made_is_named(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(UserError, match="cannot create the league database"):
        store.connect(tmp_path / "file" / "league", create=True)



def test_a_database_that_cannot_be_built_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "SCHEMA", "CREATE TABLE meta (")  # SQLite refuses it while building
    with pytest.raises(UserError, match="league.sqlite: cannot create the league database: .*syntax error"):
        store.connect(tmp_path / "league", create=True)
    assert list((tmp_path / "league").iterdir()) == []  # no database, and nothing half-built left
