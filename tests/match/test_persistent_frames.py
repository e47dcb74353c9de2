"""Persistent Lanes and Warzone bots (the core's frames, runner/bots/framing.py) fault and log as per-turn bots do.

One bot script plays either way: per turn it reads state.json from its folder and writes the answer file;
persistent (bot.json `"persistent": true`) it reads request frames on stdin and answers with frames. The
faulty bot answers garbage at its 2nd call, times out at its 3rd (its answer comes late: dropped), writes
no answer at its 4th and crashes at its 5th; the quiet bot answers an empty order list every turn. Both
matches go through the real `td-runner match` with real processes; their counts, fault events and logs are
compared, and `verify` replays both.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from runner.cli import main
from runner.games import get_game

TIMEOUT_MS = 2000  # a Python start-up per turn on a loaded 2-core machine can take most of a second
GARBAGE = "oops, debug value, 42\n"
PLAN = {2: "garbage", 3: "timeout", 4: "nothing", 5: "crash"}
TURNS = 6
REPO = Path(__file__).resolve().parents[2]

BOT = """\
import json, sys, time
from pathlib import Path
GAME, ANSWER, PERSISTENT, PLAN, GARBAGE, SLEEP = {game!r}, {answer!r}, {persistent!r}, {plan!r}, {garbage!r}, {sleep!r}

def act(call, state):
    action = PLAN.get(call)
    if action == "crash":
        print("about to crash", file=sys.stderr, flush=True)
        sys.exit(3)
    if action == "timeout":
        time.sleep(SLEEP)
    if action == "garbage":
        return GARBAGE
    if action == "nothing":
        return None
    return f"TURN {{state['turn']}}\\nEND\\n" if GAME == "lanes" else ""

if PERSISTENT:
    call, stdin, stdout = 0, sys.stdin.buffer, sys.stdout.buffer
    while header := stdin.readline():
        call += 1
        _, turn, count = header.split()
        files = {{}}
        for _ in range(int(count)):
            name, size = stdin.readline().split()
            files[name.decode()] = stdin.read(int(size)).decode()
        print(f"call {{call}}", flush=True)  # a stdout line that is no frame: the turn's output
        text = act(call, json.loads(files["state.json"]))
        if text is None:
            stdout.write(b"answer %s none\\n" % turn)
        else:
            data = text.encode()
            stdout.write(b"answer %s %d\\n" % (turn, len(data)) + data)
        stdout.flush()
else:
    counter = Path("calls.txt")
    call = int(counter.read_text()) + 1 if counter.exists() else 1
    counter.write_text(str(call))
    print(f"call {{call}}", flush=True)
    text = act(call, json.loads(Path("state.json").read_text()))
    if text is not None:
        Path(ANSWER).write_text(text)
