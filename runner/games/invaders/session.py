"""One Invaders match in progress behind the core's `Session` interface (runner/games/interface.py).

The state is held between phases G and I of the current turn (spec 4 H): that is what both bots are shown,
and their answers complete the turn. Pure: no files, processes or clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from runner.games.interface import Answer, Outcome, TurnInput, TurnReport
from runner.games.invaders.config import DISQUALIFY, InvadersConfig
from runner.games.invaders.board import new_board
from runner.games.invaders.protocol import parse_answer, render_board, render_request
from runner.games.invaders.protocol.lines import DELTA, render_delta_request
from runner.games.invaders.rules import APPLIED, NO_ACTION, Actions, is_over, render_row, render_view
from runner.games.invaders.rules.turn import QUIET_TURN

DEFENDER = "defender"
INVADER = "invader"
SEATS = (DEFENDER, INVADER)
DISQUALIFIED = "disqualified"
#: An empty read-only mapping, shared: a TurnInput's files (a persistent bot gets its line only), a TurnReport's
#: log files and, on most turns, its refusals. attrs would make a new dict each time.
NO_FILES: Mapping[str, Any] = MappingProxyType({})


def answer_value(answer: Answer | None) -> tuple[Any, str | None]:
    """A seat's answer -> (JSON value, fault description or None). A missing answer is a fault too."""
    if answer is None:
        return None, "no answer"
    if answer.fault is not None:
        return None, answer.fault.value
    if answer.text == "null":  # most answers of most turns
        return None, None
    parsed = parse_answer(answer.text)
    return parsed.value, parsed.error


def match_score(reason: str, turns: int, max_turns: int, disqualified: tuple[str, ...]) -> int:
    """spec 18 Score: turns lasted; a disqualified defender scores 0, a disqualified invader gives the cap."""
    if reason != DISQUALIFIED:
        return turns
    return 0 if DEFENDER in disqualified else max_turns


