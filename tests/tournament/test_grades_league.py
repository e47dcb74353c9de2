"""`td-runner grades LEAGUE_DIR`: the tournament's grade sheet read from a league's database (read-only),
each player's current version or every version, with the same columns, ties and --against."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import threading
from pathlib import Path

import pytest

import runner.league.grades as league_grades
from runner.league.store import connect
from runner.tournament.rankstats import wilson

from tournament_helpers import run_cli, write_sh_bot

#: Short matches, one at a time (the league then records them in one order: the same matches every run).
TD = ("--max-rounds", "3", "--workers", "1")


@pytest.fixture(scope="module")
def league(tmp_path_factory) -> tuple[Path, Path]:
    """A strong bot, two identical copies under two players' names (one content, one snapshot), and a
    bot that crashes every turn; then dave's fixed version plays a few matches more."""
    root = tmp_path_factory.mktemp("league")
    subs = root / "subs"
    write_sh_bot(subs / "alice", "Strong", "0,1,2", author="Alice")
    write_sh_bot(subs / "bob", "Copy", "0,1,0", author="Bob")
    write_sh_bot(subs / "carol", "Copy", "0,1,0", author="Bob")
    write_sh_bot(subs / "dave", "Loser", "", author="Dave")
    (subs / "dave" / "bot.sh").write_text("echo broken >&2\nexit 3\n")
    out = root / "L"
    code, _, stderr = run_cli("league", "run", str(out), "--submissions", str(subs), "--max-matches", "24", *TD)
    assert code == 0, stderr
    return out, subs


def sheet(folder: Path, *extra: str) -> list[dict[str, str]]:
    code, printed, stderr = run_cli("grades", str(folder), "--csv", "-", *extra)
    assert code == 0, stderr
    return list(csv.DictReader(io.StringIO(printed)))


def seats(folder: Path) -> list[sqlite3.Row]:
    db = connect(folder, readonly=True)
    try:
        return db.execute("SELECT s.*, p.name, v.number, m.draw FROM seats s JOIN versions v ON v.id = s.version_id "
                          "JOIN players p ON p.id = v.player_id JOIN matches m ON m.id = s.match_id").fetchall()
    finally:
        db.close()


def test_league_sheet_ties_the_copies_and_matches_the_database(league) -> None:
    out, subs = league
    rows = sheet(out)
    by_name = {row["name"]: row for row in rows}
    assert [row["name"] for row in rows][0] == "alice" and rows[-1]["name"] == "dave"
    assert by_name["alice"]["rank"] == "1" and by_name["dave"]["rank"] == "4"
    assert by_name["bob"]["rank"] == by_name["carol"]["rank"] == "2-3"
    assert by_name["bob"]["hash"] == by_name["carol"]["hash"]  # one content, two players
    ordinals = [float(row["ordinal"]) for row in rows]
    assert ordinals == sorted(ordinals, reverse=True)
    all_seats = seats(out)
    for name, row in by_name.items():
        data = json.loads((subs / name / "bot.json").read_text())
        assert (row["folder"], row["author"], row["email"], row["nickname"], row["language"], row["version"],
                row["status"]) == (name, data["author"], data["email"], data["nickName"], "custom", "1", "active")
        mine = [seat for seat in all_seats if seat["name"] == name]
        assert (int(row["games"]), int(row["wins"]), int(row["draws"]), int(row["losses"])) == \
            (len(mine), *(sum(seat["result"] == kind for seat in mine) for kind in ("win", "draw", "loss")))
        for column in ("crashes", "timeouts", "invalid", "failed_to_start"):
            assert int(row[column]) == sum(seat[column] for seat in mine), column
    assert int(by_name["dave"]["crashes"]) > 0
    # the league's own ratings
    db = connect(out, readonly=True)
    mu = {row[0]: row[1] for row in db.execute("SELECT p.name, r.mu FROM ratings r JOIN versions v ON "
                                               "v.id = r.version_id JOIN players p ON p.id = v.player_id")}
    db.close()
    assert {name: float(row["mu"]) for name, row in by_name.items()} == pytest.approx(mu, abs=1e-4)
    code, printed, _ = run_cli("grades", str(out), "--json")
    data = json.loads(printed)
    assert code == 0 and data["source"] == "league" and data["matches"] == 24
    assert [row["rank"] for row in data["rows"]] == [row["rank"] for row in rows]
    code, printed, _ = run_cli("grades", str(out))  # the table: the league's version and status shown
    assert code == 0 and "tower-defence league" in printed and "v1 active" in printed and "2-3" in printed


