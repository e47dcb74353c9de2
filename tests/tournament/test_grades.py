"""`td-runner grades DIR`: a grade sheet whose columns are the games' own numbers and whose rank ranges
tie the bots the games cannot tell apart."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from runner.tournament.rankstats import bradley_terry, rank_ranges, score_rank_ranges, tied_ranks, wilson

from tournament_helpers import copy_starter, games, run_cli, write_sh_bot

TD = ("--max-rounds", "5", "--games-per-pair", "2", "--workers", "2", "--quiet")


@pytest.fixture(scope="module")
def class_tournament(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """Strong (energy: beats everything), two copies of one attacking bot under other names, and a bot
    that crashes every turn (it loses every match)."""
    root = tmp_path_factory.mktemp("class")
    bots = {"Strong": write_sh_bot(root / "alice", "Strong", "0,1,2", author="Alice"),
            "CopyA": write_sh_bot(root / "bob", "CopyA", "0,1,0", author="Bob"),
            "CopyB": write_sh_bot(root / "carol", "CopyB", "0,1,0", author="Carol"),
            "Loser": write_sh_bot(root / "dave", "Loser", "", author="Dave")}
    (Path(bots["Loser"]) / "bot.sh").write_text("echo broken >&2\nexit 3\n")
    out = root / "t"
    code, _, stderr = run_cli("tournament", *bots.values(), *TD, "--output", str(out))
    assert code == 0, stderr
    return out, bots


def sheet(folder: Path, *extra: str) -> list[dict[str, str]]:
    code, printed, stderr = run_cli("grades", str(folder), "--csv", "-", *extra)
    assert code == 0, stderr
    return list(csv.DictReader(io.StringIO(printed)))


def test_ranks_tie_the_copies_and_columns_match_the_games(class_tournament) -> None:
    out, bots = class_tournament
    rows = sheet(out)
    by_name = {row["name"]: row for row in rows}
    assert [row["name"] for row in rows][0] == "Strong" and rows[-1]["name"] == "Loser"
    assert by_name["Strong"]["rank"] == "1"
    assert by_name["CopyA"]["rank"] == by_name["CopyB"]["rank"] == "2-3"
    assert by_name["Loser"]["rank"] == "4"
    ordinals = [float(row["ordinal"]) for row in rows]
    assert ordinals == sorted(ordinals, reverse=True)

    lines = games(out)
    for name, folder in bots.items():
        row = by_name[name]
        data = json.loads((Path(folder) / "bot.json").read_text())
        assert (row["folder"], row["author"], row["email"], row["nickname"], row["language"]) == \
            (Path(folder).name, data["author"], data["email"], data["nickName"], "custom")
        mine = [(line, seat) for line in lines for seat in line["seats"] if seat["bot"] == name]
        wins = sum(line["winner"] == seat["seat"] for line, seat in mine)
        draws = sum(line["winner"] is None for line, _ in mine)
        assert (int(row["games"]), int(row["wins"]), int(row["draws"]), int(row["losses"])) == \
            (len(mine), wins, draws, len(mine) - wins - draws)
        assert float(row["points"]) == wins + draws / 2
        for column, key in (("crashes", "crashes"), ("timeouts", "timeouts"), ("invalid", "invalid"),
                            ("failed_to_start", "failed_to_start")):
            assert int(row[column]) == sum(seat[key] for _, seat in mine), column
        margins = [seat["numbers"]["score"] - other["numbers"]["score"] for line, seat in mine
                   for other in line["seats"] if other is not seat]
        assert float(row["margin"]) == pytest.approx(sum(margins) / len(margins), abs=1e-4)
    assert int(by_name["Loser"]["crashes"]) > 0 and int(by_name["Strong"]["crashes"]) == 0
    assert all(int(row["rank_worst"]) < 4 for row in rows[:-1])  # the loser's place is its alone
    assert int(by_name["Strong"]["invalid"]) > 0  # it asks for the same cell every round

    # deterministic: the same sheet every run; the JSON says what the table is sorted by
    assert sheet(out) == rows
    code, printed, _ = run_cli("grades", str(out), "--json")
    data = json.loads(printed)
    assert code == 0 and data["sorted_by"].startswith("ordinal") and data["matches"] == len(lines)
    assert [row["rank"] for row in data["rows"]] == [row["rank"] for row in rows]
    code, printed, _ = run_cli("grades", str(out))
    assert code == 0 and "2-3" in printed and "ordinal" in printed


def test_against_a_reference_bot(class_tournament) -> None:
    out, bots = class_tournament
    rows = sheet(out, "--against", bots["CopyA"])
    lines = games(out)
    for row in rows:
        if row["name"] == "CopyA":
            assert "vs CopyA rate" not in row or row["vs CopyA rate"] == ""
            continue
        met = [line for line in lines if {s["bot"] for s in line["seats"]} == {row["name"], "CopyA"}]
        score = sum(1 if line["winner"] and line["seats"][["A", "B"].index(line["winner"])]["bot"] == row["name"]
                    else 0.5 if line["winner"] is None else 0 for line in met)
        assert int(row["vs CopyA games"]) == len(met) == 4
        assert float(row["vs CopyA rate"]) == pytest.approx(score / len(met), abs=1e-4)
        low, high = wilson(score, len(met))
        assert (float(row["vs CopyA low"]), float(row["vs CopyA high"])) == pytest.approx((low, high), abs=1e-4)
    assert {row["name"]: row["vs CopyA rate"] for row in rows} == {"Strong": "1.0", "CopyA": "", "CopyB": "0.5",
                                                                   "Loser": "0.0"}
    # two references, one of them the top row (its own columns empty)
    rows = sheet(out, "--against", bots["Strong"], bots["Loser"])
    assert [(row["name"], row["vs Strong rate"], row["vs Loser rate"]) for row in rows] == \
        [("Strong", "", "1.0"), ("CopyA", "0.0", "1.0"), ("CopyB", "0.0", "1.0"), ("Loser", "0.0", "")]
    code, printed, _ = run_cli("grades", str(out), "--against", bots["Strong"])
    assert code == 0 and "vs Strong" in printed and "0.00 [0.00, 0.49] n=4" in printed


def test_a_folder_from_before_schedule_json(class_tournament, tmp_path: Path) -> None:
    """No schedule.json (an older td-runner): every record counts, folders unknown, references by name."""
    out, _ = class_tournament
    old = tmp_path / "old"
    shutil.copytree(out, old)
    (old / "schedule.json").unlink()
    rows = sheet(old, "--against", "Loser")
    assert [(row["name"], row["folder"], row["author"]) for row in rows][:2] == [("Strong", "", "Alice"),
                                                                                ("CopyA", "", "Bob")]
    assert [row["rank"] for row in rows] == [row["rank"] for row in sheet(out)]
    assert [row["vs Loser rate"] for row in rows] == ["1.0", "1.0", "1.0", ""]


def test_the_sheet_as_a_file_and_bad_input(class_tournament, tmp_path: Path) -> None:
    out, bots = class_tournament
    target = tmp_path / "grades.csv"
    code, printed, _ = run_cli("grades", str(out), "--csv", str(target))
    assert code == 0 and "wrote 4 grades" in printed and target.read_text().startswith("rank,rank_best")
    for arguments, message in [((str(tmp_path / "none"),), "does not exist"),
                               ((str(tmp_path),), "is neither a tournament folder (tournament.json) nor a league folder"),
                               ((str(out), "--against", str(tmp_path / "zoe")), "not a bot of the tournament"),
                               ((str(out), "--confidence", "1.5"), "--confidence must be between 0 and 1"),
                               ((str(out), "--all-versions"), "--all-versions is for a league")]:
        code, _, stderr = run_cli("grades", *arguments)
        assert code == 2 and message in stderr and len(stderr.strip().splitlines()) == 1, stderr


def test_rank_statistics() -> None:
    # the Wilson interval of 8 successes in 10 at 95 %: (0.490, 0.943)
    assert wilson(8, 10) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    # a beats b and c alike, b and c draw: a strongest, b and c equal, whatever the order of the pairs
    outcomes = {("b", "c"): [0.5, 0.5], ("a", "c"): [1, 0, 1], ("a", "b"): [1, 0, 1]}
    strength = bradley_terry(["a", "b", "c"], outcomes)
    assert strength["a"] > strength["b"] and strength["b"] == pytest.approx(strength["c"])
    assert bradley_terry(["c", "b", "a"], dict(reversed(outcomes.items()))) == pytest.approx(strength)
    assert tied_ranks({"a": 2.0, "b": 1.0, "c": 1.0}) == {"a": (1, 1), "b": (2, 3), "c": (2, 3)}
    # one game says little: every place is possible; forty say a lot
    assert rank_ranges(["a", "b"], {("a", "b"): [1.0, 0.0]}, resamples=200) == {"a": (1, 2), "b": (1, 2)}
    assert rank_ranges(["a", "b"], {("a", "b"): [1.0] * 40}, resamples=200) == {"a": (1, 1), "b": (2, 2)}


def test_tournament_page_shows_the_sort_key_and_tied_ranks(class_tournament, tmp_path: Path) -> None:
    out, _ = class_tournament
    code, _, stderr = run_cli("standings", str(out), "--html", str(tmp_path / "site"))
    assert code == 0, stderr
    page = (tmp_path / "site" / "index.html").read_text()
    head = page[page.index("<thead>"):page.index("</thead>")]
    assert "<th class=n>ordinal</th>" in head and "version" not in head and "status" not in head
    ranks = {row["name"]: row["rank"] for row in sheet(out)}
    for name, rank in ranks.items():  # the page's rank is the sheet's: the copies share 2-3
        assert f'<td class=n>{rank}</td><td><a href="players/{name}.html">{name}</a>' in page, name
    assert page.count("<td class=n>2-3</td>") == 2


def null_invaders_bot(folder: Path, nick: str, author: str) -> str:
    """An Invaders bot in sh that answers null every turn: a defender that builds nothing, an invader
    that never spawns."""
    folder.mkdir()
    (folder / "bot.json").write_text(json.dumps({"author": author, "email": "n@example.invalid", "nickName": nick,
                                                 "botLocation": "/", "botFileName": "bot.sh", "botLanguage": "custom",
                                                 "command": ["sh", "bot.sh"], "persistent": True}))
    (folder / "bot.sh").write_text("while read line; do echo null; done\n")
    return str(folder)


def test_invaders_graded_within_each_role(tmp_path: Path) -> None:
    """Invaders: one sheet with a role column, each role ranked apart by the spec's score (defenders by
    turns lasted, invaders by turns against them); --against a reference gives the other role's turns."""
    defenders = [copy_starter("starter-bots/invaders/python3", tmp_path / "sd", "StarterD", "Sam"),
                 null_invaders_bot(tmp_path / "nd", "NullD", "Nina")]
    invaders = [copy_starter("starter-bots/invaders/python3", tmp_path / "si", "StarterI", "Sid"),
                null_invaders_bot(tmp_path / "ni", "NullI", "Ned")]
    out = tmp_path / "t"
    code, _, stderr = run_cli("tournament", "--game", "invaders", *(a for d in defenders for a in ("--defender", d)),
                              *(a for i in invaders for a in ("--invader", i)), "--max-turns", "2500",
                              "--workers", "2", "--output", str(out), "--quiet")
    assert code == 0, stderr
    rows = sheet(out, "--against", invaders[0])
    lines = games(out)
    assert len(lines) == 4
    # the null defender loses to the starter invader before the cap; every other match reaches it
    assert [(row["role"], row["name"]) for row in rows] == [("defender", "StarterD"), ("defender", "NullD"),
                                                            ("invader", "StarterI"), ("invader", "NullI")]
    for row in rows:
        turns = [line["details"]["score"] for line in lines
                 if any(seat["bot"] == row["name"] and seat["seat"] == row["role"] for seat in line["seats"])]
        assert float(row["mean_turns"]) == pytest.approx(sum(turns) / len(turns), abs=1e-4)
        assert int(row["games"]) == len(turns) == 2 and int(row["disqualified"]) == 0
        assert 1 <= int(row["rank_best"]) <= int(row["rank_worst"]) <= 2  # ranked within its role
        if row["role"] == "defender":  # against the reference invader
            met = [line["details"]["score"] for line in lines
                   if [seat["bot"] for seat in line["seats"]] == [row["name"], "StarterI"]]
            assert int(row["vs StarterI games"]) == 1
            assert float(row["vs StarterI turns"]) == pytest.approx(sum(met) / len(met))
            assert (float(row["vs StarterI low"]), float(row["vs StarterI high"])) == (min(met), max(met))
        else:  # the reference's own row, and an invader that never meets it
            assert row["vs StarterI turns"] == "" and row["vs StarterI games"] in ("", "0")
    by_name = {row["name"]: row for row in rows}
    assert float(by_name["StarterD"]["mean_turns"]) > float(by_name["NullD"]["mean_turns"])
    assert float(by_name["StarterI"]["mean_turns"]) < float(by_name["NullI"]["mean_turns"])
    assert "margin" not in rows[0]  # both seats score the same turns: no margin
    code, printed, _ = run_cli("grades", str(out))
    assert code == 0 and "mean turns lasted" in printed
    # the tournament's pages: each role's table ranked as the sheet ranks it, the order said
    code, _, stderr = run_cli("standings", str(out), "--html", str(tmp_path / "site"))
    assert code == 0, stderr
    page = (tmp_path / "site" / "index.html").read_text()
    assert "defenders by mean turns lasted" in page
    for role in ("defender", "invader"):
        table = page.split(f"<h2>{role}</h2>")[1].split("</table>")[0]
        for row in rows:
            if row["role"] == role:
                assert f'<td class=n>{row["rank"]}</td><td><a href="players/{row["name"]}.html">{row["name"]}</a>' \
                    f'</td><td class=n>{float(row["mean_turns"]):.2f}</td>' in table  # the sort key shown


