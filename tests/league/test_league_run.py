"""`td-runner league run/status`: a Tower Defence league of 4 players on 2 workers, new versions, retired
players, refused submissions, settings that cannot change, and a league killed with SIGKILL that carries on."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from league_helpers import TD_BOT, check_consistent, database, run_cli, running_league, td_submissions, write_bot

pytest.importorskip("openskill", reason="leagues need openskill (td-runner[league])")

TD = ("--max-rounds", "4")


def test_four_players_two_workers(tmp_path: Path) -> None:
    subs = td_submissions(tmp_path)
    league = tmp_path / "league"
    code, out, err = run_cli("league", "run", league, "--submissions", subs, "--workers", "2", "--max-matches", "8", *TD)
    assert code == 0, err
    assert "8 matches played" in out
    assert check_consistent(league) == 8
    db = database(league)
    played = {row[0] for row in db.execute("SELECT DISTINCT p.name FROM seats s JOIN versions v ON v.id = s.version_id "
                                           "JOIN players p ON p.id = v.player_id")}
    assert played == {"tiny0", "tiny1", "tiny2", "tiny3"}  # every new player plays first
    logs = [row[0] for row in db.execute("SELECT log FROM matches")]
    for log in logs:  # every log verifies, exactly as a td-runner match log does
        code, verified, err = run_cli("verify", league / log)
        assert code == 0, verified + err
    code, status, err = run_cli("league", "status", league, "--json")
    data = json.loads(status)
    assert data["matches"] == 8 and {p["name"] for p in data["players"]} == played
    assert all({"name", "version", "mu", "sigma", "games", "status"} <= set(p) for p in data["players"])
    assert sum(p["games"] for p in data["players"]) == 16
    assert data["players"][-1]["name"] == "tiny0"  # the bot that does nothing is rated last
    code, table, err = run_cli("league", "status", league)
    assert code == 0 and "tiny3" in table and "8 matches" in table


def test_new_version_plays_next_removed_retires_invalid_never_scheduled(tmp_path: Path) -> None:
    subs = td_submissions(tmp_path, 3)
    league = tmp_path / "league"
    assert run_cli("league", "run", league, "--submissions", subs, "--workers", "1", "--max-matches", "3", *TD)[0] == 0
    (subs / "tiny1" / "bot.py").write_text(TD_BOT.format(row=5, col=1))  # a new version of tiny1
    write_bot(subs / "broken", "Broken", "print('hi')", language="cobol")  # refused: unknown language
    missing = write_bot(subs / "nofile", "NoFile", "")
    (missing / "bot.py").unlink()  # refused: the bot file is missing
    import shutil

    shutil.rmtree(subs / "tiny2")  # retired
    code, out, err = run_cli("league", "run", league, "--workers", "1", "--max-matches", "3")
    assert code == 0, err
    assert "tiny2: folder removed, retired" in out
    db = database(league)
    versions = {(row["name"], row["number"]): row for row in db.execute(
        "SELECT p.name, v.* FROM versions v JOIN players p ON p.id = v.player_id")}
    assert versions[("tiny1", 2)]["status"] == "active"
    assert versions[("tiny1", 1)]["status"] == "replaced"
    assert versions[("tiny2", 1)]["status"] == "retired"
    assert versions[("broken", 1)]["status"] == "invalid" and "cobol" in versions[("broken", 1)]["reason"]
    assert versions[("nofile", 1)]["status"] == "invalid" and "bot.py" in versions[("nofile", 1)]["reason"]
    new_id = versions[("tiny1", 2)]["id"]
    first_new = db.execute("SELECT version_id FROM seats WHERE match_id = 4").fetchall()
    assert new_id in {row[0] for row in first_new}  # the new version plays first
    later = {row[0] for row in db.execute("SELECT version_id FROM seats WHERE match_id > 3")}
    never = {versions[key]["id"] for key in (("tiny1", 1), ("tiny2", 1), ("broken", 1), ("nofile", 1))}
    assert not later & never
    start = db.execute("SELECT mu0, sigma0 FROM ratings WHERE version_id = ?", (new_id,)).fetchone()
    old = db.execute("SELECT mu, sigma FROM ratings WHERE version_id = ?", (versions[("tiny1", 1)]["id"],)).fetchone()
    assert start["mu0"] == old["mu"] and start["sigma0"] > old["sigma"]  # its player's rating, widened
    data = json.loads(run_cli("league", "status", league, "--json")[1])
    shown = {p["name"]: p for p in data["players"]}
    assert shown["broken"]["status"] == "invalid" and "cobol" in shown["broken"]["reason"]
    assert shown["tiny2"]["status"] == "retired" and shown["tiny1"]["version"] == 2
    check_consistent(league)


def test_a_changed_folder_is_seen_while_running(tmp_path: Path) -> None:
    """The watchdog path: a folder changed while the league runs becomes a version within a second or so."""
    subs = td_submissions(tmp_path, 2)
    given = {"submissions": str(subs), "options": {"max_rounds": 2}}
    with running_league(tmp_path / "league", given) as (league, lines, thread):
        deadline = time.monotonic() + 30
        while not any(line.startswith("match ") for line in lines) and time.monotonic() < deadline:
            time.sleep(0.1)
        write_bot(subs / "tiny2", "Tiny2", TD_BOT.format(row=2, col=0))
        while not any("tiny2: version 1 plays" in line for line in lines) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert any("tiny2: version 1 plays" in line for line in lines), lines


def test_settings_are_fixed_and_bad_input_is_one_line(tmp_path: Path) -> None:
    subs = td_submissions(tmp_path, 2)
    league = tmp_path / "league"
    code, _, err = run_cli("league", "run", league, "--max-matches", "1")
    assert code == 2 and err.startswith("error: ") and "--submissions" in err and not league.exists() or \
        not (league / "league.sqlite").exists()
    code, _, err = run_cli("league", "run", league, "--submissions", tmp_path / "nowhere")
    assert code == 2 and "no such folder" in err
    code, _, err = run_cli("league", "run", league, "--submissions", subs, "--timeout-ms", "0")
    assert code == 2 and "--timeout-ms" in err and not league.exists()
    assert run_cli("league", "run", league, "--submissions", subs, "--max-matches", "1", *TD)[0] == 0
    code, _, err = run_cli("league", "run", league, "--game", "lanes", "--max-matches", "1")
    assert code == 2 and "game is 'tower-defence', not 'lanes'" in err and err.count("\n") == 1
    code, _, err = run_cli("league", "run", league, "--max-rounds", "9", "--max-matches", "1")
    assert code == 2 and "options" in err
    code, out, err = run_cli("league", "run", league, "--max-matches", "1", *TD)  # the same options: continues
    assert code == 0, err
    import fcntl

    with open(league / "league.lock", "a+") as held:  # as a running `league run` holds it
        fcntl.flock(held, fcntl.LOCK_EX)
        code, _, err = run_cli("league", "run", league, "--max-matches", "1")
    assert code == 2 and "another `td-runner league run`" in err
    code, _, err = run_cli("league", "status", tmp_path / "nothing")
    assert code == 2 and "not a league folder" in err
    code, _, err = run_cli("league", "run", league, "--serve", "localhost:http")
    assert code == 2 and "--serve" in err


def test_kill_9_then_run_again(tmp_path: Path) -> None:
    """SIGKILL of the league (and its workers) mid-run: every finished match is recorded once, whole; the next
    run carries on; the standings equal the ones recomputed from the stored matches."""
    subs = tmp_path / "submissions"
    for n in range(4):  # slowish bots, so that matches are in flight when the kill comes
        write_bot(subs / f"slow{n}", f"Slow{n}", "import time\ntime.sleep(0.05)\n" + TD_BOT.format(row=n, col=n))
    league = tmp_path / "league"
    command = [sys.executable, "-m", "runner", "league", "run", str(league), "--submissions", str(subs),
               "--workers", "2", "--max-rounds", "6"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            time.sleep(0.3)
            if (league / "league.sqlite").is_file():
                db = database(league)
                count = db.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
                db.close()
                if count >= 3:
                    break
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
    before = check_consistent(league)
    assert before >= 3
    code, out, err = run_cli("league", "run", league, "--workers", "2", "--max-matches", "3")
    assert code == 0, err
    assert check_consistent(league) == before + 3
    assert not [p for p in (league / "matches").iterdir() if p.name.startswith(".")]


def test_a_worker_that_dies_costs_only_its_match_which_is_played_again(tmp_path: Path) -> None:
    subs = tmp_path / "submissions"
    for n in range(3):
        write_bot(subs / f"slow{n}", f"Slow{n}", "import time\ntime.sleep(0.1)\n" + TD_BOT.format(row=n, col=n))
    folder = tmp_path / "league"
    given = {"submissions": str(subs), "options": {"max_rounds": 8}}
    with running_league(folder, given, workers=2, max_matches=5) as (league, lines, thread):
        pool = league.pool
        deadline = time.monotonic() + 60
        while not pool._processes and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # mid-match
        pool._processes[0].kill()
        thread.join(timeout=120)
        assert not thread.is_alive()
    assert any("played again" in line for line in lines), lines
    assert league.stats.played == 5 and league.stats.failed == 0
    assert check_consistent(folder) == 5


def test_builds_run_once_with_a_time_limit_and_a_failed_one_is_never_scheduled(tmp_path: Path) -> None:
    subs = td_submissions(tmp_path, 2)
    failing = write_bot(subs / "failing", "Failing", TD_BOT.format(row=1, col=3))
    (failing / "build.sh").write_text("echo compiling the failing bot\nexit 3\n")
    slow = write_bot(subs / "slowbuild", "SlowBuild", TD_BOT.format(row=2, col=3))
    (slow / "build.sh").write_text("echo starting\nsleep 30\n")
    built = write_bot(subs / "built", "Built", TD_BOT.format(row=3, col=3))
    (built / "build.sh").write_text("echo built > built.txt\necho build ok\n")
    folder = tmp_path / "league"
    given = {"submissions": str(subs), "options": {"max_rounds": 2}, "build_timeout_s": 1.0}
    with running_league(folder, given):
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            db = database(folder)
            statuses = {row[0]: row[1] for row in db.execute(
                "SELECT p.name, v.status FROM versions v JOIN players p ON p.id = v.player_id")}
            played = db.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
            db.close()
            if {statuses.get(n) for n in ("failing", "slowbuild", "built")} <= {"build failed", "active"} and played >= 4:
                break
            time.sleep(0.2)
    db = database(folder)
    rows = {row["name"]: row for row in db.execute(
        "SELECT p.name, v.* FROM versions v JOIN players p ON p.id = v.player_id")}
    assert rows["failing"]["status"] == "build failed" and "exited with code 3" in rows["failing"]["reason"]
    assert "compiling the failing bot" in rows["failing"]["build_output"]
    assert rows["slowbuild"]["status"] == "build failed" and "time limit of 1 s" in rows["slowbuild"]["reason"]
    assert rows["built"]["status"] == "active" and "build ok" in rows["built"]["build_output"]
    assert (folder / "bots" / rows["built"]["hash"] / "built.txt").is_file()  # built once, in the snapshot
    scheduled = {row[0] for row in db.execute("SELECT DISTINCT version_id FROM seats")}
    assert rows["failing"]["id"] not in scheduled and rows["slowbuild"]["id"] not in scheduled
    assert rows["built"]["id"] in scheduled


def test_player_remove_retires_and_keeps_the_folder(tmp_path: Path) -> None:
    subs = td_submissions(tmp_path, 3)
    league = tmp_path / "league"
    assert run_cli("league", "run", league, "--submissions", subs, "--max-matches", "1", *TD)[0] == 0
    code, out, err = run_cli("league", "player", "remove", league, "tiny1")
    assert code == 0 and "retired" in out and not (subs / "tiny1").exists()
    assert [p.name for p in (league / "removed").iterdir()][0].startswith("tiny1-")
    assert run_cli("league", "run", league, "--max-matches", "2")[0] == 0
    db = database(league)
    tiny1 = db.execute("SELECT v.id, v.status FROM versions v JOIN players p ON p.id = v.player_id "
                       "WHERE p.name = 'tiny1'").fetchone()
    assert tiny1["status"] == "retired"
    assert tiny1["id"] not in {row[0] for row in db.execute("SELECT version_id FROM seats WHERE match_id > 1")}
    code, _, err = run_cli("league", "player", "remove", league, "nobody")
    assert code == 2 and "no player named 'nobody'" in err
    code, _, err = run_cli("league", "player", "add", league, "../evil")
    assert code == 2 and "player name" in err


def test_sigterm_stops_the_league_cleanly(tmp_path: Path) -> None:
    """SIGTERM (as Ctrl-C): the league stops within seconds, exit 0, matches in flight dropped whole."""
    subs = tmp_path / "submissions"
    for n in range(3):
        write_bot(subs / f"slow{n}", f"Slow{n}", "import time\ntime.sleep(0.1)\n" + TD_BOT.format(row=n, col=n))
    league = tmp_path / "league"
    process = subprocess.Popen([sys.executable, "-m", "runner", "league", "run", str(league), "--submissions",
                                str(subs), "--workers", "2", "--max-rounds", "30"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not list((league / "matches").glob(".*.partial")):
            time.sleep(0.1)
        time.sleep(0.5)
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert "in flight dropped" in out and not err.strip()
    assert not [p for p in (league / "matches").iterdir() if p.name.startswith(".")]  # no partial log left
    check_consistent(league)


def test_serve_from_the_command_line(tmp_path: Path) -> None:
    """`--serve 127.0.0.1:0` serves the pages while the league plays (a free port, said on stdout)."""
    subs = td_submissions(tmp_path, 2)
    code, out, err = run_cli("league", "run", tmp_path / "league", "--submissions", subs, "--serve", "127.0.0.1:0",
                             "--max-matches", "1", *TD)
    assert code == 0, err
    assert "league pages: http://127.0.0.1:" in out
