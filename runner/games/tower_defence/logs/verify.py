"""Replay a match log's recorded commands through our engine and compare every file it would write."""

from __future__ import annotations

import concurrent.futures
import multiprocessing
from typing import Any

import attrs

from runner.games.tower_defence.engine.config import GameConfig
from runner.games.tower_defence.engine.game import check_game_over, play_round
from runner.games.tower_defence.engine.state import PLAYERS, CommandOrder, GameState
from runner.games.tower_defence.logs.compare import Difference, compare_states, compare_text
from runner.games.tower_defence.logs.layout import CONSOLE, JSON_MAP, TEXT_MAP, MatchLog
from runner.games.tower_defence.protocol import Renderers
from runner.games.tower_defence.protocol.end_game import render_end_game_state



#: `Divergence.where` of a round folder the log lacks.
MISSING_FOLDER = "(folder)"


@attrs.frozen
class Divergence:
    """The first place our output differs from the log. `player` is None for endGameState.txt."""

    round: int
    player: str | None
    file: str
    where: str  # JSON path, or "line N" for text files
    expected: Any
    actual: Any

    def describe(self) -> str:
        if self.where == MISSING_FOLDER:
            return f"round {self.round}: the log lacks the folder {self.file}"
        who = f", player {self.player}" if self.player else ""
        return (
            f"round {self.round}{who}, {self.file}, {self.where}: "
            f"expected {self.expected!r}, actual {self.actual!r}"
        )


@attrs.frozen
class VerifyReport:
    rounds: int  # rounds compared
    identical: int  # rounds whose files were all identical
    first_divergence: Divergence | None
    result_identical: bool
    order: CommandOrder
    note: str | None = None  # e.g. why the result could not be compared

    @property
    def ok(self) -> bool:
        return self.first_divergence is None and self.result_identical

    def to_json(self) -> dict[str, Any]:
        divergence = None if self.first_divergence is None else attrs.asdict(self.first_divergence)
        return {
            "rounds": self.rounds,
            "identical": self.identical,
            "first_divergence": divergence,
            "result_identical": self.result_identical,
            "order": str(self.order),
            "note": self.note,
        }


def compare_json_state(recorded: str, ours: str) -> tuple[str, Any, Any] | None:
    """Compare JSON states modulo missile ids and the key order of the gameDetails maps (conformance README)."""
    try:
        return _first(compare_states(recorded, ours, ignore_list_order=False, limit=1))
    except ValueError as exc:
        return ("(file)", f"invalid JSON: {exc}", "valid JSON")


def compare_plain_text(recorded: str, ours: str) -> tuple[str, Any, Any] | None:
    return _first(compare_text(recorded, ours, limit=1))


def _first(differences: list[Difference]) -> tuple[str, Any, Any] | None:
    return (differences[0].path, differences[0].expected, differences[0].actual) if differences else None


