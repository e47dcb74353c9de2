"""Tournaments of the other games: Warzone tables, Invaders sides, Lanes pairs."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from tournament_helpers import REPO, copy_starter, games, run_cli


def test_warzone_four_bots_three_seat_tables(tmp_path: Path) -> None:
    bots = [copy_starter("starter-bots/warzone/python3", tmp_path / f"w{n}", f"War{n}", f"author{n}") for n in range(4)]
    out = tmp_path / "t"
    code, stdout, stderr = run_cli("tournament", *bots, "--game", "warzone", "--table-size", "3",
                                   "--map", str(REPO / "runner/games/warzone/maps/tiny-ring.map"), "--max-turns", "3",
                                   "--output", str(out), "--workers", "2")
    assert code == 0, stderr
    lines = games(out)
    assert len(lines) == 4 and all(len(line["seats"]) == 3 for line in lines)
    played = Counter(seat["bot"] for line in lines for seat in line["seats"])
    assert set(played.values()) == {3}  # every bot the same number of games
    seats = Counter((seat["bot"], seat["seat"]) for line in lines for seat in line["seats"])
    assert set(seats.values()) == {1}  # and once in each seat
    table = json.loads((out / "standings.json").read_text())
    assert sum(row["games"] for row in table["rows"]) == 12
    assert all(" > " in line or "(draw)" in line for line in stdout.splitlines() if line.startswith("["))


def test_invaders_two_defenders_against_two_invaders(tmp_path: Path) -> None:
    starter = "starter-bots/invaders/python3"
    defenders = [copy_starter(starter, tmp_path / f"d{n}", f"Defender{n}", f"d-author{n}") for n in range(2)]
    invaders = [copy_starter(starter, tmp_path / f"i{n}", f"Invader{n}", f"i-author{n}") for n in range(2)]
    out = tmp_path / "t"
    arguments = [a for d in defenders for a in ("--defender", d)] + [a for i in invaders for a in ("--invader", i)]
    code, _, stderr = run_cli("tournament", "--game", "invaders", *arguments, "--max-turns", "200",
                              "--output", str(out), "--workers", "2")
    assert code == 0, stderr
    lines = games(out)
    assert len(lines) == 4
    pairs = {(line["seats"][0]["bot"], line["seats"][1]["bot"]) for line in lines}
    assert pairs == {(f"Defender{d}", f"Invader{i}") for d in range(2) for i in range(2)}
    assert all(line["seats"][0]["seat"] == "defender" and isinstance(line["details"]["score"], int) for line in lines)
    rows = json.loads((out / "standings.json").read_text())["rows"]
    assert [row["role"] for row in rows] == ["defender", "defender", "invader", "invader"]
    for row in rows:
        turns = [line["details"]["score"] for line in lines
                 if any(seat["bot"] == row["name"] for seat in line["seats"])]
        assert row["mean_turns"] == round(sum(turns) / len(turns), 2)


def test_invaders_skips_pairs_of_one_author(tmp_path: Path) -> None:
    starter = "starter-bots/invaders/python3"
    bots = [copy_starter(starter, tmp_path / f"b{n}", f"Bot{n}", "same author") for n in range(2)]
    code, _, stderr = run_cli("tournament", "--game", "invaders", *bots, "--output", str(tmp_path / "t"))
    assert code == 2 and "same bot.json author" in stderr


def test_lanes_pair(tmp_path: Path) -> None:
    bots = [copy_starter("starter-bots/lanes/python3", tmp_path / "a", "LanesA", "a"),
            str(REPO / "starter-bots/lanes/reference")]
    out = tmp_path / "t"
    code, _, stderr = run_cli("tournament", *bots, "--game", "lanes", "--max-turns", "2", "--output", str(out))
    assert code == 0, stderr
    lines = games(out)
    assert len(lines) == 2 and [s["seat"] for s in lines[0]["seats"]] == ["P1", "P2"]
    assert json.loads((out / lines[0]["log"] / "match.json").read_text())["options"]["max_turns"] == 2
