"""The board a session plays on: the compiled one (rules/_board.c) when it is built, else the pure Python rules.

Both give byte-identical request lines, log lines and records (tests/games/invaders/test_invaders_board.py);
the compiled one takes a turn's Python cost from ~80 us to a few us. The pure rules stay the reference and
the fallback: `TD_RUNNER_PURE_PYTHON=1` in the environment forces them (for tests, or if the build misbehaves),
and they are used when the extension is missing (no compiler at install) or stale (its compiled-in SHA-256
differs from rules/_board.c on disk: rebuild with `pip install -e .` or `python setup.py build_ext --inplace`).

Parsing and checking answers stays in Python for both (rules/actions.py, rules/turn.py): the compiled board
only carries out actions that passed the checks, and its rows hand the checks and views copies of the cells.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from runner import compiled
from runner.compiled import PURE_ENV, pure_forced  # noqa: F401  (this module's names since it was first written)
from runner.games.invaders.protocol.lines import SentTowers, render_delta, render_state_json
from runner.games.invaders.protocol.record import RecordRenderer, add_faults, dumps, word
from runner.games.invaders.rules.actions import Build, DefenderAction, Spawn, Upgrade
from runner.games.invaders.rules.state import Invader, State, Tower
from runner.games.invaders.rules.turn import APPLIED, NO_ACTION, QUIET_TURN, Actions, Penalty, finish_turn, start_turn

SOURCE = Path(__file__).resolve().parent / "rules" / "_board.c"


def source_digest(path: Path = SOURCE) -> str | None:
    """SHA-256 of the C source on disk (what setup.py compiles into the module), None if it is not there."""
    return compiled.source_digest(path)


def compiled_module() -> ModuleType | None:
    """The built extension, or None: not built, or built from another version of the source (a warning)."""
    module = compiled.load_compiled("runner.games.invaders.rules._board", SOURCE, "the Invaders rules")
    if module is not None:
        module.bind(Invader, Tower)
    return module


_COMPILED = compiled_module()
QUIET_WORDS = (word(NO_ACTION), word(NO_ACTION))  # `ir` and `dr` of most turns


class PureBoard:
    """The pure Python rules and renderers behind one interface with CompiledBoard."""

    compiled = False

    def __init__(self) -> None:
        self.state = State()
        self._sent = SentTowers()
        self._records = RecordRenderer()
        self._penalty: Penalty | None = None

    def start_turn(self) -> None:
        """Phases A-G; the penalty is kept for the turn's record."""
        self._penalty = start_turn(self.state)

    def finish_turn(self, invader: Any, defender: Any) -> Actions:
        return finish_turn(self.state, invader, defender)

    def state_json(self) -> str:
        return render_state_json(self.state)

    def delta(self) -> str:
        return render_delta(self.state, self._sent)

    def record(self, invader: Any, defender: Any, actions: Actions, faults: Mapping[str, str],
               disqualified: list[str] | None = None) -> tuple[dict[str, Any], str]:
        """The turn's log record and line (protocol/record.py), with the penalty of the last start_turn."""
        return self._records.render(self.state, invader, defender, actions, self._penalty, faults, disqualified)

    def record_line(self, invader: Any, defender: Any, actions: Actions) -> str:
        """The line alone of a turn without faults (what the match writes; the record is read from it when
        something asks: TurnReport.record)."""
        return self.record(invader, defender, actions, {})[1]

    def quiet_line(self) -> str:
        """record_line of a quiet turn: both answers null, no fault (finish_turn had nothing to do)."""
        return self.record_line(None, None, QUIET_TURN)


def _spawn(board: Any, spawn: Spawn) -> None:
    board.spawn(spawn.hp, spawn.defense, spawn.stun_res)


def _defend(board: Any, action: DefenderAction) -> None:
    if isinstance(action, Build):
        board.build(action.pos, action.type)
    elif isinstance(action, Upgrade):
        board.upgrade(action.pos, action.stat)
    else:
        board.destroy(action.pos)


class CompiledBoard:
    """rules/_board.c's Board: the state (with State's attributes and rows of copies) and the hot path."""

    compiled = True

    def __init__(self, module: ModuleType) -> None:
        self.state = module.Board()
        # PureBoard's methods, the board's own (no Python frame): start_turn keeps the penalty for the record
        self.start_turn, self.state_json, self.delta = self.state.start_turn, self.state.state_json, self.state.delta

    def finish_turn(self, invader: Any, defender: Any) -> Actions:
        if invader is None and defender is None:  # finish_turn's own shortcut, a call earlier
            return QUIET_TURN
        return finish_turn(self.state, invader, defender, _spawn, _defend)

    def record(self, invader: Any, defender: Any, actions: Actions, faults: Mapping[str, str],
               disqualified: list[str] | None = None) -> tuple[dict[str, Any], str]:
        record, line = self.state.record(*_record_arguments(invader, defender, actions))
        if faults or disqualified is not None:
            line = line[:-1] + add_faults(record, faults, disqualified) + "}"
        return record, line

    def record_line(self, invader: Any, defender: Any, actions: Actions) -> str:
        """PureBoard.record_line: the line alone, no dict made (the board's own call)."""
        return self.state.record_line(*_record_arguments(invader, defender, actions))

    def quiet_line(self) -> str:
        """PureBoard.quiet_line: the board's own call with the quiet turn's arguments, made once."""
        return self.state.record_line(*_QUIET_ARGUMENTS)


def _record_arguments(invader: Any, defender: Any, actions: Actions) -> tuple[Any, ...]:
    """The compiled board's record arguments: the values, their JSON texts, whether the spawn went ahead, what
    became of each action and its JSON text."""
    ir, dr = actions.invader, actions.defender
    return (invader, defender, "null" if invader is None else dumps(invader), "null" if defender is None else dumps(defender),
            ir == APPLIED, ir, dr, *(QUIET_WORDS if actions is QUIET_TURN else (word(ir), word(dr))))


#: _record_arguments of the quiet turn (both answers null, no fault): most turns of most games
_QUIET_ARGUMENTS = _record_arguments(None, None, QUIET_TURN)


def new_board(compiled: bool | None = None) -> PureBoard | CompiledBoard:
    """A board at turn 0. By default the compiled one when it is built and TD_RUNNER_PURE_PYTHON is not set;
    `compiled=False` asks for the pure one, `compiled=True` for the compiled one (ValueError if not built)."""
    if compiled is None:
        compiled = _COMPILED is not None and not pure_forced()
    if not compiled:
        return PureBoard()
    if _COMPILED is None:
        raise ValueError(f"the compiled board is not built or is stale ({SOURCE.name})")
    return CompiledBoard(_COMPILED)
