"""What is lanes' own in its logs (I/O): spec 11 trace files (`*.jsonl`, from outside) verified, diffed and
replayed; one lanes file validated; and a folder log opened turn by turn for the HTML replay. Verify, diff,
replay and validate of the logs the core writes are the core's (runner/logtools).

A folder log (`Turn 001/P1 - nick/commands.txt`, `turn.json` per turn, `game-config.json`, `match.json`) and a
trace both become a list of turns with the answers given; the replay itself is pure (protocol/trace_replay).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from runner.errors import UserError
from runner.games.interface import Check
from runner.games.lanes.protocol.commands import parse_commands, read_orders, render_problems
from runner.games.lanes.protocol.config_json import parse_config, render_config
from runner.games.lanes.protocol.text_map import render_map
from runner.games.lanes.protocol.trace import PROTOCOL, RESULT_NAMES
from runner.games.lanes.protocol.trace_replay import (
    Difference,
    LoggedAnswer,
    answers_of_record,
    diff_records,
    recorded_faults,
    replay_answers,
)
from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.rules.state import GameState, Player, Tower, new_game
from runner.games.lanes.rules.turn import decide
from runner.games.lanes.session import SEATS, TURN_FILE
from runner.replay.record import as_sent
from runner.schemas import SCHEMA_DIR
from runner.words import plural

TURN_FOLDER = re.compile(r"Turn (\d+)\Z")
ANSWER, OUTPUT = "commands.txt", "BotOutput.txt"
MAX_LINES = 40  # differences listed per check


@attrs.frozen
class LoggedTurn:
    """One turn of a log: the answers, the spec 11 record if kept, and each seat's files (folder logs)."""

    turn: int
    answers: tuple[LoggedAnswer, ...]
    record: dict[str, Any] | None
    seat_files: dict[str, dict[str, str]] = attrs.field(factory=dict)


@attrs.frozen
class OpenedLog:
    path: Path
    config: LanesConfig
    seats: tuple[str, ...]
    turns: tuple[LoggedTurn, ...]
    final_files: dict[str, dict[str, str]]  # the folder after the last turn: the final state's files
    end: dict[str, Any] | None  # the trace's end line, or the result fields of match.json


def is_trace(path: Path) -> bool:
    """Whether `path` is a spec 11 trace file (its first line names the protocol)."""
    try:
        return Path(path).is_file() and _is_trace_file(Path(path))
    except OSError:
        return False


def _is_trace_file(path: Path) -> bool:
    with path.open(encoding="utf-8", errors="replace") as handle:
        first = handle.readline()
    try:
        return json.loads(first).get("protocol") == PROTOCOL
    except (ValueError, AttributeError):
        return False


def open_log(path: Path) -> OpenedLog:
    """A trace file or a folder log; UserError (one line) when `path` is neither."""
    if path.is_file():
        return _open_records(path, _read_jsonl(path), LanesConfig())
    if not path.is_dir():
        raise UserError(f"{path}: no such log file or folder")
    return _open_folder(path, _read_config(path))


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    lines = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if text.strip():
            try:
                lines.append(json.loads(text))
            except ValueError as error:
                raise UserError(f"{path}:{number}: not valid JSON: {error}") from None
    return lines


def _read_config(folder: Path) -> LanesConfig:
    path = folder / "game-config.json"
    if not path.is_file():
        return LanesConfig()
    try:
        return parse_config(json.loads(path.read_text(encoding="utf-8")), str(path))
    except ValueError as error:
        raise UserError(f"{path}: not valid JSON: {error}") from None