def test_league_against_a_reference_player(league) -> None:
    out, subs = league
    rows = sheet(out, "--against", str(subs / "alice"))
    all_seats = seats(out)
    matches: dict[int, list] = {}
    for seat in all_seats:
        matches.setdefault(seat["match_id"], []).append(seat)
    for row in rows:
        if row["name"] == "alice":
            assert row["vs alice rate"] == "" and row["vs alice games"] == ""
            continue
        met = [next(s for s in pair if s["name"] == row["name"]) for pair in matches.values()
               if {s["name"] for s in pair} == {row["name"], "alice"}]
        score = sum({"win": 1, "draw": 0.5, "loss": 0}[seat["result"]] for seat in met)
        assert int(row["vs alice games"]) == len(met) > 0
        assert float(row["vs alice rate"]) == pytest.approx(score / len(met), abs=1e-4)
        assert (float(row["vs alice low"]), float(row["vs alice high"])) == \
            pytest.approx(wilson(score, len(met)), abs=1e-4)
    assert sheet(out, "--against", "alice") == rows  # a player's name does as well as its folder
    code, _, stderr = run_cli("grades", str(out), "--against", "zoe")
    assert code == 2 and "not a player of the league" in stderr and stderr.count("\n") == 1


def test_league_standings_page_shows_the_sort_key_and_tied_ranks(league, tmp_path: Path) -> None:
    """(Before test_league_versions, which gives dave a stronger version.)"""
    out, _ = league
    code, _, stderr = run_cli("league", "export", str(out), str(tmp_path / "site"))
    assert code == 0, stderr
    page = (tmp_path / "site" / "index.html").read_text()
    head = page[page.index("<thead>"):page.index("</thead>")]
    assert "<th class=n>ordinal</th>" in head
    rank = {name: page.split(f'players/{name}.html">{name}</a>')[0].rsplit("<td class=n>", 1)[1].split("<")[0]
            for name in ("alice", "bob", "carol", "dave")}
    assert rank["bob"] == rank["carol"] and "-" in rank["bob"]  # the copies: tied
    assert rank["alice"].startswith("1") and rank["dave"].endswith("4")


def test_league_versions(league) -> None:
    """dave fixes his bot: the sheet grades the new version; --all-versions lists both."""
    out, subs = league
    (subs / "dave" / "bot.sh").write_text("printf '0,2,2\\n' > command.txt\n")
    code, _, stderr = run_cli("league", "run", str(out), "--max-matches", "6", *TD[2:])
    assert code == 0, stderr
    rows = sheet(out)
    dave = next(row for row in rows if row["name"] == "dave")
    assert dave["version"] == "2" and dave["status"] == "active" and len(rows) == 4
    played = [seat for seat in seats(out) if seat["name"] == "dave" and seat["number"] == 2]
    assert int(dave["games"]) == len(played) and int(dave["crashes"]) == 0
    every = sheet(out, "--all-versions")
    assert sorted((row["name"], row["version"], row["status"]) for row in every if row["name"] == "dave") == \
        [("dave", "1", "replaced"), ("dave", "2", "active")]
    assert len(every) == 5
    old = next(row for row in every if row["name"] == "dave" and row["version"] == "1")
    assert int(old["crashes"]) > 0
    code, _, stderr = run_cli("league", "status", str(out))  # grades wrote nothing: the league still reads
    assert code == 0, stderr


