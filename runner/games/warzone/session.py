"""One Warzone match in progress, as the core's `Session` (runner/games/interface.py). Pure: no I/O.

It owns the GameState, renders each alive player's view, parses their orders and plays the turn.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from runner.games.interface import Absent, Answer, Fault, KiB, Outcome, TurnInput, TurnReport
from runner.games.warzone.protocol.event_text import render_event
from runner.games.warzone.protocol.orders_text import index_names, parse_orders
from runner.games.warzone.protocol.state_json import (
    BotReport, map_document, render_state_json, shared_document, state_document,
)
from runner.games.warzone.protocol.state_txt import render_board_lines, render_state_txt
from runner.games.warzone.rules.board import WarMap
from runner.games.warzone.rules.orders import OrderSheet
from runner.games.warzone.rules.ranking import rank_seats
from runner.games.warzone.rules.settings import Rules
from runner.games.warzone.rules.setup import start_game
from runner.games.warzone.rules.state import GameState
from runner.games.warzone.rules.turn import TurnResult, begin_turn, play_turn

#: What each fault is called in `last_turn.bot.status` (spec 4.2).
FAULT_STATUS = {Fault.TIMEOUT: "timeout", Fault.OVER_BUDGET: "timeout", Fault.CRASH: "crash",
                Fault.FAILED_TO_START: "crash"}
ABSENT_STATUS = {Absent.NO_FILE: "no_file", Absent.REFUSED: "refused"}
_NO_ANSWER = Answer("", absent=Absent.NO_FILE)  # a seat the core sent no answer for: no orders.txt


#: The orders.txt bytes that count (spec 4.1: the first 64 KiB). `Game.answer_file` asks the core for one
#: byte more, so a larger file is told apart exactly from one of exactly 64 KiB.
ORDERS_CAP_BYTES = 64 * KiB


def is_too_large(text: str) -> bool:
    """Whether the answer read is longer than the 64 KiB that count (the core read one byte more)."""
    return len(text) * 4 > ORDERS_CAP_BYTES and len(text.encode("utf-8", "surrogatepass")) > ORDERS_CAP_BYTES


def counted_orders(text: str) -> str:
    """The first 64 KiB of an answer (spec 4.1); a character the cut splits is dropped."""
    if not is_too_large(text):
        return text
    return text.encode("utf-8", "surrogatepass")[:ORDERS_CAP_BYTES].decode("utf-8", "ignore")


def bot_report(answer: Answer) -> BotReport:
    """The status the bot's next state shows (spec 4.2 `last_turn.bot`).

    No orders.txt is `no_file`, one the core refused (a symlink out of the folder, ...) `refused`, an empty one
    `ok` with no orders. `verify` rebuilds each Answer from the logged orders.txt and status, so logs replay
    identically."""
    if answer.fault is not None:
        status = FAULT_STATUS.get(answer.fault, "crash")
    elif answer.absent is not None:
        status = ABSENT_STATUS[answer.absent]
    elif is_too_large(answer.text):
        status = "too_large"
    else:
        status = "ok"
    seconds = getattr(answer, "seconds", None)
    return BotReport(status, round(seconds, 3) if isinstance(seconds, (int, float)) else None)


def turn_record(result: TurnResult, bots: Mapping[str, BotReport]) -> dict[str, Any]:
    """The full record of a turn: `events.json` and the turn's `log.jsonl` line (spec 4.7)."""
    return {
        "turn": result.turn,
        "turn_order": list(result.turn_order),
        "events": list(result.events),
        "rejected": {seat: [attrs.asdict(r) for r in result.rejected.get(seat, ())] for seat in result.turn_order},
        "cards_drawn": {seat: list(result.cards_drawn.get(seat, ())) for seat in result.turn_order},
        "bots": {seat: bots[seat].as_json() for seat in result.turn_order if seat in bots},
    }


