"""A league's sandbox as an attacker meets it (issue 31): escaping bot.json paths refused at registration,
a spy submission whose build and matches reach nothing of the league, and `--serve` sandboxed by default.

The league and its submissions live under /var/tmp: the sandbox's private /tmp would hide a league under
/tmp whatever else it showed.
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from league_helpers import TD_BOT, database, run_cli, td_submissions, write_bot
from runner.bots import isolation
from runner.bots.limits import Limits
from runner.errors import UserError

pytest.importorskip("openskill", reason="leagues need openskill (td-runner[league])")

TD = ("--max-rounds", "3")
SPY = Path(__file__).resolve().parents[1] / "hostile" / "spy.py"


@pytest.fixture
def root() -> Iterator[Path]:
    try:
        isolation.check_isolation(Limits(sandbox=True))
    except UserError as exc:
        pytest.skip(str(exc))
    folder = Path(tempfile.mkdtemp(prefix="td-league-sandbox-", dir="/var/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def reports(text: str) -> list[dict]:
    return [json.loads(line.removeprefix("SPY-REPORT ")) for line in text.splitlines() if line.startswith("SPY-REPORT ")]


def check_nothing_reached(report: dict, bots: str) -> None:
    """`bots`: a pattern of what listing DIR/bots must give (a build runs in the staging copy of its own
    snapshot there: only that one shows)."""
    assert report["uid"] == 65534
    for kind in ("read", "write"):
        assert not [path for path, result in report[kind].items() if result.startswith("ok")], report[kind]
    for folder, result in report["list"].items():  # a listing shows at most mount points, never a file
        assert not result.startswith("ok") or all(not (Path(folder) / name).is_file() for name in result[4:].split())
    assert re.fullmatch(bots, report["list"][next(path for path in report["list"] if path.endswith("/bots"))])
    assert not report["network"].startswith("ok") and report["processes"] == []
    assert report["own"] == "ok: written"


def test_a_spy_submission_reaches_nothing_in_its_build_and_its_matches(root: Path) -> None:
    subs = td_submissions(root, 2)
    league = root / "league"
    spy = write_bot(subs / "spy", "Spy", SPY.read_text())
    (spy / "build.sh").write_text("python3 bot.py build\n")
    victim_code = (subs / "tiny1" / "bot.py").read_bytes()
    targets = {"read": [str(league / "league.sqlite"), str(subs / "tiny1" / "bot.py"), "/etc/shadow"],
               "list": [str(league / "bots"), str(subs), "/root"],
               "write": [str(league / "league.sqlite"), str(subs / "tiny1" / "bot.py"), str(root / "outside.txt")],
               "port": 9, "tamper": True}
    (spy / "targets.json").write_text(json.dumps(targets))
    code, out, err = run_cli("league", "run", league, "--submissions", subs, "--sandbox", "--workers", "1",
                             "--max-matches", "3", *TD)
    assert code == 0, err
    db = database(league)
    row = db.execute("SELECT v.status, v.hash, v.build_output FROM versions v JOIN players p ON p.id = v.player_id "
                     "WHERE p.name = 'spy'").fetchone()
    assert row["status"] == "active"  # built (sandboxed), then scheduled
    (built,) = reports(row["build_output"])
    check_nothing_reached(built, rf"ok: \.{row['hash']}\.td-build-[0-9a-f]+")  # its own snapshot's copy, no other
    logs = [league / row[0] for row in db.execute(
        "SELECT m.log FROM matches m JOIN seats s ON s.match_id = m.id JOIN versions v ON v.id = s.version_id "
        "JOIN players p ON p.id = v.player_id WHERE p.name = 'spy'")]
    assert logs, "the spy never played"
    played = [report for log in logs for path in log.rglob("BotOutput.txt") for report in reports(path.read_text())]
    assert played
    for report in played:
        # a match's seat folder is DIR/bots/.seats/<match>/<seat>: the path to the mount shows, nothing else
        check_nothing_reached(report, r"ok: \.seats")
        # its seat's shipped files are the snapshot's (hard links), given to nobody: not its to make writable
        assert report["tamper"] == "PermissionError", report["tamper"]
    for log in logs:
        spy_seat = next(seat for seat in json.loads((log / "match.json").read_text())["players"]
                        if "Spy" in seat["name"])
        assert (spy_seat["crashes"], spy_seat["timeouts"]) == (0, 0)  # it plays on
    assert (subs / "tiny1" / "bot.py").read_bytes() == victim_code and not (root / "outside.txt").exists()
    assert db.execute("SELECT COUNT(*) FROM players").fetchone()[0] == 3  # nobody's record rewritten away


@pytest.mark.parametrize("form", ["relative", "absolute"])
def test_an_escaping_bot_location_is_refused_at_registration(root: Path, form: str) -> None:
    subs = td_submissions(root, 2)
    victim = subs / "tiny1"
    location = "/../tiny1" if form == "relative" else "/" + "../" * 30 + str(victim).lstrip("/")
    attacker = write_bot(subs / "attacker", "Attacker", TD_BOT.format(row=0, col=0))
    data = json.loads((attacker / "bot.json").read_text())
    (attacker / "bot.json").write_text(json.dumps({**data, "botLocation": location}))
    league = root / "league"
    code, out, err = run_cli("league", "run", league, "--submissions", subs, "--sandbox", "--workers", "1",
                             "--max-matches", "2", *TD)
    assert code == 0, err
    db = database(league)
    row = db.execute("SELECT v.status, v.reason FROM versions v JOIN players p ON p.id = v.player_id "
                     "WHERE p.name = 'attacker'").fetchone()
    assert row["status"] == "invalid"
    assert row["reason"] == f"$.botLocation: {location!r} leads outside the bot folder"
    assert "\n" not in row["reason"]
    assert db.execute("SELECT COUNT(*) FROM seats s JOIN versions v ON v.id = s.version_id JOIN players p "
                      "ON p.id = v.player_id WHERE p.name = 'attacker'").fetchone()[0] == 0


def stored_sandbox(league: Path) -> bool:
    with sqlite3.connect(league / "league.sqlite") as db:
        return json.loads(db.execute("SELECT value FROM meta WHERE key = 'settings'").fetchone()[0])["sandbox"]


def test_serve_runs_sandboxed_by_default(root: Path) -> None:
    subs = td_submissions(root, 2)
    code, out, err = run_cli("league", "run", root / "served", "--submissions", subs, "--serve", "127.0.0.1:0",
                             "--max-matches", "1", "--workers", "1", *TD)
    assert code == 0, err
    assert stored_sandbox(root / "served")


def test_serve_without_the_sandbox_only_when_asked_with_one_warning(root: Path) -> None:
    subs = td_submissions(root, 2)
    code, out, err = run_cli("league", "run", root / "open", "--submissions", subs, "--serve", "127.0.0.1:0",
                             "--no-sandbox", "--max-matches", "1", "--workers", "1", *TD)
    assert code == 0, err
    (warning,) = [line for line in err.splitlines() if line.startswith("warning:")]
    assert "--no-sandbox" in warning and "database" in warning
    assert not stored_sandbox(root / "open")
    code, out, err = run_cli("league", "run", root / "open", "--serve", "127.0.0.1:0", "--max-matches", "1")
    assert code == 0, err  # serving it again without a word: sandboxed from now on
    assert "sandboxed from now on" in err and stored_sandbox(root / "open")
    code, out, err = run_cli("league", "run", root / "open", "--no-sandbox", "--max-matches", "1")
    assert code == 2 and "sandbox is True, not False" in err  # never turned off again


def test_serve_refuses_to_start_where_bubblewrap_cannot_sandbox(root: Path, monkeypatch) -> None:
    subs = td_submissions(root, 2)
    monkeypatch.setattr(isolation, "_bwrap_path", lambda: None)
    code, out, err = run_cli("league", "run", root / "league", "--submissions", subs, "--serve", "127.0.0.1:0",
                             "--max-matches", "1", *TD)
    assert code == 2
    (line,) = err.splitlines()
    assert "--serve runs the bots players upload, sandboxed, but --sandbox needs bubblewrap" in line
    assert "pass --no-sandbox" in line
    assert not (root / "league").exists()  # nothing left behind
