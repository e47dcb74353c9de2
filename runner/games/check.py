"""`check_game`: does a game keep the promises of runner/games/interface.py? (Gymnasium's `check_env`, for us.)

Library code, so a new game's author can run it too; tests/games/test_interface.py runs it for every game.
It plays short matches with answers that are garbage, empty, or faults, and checks what the core relies on:
every attribute is there, seats are distinct, a session never raises on any answer, inputs are well
formed, the same seed and answers give the same play, and a match ends or keeps its turn counter moving.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import Any

from runner.bots.framing import frame_name_problem
from runner.games.interface import Absent, Answer, BotMode, Fault, FolderLog, Game, JsonlLog, Session, TurnInput

#: Answers every game must survive: nothing, garbage, huge, binary-ish, each fault, no file and a refused one.
HOSTILE_ANSWERS = (
    Answer(""),
    Answer("No Command"),
    Answer("\x00\xff garbage ,,, ;;; {]"),
    Answer("9" * 5000),
    Answer("null"),
    Answer("{}"),
    Answer("\n\n\n"),
    Answer("", Fault.TIMEOUT),
    Answer("", Fault.CRASH, detail="exited with status 1"),
    Answer("", Fault.FAILED_TO_START),
    Answer("", absent=Absent.NO_FILE),
    Answer("", absent=Absent.REFUSED, detail="wrote a command.txt that cannot be read: command.txt has 2 hard links"),
)


#: `Game` members a game may leave out: the core gives its default HTML replay (runner/replay/default.py).
OPTIONAL_GAME_MEMBERS = frozenset({"html_replay"})


def _members(protocol: type) -> set[str]:
    names = set(typing.get_type_hints(protocol, include_extras=False)) if protocol.__annotations__ else set()
    names |= {name for name, value in vars(protocol).items() if callable(value) and not name.startswith("_")}
    names |= {name for name, value in vars(protocol).items() if isinstance(value, property)}
    return names


def check_game(game: Game, options: Mapping[str, Any] | None = None, turns: int = 30) -> list[str]:
    """Problems found (empty: the game keeps the interface). `options` are the match options it needs."""
    required = _members(Game) - OPTIONAL_GAME_MEMBERS
    problems = [f"Game lacks {name}" for name in sorted(required) if not hasattr(game, name)]
    if problems:
        return problems
    if not isinstance(game.log, (FolderLog, JsonlLog)):
        problems.append(f"log is {game.log!r}, not a FolderLog or JsonlLog")
    if game.default_mode not in game.bot_modes:
        problems.append("default_mode is not one of bot_modes")
    for count in game.player_counts:
        seats = game.seats(count)
        if len(seats) != count or len(set(seats)) != count:
            problems.append(f"seats({count}) gave {seats}")
    values = {option.dest: option.default for option in game.options}
    values.update(options or {})
    config = game.configure(None, values)
    if not isinstance(game.config_json(config), dict):
        problems.append("config_json is not a dict")
    seats = game.seats(game.player_counts[0])
    plays = [_play(game, config, seats, values, turns) for _ in range(2)]
    for play in plays:
        problems.extend(play["problems"])
    if not problems and plays[0]["trace"] != plays[1]["trace"]:
        problems.append("two sessions with the same seed and answers played differently")
    return problems


def _play(game: Game, config: Any, seats: tuple[str, ...], options: Mapping[str, Any], turns: int) -> dict:
    problems: list[str] = []
    trace: list[Any] = []
    session: Session = game.new_session(config, seats, 7, options)
    missing = [name for name in sorted(_members(Session)) if not hasattr(session, name)]
    if missing:
        return {"problems": [f"Session lacks {name}" for name in missing], "trace": trace}
    for index in range(turns):
        if session.outcome() is not None:
            break
        before = session.turn
        active = session.active_seats()
        inputs = session.inputs()
        if not set(active) <= set(inputs):
            problems.append(f"turn {before}: inputs() lacks an active seat")
            break
        for seat in active:
            problems.extend(_input_problems(game, before, seat, inputs[seat]))
        answers = {seat: HOSTILE_ANSWERS[(index + offset) % len(HOSTILE_ANSWERS)] for offset, seat in enumerate(active)}
        try:
            report = session.play_turn(answers)
        except Exception as exc:  # the whole point: a game must never raise on an answer
            problems.append(f"turn {before}: play_turn raised {type(exc).__name__}: {exc}")
            break
        if session.turn == before and session.outcome() is None:
            problems.append(f"turn {before}: play_turn did not advance the turn")
            break
        if isinstance(game.log, JsonlLog) and report.record is None:
            problems.append(f"turn {before}: a log.jsonl game gave no record")
        trace.append((before, tuple(report.events), dict(report.rejected), repr(session.standings())))
    session.text_view()
    session.snapshot()
    return {"problems": problems, "trace": trace}


def _input_problems(game: Game, turn: int, seat: str, given: TurnInput) -> list[str]:
    problems = []
    for name in given.files:
        if not name or "/" in name or name == game.answer_file.name:
            problems.append(f"turn {turn}: {seat} is given a file named {name!r}")
    if getattr(game, "persistent_frames", False):  # the core's frames name each file in a header line
        problems += [f"turn {turn}: {seat}'s {problem}" for name in given.files
                     if (problem := frame_name_problem(name)) is not None]
    elif BotMode.PERSISTENT in game.bot_modes and (given.line is None or "\n" in given.line):
        problems.append(f"turn {turn}: {seat}'s request line is {given.line!r}")
    return problems