class _Replay:
    """One replay of a log with a given command order."""

    def __init__(self, log: MatchLog, config: GameConfig, order: CommandOrder, commands: list[dict[str, str]]) -> None:
        self.log = log
        self.order = order
        self.commands = commands
        self.state = GameState.new(config, command_order=order)
        self.renderers = Renderers(config)

    def compare_round(self, number: int) -> Divergence | None:
        state, renderers = self.state, self.renderers
        console = renderers.console(state)
        files = renderers.player_files(state)
        for seat in PLAYERS:
            state_json, text_map = files[seat]
            ours = (
                (JSON_MAP, state_json, compare_json_state),
                (TEXT_MAP, text_map, compare_plain_text),
                (CONSOLE, console, compare_plain_text),
            )
            for name, text, compare in ours:
                recorded = self.log.player_file(number, seat, name)
                if recorded is None:
                    return Divergence(number, seat, name, "(file)", "missing from the log", "present")
                difference = compare(recorded, text)
                if difference is not None:
                    return Divergence(number, seat, name, *difference)
        return None

    def run(self, first: int = 0, stop: int | None = None) -> VerifyReport:
        """Compare the round folders `log.rounds[first:stop]`; earlier rounds are only played, not compared.

        A slice that ends before the log does and finds nothing reports `result_identical=True` for itself
        (the last slice decides the result).
        """
        state, commands = self.state, self.commands
        numbers = self.log.rounds[first:stop]
        while numbers and state.round < numbers[0] and state.round < len(commands):
            if check_game_over(state) is not None:
                break
            play_round(state, commands[state.round])
        identical = 0
        game_over = False
        for number in numbers:
            if number != state.round:
                missing = Divergence(state.round, None, f"Round {state.round:03d}", MISSING_FOLDER, "missing", "present")
                return VerifyReport(identical, identical, missing, False, self.order)
            divergence = self.compare_round(number)
            if divergence is not None:
                return VerifyReport(identical + 1, identical, divergence, False, self.order)
            identical += 1
            if check_game_over(state) is not None:
                game_over = True
                break
            if number < len(commands):
                play_round(state, commands[number])
        if stop is not None and stop < len(self.log.rounds) and not game_over:
            return VerifyReport(identical, identical, None, True, self.order)
        return self._check_result(identical)

    def _check_result(self, identical: int) -> VerifyReport:
        state, log = self.state, self.log
        result = check_game_over(state)
        recorded = log.end_game_state()
        if result is None:
            note = (
                f"the log stops at round {log.final_round} without {'endGameState.txt'}; "
                f"our engine would go on to round {state.round}"
            )
            return VerifyReport(identical, identical, None, False, self.order, note)
        if state.round != log.final_round:
            divergence = Divergence(state.round, None, "endGameState.txt", "(final round)",
                                    f"game goes on to round {log.final_round}", f"game over at round {state.round}")
            return VerifyReport(identical, identical, divergence, False, self.order)
        names = {seat: log.player_dirs[seat] for seat in PLAYERS}
        ours = render_end_game_state(state, result, names)
        if recorded is None:
            note = f"round {log.final_round} has no endGameState.txt; ours would say {ours.splitlines()[0]!r}"
            return VerifyReport(identical, identical, None, False, self.order, note)
        difference = compare_plain_text(recorded, ours)
        if difference is not None:
            divergence = Divergence(state.round, None, "endGameState.txt", *difference)
            return VerifyReport(identical, identical, divergence, False, self.order)
        return VerifyReport(identical, identical, None, True, self.order)


def recorded_order(log: MatchLog) -> CommandOrder | None:
    """The command order written by the conformance driver (driver-notes.json), if any."""
    notes = log.driver_notes()
    if notes and isinstance(notes.get("commandProcessingOrder"), str):
        return CommandOrder.parse(notes["commandProcessingOrder"])
    return None


def verify_log(
    log: MatchLog, config: GameConfig, order: CommandOrder | None = None, workers: int = 1
) -> VerifyReport:
    """Replay `log` with `order`, or with the recorded/detected order when None (spec 3.4).

    Detection: replay with B,A (the official default); if that diverges, also try A,B and keep the replay
    that gets further. Only list orders depend on it, so the better one is the right one.
    With `workers` > 1 a long log is split into consecutive slices compared in parallel processes.
    """
    commands = log.commands()
    if order is None:
        order = recorded_order(log)
    if order is not None:
        return _verify(log, config, order, commands, workers)
    first = _verify(log, config, CommandOrder.B_FIRST, commands, workers)
    if first.ok:
        return first
    second = _verify(log, config, CommandOrder.A_FIRST, commands, workers)
    return second if (second.ok or second.identical > first.identical) else first


#: Below this many rounds a second process costs more than it saves.
PARALLEL_MIN_ROUNDS = 120


def _verify_slice(log: MatchLog, config: GameConfig, order: CommandOrder, commands: list[dict[str, str]],
                  first: int, stop: int | None) -> VerifyReport:
    return _Replay(log, config, order, commands).run(first, stop)


def _verify(log: MatchLog, config: GameConfig, order: CommandOrder, commands: list[dict[str, str]],
            workers: int) -> VerifyReport:
    count = len(log.rounds)
    workers = max(1, min(workers, count // (PARALLEL_MIN_ROUNDS // 2)))
    if workers == 1:
        return _verify_slice(log, config, order, commands, 0, None)
    # Slices are pure replays (fast-forwarding through earlier rounds costs ~50 us a round), so each
    # process rebuilds its own state; "fork" shares the already-imported modules.
    bounds = [count * index // workers for index in range(workers + 1)]
    context = multiprocessing.get_context("fork")
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
        futures = [
            pool.submit(_verify_slice, log, config, order, commands, start, stop if stop < count else None)
            for start, stop in zip(bounds, bounds[1:])
        ]
        reports = [future.result() for future in futures]
    identical = 0
    for report in reports:
        if report.first_divergence is not None or report is reports[-1]:
            return attrs.evolve(report, rounds=identical + report.rounds, identical=identical + report.identical)
        identical += report.identical
    raise AssertionError("unreachable: the last slice always returns")
