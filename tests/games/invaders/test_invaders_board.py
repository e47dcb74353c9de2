"""The compiled board (rules/_board.c, chosen by board.py) against the pure Python rules, which stay the
reference: twin sessions, one on each board, are given the same answers and must produce byte-identical
request lines (default and delta), log lines, records (JSON text and key order), events, refusals, standings,
snapshots, text views and outcomes. On the six reference traces, and on random games (hypothesis seeds) with
valid, invalid, junk and huge answers, faults under both policies, turn caps, and late states where the HP
multiplier grows, wraps spawn HP through ToInt32 and the hoarding multiplier is a float.

Skipped where the extension is not built (an install without a compiler plays on the pure rules); a build
from another version of _board.c fails `test_the_build_is_from_this_source` with the command to rebuild.
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runner.games.interface import Answer, Fault
from runner.games.invaders import board
from runner.games.invaders.config import FAULT_POLICIES, InvadersConfig
from runner.games.invaders.protocol.lines import DELTA
from runner.games.invaders.rules import constants as C
from runner.games.invaders.rules.state import Invader, Tower
from runner.games.invaders.rules.turn import QUIET_TURN
from runner.games.invaders.session import DEFENDER, INVADER, SEATS, InvadersSession

DATA = Path(__file__).parent / "data"
TRACES = sorted(DATA.glob("*.jsonl.gz"))

try:
    from runner.games.invaders.rules import _board
except ImportError:  # not built: the pure rules are all there is
    _board = None

needs_build = pytest.mark.skipif(board._COMPILED is None, reason="the compiled board is not built (or is stale)")


def test_the_build_is_from_this_source() -> None:
    if _board is None:
        pytest.skip("the compiled board is not built")
    assert _board.SOURCE_SHA256 == board.source_digest(), (
        "runner/games/invaders/rules/_board.c changed since the extension was built: rebuild it "
        "(pip install -e . or python setup.py build_ext --inplace)")


def test_the_switch_forces_the_pure_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(board.PURE_ENV, "1")
    assert board.new_board().compiled is False
    assert InvadersSession(InvadersConfig())._board.compiled is False
    monkeypatch.setenv(board.PURE_ENV, "0")
    assert board.new_board().compiled is (board._COMPILED is not None)


@pytest.fixture(autouse=True)
def record_dict_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A session asks the compiled board for the line alone on a turn without faults (record_line, quiet_line:
    TurnReport.record decodes it when read): here each such call also builds the board's dict of that turn,
    which must encode to the very line, so the dict (made on fault turns) is held to the pure rules on every
    turn too."""
    if board._COMPILED is None:
        return
    line_only = board.CompiledBoard.record_line

    def both(self: Any, invader: Any, defender: Any, actions: Any) -> str:
        line = line_only(self, invader, defender, actions)
        record, same_line = self.record(invader, defender, actions, {})
        assert same_line == line == encoded(record)
        return line

    monkeypatch.setattr(board.CompiledBoard, "record_line", both)
    quiet_only = board.CompiledBoard.quiet_line

    def quiet_both(self: Any) -> str:
        line = quiet_only(self)
        record, same_line = self.record(None, None, QUIET_TURN, {})
        assert same_line == line == encoded(record)
        return line

    monkeypatch.setattr(board.CompiledBoard, "quiet_line", quiet_both)


def twins(config: InvadersConfig, delta: tuple[str, ...]) -> list[InvadersSession]:
    """A session on the pure rules and one on the compiled board, `delta` seats on the delta request."""
    sessions = [InvadersSession(config, compiled=flag) for flag in (False, True)]
    for session in sessions:
        for seat in delta:
            session.use_request_format(seat, DELTA)
    return sessions


def encoded(record: Any) -> str:
    return json.dumps(record, separators=(",", ":"))


def same_views(pure: InvadersSession, compiled: InvadersSession) -> None:
    assert compiled.standings() == pure.standings() and compiled.turn == pure.turn
    assert compiled.text_view() == pure.text_view()
    assert encoded(compiled.snapshot()) == encoded(pure.snapshot())
    assert compiled.outcome() == pure.outcome() and compiled.active_seats() == pure.active_seats()


def play_turn(sessions: list[InvadersSession], answers: dict[str, Answer]) -> None:
    """One turn on both: the same inputs, then the same report."""
    pure, compiled = sessions
    expected, got = pure.inputs(), compiled.inputs()
    assert {seat: got[seat].line for seat in SEATS} == {seat: expected[seat].line for seat in SEATS}
    expected, got = pure.play_turn(answers), compiled.play_turn(answers)
    assert got.record_line == expected.record_line
    assert encoded(got.record) == encoded(expected.record) == got.record_line  # bytes, key order, True vs 1
    assert (got.events, got.rejected) == (expected.events, expected.rejected)