class WarzoneSession:
    """A match on one map with 2-6 seats; `names` are the players' names shown to bots (default: the seat)."""

    def __init__(self, warmap: WarMap, rules: Rules, seats: Sequence[str], seed: int,
                 names: Mapping[str, str] | None = None, details: Mapping[str, Any] | None = None,
                 state: GameState | None = None) -> None:
        self.seats = tuple(seats)
        self.turn_limit: int | None = rules.max_turns or None
        self.warmap = warmap
        self.rules = rules
        self.names = dict(names or {})
        self._details = dict(details or {})
        if state is None:
            state = start_game(warmap, rules, self.seats, seed)
            begin_turn(state, warmap, rules)
        self.state = state
        self.last: TurnResult | None = None
        self.bots: dict[str, BotReport] = {}
        self._names_index = index_names(warmap)
        self._map_doc = map_document(warmap)
        self._map_json = render_state_json(self._map_doc)  # identical every turn (spec 4.2)

    @property
    def turn(self) -> int:
        return self.state.turn

    def active_seats(self) -> tuple[str, ...]:
        """Alive seats, in seat order (eliminated players' bots are not started again, spec 4.1)."""
        return self.state.alive_seats()

    def document(self, seat: str, shared: dict[str, Any] | None = None) -> dict[str, Any]:
        """`seat`'s state.json as data."""
        if shared is None:
            shared = shared_document(self.state, self.warmap, self.rules, self.names, self._map_doc)
        return state_document(self.state, self.warmap, self.rules, seat, shared, self.last, self.bots)

    def inputs(self) -> dict[str, TurnInput]:
        inputs = {}
        shared = shared_document(self.state, self.warmap, self.rules, self.names, self._map_doc)
        fragments = {"map": self._map_json}  # the parts every seat shares, rendered once (same bytes)
        board_lines = None
        for seat in self.active_seats():
            document = self.document(seat, shared)
            if board_lines is None:
                board_lines = render_board_lines(document)
            inputs[seat] = TurnInput(files={"state.json": render_state_json(document, fragments),
                                            "state.txt": render_state_txt(document, board_lines)})
        return inputs

    def parse(self, text: str) -> OrderSheet:
        return parse_orders(text, self._names_index, self.seats, self.rules.max_orders)

    def play_turn(self, answers: Mapping[str, Answer]) -> TurnReport:
        """Parse every alive seat's orders (a missing answer is no orders) and play the turn."""
        if self.state.is_over:
            return TurnReport(events=("the match is over; nothing played",))
        seats = self.active_seats()
        answers = {seat: answers.get(seat, _NO_ANSWER) for seat in seats}
        sheets = {seat: self.parse(counted_orders(answers[seat].text)) for seat in seats}
        self.bots = {seat: bot_report(answers[seat]) for seat in seats}
        result = play_turn(self.state, self.warmap, self.rules, sheets)
        self.last = result
        record = turn_record(result, self.bots)
        rejected = {seat: tuple(f"line {r.line}: {r.code}: {r.message} ({r.text})" for r in rows)
                    for seat, rows in result.rejected.items() if rows}
        return TurnReport(
            events=tuple(render_event(event) for event in result.events),
            rejected=rejected,
            log_files={"events.json": json.dumps(record, ensure_ascii=False, indent=1)},
            record=record,
        )

    def outcome(self) -> Outcome | None:
        if not self.state.is_over:
            return None
        # spec 2.9: a turn-limit end has no winner even when the ranking has one seat on top; Outcome.winner
        # reads the ranking, so `draw` says it explicitly
        return Outcome(reason=self.state.end_reason or "", ranking=rank_seats(self.state),
                       details={**self._details, "draw": self.state.winner is None},
                       draw=self.state.winner is None)

    def standings(self) -> dict[str, dict[str, int | float]]:
        """Territories, armies on the board, pool and hand size per seat (and the turn it went out)."""
        table: dict[str, dict[str, int | float]] = {}
        for seat, player in self.state.players.items():
            row: dict[str, int | float] = {"territories": len(self.state.owned_by(seat)),
                                           "armies": self.state.armies_of(seat), "pool": player.pool,
                                           "cards": player.card_count}
            if player.eliminated_turn is not None:
                row["eliminated_turn"] = player.eliminated_turn
            table[seat] = row
        return table

    def text_view(self) -> str:
        """Players, the board and the previous turn's events, for spectators (no hands)."""
        state = self.state
        lines = [f"Warzone turn {state.turn}/{self.rules.max_turns or '-'} on {self.warmap.name or '(map)'}"]
        for seat, row in self.standings().items():
            status = "alive" if state.players[seat].alive else f"out (turn {row['eliminated_turn']})"
            lines.append(f"{seat} {self.names.get(seat, seat)}: {status}, {row['territories']} territories, "
                         f"{row['armies']} armies, pool {row['pool']}, {row['cards']} cards")
        for territory in self.warmap.territories:
            tid = territory.id
            lines.append(f"  {tid:>4} {territory.name:<24} {state.owner[tid]:<8} {state.armies[tid]:>6}")
        if self.last is not None:
            lines.append(f"Turn {self.last.turn} events:")
            lines.extend("  " + render_event(event) for event in self.last.events)
        return "\n".join(lines) + "\n"

    def final_files(self, names: Mapping[str, str]) -> dict[str, str]:
        """`result.txt`: how the match ended and the ranking with names."""
        outcome = self.outcome()
        if outcome is None:
            return {}
        lines = [f"end_reason {outcome.reason}", f"winner {outcome.winner or '-'}", f"turns {self.last.turn if self.last else 0}"]
        for rank, group in enumerate(outcome.ranking, start=1):
            lines.extend(f"rank {rank} {seat} {names.get(seat, seat)}" for seat in group)
        return {"result.txt": "\n".join(lines) + "\n"}

    def snapshot(self) -> dict[str, Any]:
        """The whole state as data (including the streams' positions, which bots never see)."""
        state = self.state
        return {
            "turn": state.turn,
            "play_order": list(state.play_order),
            "board": [{"id": tid, "owner": state.owner[tid], "armies": state.armies[tid]}
                      for tid in self.warmap.territory_ids],
            "players": {seat: {"pool": p.pool, "hand": dict(p.hand), "eliminated_turn": p.eliminated_turn}
                        for seat, p in state.players.items()},
            "deck": dict(state.deck),
            "streams": {"cards": state.cards_rng.state, "battle": state.battle_rng.state},
            "end_reason": state.end_reason,
            "winner": state.winner,
            "last_turn": None if self.last is None else turn_record(self.last, self.bots),
        }
