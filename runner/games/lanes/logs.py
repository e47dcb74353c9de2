"""What is Lanes' own in its logs and files: a spec 11 trace file read into the core's record (its verify, diff
and replay are then the core's, runner/logtools), and the kinds of file `validate` knows by their content, with
the check of a commands.txt (against the state.json beside it when there is one).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from runner.errors import UserError
from runner.games.interface import Absent, Answer, Fault, FileReport
from runner.games.lanes.protocol.commands import parse_commands, read_orders
from runner.games.lanes.protocol.config_json import render_config
from runner.games.lanes.protocol.trace import PROTOCOL
from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.rules.state import GameState, Player, Tower
from runner.games.lanes.session import NO_FILE, SEATS
from runner.logtools.record import MatchRecord, read_jsonl, trace_record

COMMANDS = "lanes-commands"


def is_trace(path: Path) -> bool:
    """Whether `path` is a spec 11 trace file (a .jsonl whose first line names the protocol)."""
    if not Path(path).name.endswith(".jsonl"):
        return False
    try:
        with Path(path).open(encoding="utf-8", errors="replace") as handle:
            return json.loads(handle.readline()).get("protocol") == PROTOCOL
    except (OSError, ValueError, AttributeError):
        return False


def open_trace(game: Any, path: Path) -> MatchRecord | None:
    """A spec 11 trace as the core's record: each turn's answers from its record (an accepted file as its normal
    form, a refused one as its `raw` text, E01 as the fault it stands for), the record as the turn's row, and
    the end line as match.json would say it. None when `path` is not a trace."""
    if not is_trace(path):
        return None
    turns, end, end_line = [], None, 0
    for number, line in enumerate(read_jsonl(Path(path))[1:], start=2):
        try:
            if "end" in line:
                end, end_line = line["end"], number
            else:
                refused = {seat: tuple(line["rejected"][p]) for p, seat in enumerate(SEATS) if line["rejected"][p]}
                turns.append((line["turn"], {seat: _answer(line, p) for p, seat in enumerate(SEATS)}, line, refused))
        except (KeyError, TypeError, IndexError, AttributeError) as error:
            raise UserError(f"{path}:{number}: not a spec 11 turn record ({error!r})") from None
    return trace_record(game, Path(path), SEATS, turns, 2, None if end is None else _match(end),
                        match_where=f"{Path(path).name} line {end_line} (the end)")


def _answer(record: dict[str, Any], player: int) -> Answer:
    raw = (record.get("raw") or (None, None))[player]
    if raw is None:
        return Answer("".join(f"{line}\n" for line in record["commands"][player]))
    rejected = record["rejected"][player]
    if rejected and all(line.startswith("E01 ") for line in rejected):  # the session words E01 from the Answer
        message = rejected[0][4:]
        if message == NO_FILE:
            return Answer("", absent=Absent.NO_FILE)
        return Answer("", Fault.CRASH, detail=message.removeprefix("bot "))  # (which fault: the words say)
    return Answer("\n".join(raw))


def _match(end: dict[str, Any]) -> dict[str, Any]:
    """The end line (`turns`, `hp`, `result`) in match.json's words (spec 4.4: a game ends when an HP reaches 0)."""
    hp, result = end.get("hp") or [None, None], end.get("result")
    ranking = [[result], [seat for seat in SEATS if seat != result]] if result in SEATS else [list(SEATS)]
    reason = "hp" if any(isinstance(h, int) and h <= 0 for h in hp) else "max_turns"
    return {"end_reason": reason, "winner": result if result in SEATS else None, "ranking": ranking,
            "rounds": end.get("turns"), "hp": dict(zip(SEATS, hp))}


def detect_kind(path: Path, data: Any) -> str | None:
    """A state.json names the protocol; a config has the config's keys (or a `$schema` of lanes)."""
    if path.name == "commands.txt" or path.name.endswith(".commands.txt"):
        return COMMANDS
    if not isinstance(data, dict) or not data:
        return None
    if data.get("protocol") == PROTOCOL:
        return "lanes-state"
    config_keys = set(render_config(LanesConfig())) | {"$schema"}
    return "lanes-config" if "lanes" in str(data.get("$schema", "")) or set(data) <= config_keys else None


def commands_report(path: Path) -> FileReport:
    """Syntax always; with a state.json beside it (a bot folder), also money, cells and soldiers."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        return FileReport(path, COMMANDS, unreadable=error.strerror or str(error))
    state = None
    try:
        state, player = state_from_json(json.loads((path.parent / "state.json").read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass  # no state.json beside it (or not one of lanes): syntax only
    if state is not None:
        problems = read_orders(text, state, player, LanesConfig())[1]
    else:
        header = re.search(r"^\s*TURN[ \t]+([+-]?\d+)", text, re.IGNORECASE | re.MULTILINE)
        problems = list(parse_commands(text, int(header.group(1)) if header else 1, LanesConfig()).problems)
    return FileReport(path, COMMANDS, tuple(map(str, problems)))


def state_from_json(data: dict[str, Any]) -> tuple[GameState, int]:
    """The part of the game a state.json shows, enough to check that player's orders (the opponent's money
    and soldiers are hidden, spec 8, and play no part in that check)."""
    me = data["you"] - 1

    def towers(items: list[dict[str, Any]]) -> tuple[Tower, ...]:
        return tuple(Tower(t["type"], t["col"], t["row"], t["hp"]) for t in items)

    mine = Player(data["me"]["hp"], data["me"]["money"], dict(data["me"]["soldiers"]))
    theirs = Player(data["opponent"]["hp"], 0, {})
    players = (mine, theirs) if me == 0 else (theirs, mine)
    lanes = (towers(data["me"]["towers"]), towers(data["opponent"]["towers"]))
    return GameState(data["turn"], players, lanes if me == 0 else lanes[::-1]), me