def test_league_errors(league, tmp_path: Path, monkeypatch) -> None:
    out, _ = league
    empty = tmp_path / "empty"
    connect(empty, create=True).close()
    code, _, stderr = run_cli("grades", str(empty))
    assert code == 2 and "has not started yet" in stderr and stderr.count("\n") == 1, stderr
    db = connect(empty)
    db.execute("INSERT INTO meta VALUES ('settings', ?)", (json.dumps({"game": "tower-defence"}),))
    db.close()
    code, _, stderr = run_cli("grades", str(empty))
    assert code == 2 and "has no players yet" in stderr and stderr.count("\n") == 1, stderr

    # a writer holding the database: retried, then one line; released in time: the sheet
    monkeypatch.setattr(league_grades, "BUSY_WAIT_S", 0.6)
    writer = sqlite3.connect(out / "league.sqlite", isolation_level=None, check_same_thread=False)
    writer.execute("PRAGMA locking_mode=EXCLUSIVE")
    writer.execute("BEGIN EXCLUSIVE")
    try:
        code, _, stderr = run_cli("grades", str(out))
        assert code == 2 and "stayed locked" in stderr and stderr.count("\n") == 1, stderr
        monkeypatch.setattr(league_grades, "BUSY_WAIT_S", 20)
        threading.Timer(0.5, lambda: (writer.execute("ROLLBACK"), writer.close())).start()  # the writer goes
        code, printed, stderr = run_cli("grades", str(out), "--csv", "-")
        assert code == 0 and printed.startswith("rank,"), stderr
    finally:
        writer.close()
    code, _, stderr = run_cli("grades", str(out), "--all-versions", "--confidence", "2")
    assert code == 2 and "--confidence must be between 0 and 1" in stderr


def test_rating_ranks() -> None:
    from runner.league.standings import StandingRow
    from runner.league.web.pages import rating_ranks

    def row(version: int, mu: float, sigma: float) -> StandingRow:
        return StandingRow(name=f"p{version}", player_id=version, version=1, version_id=version, hash="h", role="",
                           mu=mu, sigma=sigma, games=10, wins=0, draws=0, losses=0, faults=0, status="active",
                           reason=None, retired=False)

    # 40 apart with sigma 2 each: surely apart; 1 apart: tied
    assert rating_ranks([row(1, 60, 2), row(2, 21, 2), row(3, 20, 2), row(4, -20, 2)]) == \
        {1: "1", 2: "2-3", 3: "2-3", 4: "4"}


def invaders_league(folder: Path, defence: dict[str, int], attack: dict[str, int]) -> Path:
    """An Invaders league database written row by row (no logs): each player a version with a defender and
    an invader rating; every player's defender meets every other player's invader once, lasting
    1000 + defence - attack turns."""
    db = connect(folder, create=True)
    db.execute("INSERT INTO meta VALUES ('settings', ?)", (json.dumps({"game": "invaders"}),))
    db.execute("BEGIN")
    version = {}
    for number, name in enumerate(defence, 1):
        player = db.execute("INSERT INTO players (name, created) VALUES (?, 0)", (name,)).lastrowid
        version[name] = db.execute("INSERT INTO versions (player_id, number, hash, created, status) VALUES "
                                   "(?, 1, ?, 0, 'active')", (player, f"{number:016x}")).lastrowid
        for role, mu in (("defender", 20 + defence[name]), ("invader", 30 - attack[name])):
            db.execute("INSERT INTO ratings VALUES (?, ?, 25, 8.33, ?, 3, 3)", (version[name], role, mu))
    match = 0
    for defender in defence:
        for invader in attack:
            if defender == invader:
                continue
            match += 1
            turns = 1000 + defence[defender] - attack[invader]
            db.execute("INSERT INTO matches (id, task, seed, finished, end_reason, rounds, draw, wall_seconds, "
                       "cpu_seconds, details) VALUES (?, ?, 0, 0, 'life', ?, 0, 1, 0, ?)",
                       (match, match, turns, json.dumps({"score": turns})))
            for position, (name, role, place) in enumerate(((defender, "defender", 2), (invader, "invader", 1))):
                db.execute("INSERT INTO seats (match_id, position, seat, version_id, role, place, result, started, "
                           "timeouts, crashes, failed_to_start, invalid, disqualified, score) VALUES "
                           "(?, ?, ?, ?, ?, ?, ?, 1, 0, 0, 0, 0, 0, ?)",
                           (match, position, role, version[name], role, place, "win" if place == 1 else "loss", turns))
    db.execute("COMMIT")
    db.close()
    return folder


