"""Replay a spec 11 trace through the rules and list every difference (spec 11: compare every field).

Pure: the caller reads the file and passes the decoded lines. Accepted commands are re-validated (a
disagreement shows up as a `rejected` difference) but applied as the trace recorded them, as spec 11
asks ("skipping validation"); a rejected file's `raw` text is validated to compare the error list.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import attrs

from runner.games.lanes.protocol.commands import parse_commands, read_orders
from runner.games.lanes.protocol.trace import render_end, render_turn_record
from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.rules.orders import Orders, Problem
from runner.games.lanes.rules.state import PLAYERS, GameState, new_game
from runner.games.lanes.rules.turn import decide, play_turn


@attrs.frozen
class Difference:
    """One field of one turn (None: the end line) that the replay does not reproduce."""

    turn: int | None
    field: str
    expected: Any
    got: Any

    def __str__(self) -> str:
        where = "end" if self.turn is None else f"turn {self.turn}"
        return f"{where}: {self.field}: trace has {_short(self.expected)}, replay gives {_short(self.got)}"


@attrs.frozen
class TraceReplay:
    turns: int
    differences: tuple[Difference, ...]

    @property
    def same(self) -> bool:
        return not self.differences


def diff_records(turn: int | None, expected: Mapping[str, Any], got: Mapping[str, Any]) -> list[Difference]:
    """Field by field; for `steps` the first differing timestep (spec 11: the one to debug)."""
    found = []
    for key in dict.fromkeys([*expected, *got]):
        want, have = expected.get(key), got.get(key)
        if want == have:
            continue
        if key == "steps" and isinstance(want, list) and isinstance(have, list):
            index = next((i for i, (a, b) in enumerate(zip(want, have)) if a != b), min(len(want), len(have)))
            found.append(Difference(turn, f"steps[t={index + 1}]", _at(want, index), _at(have, index)))
        else:
            found.append(Difference(turn, key, want, have))
    return found


def replay_trace(lines: Sequence[Mapping[str, Any]], config: LanesConfig | None = None) -> TraceReplay:
    """Replay the decoded lines of a trace (header, turn records, end line) and compare everything."""
    config = config or LanesConfig()
    records = [line for line in lines if "turn" in line]
    ends = [line["end"] for line in lines if "end" in line]
    state = new_game(config)
    differences: list[Difference] = []
    for record in records:
        replayed, state = replay_turn(config, state, record)
        differences += diff_records(record.get("turn"), record, replayed)
    if ends:
        result = decide(config, state)
        got = render_end(state.turn - 1, state.players, result)["end"] if result else {"running": True}
        differences += diff_records(None, ends[0], got)
    return TraceReplay(len(records), tuple(differences))


@attrs.frozen
class LoggedAnswer:
    """One player's answer as a log keeps it: the file text, or the bot fault the log recorded (E01)."""

    text: str
    fault_problems: tuple[Problem, ...] = ()


def answers_of_record(record: Mapping[str, Any]) -> list[LoggedAnswer]:
    """spec 11: a rejected file's text is `raw`; an accepted one is its normalised `commands`."""
    raw = list(record.get("raw") or [None, None])
    answers = []
    for player in PLAYERS:
        if raw[player] is None:
            answers.append(LoggedAnswer("".join(f"{line}\n" for line in record["commands"][player])))
        else:
            rejected = record.get("rejected", [[], []])[player]
            answers.append(LoggedAnswer("\n".join(raw[player]), recorded_faults(rejected)))
    return answers


def recorded_faults(rejected: Sequence[str]) -> tuple[Problem, ...]:
    """E01 (the bot crashed, timed out or wrote nothing) cannot be re-derived from a text: take the log's."""
    if rejected and all(line.startswith("E01 ") for line in rejected):
        return tuple(Problem("E01", None, line[4:]) for line in rejected)
    return ()


def replay_answers(
    config: LanesConfig, state: GameState, answers: Sequence[LoggedAnswer]
) -> tuple[dict[str, Any], GameState, list[list[Problem]]]:
    """Play one turn from logged answers: the record this engine writes, the next state, the problems."""
    orders: list[Orders | None] = []
    problems: list[list[Problem]] = []
    raw: list[list[str] | None] = []
    for player, answer in enumerate(answers):
        if answer.fault_problems:
            accepted, found = None, list(answer.fault_problems)
        else:
            accepted, found = read_orders(answer.text, state, player, config)
        orders.append(accepted)
        problems.append(found)
        raw.append(None if accepted is not None else answer.text.split("\n"))
    errors = (tuple(map(str, problems[0])), tuple(map(str, problems[1])))
    result = play_turn(config, state, (orders[0], orders[1]), errors)
    record = render_turn_record(state.turn, orders, problems, raw, result, config.soldier_types)
    return record, result.state, problems


def replay_turn(config: LanesConfig, state: GameState, record: Mapping[str, Any]) -> tuple[dict[str, Any], GameState]:
    """Play one recorded turn from `state`; the record this engine would write, and the next state.

    An accepted file is re-validated, but applied as recorded even if this engine disagrees (spec 11).
    """
    answers = answers_of_record(record)
    replayed, after, _ = replay_answers(config, state, answers)
    if any(replayed["rejected"][p] and answers[p].fault_problems == () and record["rejected"][p] == []
           for p in PLAYERS):
        forced = [parse_commands(a.text, state.turn, config).orders if record["rejected"][p] == [] else None
                  for p, a in enumerate(answers)]
        errors = tuple(tuple(r) for r in record["rejected"])
        result = play_turn(config, state, (forced[0], forced[1]), (errors[0], errors[1]))
        after = result.state
        replayed = {**render_turn_record(state.turn, forced, [[], []], [None, None], result, config.soldier_types),
                    "rejected": replayed["rejected"]}
    return replayed, after


def iter_first(differences: Sequence[Difference], limit: int) -> Iterator[str]:
    for difference in differences[:limit]:
        yield str(difference)
    if len(differences) > limit:
        yield f"... and {len(differences) - limit} more differences"


def _at(values: list[Any], index: int) -> Any:
    return values[index] if index < len(values) else None


def _short(value: Any, limit: int = 200) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
