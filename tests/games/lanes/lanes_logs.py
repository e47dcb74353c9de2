"""Test helpers: scripted bots, and a folder log written in the core's layout from a LanesSession."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from runner.games.interface import Answer
from runner.games.lanes import GAME
from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.session import LanesSession
from runner.matchlog.record import RECORD_FILE, header_line, turn_line

#: A scripted bot: (turn, state.json text) -> its Answer.
Script = Callable[[int, str], Answer]


def idle(turn: int, state: str) -> Answer:
    return Answer(f"TURN {turn}\nEND\n")


def rusher(turn: int, state: str) -> Answer:
    """Spends everything on rifles every turn and sends them all down column 3 at timestep 1."""
    data = json.loads(state)
    count = data["me"]["money"] // 2
    owned = data["me"]["soldiers"]["rifle"] + count
    lines = [f"TURN {turn}"] + ([f"RECRUIT rifle {count}"] if count else []) + ([f"DEPLOY rifle 1 3 {owned}"] if owned else [])
    return Answer("\n".join(lines + ["END"]) + "\n")


def waller(turn: int, state: str) -> Answer:
    """Turn 1: a row of missiles on row 2 (one cell left free) and a frost; later nothing."""
    if turn > 1:
        return Answer(f"TURN {turn}\nEND\n")
    builds = [f"BUILD missile {col} 2" for col in range(6)] + ["BUILD frost 6 1", "BUILD rocket 3 12"]
    return Answer("\n".join([f"TURN {turn}", *builds, "END"]) + "\n")


def write_folder_log(root: Path, config: LanesConfig, scripts: dict[str, Script]) -> LanesSession:
    """Play a match through the Session and write it as the core's FolderLog would (context of the brief)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "game-config.json").write_text(json.dumps(GAME.config_json(config)), encoding="utf-8")
    session = GAME.new_session(config, GAME.seats(2), 0, {})
    names = {seat: f"bot{seat}" for seat in session.seats}
    log = GAME.log
    players = {seat: f"{seat} - {name}" for seat, name in names.items()}  # the seat folders' names
    record = [header_line(GAME.name, session.seats, players, 0, {}, {})]  # the core's record.jsonl
    while session.outcome() is None:
        turn, inputs = session.turn, session.inputs()
        answers = {seat: scripts[seat](turn, inputs[seat].files["state.json"]) for seat in session.active_seats()}
        folder = root / log.turn_folder.format(turn=turn)
        for seat, answer in answers.items():
            _write_seat(folder / players[seat], inputs[seat].files, answer.text, f"{seat} says hi\n")
        report = session.play_turn(answers)
        record.append(turn_line(turn, answers, inputs, report))
        for name, text in report.log_files.items():
            (folder / name).write_text(text, encoding="utf-8")
    (root / RECORD_FILE).write_text("".join(line + "\n" for line in record), encoding="utf-8")
    folder = root / log.turn_folder.format(turn=session.turn)
    for seat, turn_input in session.inputs().items():
        _write_seat(folder / f"{seat} - {names[seat]}", turn_input.files, "", "")
    for name, text in session.final_files(players).items():
        (folder / name).write_text(text, encoding="utf-8")
    outcome = session.outcome()
    match = {"game": "lanes", "seed": 0, "rounds": session.turn - 1, "winner": outcome.winner,
             "end_reason": outcome.reason, "ranking": [list(group) for group in outcome.ranking]}
    (root / "match.json").write_text(json.dumps(match), encoding="utf-8")
    return session


def _write_seat(folder: Path, files: dict[str, str], answer: str, output: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / GAME.log.file_names.get(name, name)).write_text(text, encoding="utf-8")
    (folder / GAME.log.answer).write_text(answer, encoding="utf-8")
    (folder / GAME.log.output).write_text(output, encoding="utf-8")


def trickler(turn: int, state: str) -> Answer:
    """Recruits two rifles a turn and sends every rifle it owns down column 3 in fire stance."""
    owned = json.loads(state)["me"]["soldiers"]["rifle"] + 2
    return Answer(f"TURN {turn}\nRECRUIT rifle 2\nDEPLOY rifle 1 3 {owned} fire\nEND\n")
