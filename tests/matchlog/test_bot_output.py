"""The bot output of a log.jsonl game (runner/matchlog/bot_output.py): capped in bytes, like BotOutput.txt."""

from __future__ import annotations

from runner.bots.outcome import TurnOutcome, TurnStatus
from runner.matchlog.bot_output import BotOutputLog, SeatOutput


def test_the_cap_counts_utf8_bytes_not_characters() -> None:
    """'é' is one character and two bytes: a head of 10 bytes holds five of them, not ten."""
    output = SeatOutput(cap=10, tail=4)
    output.add("ééééé")  # 10 bytes: the head is full
    output.add("é")  # 2 bytes: to the tail
    output.add("ab")  # the tail is 4 bytes: full
    output.add("c")  # over: the oldest tail entry ("é", 2 bytes) is dropped
    text = output.text()
    assert text.startswith("ééééé[td-runner] bot output truncated: 2 bytes dropped here\n")
    assert text.endswith("abc")


def test_ascii_output_is_kept_whole_under_the_cap() -> None:
    log = BotOutputLog(("A",), cap=1000)
    log.add_turn(3, "A", TurnOutcome(TurnStatus.OK, "x", 0.0, "hello", None, ("a note",)))
    log.add_turn(4, "A", TurnOutcome(TurnStatus.OK, "x", 0.0, "", None, ()))  # nothing: nothing added
    assert log.files() == {"A.txt": "[td-runner] turn 3\nhello\n[td-runner] a note\n"}
