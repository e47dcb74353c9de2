"""The compact record of an Invaders log (or spec 16 trace) for the HTML replay, read from its rows (log.jsonl
holds every turn's state and answers; a trace has no record.jsonl): each side's own numbers, both answers
and what became of them (the core adds the bot output, faults, names and result: assemble.py, html.py).
A frame is the 100-cell path after the turn as `[towers, invaders]`: `towers` a 100-character string (T
turret, B bomb, S stunner, lower case while cooling down, `.` empty), `invaders` flat `[pos, hp, maxhp,
stun_time, ...]`; kept for about FRAME_BYTES in all (RecordBuilder `frame_bytes`).

Why not the core's replay through a session: a 100,000-turn log is ~200 MB of JSON lines, and playing or
parsing it whole takes longer than the replay may (issue 34: written under 3 s). So a line laid out as the
session writes it is cut apart (`_turn`): its leading numbers by one regular expression, its answers and
rulings parsed once per distinct text, and the tower and invader lists counted, parsed only for the frames
kept. Any other line (a reference trace, a hand-made log) is parsed whole, to the same result.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from runner.games.interface import Fault
from runner.games.invaders import logs
from runner.games.invaders.rules import constants as C
from runner.games.invaders.rules.turn import APPLIED, NO_ACTION
from runner.games.invaders.session import DEFENDER, INVADER, SEATS
from runner.errors import UserError
from runner.replay.assemble import record_of
from runner.replay.source import Replayed, SeatTurn, Turn

MAX_BYTES = 1_900_000  # the whole record (issue 34: a 100,000-turn page under 2 MB); boards go first
FRAME_BYTES = 1_200_000  # the boards, kept for some turns of a long match (RecordBuilder `frame_bytes`)
LETTERS = {C.TURRET: "T", C.BOMB: "B", C.STUNNER: "S"}
STATS = ("life", "gold", "towers", "invaders")  # life and towers are the defender's, invaders the invader's
BOARD_JS = Path(__file__).with_name("html_board.js")
_ANSWER = {DEFENDER: ("da", "dr"), INVADER: ("ia", "ir")}


def _towers(entries: list[Any]) -> str:
    cells = ["."] * C.BOARD_LENGTH
    for pos, kind, _power, _range, cooldown, _level in entries:
        letter = LETTERS.get(kind, "?")
        cells[pos] = letter.lower() if cooldown else letter
    return "".join(cells)


def _invaders(entries: list[Any]) -> list[Any]:
    """[pos, hp, maxhp, stun_time, ...] of the log's [pos, hp, maxhp, defense, stun_res, stun_time] entries."""
    return [value for pos, hp, maxhp, _defense, _stun_res, stun_time in entries
            for value in (pos, hp, maxhp, stun_time)]


#: the core's faults (match.json counts and names them); any other fault word (an answer that is not JSON) is
#: the answer's content, refused
CORE_FAULTS = frozenset(fault.value for fault in Fault)


def _ruling(seat: str, row: Mapping[str, Any]) -> tuple[str, str]:
    fault = (row.get("faults") or {}).get(seat)
    if fault:
        text = f"fault: {fault}" + ("; disqualified" if seat in (row.get("dq") or ()) else "")
        return ("fault" if fault in CORE_FAULTS else "invalid"), text
    answer, result = (row.get(key) for key in _ANSWER[seat])
    if result == "disqualified":  # the other side was disqualified: this one did nothing wrong
        return "out", "the match ended: the other side was disqualified"
    if result == APPLIED:
        return "ok", "applied"
    if result in (NO_ACTION, None):
        return "none", "no action" if answer is None else "nothing to do"
    return "invalid", str(result)


def html_record(path: Path) -> dict[str, Any]:
    return record_of(path, Replayed("invaders", "Invaders", SEATS, STATS, _record_turns(path),
                                    {"length": C.BOARD_LENGTH}, max_bytes=MAX_BYTES, frame_bytes=FRAME_BYTES))


#: What the seats answered in a turn, what the runner made of it and the end, shared by the turns that match.
Play = tuple[tuple[SeatTurn, SeatTurn], tuple[tuple[str, str], ...]]
#: (turn, life, defender gold, invader gold, invaders through, play, towers' JSON text, invaders' JSON text)
Row = tuple[int, int, int, int, int, Play, str, str]


def _play(row: Mapping[str, Any]) -> Play:
    answers = tuple(SeatTurn(_ruling(seat, row), "" if row.get(_ANSWER[seat][0]) is None else
                             json.dumps(row.get(_ANSWER[seat][0]), separators=(",", ":"))) for seat in SEATS)
    return answers, (("end", "the defender's life reached 0"),) if row.get("end") else ()  # type: ignore[return-value]


