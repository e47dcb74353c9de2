"""Faulty bots as real processes through `td-runner match --game invaders` (runner.cli.main, in-process).

Each bad behaviour (crash, endless loop, garbage line, slow on average) disqualifies the bot with its reason
in match.json; `--faults ignore` plays on to the turn cap; no bot process is left behind either way. The
faulty bot invades against the Python starter bot; the bots are written to tmp_path so that the leftover
check only looks at this test's own processes (other tests may run bots at the same time).
"""

from __future__ import annotations

import io
import json
import sys
import time
from pathlib import Path

import pytest

from runner.bots.isolation import MARKER_ENV, find_marked
from runner.cli import main

STARTER = Path(__file__).parents[3] / "starter-bots" / "invaders" / "python3"

# Every faulty bot answers properly until turn 3 (spawning when it can), then misbehaves.
PREAMBLE = """\
import json, sys, time
for line in sys.stdin:
    turn = json.loads(line)["turn"]
"""
MISBEHAVIOURS = {
    "crash": "    if turn == 3:\n        raise SystemExit(3)\n",
    "loop": "    while turn >= 3:\n        pass\n",
    "garbage": "    if turn >= 3:\n        print('spawn please', flush=True)\n        continue\n",
    "slow": "    time.sleep(0.02)\n",
}
ANSWER = "    print(json.dumps({} if turn % 10 == 0 else None), flush=True)\n"


def make_bot(folder: Path, behaviour: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "bot.py").write_text(PREAMBLE + MISBEHAVIOURS[behaviour] + ANSWER)
    bot = {"author": f"faulty-{behaviour}", "email": "faulty@td-runner.invalid", "nickName": behaviour.title(), "botLocation": "/",
           "botFileName": "bot.py", "botLanguage": "python3", "persistent": True}
    (folder / "bot.json").write_text(json.dumps(bot))
    return folder


def leftovers(tmp_path: Path) -> list[int]:
    """Marked processes (bots started by a runner) whose command line names a file under tmp_path."""
    found = []
    for pid in find_marked(f"{MARKER_ENV}=".encode()):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if str(tmp_path).encode() in command:
            found.append(pid)
    return found


def play(tmp_path: Path, behaviour: str, *options: str) -> dict:
    """Play starter (defender) vs the faulty bot (invader); match.json, once no bot process is left."""
    bot = make_bot(tmp_path / behaviour, behaviour)
    out, err = io.StringIO(), io.StringIO()
    code = main(["match", "--game", "invaders", "--quiet", "--output", str(tmp_path), "--name", "m",
                 *options, str(STARTER), str(bot)], out=out, err=err)
    assert code == 0, err.getvalue()
    deadline = time.monotonic() + 5
    while leftovers(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert leftovers(tmp_path) == [], f"{behaviour}: bot processes left behind"
    return json.loads((tmp_path / "m" / "match.json").read_text())


def last_record(tmp_path: Path) -> dict:
    return json.loads((tmp_path / "m" / "log.jsonl").read_text().splitlines()[-1])


@pytest.mark.parametrize(
    ("behaviour", "options", "turn", "reason"),
    [
        ("crash", (), 3, "crash"),
        ("loop", ("--timeout-ms", "300"), 3, "timeout"),
        ("garbage", (), 3, "answer is not JSON"),
        ("slow", (), 101, "over_budget"),  # turns 2-101 are the first block (the first answer is not counted)
    ],
)
def test_a_faulty_invader_is_disqualified_with_its_reason(
    tmp_path: Path, behaviour: str, options: tuple[str, ...], turn: int, reason: str
) -> None:
    summary = play(tmp_path, behaviour, "--max-turns", "150", *options)
    assert summary["end_reason"] == "disqualified" and summary["disqualified"] == "invader"
    assert reason in summary["faults"]["invader"]
    assert summary["winner"] == "defender" and summary["score"] == 150  # spec 18: the DQ'd invader gives the cap
    record = last_record(tmp_path)
    assert record["t"] == turn == summary["rounds"] and record["dq"] == ["invader"]
    assert record["ir"] == record["dr"] == "disqualified"  # neither answer of that turn is applied
    invader = next(p for p in summary["players"] if p["seat"] == "invader")
    if behaviour == "slow":
        assert invader["answer_ms"]["mean"] > 15
        assert any("over the budget" in str(event) for event in invader["events"])
    if behaviour == "crash":
        assert any("exit code 3" in event["event"] for event in invader["events"])
    if behaviour == "garbage":
        assert "spawn please" in summary["faults"]["invader"]  # the offending text is quoted


def test_a_disqualified_defender_scores_zero(tmp_path: Path) -> None:
    bot = make_bot(tmp_path / "crash", "crash")
    code = main(["match", "--game", "invaders", "--quiet", "--output", str(tmp_path), "--name", "m",
                 str(bot), str(STARTER)], out=io.StringIO(), err=io.StringIO())
    assert code == 0
    summary = json.loads((tmp_path / "m" / "match.json").read_text())
    assert summary["disqualified"] == "defender" and summary["score"] == 0 and summary["winner"] == "invader"
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("behaviour", ["crash", "loop", "garbage"])
def test_faults_ignore_plays_on_to_the_cap(tmp_path: Path, behaviour: str) -> None:
    options = ("--timeout-ms", "200") if behaviour == "loop" else ()
    summary = play(tmp_path, behaviour, "--faults", "ignore", "--max-turns", "6", *options)
    assert summary["end_reason"] == "max_turns" and summary["rounds"] == 6 and "disqualified" not in summary
    lines = [json.loads(line) for line in (tmp_path / "m" / "log.jsonl").read_text().splitlines()]
    assert [row["t"] for row in lines] == [1, 2, 3, 4, 5, 6]
    assert all("faults" not in row for row in lines[:2])
    for row in lines[2:]:  # from turn 3 on: a fault each turn, played as no action
        assert "invader" in row["faults"] and row["ia"] is None and row["ir"] == "none"


def test_a_bot_that_cannot_start_is_one_clear_line(tmp_path: Path) -> None:
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "bot.json").write_text(json.dumps({"author": "x", "email": "x@td-runner.invalid", "nickName": "x", "botLocation": "/", "botFileName": "bot.js", "botLanguage": "koth-js"}))
    err = io.StringIO()
    code = main(["match", "--game", "invaders", "--output", str(tmp_path), str(STARTER), str(folder)],
                out=io.StringIO(), err=err)
    lines = err.getvalue().strip().splitlines()
    assert code == 2 and len(lines) == 1 and "entry" in lines[0] and "bot.json" in lines[0], lines


if sys.platform != "linux":  # find_marked reads /proc
    pytestmark = pytest.mark.skip(reason="the leftover-process check needs Linux /proc")
