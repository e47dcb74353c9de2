"""Fixtures: play a Session with scripted answers (`play`), write its log in the core's JsonlLog layout
(`write_log`). Fixtures rather than an importable module, so any pytest import mode works."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from runner.games.interface import Answer
from runner.games.invaders import GAME
from runner.games.invaders.session import InvadersSession

Script = Callable[[int, dict], str]


def play_session(session: InvadersSession, defender: Script, invader: Script) -> list[dict]:
    """Play to the end; each script gets (turn, request) and returns the answer line. Returns the records."""
    records = []
    while session.outcome() is None:
        inputs = session.inputs()
        requests = {seat: json.loads(inputs[seat].line) for seat in session.active_seats()}
        answers = {
            "defender": Answer(defender(session.turn, requests["defender"])),
            "invader": Answer(invader(session.turn, requests["invader"])),
        }
        records.append(session.play_turn(answers).record)
    return records


def write_session_log(folder: Path, session: InvadersSession, records: list[dict]) -> Path:
    """The files the core's JsonlLog writer leaves: match.json, game-config.json, log.jsonl."""
    folder.mkdir(parents=True, exist_ok=True)
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


@pytest.fixture
def play() -> Callable[..., list[dict]]:
    return play_session


@pytest.fixture
def write_log() -> Callable[..., Path]:
    return write_session_log


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a long end-to-end test (deselect with -m 'not slow')")