"""


def make_bot(folder: Path, game: str, persistent: bool, plan: dict[int, str]) -> Path:
    folder.mkdir(parents=True)
    script = BOT.format(game=game, answer=get_game(game).answer_file.name, persistent=persistent, plan=plan,
                        garbage=GARBAGE, sleep=TIMEOUT_MS * 1.5 / 1000)
    (folder / "bot.py").write_text(script)
    (folder / "bot.json").write_text(json.dumps({
        "author": folder.name, "email": "t@example.invalid", "nickName": "Faulty" if plan else "Quiet",
        "botLocation": "/", "botFileName": "bot.py", "botLanguage": "python3", "persistent": persistent}))
    return folder


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(arg) for arg in argv], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def play(tmp_path: Path, game: str, persistent: bool) -> Path:
    mode = "persistent" if persistent else "per-turn"
    faulty = make_bot(tmp_path / mode / "faulty", game, persistent, PLAN)
    quiet = make_bot(tmp_path / mode / "quiet", game, persistent, {})
    extra = ["--map", REPO / "runner/games/warzone/maps/tiny-ring.map"] if game == "warzone" else []
    code, _, err = run("match", "--game", game, faulty, quiet, "--max-turns", TURNS, *extra, "--timeout-ms",
                       TIMEOUT_MS, "--output", tmp_path / "logs", "--name", mode, "--quiet", "--seed", "4")
    assert code == 0, err
    return tmp_path / "logs" / mode


def without_seconds(data: Any) -> Any:
    """JSON data without its `seconds` (Warzone shows each bot's answer time: no two runs agree on it)."""
    if isinstance(data, dict):
        return {key: without_seconds(value) for key, value in data.items() if key != "seconds"}
    if isinstance(data, list):
        return [without_seconds(value) for value in data]
    return data


def turn_files(log: Path, last_turn: int) -> dict[str, Any]:
    """Every file of the log's turns up to `last_turn` (bots' output left out), JSON compared as data."""
    files: dict[str, Any] = {}
    for path in sorted(log.glob("Turn */**/*")):
        relative = path.relative_to(log)
        if path.is_dir() or path.name == "BotOutput.txt" or int(relative.parts[0].split()[1]) > last_turn:
            continue
        text = path.read_text(encoding="utf-8")
        files[str(relative)] = without_seconds(json.loads(text)) if path.suffix == ".json" else text
    return files


COUNTS = ("timeouts", "crashes", "over_budget", "invalid_commands")


@pytest.mark.parametrize("game", ["lanes", "warzone"])
def test_persistent_bots_fault_and_log_as_per_turn_bots(tmp_path: Path, game: str) -> None:
    per_turn, persistent = play(tmp_path, game, False), play(tmp_path, game, True)
    matches = [json.loads((log / "match.json").read_text()) for log in (per_turn, persistent)]
    for match in matches:
        assert (match["rounds"], match["end_reason"]) == (TURNS, "max_turns")
        faulty, quiet = match["players"]
        assert {key: faulty[key] for key in COUNTS} == {"timeouts": 1, "crashes": 1, "over_budget": 0,
                                                        "invalid_commands": 1}, faulty
        assert {key: quiet[key] for key in COUNTS} == dict.fromkeys(COUNTS, 0) and quiet["events"] == []
        assert [(e["round"], e["fault"]) for e in faulty["events"] if "fault" in e] == [(3, "timeout"), (5, "crash")]
    per_turn_events, persistent_events = (match["players"][0]["events"] for match in matches)
    # told in each way's own words: a killed process, or a process left running whose late answer is dropped
    assert "process tree killed" in per_turn_events[0]["event"]
    assert persistent_events[0]["event"].startswith(f"no answer within {TIMEOUT_MS} ms")
    assert {"round": 4, "event": "dropped 1 late answer to an earlier turn"} in persistent_events
    assert "exit code 3" in per_turn_events[-1]["event"] and "exit code 3" in persistent_events[-1]["event"]
    assert len(per_turn_events) == 2 and len(persistent_events) == 3

    # the log: every file of every turn up to the crash is the same (the persistent bot is dead after it)
    assert turn_files(persistent, 5) == turn_files(per_turn, 5)
    answer = get_game(game).answer_file.name
    assert (persistent / "Turn 002" / "P1 - Faulty" if game == "lanes" else persistent / "Turn 002" / "A - Faulty"
            ).joinpath(answer).read_text() == GARBAGE
    seat = "P1 - Faulty" if game == "lanes" else "A - Faulty"
    assert "call 2" in (persistent / "Turn 002" / seat / "BotOutput.txt").read_text()  # its chatty stdout line
    assert "about to crash" in (persistent / "Turn 005" / seat / "BotOutput.txt").read_text()
    after = (persistent / "Turn 006" / ("turn.json" if game == "lanes" else "events.json")).read_text()
    if game == "lanes":  # the dead bot's every later turn is E01 in the core's words, the crash not counted again
        assert "E01 bot exited with status 3" in after
    else:
        assert json.loads(after)["bots"]["A"]["status"] == "crash"
    for log in (per_turn, persistent):
        code, out, err = run("verify", log)
        assert code == 0, out + err
