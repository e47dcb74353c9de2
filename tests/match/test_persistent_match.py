"""A Tower Defence match between persistent bots gives the same log as the same decisions made per turn.

One bot script plays in either mode: bot.json's `"persistent": true` makes it loop on stdin round numbers and
answer `C;<round>;<command>`, otherwise it writes command.txt and exits (the official way).
"""

from __future__ import annotations

import io
import json
import textwrap
from pathlib import Path

from runner.cli import main
from tests.match.test_match_cli import read_match_json, same_tree

BOT = textwrap.dedent("""
    import json, sys

    def decide():
        state = json.load(open("state.json", encoding="utf-8"))
        me = next(p for p in state["players"] if p["playerType"] == "A")
        prices = state["gameDetails"]["buildingPrices"]
        cells = [cell for row in state["gameMap"] for cell in row]
        mine = [cell for cell in cells if cell["cellOwner"] == "A"]
        free = [cell for cell in mine if not cell["buildings"]]
        energy_buildings = sum(1 for cell in mine for b in cell["buildings"] if b["buildingType"] == "ENERGY")
        print(f"energy {me['energy']}, {energy_buildings} energy buildings")  # chatty: BotOutput.txt only
        if not free:
            return ""
        if energy_buildings >= 3 and me["energy"] >= prices["ATTACK"]:
            cell = max(free, key=lambda c: (c["x"], -c["y"]))  # the front column, top first
            return f"{cell['x']},{cell['y']},1"
        if me["energy"] >= prices["ENERGY"]:
            cell = min(free, key=lambda c: (c["x"], c["y"]))  # the back column, top first
            return f"{cell['x']},{cell['y']},2"
        return ""

    open("starts.txt", "a").write("started\\n")
    if json.load(open("bot.json"))["persistent"]:
        for line in sys.stdin:
            print(f"C;{int(line)};{decide()}", flush=True)
    else:
        command = decide()
        if command:
            open("command.txt", "w").write(command)
""")


def make_bot(folder: Path, persistent: bool) -> Path:
    folder.mkdir(parents=True)
    (folder / "bot.json").write_text(json.dumps({
        "author": "t", "email": "t@example.invalid", "nickName": "Builder", "botLocation": "/",
        "botFileName": "bot.py", "botLanguage": "python3", "persistent": persistent,
    }))  # fmt: skip
    (folder / "bot.py").write_text(BOT)
    return folder


def play(tmp_path: Path, persistent: bool) -> tuple[Path, list[Path]]:
    mode = "persistent" if persistent else "per-turn"
    bots = [make_bot(tmp_path / mode / seat, persistent) for seat in ("a", "b")]
    out, err = io.StringIO(), io.StringIO()
    code = main(["match", *map(str, bots), "--output", str(tmp_path / "logs"), "--name", mode, "--seed", "5",
                 "--max-rounds", "15", "--quiet"], out=out, err=err)
    assert code == 0, err.getvalue()
    return tmp_path / "logs" / mode, bots


def test_persistent_bots_give_the_log_per_turn_bots_give(tmp_path: Path) -> None:
    persistent_log, persistent_bots = play(tmp_path, persistent=True)
    per_turn_log, per_turn_bots = play(tmp_path, persistent=False)

    summary = read_match_json(persistent_log)
    rounds = summary["rounds"]
    assert summary["end_reason"] == "max_rounds" and rounds == 16  # bots answer in 0..15; Round 016 is the end
    for player in summary["players"]:
        assert (player["timeouts"], player["crashes"], player["invalid_commands"], player["events"]) == (0, 0, 0, [])
    # the modes really differ: one process for the match against one per round
    assert [(bot / "starts.txt").read_text().count("started") for bot in persistent_bots] == [1, 1]
    assert [(bot / "starts.txt").read_text().count("started") for bot in per_turn_bots] == [rounds, rounds]
    commands = [(persistent_log / f"Round {n:03d}" / "A - Builder" / "PlayerCommand.txt").read_text()
                for n in range(rounds)]
    assert commands[0] == "0,0,2" and any(command.endswith(",1") for command in commands)  # builds, then attacks
    output = (persistent_log / "Round 003" / "B - Builder" / "Console" / "BotOutput.txt").read_text()
    assert output.startswith("energy ")  # chatty stdout lines are the bot's output, not its answer

    verify_out = io.StringIO()
    assert main(["verify", str(persistent_log)], out=verify_out, err=io.StringIO()) == 0, verify_out.getvalue()
    assert "identical" in verify_out.getvalue()
    assert same_tree(persistent_log, per_turn_log, skip={"BotOutput.txt", "match.json", "record.jsonl"}) == []
