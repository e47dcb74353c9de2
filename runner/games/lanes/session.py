"""One Lanes match in progress behind the core's `Session` interface (pure: the core does all the I/O).

Seats are `P1` and `P2` as the spec names the players; seat i is player index i of the rules.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from runner.games.interface import Absent, Answer, Fault, Outcome, TurnInput, TurnReport
from runner.games.lanes.protocol.commands import read_orders
from runner.games.lanes.protocol.state_json import render_state, render_state_data
from runner.games.lanes.protocol.text_map import render_map
from runner.games.lanes.protocol.trace import (
    RESULT_NAMES,
    raw_lines,
    render_end,
    render_header,
    render_record_line,
    render_turn_record,
)
from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.rules.orders import Orders, Problem
from runner.games.lanes.rules.state import PLAYERS, GameState, new_game
from runner.games.lanes.rules.turn import Result, decide, play_turn

SEATS = ("P1", "P2")
#: Files of a turn folder: the spec 11 record of the turn, and the match's trace beside the last turn.
TURN_FILE = "turn.json"
TRACE_FILE = "trace.jsonl"

#: spec 10.5 E01: why a bot gave no file, by the core's fault, when the core gave no words of its own (`detail`).
FAULT_MESSAGES = {
    Fault.TIMEOUT: "bot did not finish within the time limit",
    Fault.CRASH: "bot crashed or exited with a non-zero status",
    Fault.FAILED_TO_START: "bot failed to start",
    Fault.OVER_BUDGET: "bot went over its time budget",
}
NO_FILE = "bot wrote no commands.txt"


def read_answer(config: LanesConfig, state: GameState, player: int, answer: Answer) -> tuple[Orders | None, list[Problem]]:
    """An answer as orders, or the problems that reject it.

    spec 10.5 E01 for a fault (`E01 bot did not finish within 5.0 s`, `E01 bot exited with status 1`, in the
    core's words) and for no file; an empty commands.txt is a file without its header, validated like any other
    (E03 ... E04)."""
    if answer.fault is not None:
        message = f"bot {answer.detail}" if answer.detail else FAULT_MESSAGES.get(answer.fault, "bot failed")
        return None, [Problem("E01", None, message)]
    if answer.absent is Absent.REFUSED:
        return None, [Problem("E01", None, f"bot {answer.detail}" if answer.detail else NO_FILE)]
    if answer.absent is Absent.NO_FILE:
        return None, [Problem("E01", None, NO_FILE)]
    return read_orders(answer.text, state, player, config)


class LanesSession:
    """A match: the rules' state plus what the log and the result table need."""

    def __init__(self, config: LanesConfig, seats: Sequence[str] = SEATS) -> None:
        self.config = config
        self.seats = tuple(seats)
        self.turn_limit: int | None = config.max_turns
        self.state = new_game(config)
        self.result: Result | None = None
        self.records: list[dict[str, Any]] = []  # spec 11 records of the turns played
        self.totals = {seat: {"scored": 0, "killed": 0, "towers_destroyed": 0} for seat in self.seats}

    @property
    def turn(self) -> int:
        return self.state.turn

    def active_seats(self) -> tuple[str, ...]:
        return () if self.result else self.seats

    def inputs(self) -> dict[str, TurnInput]:
        """spec 10.1.2: map.txt, then errors.txt and state.json (the core writes them in this order)."""
        text_map = render_map(self.config, self.state)
        return {
            seat: TurnInput(
                files={
                    "map.txt": text_map,
                    "errors.txt": "".join(f"{line}\n" for line in self.state.errors[player]),
                    "state.json": render_state(self.config, self.state, player),
                }
            )
            for player, seat in enumerate(self.seats)
        }

    def play_turn(self, answers: Mapping[str, Answer]) -> TurnReport:
        """Read both answers (any text), play the turn, and report it; never raises on an answer."""
        before = self.state
        orders: list[Orders | None] = []
        problems: list[list[Problem]] = []
        raw: list[list[str] | None] = []
        for player, seat in enumerate(self.seats):
            answer = answers.get(seat, Answer("", Fault.CRASH))
            accepted, found = read_answer(self.config, before, player, answer)
            orders.append(accepted)
            problems.append(found)
            raw.append(None if accepted is not None else raw_lines(answer.text))
        errors = (tuple(map(str, problems[0])), tuple(map(str, problems[1])))
        played = play_turn(self.config, before, (orders[0], orders[1]), errors)
        self.state = played.state
        self.result = decide(self.config, self.state)
        record = render_turn_record(before.turn, orders, problems, raw, played, self.config.soldier_types)
        self.records.append(record)
        summary = played.summary
        for player, seat in enumerate(self.seats):
            other = 1 - player
            self.totals[seat]["scored"] += summary.scored[player]
            self.totals[seat]["killed"] += summary.killed[other]  # enemy soldiers this seat's towers killed
            self.totals[seat]["towers_destroyed"] += summary.towers_lost[other]
        events = [self._summary_line(before.turn, played.state, summary.scored, summary.killed, summary.towers_lost)]
        events += [f"{seat}: {error}" for seat, seat_errors in zip(self.seats, errors) for error in seat_errors]
        return TurnReport(
            events=tuple(events),
            rejected={seat: errors[p] for p, seat in enumerate(self.seats) if errors[p]},
            log_files={TURN_FILE: render_record_line(record) + "\n"},
            record=record,
        )

    def _summary_line(self, turn: int, state: GameState, scored, killed, lost) -> str:
        hp = " ".join(f"{seat} hp {state.players[p].hp}" for p, seat in enumerate(self.seats))
        return (
            f"turn {turn}: {hp}; scored {scored[0]}-{scored[1]}, soldiers killed {killed[0]}-{killed[1]}, "
            f"towers lost {lost[0]}-{lost[1]}"
        )

    def outcome(self) -> Outcome | None:
        """spec 4.4: the winner ranks first; a draw is one group of both seats."""
        if self.result is None:
            return None
        if self.result.winner is None:
            ranking: tuple[tuple[str, ...], ...] = (self.seats,)
        else:
            ranking = ((self.seats[self.result.winner],), (self.seats[1 - self.result.winner],))
        details = {"hp": {seat: self.state.players[p].hp for p, seat in enumerate(self.seats)}}
        return Outcome(reason=self.result.reason, ranking=ranking, details=details)

    def standings(self) -> dict[str, dict[str, int | float]]:
        return {
            seat: {
                "hp": self.state.players[p].hp,
                "money": self.state.players[p].money,
                "towers": len(self.state.towers[p]),
                "soldiers": sum(self.state.players[p].soldiers.values()),
                **self.totals[seat],
            }
            for p, seat in enumerate(self.seats)
        }

    def text_view(self) -> str:
        """The spectator's map (money shown: spectators see everything) and the last turn's summary."""
        view = render_map(self.config, self.state, show_money=True)
        if self.records:
            last = self.records[-1]
            view += "".join(
                f"{seat}: {' '.join(last['commands'][p][1:-1]) or '(nothing)'}"
                + (f"  rejected: {'; '.join(last['rejected'][p])}" if last["rejected"][p] else "")
                + "\n"
                for p, seat in enumerate(self.seats)
            )
        return view

    def final_files(self, names: Mapping[str, str]) -> dict[str, str]:
        """The whole match as a spec 11 trace (`td-runner verify` replays it), beside the last turn."""
        header = render_header("td-runner match", [names.get(seat, seat) for seat in self.seats])
        lines = [json.dumps(header)]  # header and end lines as the reference traces write them
        lines += [render_record_line(record) for record in self.records]
        if self.result is not None:
            lines.append(json.dumps(render_end(self.state.turn - 1, self.state.players, self.result)))
        return {TRACE_FILE: "".join(f"{line}\n" for line in lines)}

    def snapshot(self) -> dict[str, Any]:
        return {
            "turn": self.state.turn,
            "players": [render_state_data(self.config, self.state, p) for p in PLAYERS],
            "result": None if self.result is None else RESULT_NAMES[self.result.winner],
        }

