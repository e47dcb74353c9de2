"""td-runner tournament on Tower Defence: schedule, seats, standings, faults, resume, bad input."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from runner.tournament.records import read_records
from runner.tournament.standings import compute_standings

from tournament_helpers import CRASHER, REPO, SLOW_BOT, SLOW_MATCH, TD_BOT, games, run_cli, write_bot

TD = ("--max-rounds", "3")


def test_round_robin_of_four_bots(td_bots: list[str], tmp_path: Path) -> None:
    out = tmp_path / "t"
    code, stdout, stderr = run_cli("tournament", *td_bots, *TD, "--output", str(out), "--workers", "2")
    assert code == 0, stderr
    lines = games(out)
    assert len(lines) == 12  # 6 pairs, each seed in both seatings
    seatings = {tuple(seat["bot"] for seat in line["seats"]) for line in lines}
    assert len(seatings) == 12 and all((b, a) in seatings for a, b in seatings)
    assert len({line["match"] for line in lines}) == 12
    for line in lines:
        assert (out / line["log"] / "match.json").is_file()
        assert json.loads((out / line["log"] / "match.json").read_text())["game"] == "tower-defence"
    # Tiny0 does nothing, the others build: it loses all 6, the rest draw among themselves
    table = json.loads((out / "standings.json").read_text())
    last = table["rows"][-1]
    assert (last["name"], last["losses"], last["games"]) == ("Tiny0", 6, 6)
    assert all(row["wins"] == 2 and row["draws"] == 4 for row in table["rows"][:3])
    assert table["crosstable"]["Tiny1"]["Tiny0"] == {"wins": 2, "draws": 0, "losses": 0}
    assert (out / "standings.csv").read_text().startswith("name,hash,games,wins")
    assert "[12/12]" in stdout and "Tiny0" in stdout

    # the standings depend on the games only, not the order they finished in
    records = read_records(out)
    for _ in range(3):
        random.shuffle(records)
        assert compute_standings("tower-defence", records, scheduled=12).to_json() == table
    code, printed, _ = run_cli("standings", str(out), "--json")
    assert code == 0 and json.loads(printed) == table
    code, printed, _ = run_cli("standings", str(out))
    assert code == 0 and "Tiny1" in printed and "crosstable" in printed

    # the same command again plays nothing and changes nothing
    before = (out / "games.jsonl").read_bytes()
    code, stdout, _ = run_cli("tournament", *td_bots, *TD, "--output", str(out))
    assert code == 0 and "12 already played, 0 to play" in stdout
    assert (out / "games.jsonl").read_bytes() == before


def test_same_command_same_games(td_bots: list[str], tmp_path: Path) -> None:
    """Determinism: two runs of one command schedule the same match ids and reach the same outcomes."""
    results = []
    for name in ("one", "two"):
        code, _, stderr = run_cli("tournament", *td_bots[:2], *TD, "--seed", "7", "--games-per-pair", "2",
                                  "--output", str(tmp_path / name))
        assert code == 0, stderr
        results.append(sorted((g["match"], g["seed"], g["ranking"]) for g in games(tmp_path / name)))
    assert results[0] == results[1] and len(results[0]) == 4 and {seed for _, seed, _ in results[0]} == {7, 8}


def test_gauntlet(td_bots: list[str], tmp_path: Path) -> None:
    out = tmp_path / "g"
    code, _, stderr = run_cli("tournament", *td_bots[:3], *TD, "--format", "gauntlet", "--baseline", td_bots[0],
                              "--output", str(out))
    assert code == 0, stderr
    lines = games(out)
    assert len(lines) == 2 * 2  # two opponents, both seatings
    assert all("Tiny0" in [seat["bot"] for seat in line["seats"]] for line in lines)


def test_crash_and_cannot_start_scoring(tmp_path: Path) -> None:
    """A crash plays as the game's rules say (Tower Defence: nothing that round; the game's ranking stands);
    a bot that cannot start (here: its bot.json names a file that is not there) loses every match."""
    bots = tmp_path / "bots"
    good = write_bot(bots / "good", "Good", TD_BOT.format(row=1))
    crasher = write_bot(bots / "crasher", "Crasher", CRASHER)
    missing = write_bot(bots / "missing", "Missing", "", botFileName="nothere.py")
    out = tmp_path / "t"
    code, stdout, stderr = run_cli("tournament", good, crasher, missing, *TD, "--output", str(out))
    assert code == 0, stderr
    assert "warning: Missing cannot start, it loses every match" in stderr and stderr.count("\n") == 1
    lines = games(out)
    assert len(lines) == 6
    rows = {row["name"]: row for row in json.loads((out / "standings.json").read_text())["rows"]}
    assert rows["Missing"] | {"wins": 0, "draws": 0, "losses": 4, "cannot_start": 4} == rows["Missing"]
    assert rows["Good"]["wins"] == 4 and rows["Crasher"]["wins"] == 2 and rows["Crasher"]["crashes"] >= 6
    assert [row["name"] for row in json.loads((out / "standings.json").read_text())["rows"]][0] == "Good"
    for line in lines:
        names = {seat["seat"]: seat["bot"] for seat in line["seats"]}
        if "Missing" in names.values():
            missing_seat = next(seat for seat, name in names.items() if name == "Missing")
            assert line["forfeit"] and "nothere.py" in line["forfeit"] and line["log"] is None
            assert line["ranking"][-1] == [missing_seat] and names[line["winner"]] != "Missing"
        else:  # Good against Crasher: the crash is the game's business, its ranking stands
            crash = next(seat for seat in line["seats"] if seat["bot"] == "Crasher")
            assert crash["crashes"] >= 3 and crash["started"]
            assert line["ranking"] == line["game_ranking"] and names[line["winner"]] == "Good"
    assert "by forfeit" in stdout


def test_kill_then_resume_plays_each_match_once(td_bots: list[str], tmp_path: Path) -> None:
    out = tmp_path / "t"
    command = [sys.executable, "-m", "runner", "tournament", *td_bots[:3], *TD, "--output", str(out), "--workers", "2"]
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if (out / "games.jsonl").is_file() and len(games(out)) >= 2:
            break
        time.sleep(0.1)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 143, stderr
    assert "--resume" in stderr
    first = games(out)
    assert 2 <= len(first) < 6
    code, stdout, stderr = run_cli("tournament", "--resume", "--output", str(out))
    assert code == 0, stderr
    assert f"{len(first)} already played, {6 - len(first)} to play" in stdout
    lines = games(out)
    assert lines[:len(first)] == first
    assert len(lines) == 6 and len({line["match"] for line in lines}) == 6
    assert not [p for p in os.listdir(out / "matches") if p.endswith(".partial")]


UNFINISHED = ("warning: 2 matches reached --match-timeout 1 s: recorded as unfinished (no winner, not rated, "
              "not played again by --resume)\n")


def test_match_timeout_records_the_match_unfinished_once(td_bots: list[str], tmp_path: Path) -> None:
    """A bot slow enough (0.3 s a turn) to make 30 rounds last 9 s, never timing out under 10 s a turn: each
    match stops at the first turn end past 1 s, is recorded unfinished with its log, and --resume keeps it."""
    slow = write_bot(tmp_path / "bots" / "slow", "Slow", SLOW_BOT)
    out = tmp_path / "t"
    code, stdout, stderr = run_cli("tournament", td_bots[1], slow, *SLOW_MATCH, "--workers", "2", "--output", str(out))
    assert code == 0 and stderr == UNFINISHED, stderr
    lines = games(out)
    assert len(lines) == 2 and stdout.count("unfinished: stopped at the match time limit of 1 s after ") == 2
    for line in lines:
        assert (line["end_reason"], line["ranking"], line["game_ranking"], line["winner"], line["draw"]) == (
            "match_timeout", [], [], None, False)
        # every turn takes 0.3 s or more, so the turn end past 1 s is the 4th at the latest
        assert 1 <= line["rounds"] <= 4 and line["wall_seconds"] >= 1
        assert line["unfinished"] == f"stopped at the match time limit of 1 s after {line['rounds']} rounds"
        assert all(seat["timeouts"] == 0 and seat["started"] and "score" in seat["numbers"] for seat in line["seats"])
        summary = json.loads((out / line["log"] / "match.json").read_text())  # the log up to the cut, kept
        assert (summary["end_reason"], summary["rounds"]) == ("interrupted", line["rounds"])
    table = json.loads((out / "standings.json").read_text())
    assert (table["matches"], table["crosstable"]) == (2, {})
    assert [(row["games"], row["wins"], row["losses"], row["unfinished"], row["mu"]) for row in table["rows"]] == [
        (0, 0, 0, 2, 25.0)] * 2
    code, printed, _ = run_cli("standings", str(out))  # the table shows the column when a match was cut
    header = next(line for line in printed.splitlines() if "timeouts" in line)
    first = next(line for line in printed.splitlines() if "Slow" in line or "Python" in line)
    assert code == 0 and header.split("┃")[-2].strip() == "unfinished" and first.split("│")[-2].strip() == "2"

    before = (out / "games.jsonl").read_bytes()
    code, stdout, stderr = run_cli("tournament", "--resume", "--output", str(out))
    assert (code, stderr) == (0, "") and "2 already played, 0 to play" in stdout
    assert (out / "games.jsonl").read_bytes() == before
    assert sorted(os.listdir(out / "matches")) == sorted(line["log"].removeprefix("matches/") for line in lines)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["tournament", "nowhere", "alsonowhere"], "bot folder nowhere does not exist"),
        (["tournament", "{0}"], "at least two bots"),
        (["tournament", "{0}", "{0}"], "given twice"),
        (["tournament", "{0}", "{3}/../tiny0"], "same content"),
        (["tournament", "{0}", "{1}", "--game", "chess"], "unknown game 'chess'"),
        (["tournament", "{0}", "{1}", "--format", "gauntlet"], "needs --baseline"),
        (["tournament", "{0}", "{1}", "--baseline", "elsewhere", "--format", "gauntlet"], "not one of the bot"),
        (["tournament", "{0}", "{1}", "--game", "warzone", "--map", "nowhere.map"], "map nowhere.map: no such file"),
        (["tournament", "{0}", "{1}", "--max-rounds", "zero"], "max-rounds"),
        (["tournament", "{0}", "{1}", "--timeout-ms", "0"], "--timeout-ms must be positive"),
        (["tournament", "{0}", "{1}", "--workers", "0"], "--workers must be at least 1"),
        (["tournament", "{0}", "{1}", "--match-timeout", "0"], "--match-timeout must be a positive number of seconds, got 0"),
        (["tournament", "{0}", "{1}", "--match-timeout", "-1.5"], "--match-timeout must be a positive number of seconds, got -1.5"),
        (["tournament", "{0}", "{1}", "--match-timeout", "nan"], "--match-timeout must be a positive number of seconds, got nan"),
        (["tournament", "{0}", "{1}", "--match-timeout", "inf"], "--match-timeout must be a positive number of seconds, got inf"),
        (["tournament", "{0}", "{1}", "--match-timeout", "soon"], "argument --match-timeout: 'soon' is not a number of seconds"),
        (["tournament", "{0}", "{1}", "--match-timeout"], "argument --match-timeout: expected one argument"),
        (["tournament", "{0}", "{1}", "--dask", ""], "--dask needs a scheduler address (tcp://HOST:8786) or 'local'"),
        (["tournament", "{0}", "{1}", "--games-per-pair", "0"], "--games-per-pair must be at least 1"),
        (["tournament", "{0}", "{1}", "--defender", "{2}"], "are for invaders"),
        (["tournament", "--resume"], "holds no tournament"),
        (["tournament"], "give the bot folders"),
        (["standings", "nowhere"], "does not exist"),
    ],
)
def test_bad_input_is_one_line(arguments: list[str], message: str, td_bots: list[str], tmp_path: Path) -> None:
    arguments = [a.format(*td_bots) for a in arguments]
    if arguments[0] == "tournament":
        arguments += ["--output", str(tmp_path / "t")]
    code, _, stderr = run_cli(*arguments)
    assert code == 2, stderr
    assert stderr.startswith("error: ") and stderr.count("\n") == 1 and message in stderr, stderr
    assert not (tmp_path / "t").exists()  # checked before the folder is claimed: the fixed command runs there


def test_dask_without_distributed_is_one_line(td_bots: list[str], tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` now raises ImportError
    for address in ("local", "tcp://127.0.0.1:8786"):
        code, stdout, stderr = run_cli("tournament", *td_bots[:2], *TD, "--dask", address,
                                       "--output", str(tmp_path / "t"))
        assert (code, stdout) == (2, "")
        assert stderr == "error: --dask needs the distributed package: pip install 'td-runner[dask]'\n"
        assert not (tmp_path / "t").exists()


def test_another_tournament_in_the_same_folder_is_refused(td_bots: list[str], tmp_path: Path) -> None:
    out = tmp_path / "t"
    assert run_cli("tournament", *td_bots[:2], *TD, "--output", str(out))[0] == 0
    code, _, stderr = run_cli("tournament", *td_bots[:2], "--max-rounds", "4", "--output", str(out))
    assert code == 2 and "holds another tournament (options differ)" in stderr


GARBLER = 'open("command.txt", "w").write("oops, debug value, 42")\n'  # refused by Tower Defence for its content


def test_refused_answers_are_faults_counted_apart(tmp_path: Path) -> None:
    """Issue 36: a tournament's faults are a league's (refused answers included), each kind counted apart:
    the standings' `invalid` column, and the pages' faults total, hold the answers the game refused."""
    from runner.league.web.tournament_data import TournamentSource

    bots = tmp_path / "bots"
    good = write_bot(bots / "good", "Good", TD_BOT.format(row=1))
    garbler = write_bot(bots / "garbler", "Garbler", GARBLER)
    out = tmp_path / "t"
    code, stdout, stderr = run_cli("tournament", good, garbler, *TD, "--output", str(out))
    assert code == 0, stderr
    recorded = {name: sum(seat["invalid"] for line in games(out) for seat in line["seats"] if seat["bot"] == name)
                for name in ("Good", "Garbler")}  # Good builds on its own cell again after round 0: refused too
    assert recorded["Garbler"] == 2 * 4  # two matches of rounds 0-3, every answer refused
    rows = {row["name"]: row for row in json.loads((out / "standings.json").read_text())["rows"]}
    assert {name: (rows[name]["invalid"], rows[name]["crashes"]) for name in rows} == {
        name: (count, 0) for name, count in recorded.items()}
    assert "invalid" in (out / "standings.csv").read_text().splitlines()[0].split(",")
    code, table, _ = run_cli("standings", str(out))
    assert code == 0 and "invalid" in table
    source = TournamentSource(out)
    faults = {row.name: row.faults for row in source.standings()}
    assert faults == recorded
