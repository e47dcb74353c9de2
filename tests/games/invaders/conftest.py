"""Fixtures: play a Session with scripted answers (`play`), write its log in the core's JsonlLog layout
(`write_log`), random answers for long games (`random_answers`). Fixtures rather than an importable module, so
any pytest import mode works."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from runner.games.interface import Answer
from runner.games.invaders import GAME
from runner.games.invaders.rules import constants as C
from runner.games.invaders.session import SEATS, InvadersSession
from runner.matchlog.record import RECORD_FILE, header_line, turn_line

Script = Callable[[int, dict], str]


def play_session(session: InvadersSession, defender: Script, invader: Script, core: list[str] | None = None) -> list[dict]:
    """Play to the end; each script gets (turn, request) and returns the answer line. Returns the records; with
    `core`, the core's record.jsonl lines of the turns are appended to it (runner/matchlog/record.py)."""
    records = []
    while session.outcome() is None:
        turn, inputs = session.turn, session.inputs()
        requests = {seat: json.loads(inputs[seat].line) for seat in session.active_seats()}
        answers = {
            "defender": Answer(defender(session.turn, requests["defender"])),
            "invader": Answer(invader(session.turn, requests["invader"])),
        }
        report = session.play_turn(answers)
        records.append(report.record)
        if core is not None:
            core.append(turn_line(turn, answers, inputs, report))
    return records


def write_session_log(folder: Path, session: InvadersSession, records: list[dict], core: list[str] | None = None) -> Path:
    """The files the core's JsonlLog writer leaves: match.json, game-config.json, log.jsonl, and with `core`
    (play_session's lines) record.jsonl; without, the folder is read as a trace."""
    folder.mkdir(parents=True, exist_ok=True)
    if core is not None:
        names = {seat: f"{seat} - bot" for seat in SEATS}
        lines = [header_line("invaders", SEATS, names, 0, {}, {}), *core]
        (folder / RECORD_FILE).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    outcome = session.outcome()
    config = GAME.config_json(session.config)
    summary = {
        "game": "invaders",
        "seed": 0,
        "options": {},
        "game_config": config,
        "players": [{"seat": seat, **numbers} for seat, numbers in session.standings().items()],
        "ranking": [list(group) for group in outcome.ranking],
        "winner": outcome.winner,
        "end_reason": outcome.reason,
        "turns": len(records),
        **outcome.details,
    }
    (folder / "match.json").write_text(json.dumps(summary), encoding="utf-8")
    (folder / "game-config.json").write_text(json.dumps(config), encoding="utf-8")
    with (folder / "log.jsonl").open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, separators=(",", ":")) + "\n")
    return folder


#: Random answers for long games: valid actions (a third of them at the row's ends), invalid ones and junk.
JUNK: list[Any] = [None, 0, "", False, True, 7, -0.0, "x", "é", [], {}, [1, 2], {"action": "fly"}, {"hp": -1},
                   {"hp": 1.5}, {"hp": 10**40}, {"hp": None, "defense": 2.0}, {"action": "destroy", "pos": -1},
                   {"pos": "5", "action": "build", "type": "turret"}, {"action": "build", "pos": 2.5, "type": "bomb"},
                   {"action": "build", "type": "bomb", "pos": 10**30}, {"action": "upgrade", "pos": 3.0, "stat": "range"}]


EDGES = (0, 1, 2, 97, 98, 99)


def random_defender_answer(rng: random.Random) -> Any:
    roll = rng.random()
    where = rng.random()  # the row's ends are where ranges get cut (spec 3.1): a third of the actions go there
    pos = rng.randrange(-2, 102) if where < 0.05 else rng.choice(EDGES) if where < 0.35 else rng.randrange(100)
    if roll < 0.08:
        return rng.choice(JUNK)
    if roll < 0.45:
        return {"action": "build", "type": rng.choice(C.VALID_TOWER_TYPES), "pos": pos}
    if roll < 0.7:
        return {"action": "upgrade", "pos": pos, "stat": rng.choice(("power", "range"))}
    if roll < 0.75:
        return {"action": "destroy", "pos": pos}
    return None


def random_invader_answer(rng: random.Random, state: Any) -> Any:
    roll = rng.random()
    if roll < 0.05:
        return rng.choice(JUNK)
    if roll < 0.6:
        cap = state.invader_boost_max + rng.choice((0, 0, 0, 3))  # now and then over the cap
        hp = rng.randint(0, cap)
        defense = rng.randint(0, cap - hp)
        return {"hp": hp, "defense": defense, "stunRes": rng.randint(0, cap - hp - defense)}
    return None


@pytest.fixture(scope="session")
def random_answers() -> SimpleNamespace:
    """`.defender(rng)` and `.invader(rng, state)`: a random answer value (session scope: hypothesis tests)."""
    return SimpleNamespace(defender=random_defender_answer, invader=random_invader_answer)


@pytest.fixture
def play() -> Callable[..., list[dict]]:
    return play_session


@pytest.fixture
def write_log() -> Callable[..., Path]:
    return write_session_log


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a long end-to-end test (deselect with -m 'not slow')")