def load_answers(path: Path) -> list[tuple[Any, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]
    return [(row["ia"], row["da"]) for row in rows[1:]]


@needs_build
@pytest.mark.parametrize("path", TRACES, ids=lambda p: p.name.removesuffix(".jsonl.gz"))
def test_reference_traces_agree(path: Path) -> None:
    """The defender on the delta request, the invader on the default one: both formats every turn."""
    sessions = twins(InvadersConfig(), (DEFENDER,))
    for number, (invader, defender) in enumerate(load_answers(path)):
        play_turn(sessions, {DEFENDER: Answer(json.dumps(defender)), INVADER: Answer(json.dumps(invader))})
        if number % 1000 == 0:
            same_views(*sessions)
    same_views(*sessions)  # idle__vs__idle's trace stops at turn 20000 with the game still on


# answer lines that are no JSON, or JSON that json.loads turns into odd values (inf, huge ints, lone surrogates)
JUNK_TEXTS = ["", "{bad", "NaN", "1e400", " null ", "5.0", "1" + "0" * 30, '"\\ud800"', "[" * 3000 + "]" * 3000]


def answer(rng: random.Random, value: Any, fault_rate: float) -> Answer:
    roll = rng.random()
    if roll < fault_rate:
        return Answer("", fault=rng.choice(list(Fault)))
    if roll < fault_rate * 3:
        return Answer(rng.choice(JUNK_TEXTS))
    return Answer(json.dumps(value))


def make_late(session: InvadersSession, turn: int, rng: random.Random) -> None:
    """A state near the HP multiplier's growth at a multiple of turn 25000, with a grown economy: spawn HP past
    2**31 wraps (ToInt32), the hoarding multiplier is a float, gold and the boost cap are large."""
    state = session.state
    state.turn = turn
    state.hp_multiplier = rng.choice((1.0, 1.1, 1.1**7, 12345.678, 2.0**40))
    state.invader_income = rng.randint(10, 400)
    state.invader_boost_max = rng.choice((5, 1000, 10**9))
    state.invader_gold = rng.choice((0, 10**4, 10**12))
    state.defender_gold = rng.choice((0, 50, 10**6))
    state.turns_since_spawn = rng.randint(0, 200)


@needs_build
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), policy=st.sampled_from(FAULT_POLICIES), max_turns=st.integers(1, 300),
       late=st.booleans(), delta=st.sampled_from([(), (DEFENDER,), (INVADER,), SEATS]),
       fault_rate=st.sampled_from([0.0, 0.003, 0.03]))
def test_random_games_agree(seed: int, policy: str, max_turns: int, late: bool, delta: tuple[str, ...],
                            fault_rate: float, random_answers: SimpleNamespace) -> None:
    rng = random.Random(seed)
    start = 25_000 * rng.randint(1, 3) - rng.randint(1, 15) if late else 0
    sessions = twins(InvadersConfig(max_turns=start + max_turns, faults=policy), delta)
    if late:
        state_seed = rng.random()
        for session in sessions:
            make_late(session, start, random.Random(state_seed))
    pure, compiled = sessions
    while pure.outcome() is None:
        answers = {DEFENDER: answer(rng, random_answers.defender(rng), fault_rate),
                   INVADER: answer(rng, random_answers.invader(rng, pure.state), fault_rate)}
        if rng.random() < 0.01:
            del answers[rng.choice(SEATS)]  # no answer at all: a fault too
        play_turn(sessions, answers)
        if rng.random() < 0.05:
            same_views(pure, compiled)
    same_views(pure, compiled)


@needs_build
def test_rows_are_copies_with_the_pure_types() -> None:
    (session,) = [InvadersSession(InvadersConfig(), compiled=True)]
    for _ in range(12):  # a tower and an invader on the board
        session.inputs()
        session.play_turn({DEFENDER: Answer('{"action":"build","type":"bomb","pos":3}'), INVADER: Answer('{"hp":0}')})
    state = session.state
    assert len(state.towers) == len(state.invaders) == C.BOARD_LENGTH
    tower = state.towers[3]
    assert isinstance(tower, Tower) and (tower.pos, tower.type, tower.range) == (3, "bomb", 2)
    assert attrs.astuple(state.towers[-97]) == attrs.astuple(tower) and state.towers[4] is None
    assert [i.pos for i in state.invaders if i is not None] and all(
        isinstance(i, Invader) for i in state.invaders if i is not None)
    tower.power = 50  # a copy: the board is unchanged
    assert state.towers[3].power == 1
    with pytest.raises(IndexError):
        state.towers[100]


@needs_build
def test_the_board_refuses_actions_the_checks_would_refuse() -> None:
    """The board trusts the Python checks, but an unchecked call cannot corrupt it."""
    state = _board.Board()
    state.build(5, "turret")
    for call, args in ((state.build, (5, "bomb")), (state.build, (6, "wall")), (state.build, (100, "bomb")),
                       (state.upgrade, (7, "power")), (state.upgrade, (5, "speed")), (state.destroy, (8,)),
                       (state.spawn, (-1, 0, 0))):
        with pytest.raises(ValueError):
            call(*args)
    with pytest.raises(OverflowError):
        state.spawn(10**30, 0, 0)
    state.spawn(0, 0, 0)
    with pytest.raises(ValueError):
        state.spawn(0, 0, 0)  # cell 0 is occupied
