"""A league that heals: a snapshot under DIR/bots/ deleted or changed behind its back is copied again from
the player's folder when that still holds the version, else the version is refused with the reason; either
way no match ends "not played" because of it. And every upload answered "taken" becomes exactly one version
or is recorded as superseded."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest

from league_helpers import TD_BOT, check_consistent, database, run_cli, running_league, td_submissions, write_bot
from test_unpack import make_zip

pytest.importorskip("openskill", reason="leagues need openskill (td-runner[league])")

TD = ("--max-rounds", "3")


def version(league: Path, player: str, number: int = 1):
    db = database(league)
    try:
        return db.execute("SELECT v.* FROM versions v JOIN players p ON p.id = v.player_id "
                          "WHERE p.name = ? AND v.number = ?", (player, number)).fetchone()
    finally:
        db.close()


def seats_of(league: Path, version_id: int, after_match: int) -> int:
    db = database(league)
    try:
        return db.execute("SELECT COUNT(*) FROM seats WHERE version_id = ? AND match_id > ?",
                          (version_id, after_match)).fetchone()[0]
    finally:
        db.close()


def test_a_deleted_snapshot_is_copied_again_and_its_player_keeps_playing(tmp_path: Path) -> None:
    subs = td_submissions(tmp_path, 3)
    league = tmp_path / "league"
    assert run_cli("league", "run", league, "--submissions", subs, "--max-matches", "3", *TD)[0] == 0
    v1 = version(league, "tiny1")
    snapshot = league / "bots" / v1["hash"]
    original = (snapshot / "bot.py").read_text()
    shutil.rmtree(snapshot)
    code, out, err = run_cli("league", "run", league, "--max-matches", "6")
    assert code == 0, err
    assert "not played" not in out and "copied again from the player's folder" in out, out
    assert (snapshot / "bot.py").read_text() == original and version(league, "tiny1")["status"] == "active"
    assert seats_of(league, v1["id"], 3) >= 1
    check_consistent(league)


def test_a_changed_snapshot_is_restored_from_the_players_folder(tmp_path: Path) -> None:
    subs = td_submissions(tmp_path, 2)
    league = tmp_path / "league"
    assert run_cli("league", "run", league, "--submissions", subs, "--max-matches", "2", *TD)[0] == 0
    snapshot = league / "bots" / version(league, "tiny1")["hash"]
    (snapshot / "bot.py").write_text("import os\nos.system('echo owned')\n")  # someone edits the league's copy
    code, out, err = run_cli("league", "run", league, "--max-matches", "4")
    assert code == 0 and "not played" not in out, out + err
    assert "changed since it was built" in out
    assert (snapshot / "bot.py").read_text() == (subs / "tiny1" / "bot.py").read_text()


def test_a_snapshot_lost_while_the_folder_holds_a_broken_resubmission_makes_the_version_invalid(tmp_path: Path) -> None:
    subs = td_submissions(tmp_path, 3)
    league = tmp_path / "league"
    assert run_cli("league", "run", league, "--submissions", subs, "--max-matches", "3", *TD)[0] == 0
    v1 = version(league, "tiny1")
    write_bot(subs / "tiny1", "Tiny1", "print('hi')", language="cobol")  # refused: v1 would go on playing
    shutil.rmtree(league / "bots" / v1["hash"])
    code, out, err = run_cli("league", "run", league, "--max-matches", "6")
    assert code == 0 and "not played" not in out, out + err
    v1 = version(league, "tiny1")
    assert v1["status"] == "invalid" and "deleted" in v1["reason"] and "no longer holds it" in v1["reason"]
    assert str(league) not in v1["reason"]
    assert seats_of(league, v1["id"], 3) == 0  # never scheduled again
    assert version(league, "tiny1", 2)["status"] == "invalid"
    check_consistent(league)


def test_snapshots_deleted_while_the_league_plays_end_no_match_unplayed(tmp_path: Path) -> None:
    subs = td_submissions(tmp_path, 3)
    given = {"submissions": str(subs), "options": {"max_rounds": 2}}
    with running_league(tmp_path / "league", given, workers=2) as (league, lines, thread):
        deadline = time.monotonic() + 60

        def played() -> int:
            return sum(line.startswith("match ") and "not played" not in line for line in lines)

        while played() < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        for name in ("tiny1", "tiny2"):
            shutil.rmtree(league.folder / "bots" / version(league.folder, name)["hash"], ignore_errors=True)
        start = played()
        while played() < start + 12 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert played() >= start + 12, lines
    assert not [line for line in lines if "not played" in line], lines
    assert sum("copied again" in line for line in lines) >= 2, lines
    for name in ("tiny1", "tiny2"):
        assert (league.folder / "bots" / version(league.folder, name)["hash"] / "bot.json").is_file()
    check_consistent(league.folder)


def test_every_upload_taken_becomes_a_version_or_is_superseded(tmp_path: Path) -> None:
    from runner.league.unpack import Caps
    from runner.league.upload import accept

    subs = td_submissions(tmp_path, 2)
    league = tmp_path / "league"
    assert run_cli("league", "run", league, "--submissions", subs, "--max-matches", "1", *TD)[0] == 0

    def bot(row: int) -> bytes:
        return make_zip({"bot.json": (subs / "tiny1" / "bot.json").read_bytes(),
                         "bot.py": TD_BOT.format(row=row, col=1).encode()})

    first = accept(bot(4), subs, "tiny1", "tower-defence", Caps())  # then replaced before the league looks
    taken: list[str] = []
    threads = [threading.Thread(target=lambda row=row: taken.append(accept(bot(row), subs, "tiny1", "tower-defence",
                                                                           Caps()))) for row in (5, 6, 7)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(taken) == 3 and (subs / "tiny1" / "bot.json").is_file()
    assert not [entry for entry in subs.iterdir() if entry.name.startswith((".upload-", ".replaced-"))]
    code, out, err = run_cli("league", "run", league, "--max-matches", "2")
    assert code == 0, err
    db = database(league)
    events = [row[0] for row in db.execute("SELECT text FROM events WHERE kind IN ('upload', 'superseded')")]
    db.close()
    for upload in [first, *taken]:
        assert len([text for text in events if f"upload {upload} " in text]) == 1, (upload, events)
    became = [text for text in events if " is version " in text]
    assert len(became) == 1 and became[0].endswith("is version 2"), events
    assert version(league, "tiny1", 2)["status"] == "active" and version(league, "tiny1", 3) is None
    assert list((subs / ".uploads" / "tiny1").glob("*.json")) == []
    accept(bot(4), subs, "tiny1", "tower-defence", Caps())  # settled by a running league too
    code, out, err = run_cli("league", "run", league, "--max-matches", "1")
    db = database(league)
    assert db.execute("SELECT COUNT(*) FROM events WHERE text LIKE '%is version 3'").fetchone()[0] == 1
    db.close()
