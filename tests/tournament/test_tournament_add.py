"""`td-runner tournament DIR --add BOT_DIR` and `--replace OLD=NEW`: only the new bots' matches are played,
and the standings are those of the same tournament played from scratch."""

from __future__ import annotations

import json
from pathlib import Path

from tournament_helpers import copy_starter, games, run_cli, write_sh_bot

#: Two seeds per pair: the larger field's schedule then interleaves the new matches with the old ones of
#: the second round, and only standings replayed in the new order equal those played from scratch.
TD = ("--max-rounds", "3", "--games-per-pair", "2", "--workers", "2")


def standings(folder: Path) -> dict:
    return json.loads((folder / "standings.json").read_text())


def from_scratch(bots: list[str], folder: Path) -> dict:
    code, _, stderr = run_cli("tournament", *bots, *TD, "--output", str(folder), "--quiet")
    assert code == 0, stderr
    return standings(folder)


def sh_bots(root: Path) -> list[str]:
    """Energy (strong), attack, defence (weak), and nothing: four levels of Tower Defence play."""
    return [write_sh_bot(root / name.lower(), name, command) for name, command in
            (("Energy", "0,1,2"), ("Attack", "0,1,0"), ("Defence", "0,1,1"), ("Idle", ""))]


def test_add_then_replace_play_only_the_new_pairs(tmp_path: Path) -> None:
    bots = sh_bots(tmp_path / "bots")
    fifth = write_sh_bot(tmp_path / "late" / "late", "Late", "0,3,0")
    out = tmp_path / "t"
    code, _, stderr = run_cli("tournament", *bots, *TD, "--output", str(out), "--quiet")
    assert code == 0, stderr
    first = {line["match"] for line in games(out)}
    assert len(first) == 24

    code, stdout, stderr = run_cli("tournament", str(out), "--add", fifth, "--quiet")
    assert code == 0, stderr
    assert "40 matches, 24 already played, 16 to play" in stdout  # 4 new pairs, 2 seeds, both seatings
    added = [line for line in games(out) if line["match"] not in first]
    assert len(added) == 16 and all("Late" in {s["bot"] for s in line["seats"]} for line in added)
    assert {line["match"] for line in games(out)} >= first  # nothing played twice, old ids kept
    assert standings(out) == from_scratch([*bots, fifth], tmp_path / "scratch-add")
    code, printed, _ = run_cli("standings", str(out), "--json")
    assert code == 0 and json.loads(printed) == standings(out)

    # --resume after --add: the stored settings now hold the fifth bot; nothing left to play
    code, stdout, _ = run_cli("tournament", "--resume", "--output", str(out), "--quiet")
    assert code == 0 and "40 already played, 0 to play" in stdout

    fixed = write_sh_bot(tmp_path / "v2" / "attack", "Attack", "0,2,2")  # a resubmission: energy now
    before = {line["match"] for line in games(out)}
    code, stdout, stderr = run_cli("tournament", str(out), "--replace", f"{bots[1]}={fixed}", "--quiet")
    assert code == 0, stderr
    assert "40 matches, 24 already played, 16 to play" in stdout
    replaced = [line for line in games(out) if line["match"] not in before]
    new_hash = replaced[0]["seats"][0]["hash"] if replaced[0]["seats"][0]["bot"] == "Attack" else \
        replaced[0]["seats"][1]["hash"]
    assert len(replaced) == 16 and all(new_hash in {s["hash"] for s in line["seats"]} for line in replaced)
    # the old version's matches stay in games.jsonl and matches/, marked superseded, out of the standings
    settings = json.loads((out / "tournament.json").read_text())
    old_hash = next(s["hash"] for line in games(out) for s in line["seats"] if s["bot"] == "Attack"
                    and s["hash"] != new_hash)
    assert settings["superseded"] == [{"hash": old_hash, "name": "Attack"}]
    assert settings["bots"] == [bots[0], fixed, *bots[2:], fifth]
    old_logs = [line["log"] for line in games(out) if old_hash in {s["hash"] for s in line["seats"]}]
    assert len(old_logs) == 16 and all((out / log / "match.json").is_file() for log in old_logs)
    table = standings(out)
    assert table["matches"] == 40 and all(row["hash"] != old_hash for row in table["rows"])
    assert table == from_scratch([bots[0], fixed, *bots[2:], fifth], tmp_path / "scratch-replace")


def test_changes_refused_with_one_line(tmp_path: Path) -> None:
    td_bots = sh_bots(tmp_path / "bots")
    out = tmp_path / "t"
    assert run_cli("tournament", *td_bots[:2], *TD, "--output", str(out), "--quiet")[0] == 0
    before = (out / "games.jsonl").read_bytes()
    cases = [
        (("--add", td_bots[0]), "already a bot of this tournament"),
        (("--replace", f"{td_bots[3]}={td_bots[2]}"), "is not a bot of this tournament"),
        (("--replace", f"{td_bots[0]}={td_bots[1]}"), "is already a bot of this tournament"),
        (("--replace", td_bots[0]), "expected OLD=NEW"),
        (("--add", str(tmp_path / "nowhere")), "does not exist"),
        (("--add", td_bots[2], "--max-rounds", "9", "--seed", "3"), "keep the tournament's settings; drop --seed, "
         "--max-rounds"),
    ]
    for arguments, message in cases:
        code, _, stderr = run_cli("tournament", str(out), *arguments)
        assert code == 2 and message in stderr and len(stderr.strip().splitlines()) == 1, stderr
    code, _, stderr = run_cli("tournament", str(tmp_path / "none"), "--add", td_bots[2])
    assert code == 2 and "holds no tournament" in stderr
    assert (out / "games.jsonl").read_bytes() == before
    assert json.loads((out / "tournament.json").read_text())["bots"] == td_bots[:2]


def test_warzone_tables_refuse_add(tmp_path: Path) -> None:
    """A Warzone round's tables are drawn from the whole field: --add would change every table."""
    bots = [copy_starter("starter-bots/warzone/python3", tmp_path / f"w{n}", f"War{n}", f"author{n}") for n in range(4)]
    out = tmp_path / "t"
    code, _, stderr = run_cli("tournament", "--game", "warzone", *bots[:3], "--max-turns", "2", "--output", str(out),
                              "--quiet")
    assert code == 0, stderr
    before = (out / "games.jsonl").read_bytes()
    code, _, stderr = run_cli("tournament", str(out), "--add", bots[3])
    assert code == 2 and "tables are drawn from the whole field" in stderr
    assert (out / "games.jsonl").read_bytes() == before