def test_invaders_league_graded_within_each_role(tmp_path: Path) -> None:
    # ann and ben play alike; cat defends best; dan attacks worst
    defence = {"ann": 50, "ben": 50, "cat": 400, "dan": 0}
    attack = {"ann": 300, "ben": 300, "cat": 200, "dan": -200}
    out = invaders_league(tmp_path / "L", defence, attack)
    db = connect(out)  # eve's first version has not played yet: on the sheet, unranked
    eve = db.execute("INSERT INTO players (name, created) VALUES ('eve', 0)").lastrowid
    version = db.execute("INSERT INTO versions (player_id, number, hash, created, status) VALUES (?, 1, 'e', 0, "
                         "'active')", (eve,)).lastrowid
    db.executemany("INSERT INTO ratings VALUES (?, ?, 25, 8.33, 25, 8.33, 0)", [(version, "defender"),
                                                                                (version, "invader")])
    db.close()
    rows = sheet(out, "--against", "cat")
    unranked = [row for row in rows if row["name"] == "eve"]
    assert [(row["rank"], row["rank_best"], row["games"]) for row in unranked] == [("unranked", "", "0")] * 2
    assert rows.index(unranked[0]) == 4 and rows[-1] is unranked[1]  # last in each role
    rows = [row for row in rows if row["name"] != "eve"]
    assert [(row["role"], row["name"]) for row in rows][:1] == [("defender", "cat")]
    for row in rows:
        mine = defence if row["role"] == "defender" else attack
        others = [name for name in defence if name != row["name"]]
        turns = [1000 + mine[row["name"]] - attack[other] if row["role"] == "defender"
                 else 1000 + defence[other] - attack[row["name"]] for other in others]
        assert float(row["mean_turns"]) == pytest.approx(sum(turns) / len(turns), abs=1e-4)
        assert int(row["games"]) == 3 and row["version"] == "1"
        if row["name"] != "cat":  # the reference's other role: one game each
            cat_turns = (1000 + defence[row["name"]] - attack["cat"] if row["role"] == "defender"
                         else 1000 + defence["cat"] - attack[row["name"]])
            assert (row["vs cat games"], float(row["vs cat turns"])) == ("1", cat_turns)
    ranks = {(row["role"], row["name"]): row["rank"] for row in rows}
    assert ranks[("defender", "cat")] in ("1", "1-2") and ranks[("defender", "dan")] == "4"
    assert ranks[("defender", "ann")] == ranks[("defender", "ben")] == "2-3"
    assert ranks[("invader", "dan")] == "4"  # the most turns against it, alone last among invaders
    assert ranks[("invader", "ann")] == ranks[("invader", "ben")] and "-" in ranks[("invader", "ann")]
    assert [row["role"] for row in rows] == ["defender"] * 4 + ["invader"] * 4
    for role in ("defender", "invader"):  # the ranges follow the sheet's order (the spec's mean turns)
        bests = [int(row["rank_best"]) for row in rows if row["role"] == role]
        assert bests == sorted(bests)