def _match_end(folder: Path) -> dict[str, Any] | None:
    try:
        match = json.loads((folder / "match.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    names = {None: "draw", **{seat: name for seat, name in zip(SEATS, ("P1", "P2"))}}
    return {"turns": match.get("rounds"), "result": names.get(match.get("winner"), match.get("winner"))}


def _open_records(path: Path, lines: list[dict[str, Any]], config: LanesConfig, end=None) -> OpenedLog:
    records = [line for line in lines if isinstance(line, dict) and "turn" in line]
    ends = [line["end"] for line in lines if isinstance(line, dict) and "end" in line]
    turns = tuple(LoggedTurn(r["turn"], tuple(answers_of_record(r)), r) for r in records)
    return OpenedLog(path, config, SEATS, turns, {}, ends[0] if ends else end)


def _open_folder(path: Path, config: LanesConfig) -> OpenedLog:
    folders = sorted(
        (int(m.group(1)), p) for p in path.iterdir() if p.is_dir() and (m := TURN_FOLDER.match(p.name))
    )
    if not folders:
        raise UserError(f"{path}: not a lanes log (no 'Turn NNN' folders)")
    turns, final = [], {}
    for number, folder in folders:
        seat_files = _seat_files(folder)
        record_path = folder / TURN_FILE
        if not record_path.is_file():  # the folder after the last turn: the final state, no answers
            final = seat_files
            continue
        record = json.loads(record_path.read_text(encoding="utf-8"))
        answers = tuple(
            LoggedAnswer(files.get(ANSWER, ""), recorded_faults(record["rejected"][p]))
            for p, files in enumerate(seat_files.get(seat, {}) for seat in SEATS)
        )
        turns.append(LoggedTurn(number, answers, record, seat_files))
    return OpenedLog(path, config, SEATS, tuple(turns), final, _match_end(path))


def _seat_files(folder: Path) -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = {}
    for seat_folder in sorted(p for p in folder.iterdir() if p.is_dir()):
        seat = seat_folder.name.split(" - ", 1)[0]
        found[seat] = {p.name: p.read_text(encoding="utf-8", errors="replace") for p in seat_folder.iterdir() if p.is_file()}
    return found


def replay_log(log: OpenedLog) -> tuple[list[Difference], list[tuple[GameState, dict[str, Any]]], GameState]:
    """Replay every turn; the differences of the records, (state before, replayed record) per turn, and the final
    state."""
    config, state = log.config, new_game(log.config)
    differences: list[Difference] = []
    played = []
    for turn in log.turns:
        if turn.turn != state.turn:
            differences.append(Difference(turn.turn, "turn number", turn.turn, state.turn))
        record, after, _ = replay_answers(config, state, turn.answers)
        if turn.record is not None:
            differences += diff_records(turn.turn, turn.record, record)
        played.append((state, record))
        state = after
    result = decide(config, state)
    if log.end is not None:
        got = {"turns": state.turn - 1, "result": RESULT_NAMES[result.winner] if result else "unfinished"}
        if "hp" in log.end:
            got["hp"] = [p.hp for p in state.players]
        differences += diff_records(None, {k: log.end.get(k) for k in got}, got)
    return differences, played, state


def verify(path: Path) -> Check:
    """Replay a log's answers through the rules and compare every state, record and the result."""
    log = open_log(path)
    differences, _, state = replay_log(log)
    turns = len(log.turns)
    if not differences:
        return Check(True, (f"{path}: {plural(turns, 'turn')} replayed, every state and record identical",), {"turns": turns})
    lines = [f"{path}: {len(differences)} differences in {turns} turns; the first:"]
    lines += [f"  {d}" for d in differences[:MAX_LINES]]
    return Check(False, tuple(lines), {"turns": turns, "differences": [str(d) for d in differences]})


def diff(path_a: Path, path_b: Path) -> Check:
    """Two traces (or a trace and a folder log) turn by turn: their spec 11 records."""
    a, b = open_log(path_a), open_log(path_b)
    differences: list[str] = []
    if render_config(a.config) != render_config(b.config):
        differences.append("game config differs")
    if len(a.turns) != len(b.turns):
        differences.append(f"turns: {len(a.turns)} vs {len(b.turns)}")
    for left, right in zip(a.turns, b.turns):
        if left.record is not None and right.record is not None:
            differences += [f"turn {left.turn}: {d.field} differs" for d in diff_records(left.turn, left.record, right.record)]
    if not differences:
        return Check(True, (f"{path_a} and {path_b}: {len(a.turns)} turns, identical",), {"turns": len(a.turns)})
    lines = [f"{len(differences)} differences:"] + [f"  {d}" for d in differences[:MAX_LINES]]
    return Check(False, tuple(lines), {"differences": differences})


@attrs.frozen
class LogReplay:
    """A log opened for the terminal: per turn the state before it, the replayed record, the bots' output."""

    log: OpenedLog
    frames: dict[int, tuple[GameState, dict[str, Any] | None]]

    @property
    def turns(self) -> tuple[int, ...]:
        return tuple(self.frames)

    def render(self, turn: int, seat: str | None = None) -> list[Any]:
        """The map (spectator view), each player's HP, money, commands and errors, and the turn's tally."""
        state, record = self.frames[turn]
        lines = render_map(self.log.config, state, show_money=True).splitlines()
        if record is None:
            result = decide(self.log.config, state)
            lines.append(f"final: {RESULT_NAMES[result.winner] if result else 'unfinished'}")
            return lines
        logged = next((t for t in self.log.turns if t.turn == turn), None)
        for p, name in enumerate(SEATS):
            commands = record["commands"][p][1:-1]
            lines.append(f"{name}: {'; '.join(commands) if commands else '(nothing)'}")
            sent = logged.seat_files.get(name, {}).get(ANSWER, "") if logged else ""
            if record["rejected"][p] and sent.strip():  # refused: the file as the bot wrote it
                lines.append(f"  sent: {as_sent(sent)}")
            lines += [f"  {error}" for error in record["rejected"][p]]
        lines.append(
            f"after the turn: hp {record['hp'][0]}-{record['hp'][1]}, money {record['money'][0]}-{record['money'][1]}, "
            f"scored {record['scored'][0]}-{record['scored'][1]}, killed {record['killed'][0]}-{record['killed'][1]}, "
            f"towers lost {record['towers_lost'][0]}-{record['towers_lost'][1]}"
        )
        if seat is not None:
            output = logged.seat_files.get(seat, {}).get(OUTPUT, "") if logged else ""
            lines.append(f"--- {seat} bot output ---")
            lines += output.splitlines() or ["(none)"]
        return lines


def replay(path: Path) -> LogReplay:
    log = open_log(path)
    _, played, final = replay_log(log)
    frames: dict[int, tuple[GameState, dict[str, Any] | None]] = {s.turn: (s, r) for s, r in played}
    frames[final.turn] = (final, None)
    return LogReplay(log, frames)


# --- validate: one file a lanes bot or user deals with ---------------------------------------------------


def validate(path: Path) -> Check | None:
    """Check a lanes state.json, commands.txt or game config; None when `path` is none of those."""
    if path.name == ANSWER or path.name.endswith(".commands.txt"):
        return _validate_commands(path)
    if path.suffix != ".json":
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(data, dict) and data.get("protocol") == PROTOCOL:
        return _schema_check(path, "state", data)
    if _looks_like_config(path, data):
        check = _schema_check(path, "game-config", data)
        if check.same:
            try:
                parse_config(data, str(path))
            except UserError as error:
                return Check(False, (str(error),))
        return check
    return None


def _looks_like_config(path: Path, data: Any) -> bool:
    if not isinstance(data, dict):
        return False
    if "lanes" in str(data.get("$schema", "")):
        return True
    keys = set(render_config(LanesConfig())) | {"$schema"}
    return bool(data) and set(data) <= keys


def _schema_check(path: Path, name: str, data: Any) -> Check:
    import jsonschema  # here: ~80 ms of start-up that only `validate` of a lanes file needs, not a match

    schema = json.loads((SCHEMA_DIR / "lanes" / f"{name}.schema.json").read_text(encoding="utf-8"))
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=lambda e: list(e.absolute_path))
    if not errors:
        return Check(True, (f"{path}: a valid lanes {name}",))
    lines = [f"{path}: {len(errors)} problems (lanes {name})"]
    lines += [f"  $.{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in errors[:MAX_LINES]]
    return Check(False, tuple(lines))


def _validate_commands(path: Path) -> Check:
    """Syntax always; with a state.json beside it (a bot folder), also money, cells and soldiers."""
    text = path.read_text(encoding="utf-8", errors="replace")
    state_path = path.parent / "state.json"
    state, player = None, 0
    if state_path.is_file():
        try:
            state, player = state_from_json(json.loads(state_path.read_text(encoding="utf-8")))
        except (ValueError, KeyError, TypeError, AttributeError):
            state = None
    if state is not None:
        config = LanesConfig()
        _, problems = read_orders(text, state, player, config)
        against = f"against {state_path.name} (turn {state.turn})"
    else:
        header = re.search(r"^\s*TURN[ \t]+([+-]?\d+)", text, re.IGNORECASE | re.MULTILINE)
        turn = int(header.group(1)) if header else 1
        problems = list(parse_commands(text, turn, LanesConfig()).problems)
        against = "syntax only (no state.json beside it)"
    if not problems:
        return Check(True, (f"{path}: valid, {against}",))
    return Check(False, (f"{path}: rejected, {against}:", *render_problems(problems).splitlines()))


def state_from_json(data: dict[str, Any]) -> tuple[GameState, int]:
    """The part of the game a state.json shows, enough to check that player's orders (the opponent's money
    and soldiers are hidden, spec 8, and play no part in that check)."""
    me = data["you"] - 1

    def towers(items: Sequence[dict[str, Any]]) -> tuple[Tower, ...]:
        return tuple(Tower(t["type"], t["col"], t["row"], t["hp"]) for t in items)

    mine = Player(data["me"]["hp"], data["me"]["money"], dict(data["me"]["soldiers"]))
    theirs = Player(data["opponent"]["hp"], 0, {})
    players = (mine, theirs) if me == 0 else (theirs, mine)
    lanes = (towers(data["me"]["towers"]), towers(data["opponent"]["towers"]))
    return GameState(data["turn"], players, lanes if me == 0 else lanes[::-1]), me