def test_score_rank_ranges() -> None:
    """Sided games' ranks: a bootstrap of the opponents, the same draw for every bot."""
    opponents = [f"o{n}" for n in range(8)]
    scores = {"same1": {o: 100.0 + n for n, o in enumerate(opponents)},
              "same2": {o: 100.0 + n for n, o in enumerate(opponents)},
              "weak": {o: 50.0 for o in opponents}}
    assert score_rank_ranges(scores, higher_is_better=True, resamples=200) == \
        {"same1": (1, 2), "same2": (1, 2), "weak": (3, 3)}
    assert score_rank_ranges(scores, higher_is_better=False, resamples=200)["weak"] == (1, 1)
    # better against one opponent only, level with the rest: the draw may leave that opponent out
    close = {"a": {o: 10.0 for o in opponents}, "b": {**{o: 10.0 for o in opponents}, "o0": 20.0}}
    assert score_rank_ranges(close, higher_is_better=True, resamples=400) == {"a": (1, 2), "b": (1, 2)}
    # y met only the easy opponent (a little worse than x there): the spec's mean over the opponents met
    # puts it first whenever the draw holds the hard one, so its range spans every place
    partial = {"x": {"hard": 0.0, "easy": 10.0}, "z": {"hard": 2.0, "easy": 12.0}, "y": {"easy": 9.0}}
    assert score_rank_ranges(partial, higher_is_better=True, resamples=200) == {"z": (1, 2), "x": (2, 3), "y": (1, 3)}
