"""The core's log tools for every registered game (the games come from the registry, not a list here): a log
with one byte changed in one seat's input fails `verify`, which names that turn, seat and file; `diff` of two
logs of different players names the first turn they part; a log without match.json names its own game.

The matches are played in-process by the real match loop with scripted console players (no processes): a few
turns each, so every game's whole log path runs in a second or two.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import runner.games
from runner.games import game_of_log, get_game
from runner.games.interface import FolderLog
from runner.logtools.record import open_record
from runner.matchlog.record import RECORD_FILE
from tests.logtools.scripted import play

@pytest.fixture(scope="module", params=list(runner.games.GAMES))
def logs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path, Path]:
    """Two logs of one game: both seats steady, and the first seat blank from its second turn on."""
    root = tmp_path_factory.mktemp(request.param)
    steady_log = play(request.param, root / "steady")
    other = play(request.param, root / "other", lambda call: "null" if call == 1 else "")
    return request.param, steady_log, other


def test_a_log_verifies_and_names_its_game(logs: tuple[str, Path, Path]) -> None:
    name, log, _ = logs
    game = game_of_log(log)
    assert game.name == name
    check = game.verify(log, {})
    assert check.same, check.lines


def test_one_byte_changed_in_a_seats_input_is_named_by_verify(logs: tuple[str, Path, Path], tmp_path: Path) -> None:
    name, log, _ = logs
    game = get_game(name)
    copy = tmp_path / "copy"
    _copy_tree(log, copy)
    record = open_record(game, copy)  # every log the core writes has its record.jsonl, Tower Defence's too
    turn = record.turns[1]  # the second turn: not the first line of anything
    seat = list(turn.answers)[-1]
    if isinstance(game.log, FolderLog):
        session = game.log_session(record)
        session.play_turn({s: record.turns[0].answers[s] for s in session.active_seats()})
        input_name = next(iter(session.inputs()[seat].files))
        changed = record.seat_file(turn.turn, seat, record.logged_name(input_name))
        where = str(changed.relative_to(copy))
        _change_one_byte(changed)
    else:  # a log.jsonl log keeps each input line's digest in record.jsonl
        lines = (copy / RECORD_FILE).read_text().splitlines(keepends=True)
        digest = json.loads(lines[turn.line - 1])["seats"][seat]["input"]
        lines[turn.line - 1] = lines[turn.line - 1].replace(f'"input":{digest}', f'"input":{digest ^ 1}')
        (copy / RECORD_FILE).write_text("".join(lines))
        where = f"{RECORD_FILE} input"
    check = game.verify(copy, {})
    assert not check.same
    text = "\n".join(check.lines)
    assert _names_turn(text, turn.turn), text
    assert seat in text and where.split("/")[-1] in text, text


def test_diff_names_the_first_turn_two_logs_part(logs: tuple[str, Path, Path]) -> None:
    name, log, other = logs
    game = get_game(name)
    assert game.diff(log, log, {}).same
    check = game.diff(log, other, {})
    assert not check.same
    first = open_record(game, log).turns[1].turn  # the first seat answers "" from its second turn on
    assert check.data["first_turn"] == first  # the core's diff, for every game
    assert _names_turn("\n".join(check.lines), first), check.lines


def test_a_log_cut_short_is_its_games_only(logs: tuple[str, Path, Path], tmp_path: Path) -> None:
    name, log, _ = logs
    copy = tmp_path / "copy"
    _copy_tree(log, copy)
    (copy / "match.json").unlink()
    assert game_of_log(copy).name == name
    assert [other for other in runner.games.GAMES if get_game(other).is_log(copy)] in ([], [name])


def test_the_terminal_replay_shows_each_seats_answer(logs: tuple[str, Path, Path]) -> None:
    name, log, _ = logs
    replay = get_game(name).replay(log)
    seat = replay.seats[0]
    lines = [str(line) for line in replay.render(replay.turns[1], seat)]
    assert any(line.startswith(f"{seat}:") or seat in line for line in lines), lines


def _names_turn(text: str, turn: int) -> bool:
    """`turn 3`, `Round 003`: the game's word for a turn, then its number."""
    return re.search(rf"\b(turn|round):? 0*{turn}\b", text, re.IGNORECASE) is not None


def _copy_tree(source: Path, target: Path) -> None:
    import shutil

    shutil.copytree(source, target)


def _change_one_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    index = next(i for i, byte in enumerate(data) if chr(byte).isdigit())
    data[index] = ord("7") if data[index] != ord("7") else ord("3")
    path.write_bytes(bytes(data))
