"""The core's match record: `record.jsonl` beside every log the match loop writes, whatever the game.

The game's log (turn folders, or a log.jsonl of its own rows) keeps what the game makes of a turn; this file
keeps what the core knows of it, the same way for every game, so the log tools (runner/logtools) can rebuild
each seat's `Answer` and replay a match without asking the game how it recorded them.

Line 1 is the header, written before the first turn (a log cut short still names its game):
    {"record": 1, "game": "lanes", "seats": ["A", "B"], "names": {"A": "A - nick", ...}, "seed": 0,
     "options": {...}, "requests": {"A": "delta"}}
Then one line per turn played:
    {"turn": 3, "seats": {"A": {"answer": "...", "seconds": 0.0123, "fault": "timeout", "absent": "no_file",
     "detail": "did not finish within 2.0 s", "input": 3305312225}, ...},
     "events": [...], "rejected": {"A": [...]}}
`answer` is the text as read (what the game was given), `fault`, `absent` and `detail` are the Answer's
(left out when unset), `seconds` its time. A folder log keeps each seat's input as files in the turn's folder;
each seat's input line, where the game gives one (its persistent protocol), is kept as its CRC-32 (`input`, a
number): an Invaders request is ~11 KB, the whole of it every turn would multiply the log's size by seven. `events` and `rejected` are the game's
`TurnReport`'s, left out when empty. The file is only appended to: a turn's line follows its folder.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping
from typing import Any

from runner.games.interface import Absent, Answer, Fault, TurnInput, TurnReport

RECORD_FILE = "record.jsonl"
VERSION = 1
_encode = json.encoder.encode_basestring  # type: ignore[attr-defined]  # the C encoder of one str
_crc32 = zlib.crc32
_PREFIXES: dict[str, str] = {}  # seat -> its entry's start, `"A":{"answer":`


def header_line(game: str, seats: tuple[str, ...], names: Mapping[str, str], seed: int,
                options: Mapping[str, Any], requests: Mapping[str, str]) -> str:
    """The record's first line: the game and what a new session needs besides the config (`requests`: the
    request formats seats asked for in bot.json, `Session.use_request_format`)."""
    return json.dumps({"record": VERSION, "game": game, "seats": list(seats), "names": dict(names), "seed": seed,
                       "options": options, "requests": dict(requests)}, separators=(",", ":"), default=str)


def input_digest(line: str) -> int:
    """What the record keeps of an input line: its CRC-32 of the UTF-8 bytes, as a number (cheap, and one changed
    byte changes it; formatted as hex it cost twice the CRC itself, every turn of every seat)."""
    return _crc32(line.encode("utf-8", "surrogatepass"))


def turn_line(turn: int, answers: Mapping[str, Answer], inputs: Mapping[str, TurnInput] | None,
              report: TurnReport | None) -> str:
    """One turn's line, formatted by hand: it runs every turn of 12,630-turn Invaders matches, where
    json.dumps of a dict per seat costs several times as much (4 us a turn as it is, beside the session's 15)."""
    parts = []
    for seat, answer in answers.items():
        prefix = _PREFIXES.get(seat) or _PREFIXES.setdefault(seat, f'{_encode(seat)}:{{"answer":')
        entry = f'{prefix}{_encode(answer.text)},"seconds":{answer.seconds:.4f}'
        if answer.fault is not None or answer.absent is not None or answer.detail:  # most turns: none of them
            if answer.fault is not None:
                entry += f',"fault":"{answer.fault.value}"'
            if answer.absent is not None:
                entry += f',"absent":"{answer.absent.value}"'
            if answer.detail:
                entry += f',"detail":{_encode(answer.detail)}'
        if inputs is not None and (line := inputs[seat].line) is not None:
            entry += f',"input":{_crc32(line.encode("utf-8", "surrogatepass"))}'
        parts.append(entry)
    if report is None or not (report.events or report.rejected):
        return f'{{"turn":{turn},"seats":{{{"},".join(parts)}}}}}}}'
    text = f'{{"turn":{turn},"seats":{{{"},".join(parts)}}}}}'
    if report.events:
        text += f',"events":{json.dumps(list(report.events))}'
    if report.rejected:
        text += f',"rejected":{json.dumps({k: list(v) for k, v in report.rejected.items()})}'
    return text + "}"


def answer_of(entry: Mapping[str, Any]) -> Answer:
    """The Answer a seat's entry of a turn line records (what the game was given that turn)."""
    fault, absent = entry.get("fault"), entry.get("absent")
    return Answer(str(entry.get("answer", "")), Fault(fault) if fault else None, float(entry.get("seconds", 0.0)),
                  Absent(absent) if absent else None, str(entry.get("detail", "")))


def read_header(folder: Any) -> dict[str, Any] | None:
    """The header of a log folder's record.jsonl, or None when it has none (an official Tower Defence log, a
    spec trace file, a log written before the record existed)."""
    from pathlib import Path

    path = Path(folder) / RECORD_FILE
    try:
        with path.open(encoding="utf-8") as handle:
            data = json.loads(handle.readline())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("record") == VERSION else None