class InvadersSession:
    """An Invaders match: `seats` are ("defender", "invader") whatever order the core passes."""

    seats = SEATS

    def __init__(self, config: InvadersConfig, compiled: bool | None = None) -> None:
        """`compiled`: the board (board.py): None for the default (compiled if built), False or True to insist."""
        self.config = config
        self.turn_limit: int | None = config.max_turns
        self._board = new_board(compiled)  # the state, the rules, and the request and log renderers
        self.state = self._board.state
        self._board.start_turn()  # turn 1, phases A-G: what the bots decide on
        self._outcome: Outcome | None = None
        self._score = 0
        self._delta_seats: tuple[str, ...] = ()  # seats sent the delta request (protocol/lines.py)
        self._delta: tuple[int, str] | None = None  # (turn, body) of the last delta rendered

    def use_request_format(self, seat: str, name: str) -> None:
        """Send `seat` the `name` request (`InvadersGame.request_formats`); before the first `inputs()`."""
        if name != DELTA or seat not in SEATS:
            raise ValueError(f"invaders has no request format {name!r} for seat {seat!r}")
        if self._delta is not None:  # a delta builds on every earlier one: the seat must get them all
            raise ValueError("request formats are chosen before the first request")
        self._delta_seats = tuple(sorted({*self._delta_seats, seat}))

    @property
    def turn(self) -> int:
        return self.state.turn

    def active_seats(self) -> tuple[str, ...]:
        return () if self._outcome else SEATS

    def inputs(self) -> dict[str, TurnInput]:
        turn = self.state.turn
        delta_seats = self._delta_seats
        lines = {}
        if len(delta_seats) < len(SEATS):
            state_json = self._board.state_json()  # spec 4 H: both sides see the same state
            for seat in SEATS:
                if seat not in delta_seats:
                    lines[seat] = render_request(turn, seat, state_json)
        if delta_seats:
            delta = self._delta
            if delta is None or delta[0] != turn:  # once per turn: it moves the board's towers sent on
                delta = self._delta = (turn, self._board.delta())
            for seat in delta_seats:
                lines[seat] = render_delta_request(turn, seat, delta[1])
        return {DEFENDER: TurnInput(NO_FILES, lines[DEFENDER]), INVADER: TurnInput(NO_FILES, lines[INVADER])}

    def play_turn(self, answers: Mapping[str, Answer]) -> TurnReport:
        """Complete the current turn with both answers (spec 4 I-K), then start the next one."""
        defender_answer, invader_answer = answers.get(DEFENDER), answers.get(INVADER)
        if (defender_answer is not None and invader_answer is not None and defender_answer.text == "null"
                and invader_answer.text == "null" and defender_answer.fault is None and invader_answer.fault is None):
            # the quiet turn, most turns of most games (both answers null): nothing to parse, check or apply
            line = self._board.quiet_line()
            self._advance()
            return TurnReport((), NO_FILES, NO_FILES, None, line)
        defender, defender_fault = answer_value(defender_answer)
        invader, invader_fault = answer_value(invader_answer)
        faults: dict[str, str] = {}
        events: list[str] = []
        unread: dict[str, tuple[str, ...]] = {}
        if defender_fault is not None or invader_fault is not None:  # SEATS order
            faults = {seat: fault for seat, fault in ((DEFENDER, defender_fault), (INVADER, invader_fault))
                      if fault is not None}
            if self.config.faults == DISQUALIFY:
                return self._disqualify({DEFENDER: defender, INVADER: invader}, faults)
            events = [f"{seat}: fault ({fault}), played as no action" for seat, fault in faults.items()]
            defender = None if defender_fault is not None else defender
            invader = None if invader_fault is not None else invader
            # an answer that is not JSON is refused for its content (the core counts it as invalid); a fault of
            # the core's (crash, time-out) is counted by the core
            unread = {seat: (f"fault: {fault}",) for seat, fault in faults.items()
                      if (answers.get(seat) is not None and answers[seat].fault is None)}
        actions = self._board.finish_turn(invader, defender)
        record: dict[str, Any] | None = None  # TurnReport.record reads it from the line when asked
        if faults:
            record, line = self._board.record(invader, defender, actions, faults)
        else:
            line = self._board.record_line(invader, defender, actions)
        rejected: Mapping[str, tuple[str, ...]] = NO_FILES  # the same empty read-only mapping
        if actions is not QUIET_TURN:
            refused = {seat: (result,) for seat, result in ((INVADER, actions.invader), (DEFENDER, actions.defender))
                       if result not in (APPLIED, NO_ACTION)}
            events.extend(f"{seat}: ignored: {result}" for seat, (result,) in refused.items())
            rejected = refused or rejected
        if unread:
            rejected = {**unread, **rejected}
        self._advance()
        return TurnReport(tuple(events), rejected, NO_FILES, record, line)  # positional: attrs' init is slow

    def _record(self, values: Mapping[str, Any], actions: Actions, faults: Mapping[str, str],
                disqualified: list[str] | None = None) -> tuple[dict[str, Any], str]:
        """The log line of spec 18 (record and text): the spec 16 row, then what became of each action (`ir`,
        `dr`), the faults and the disqualified seats (`dq`) if any."""
        return self._board.record(values[INVADER], values[DEFENDER], actions, faults, disqualified)

    def _disqualify(self, values: Mapping[str, Any], faults: Mapping[str, str]) -> TurnReport:
        """spec 18 Faults: the match ends at once; neither answer of this turn is applied."""
        losers = tuple(seat for seat in SEATS if seat in faults)
        values = {seat: None if seat in faults else value for seat, value in values.items()}
        actions = Actions(DISQUALIFIED, DISQUALIFIED)
        record, line = self._record(values, actions, faults, list(losers))
        others = tuple(seat for seat in SEATS if seat not in faults)
        ranking = (others, losers) if others else (losers,)
        self._score = match_score(DISQUALIFIED, self.state.turn, self.config.max_turns, losers)
        self._outcome = Outcome(
            reason=DISQUALIFIED,
            ranking=ranking,
            details={
                "disqualified": losers[0] if len(losers) == 1 else list(losers),
                "faults": dict(faults),
                "score": self._score,
            },
        )
        events = tuple(f"{seat}: disqualified ({fault})" for seat, fault in faults.items())
        return TurnReport(events=events, rejected={seat: (f"fault: {faults[seat]}",) for seat in losers}, record=record,
                          record_line=line)

    def _advance(self) -> None:
        """spec 4 K and spec 18 turn cap: end the match, or run phases A-G of the next turn."""
        state = self.state
        if is_over(state):
            self._end("life", (INVADER,), (DEFENDER,))
        elif state.turn >= self.config.max_turns:
            self._end("max_turns", (DEFENDER,), (INVADER,))
        else:
            self._board.start_turn()

    def _end(self, reason: str, first: tuple[str, ...], second: tuple[str, ...]) -> None:
        # decision: the invader wins a game it ends (life 0); the defender wins one that reaches the cap
        self._score = self.state.turn
        self._outcome = Outcome(reason=reason, ranking=(first, second), details={"score": self._score})

    def outcome(self) -> Outcome | None:
        return self._outcome

    def standings(self) -> dict[str, dict[str, int | float]]:
        """Per seat: the match score (turns lasted, spec 18), the turns played, life, and that side's gold."""
        state = self.state
        score = self._score if self._outcome else state.turn
        common = {"score": score, "turns": state.turn, "life": state.defender_life}
        return {
            DEFENDER: {**common, "gold": state.defender_gold},
            INVADER: {**common, "gold": state.invader_gold},
        }

    def text_view(self) -> str:
        return render_board(render_row(self.state))

    def final_files(self, names: Mapping[str, str]) -> dict[str, str]:
        return {}  # a JsonlLog game: the last log.jsonl line already holds the final state

    def snapshot(self) -> dict[str, Any]:
        return {"state": render_view(self.state), "row": render_row(self.state)}