def _record_turns(path: Path) -> Iterator[Turn]:
    """Each played turn of a log folder or trace file (a trace's turn-0 row has no answers: left out)."""
    source, plays, cells, last_through = logs._rows_file(path), {}, {}, None
    try:
        with logs._open_text(source) as handle:
            for number, line in enumerate(handle, 1):
                row = _turn(line, plays) or _parsed_turn(line, f"{source}:{number}")
                if row is None:
                    continue
                turn, life, defender_gold, invader_gold, through, (seats, marks), towers, invaders = row
                if last_through is not None and through > last_through:
                    marks += (("breach", f"{through - last_through} invader(s) got through, life {life}"),)
                last_through = through
                yield Turn(turn, seats, ({"life": life, "gold": defender_gold, "towers": _count(towers)},
                                         {"gold": invader_gold, "invaders": _count(invaders)}),
                           _frame_maker(towers, invaders, cells), marks,
                           106 + len(invaders) * 2 // 3)  # about the frame's JSON bytes: 4 numbers of 6 kept
    except (OSError, EOFError) as error:  # EOFError: a truncated .gz
        raise UserError(f"{source}: cannot read: {getattr(error, 'strerror', None) or error}") from None


def _parsed_turn(line: str, where: str) -> Row | None:
    """A line parsed whole (the slow way, any layout); None for a blank line or a row with no answers."""
    if not line.strip():
        return None
    try:
        row = json.loads(line)
    except ValueError as error:
        raise UserError(f"{where}: not JSON: {error}") from None
    if not isinstance(row, dict) or "ia" not in row:
        return None
    lists = [json.dumps(row.get(key) or [], separators=(",", ":")) for key in ("tw", "iv")]
    return (row["t"], row["life"], row["dg"], row["ig"], row.get("thru", 0), _play(row), *lists)


#: The session's line up to the answers (protocol/record.py `render`): the numbers the replay shows.
_LEAD = re.compile(r'\{"t":(\d+),"ig":(-?\d+),"dg":(-?\d+),"life":(-?\d+),"thru":(\d+),"inc":[-\d]+,'
                   r'"bmax":[-\d]+,"hpm":[-+.\deE]+,"tsls":\d+,(?="ia":)')
_PLAYS = 10_000  # distinct answer texts remembered (a match with more is read a little slower)


def _turn(line: str, plays: dict[str, Play]) -> Row | None:
    """A line as the session writes it, cut apart without parsing it whole (module docstring); None when it
    is laid out otherwise (the caller parses it).

    Safe against what a bot answers: `"tw":[` can only be an object key (inside a JSON string its quotes
    are escaped), the row's own `tw` comes after the answers and nothing after it holds an object with such
    a key (iv, ir, dr: words; faults: {seat: word}; dq: [seat]); tower and invader entries are flat lists of
    numbers and type words, so each list ends at its first `]]` (or is `[]`)."""
    lead = _LEAD.match(line)
    if lead is None:
        return None
    start = line.rfind(',"tw":[')
    middle = line.find('],"iv":[', start)
    if start < lead.end() or middle < 0:
        return None
    towers = line[start + 6:middle + 1]
    first = middle + 7
    end = first + 2 if line.startswith("[]", first) else line.find("]]", first) + 2
    if end < first + 2 or not (towers == "[]" or towers.endswith("]]")):
        return None
    text = line[lead.end():start] + line[end:]  # (its newline too: JSON allows it, and it is one copy less)
    play = plays.get(text)
    if play is None:
        try:
            row = json.loads("{" + text)
        except ValueError:
            return None
        if not isinstance(row, dict):
            return None
        if len(plays) >= _PLAYS:
            plays.clear()
        play = plays[text] = _play(row)
    t, invader_gold, defender_gold, life, through = lead.groups()
    return int(t), int(life), int(defender_gold), int(invader_gold), int(through), play, towers, line[first:end]


def _count(entries: str) -> int:
    """Entries of a tw or iv JSON text: each is one list inside the list."""
    return entries.count("[") - 1


def _frame_maker(towers: str, invaders: str, cells: dict[str, str]) -> Callable[[], list[Any]]:
    """The turn's frame, made only if the record keeps it (RecordBuilder `frame_bytes`). `cells`: tower
    texts already drawn, shared by the match's frames (nine turns in ten repeat the last turn's towers)."""

    def make() -> list[Any]:
        drawn = cells.get(towers)
        if drawn is None:
            if len(cells) >= _PLAYS:
                cells.clear()
            drawn = cells[towers] = _towers(json.loads(towers))
        return [drawn, _invaders(json.loads(invaders))]

    return make


def board_js() -> str:
    return BOARD_JS.read_text(encoding="utf-8")
