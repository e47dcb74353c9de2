"""spec 12.3's process tests with real bot processes through the real core (`td-runner match` in-process).

A bot that sleeps past the limit, one that writes a good file and then exits with status 1, one that
writes 70,000 bytes, and one that writes a file on turn 1 only (the stale-file guard). Each match is two
turns; the assertions read the log: errors.txt and state.json of the next turn, turn.json, match.json.
"""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

from runner.cli import main

#: generous for a loaded machine (a Python bot must start and write within it); only the sleeper meets it
TIMEOUT_MS = "1000"

PRELUDE = 'import json, sys, time\nturn = json.load(open("state.json"))["turn"]\n'
GOOD = 'open("commands.txt", "w").write(f"TURN {turn}\\nRECRUIT rifle\\nEND\\n")\n'
BOTS = {
    # spec 12.3: "a bot that sleeps for 10 s"; its file is written first, and must not count
    "sleeper": PRELUDE + GOOD + "time.sleep(10)\n",
    # a good file, then exit status 1: E01 all the same
    "crasher": PRELUDE + GOOD + "sys.exit(1)\n",
    # 70,000 bytes that would be a valid file if it were not too large
    "flood": PRELUDE + 'open("commands.txt", "w").write(f"TURN {turn}\\n" + "#" * 69_980 + "\\nEND\\n")\n',
    # turn 1: a good file; turn 2: nothing. Reusing turn 1's file would give E03 (header TURN 1)
    "once": PRELUDE + "if turn == 1:\n    " + GOOD,
}


def make_bot(folder: Path, source: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "bot.py").write_text(source)
    (folder / "bot.json").write_text(json.dumps({
        "author": "test", "email": "test@example.invalid", "nickName": folder.name, "botLocation": "/",
        "botFileName": "bot.py", "botLanguage": "python3"}))
    return folder


def play(tmp_path: Path, p1: str, p2: str) -> Path:
    bots = [str(make_bot(tmp_path / "bots" / name, BOTS[name])) for name in (p1, p2)]
    out, err = io.StringIO(), io.StringIO()
    code = main(["match", "--game", "lanes", *bots, "--output", str(tmp_path), "--name", "m", "--quiet",
                 "--timeout-ms", TIMEOUT_MS, "--max-turns", "2"], out=out, err=err)
    assert code == 0, err.getvalue()
    return tmp_path / "m"


def seat_file(log: Path, turn: int, seat: str, name: str) -> str:
    [folder] = (log / f"Turn {turn:03d}").glob(f"{seat} - *")
    return (folder / name).read_text()


def rejected(log: Path, turn: int) -> list[list[str]]:
    return json.loads((log / f"Turn {turn:03d}" / "turn.json").read_text())["rejected"]


def players(log: Path) -> dict[str, dict]:
    return {p["seat"]: p for p in json.loads((log / "match.json").read_text())["players"]}


def test_a_sleeping_bot_and_a_crashing_bot_get_e01_and_the_game_goes_on(tmp_path: Path) -> None:
    started = time.monotonic()
    log = play(tmp_path, "sleeper", "crasher")
    assert time.monotonic() - started < 8  # the sleeper was stopped at the limit, twice, not after 10 s
    timeout, crash = "E01 bot did not finish within 1.0 s", "E01 bot exited with status 1"  # spec 10.5's words
    # turn 1's errors reach turn 2's errors.txt and state.json (spec 10.1.4)
    assert seat_file(log, 2, "P1", "errors.txt") == timeout + "\n"
    assert seat_file(log, 2, "P2", "errors.txt") == crash + "\n"
    assert json.loads(seat_file(log, 2, "P1", "state.json"))["errors"] == [timeout]
    assert json.loads(seat_file(log, 2, "P2", "state.json"))["errors"] == [crash]
    # both did nothing: their good files were not applied (no rifle recruited, money 100 + income only)
    state = json.loads(seat_file(log, 2, "P2", "state.json"))
    assert state["me"]["soldiers"]["rifle"] == 0 and state["me"]["money"] == 101
    assert rejected(log, 1) == rejected(log, 2) == [[timeout], [crash]]
    match = json.loads((log / "match.json").read_text())
    assert (match["rounds"], match["end_reason"], match["winner"]) == (2, "max_turns", None)
    seats = players(log)
    # one fault model: a time-out or a crash is counted as such, not also as an invalid command
    assert (seats["P1"]["timeouts"], seats["P1"]["crashes"], seats["P1"]["invalid_commands"]) == (2, 0, 0)
    assert (seats["P2"]["timeouts"], seats["P2"]["crashes"], seats["P2"]["invalid_commands"]) == (0, 2, 0)
    assert main(["verify", str(log)], out=io.StringIO(), err=io.StringIO()) == 0


def test_an_oversized_file_gives_e02_and_the_runner_deletes_last_turns_file(tmp_path: Path) -> None:
    log = play(tmp_path, "flood", "once")
    too_large = "E02 commands.txt is larger than 65536 bytes"
    assert seat_file(log, 2, "P1", "errors.txt") == too_large + "\n"
    assert rejected(log, 1) == [[too_large], []]
    # P2's turn-1 file was accepted; on turn 2 it wrote nothing and the runner had deleted the old file
    assert seat_file(log, 2, "P2", "errors.txt") == ""
    assert json.loads(seat_file(log, 2, "P2", "state.json"))["me"]["soldiers"]["rifle"] == 1
    assert rejected(log, 2) == [[too_large], ["E01 bot wrote no commands.txt"]]
    assert not (tmp_path / "bots" / "once" / "commands.txt").exists()
    seats = players(log)
    assert (seats["P1"]["timeouts"], seats["P1"]["crashes"], seats["P1"]["invalid_commands"]) == (0, 0, 2)
    assert (seats["P2"]["timeouts"], seats["P2"]["crashes"], seats["P2"]["invalid_commands"]) == (0, 0, 0)  # no file
    assert main(["verify", str(log)], out=io.StringIO(), err=io.StringIO()) == 0
