"""The turn loop: one game session + N players + the match log. Every active bot runs at the same time.

Knows games only through runner/games/interface.py: the session says who plays and what each bot
receives, the bots answer (a fresh process per turn, or a persistent one), the session applies the answers.
A bot never makes this loop raise: its turn becomes an `Answer` with a fault, and the game decides.
"""

from __future__ import annotations

import gc
import json
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol

import attrs

from runner.bots.definition import BotDefinition
from runner.bots.framing import FrameReader
from runner.bots.limits import Limits
from runner.bots.outcome import TurnOutcome, TurnStatus
from runner.bots.persistent import STARTUP_MS, PersistentBot, Request, collect_all, exchange
from runner.bots.process import run_turn
from runner.games.interface import (
    Answer,
    AnswerLines,
    BotMode,
    Fault,
    FolderLog,
    Game,
    JsonlLog,
    Outcome,
    Session,
    TimeBudget,
    TurnReport,
)
from runner.matchlog.bot_output import BotOutputLog, output_path
from runner.matchlog.record import RECORD_FILE, header_line, turn_line
from runner.matchlog.writer import MatchLogWriter

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

    #: a folder log's turn waiting to be written: its folder's name, each seat's files, the turn's own files
    FolderTurn = tuple[str, dict[str, dict[str, str]], dict[str, str]]

INTERRUPTED = "interrupted"
MATCH_JSON = "match.json"
LAST_OUTPUT_CHARS = 4096

#: statuses as module constants: `TurnStatus.OK` goes through the enum class's __getattr__ hook (Python 3.11),
#: several times a turn
_OK, _TIMEOUT = TurnStatus.OK, TurnStatus.TIMEOUT
_CRASHED = (TurnStatus.CRASH, TurnStatus.FAILED_TO_START)
_FAULTS = {
    TurnStatus.TIMEOUT: Fault.TIMEOUT,
    TurnStatus.CRASH: Fault.CRASH,
    TurnStatus.FAILED_TO_START: Fault.FAILED_TO_START,
}


@attrs.frozen
class Player:
    """A seat's player: a bot, or a human at the terminal when `bot` is None (official console player)."""

    seat: str
    name: str  # log folder and end-of-game name, e.g. "A - StarterBot"
    bot: BotDefinition | None

    @property
    def language(self) -> str:
        return self.bot.language if self.bot else "console"


#: Reads one command line from a human for a seat, given the spectator's view; used for console players.
ConsoleInput = Callable[[str, str], str]


@attrs.define
class PlayerTally:
    """Per player counters that end up in match.json: the core's one fault model, the same for every game.

    Each fault (time-out, crash, failure to start, over-budget block) is counted once, when it happens, with
    one event in the core's words (`{"round", "fault", "event"}`): a dead persistent bot asked again is not a
    new crash (`TurnOutcome.repeated`). `invalid_commands` counts answers the game refused for their content
    (`MatchRunner.play_one_turn`), never a fault or a missing answer file."""

    timeouts: int = 0
    crashes: int = 0  # crashes and failures to start (match.json has always counted both here)
    failed_to_start: int = 0  # of `crashes`, the failures to start
    over_budget: int = 0  # blocks of turns whose mean answer time went over the game's time budget
    invalid_commands: int = 0
    bot_seconds: float = 0.0
    turns: int = 0  # turns this seat's bot was asked
    failed_turns: int = 0  # turns without a proper answer (a dead bot's every turn): `failed_every_turn`
    events: list[dict[str, Any]] = attrs.field(factory=list)
    answer_seconds: list[float] = attrs.field(factory=list)  # every answer's time, for mean/p99/max
    block: list[float] = attrs.field(factory=list)  # answer times of the current budget block
    last_output: str = ""  # the end of the latest non-empty bot output (a start-up crash's traceback)

    def answer(self, round_number: int, outcome: TurnOutcome, budget: TimeBudget | None) -> Answer:
        """Count one bot turn, and give the Answer the game reads from it: its fault (no file, a refused one, the
        core's words) and, for a persistent bot of a game with a time budget, OVER_BUDGET when the block this
        answer ends went over it (an event here). The match and runner.api's bot folders both answer through it."""
        self.turns += 1
        status, seconds = outcome.status, outcome.seconds
        if outcome.output:
            self.last_output = outcome.output[-LAST_OUTPUT_CHARS:]
        self.bot_seconds += seconds
        self.answer_seconds.append(seconds)
        fault = None
        if status is not _OK:  # an enum's hash is Python code: no lookup for the usual turn
            fault = _FAULTS.get(status)
            self.failed_turns += 1
            if not outcome.repeated:
                if status is _TIMEOUT:
                    self.timeouts += 1
                elif status in _CRASHED:
                    self.crashes += 1
                    self.failed_to_start += status is TurnStatus.FAILED_TO_START
                self.events.append(_fault_event(round_number, fault, outcome.detail, outcome.events))
        elif outcome.events:  # notes that are no fault (output truncated, a refused file, a late answer dropped)
            self.events.append({"round": round_number, "event": "; ".join(outcome.events)})
        detail = outcome.detail
        # the block of the budget: the first answer (start-up included) has its own limit and does not count
        # (invaders spec 18); the block is judged when it is full (in line: this runs every turn of every seat)
        if budget is not None and self.turns > 1:
            block = self.block
            block.append(seconds)
            if len(block) >= budget.block_turns and (broken := self.close_block(budget, round_number)) is not None:
                self.over_budget += 1
                self.events.append({"round": round_number, "fault": Fault.OVER_BUDGET.value, "event": broken})
                if fault is None:
                    fault, detail = Fault.OVER_BUDGET, f"went over its time budget: {broken}"
        return Answer(outcome.command, fault, seconds, outcome.absent, detail)

    def close_block(self, budget: TimeBudget, round_number: int) -> str | None:
        """End the full block of answer times: why it broke the budget, or None."""
        mean_ms = sum(self.block) / len(self.block) * 1000
        first = round_number - len(self.block) + 1
        self.block.clear()
        if mean_ms <= budget.mean_ms:
            return None
        return (f"mean answer time {mean_ms:.1f} ms over turns {first}-{round_number} is over the budget of "
                f"{budget.mean_ms:g} ms per {budget.block_turns} turns")

    def answer_ms(self) -> dict[str, float] | None:
        """mean, p99 and max answer time in milliseconds (None before any answer)."""
        if not self.answer_seconds:
            return None
        ordered = sorted(self.answer_seconds)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        return {
            "mean": round(sum(ordered) / len(ordered) * 1000, 3),
            "p99": round(p99 * 1000, 3),
            "max": round(ordered[-1] * 1000, 3),
        }

    @property
    def failed_every_turn(self) -> bool:
        """Whether the bot never gave a proper answer (it could not start, or crashed/timed out every turn)."""
        return self.turns > 0 and self.failed_turns >= self.turns


def _fault_event(round_number: int, fault: Fault | None, detail: str, notes: tuple[str, ...]) -> dict[str, Any]:
    """A fault's one event: the core's notes of the turn in one line ("exit code 3", "timed out after 2000 ms,
    process tree killed; killed 1 leftover process"), else the Answer's detail ("bot did not finish ...")."""
    text = "; ".join(notes) if notes else f"bot {detail}" if detail else "no answer"
    return {"round": round_number, "fault": fault.value if fault else "crash", "event": text}


@attrs.frozen
class MatchSummary:
    game: str
    folder: Path
    players: tuple[Player, ...]
    tallies: dict[str, PlayerTally]
    standings: dict[str, dict[str, int | float]]
    outcome: Outcome | None
    rounds: int
    end_reason: str
    seed: int
    options: dict[str, Any]
    game_config: dict[str, Any]
    wall_seconds: float
    turn_word: str = "turn"  # the game's word for a turn (Game.turn_word), for the result line
    last_turn: int | None = None  # the number of the last turn played (Tower Defence numbers rounds from 0)

    def turns_text(self) -> str:
        """`16 rounds`, `1 turn`: how long the match lasted, in the game's own word."""
        return f"{self.rounds} {self.turn_word}{'' if self.rounds == 1 else 's'}"

    def end_text(self) -> str:
        """When the match ended: `round 6` where turns are numbered from 0 (`--max-rounds 6` plays rounds 0
        to 6, which `7 rounds` made look like one too many), else as `turns_text`."""
        if self.last_turn is not None and self.last_turn == self.rounds - 1:
            return f"{self.turn_word} {self.last_turn}"
        return self.turns_text()

    @property
    def interrupted(self) -> bool:
        return self.end_reason == INTERRUPTED

    @property
    def winner(self) -> str | None:
        return self.outcome.winner if self.outcome else None

    @property
    def failing_players(self) -> list[Player]:
        """Bots that never answered properly: the result line and stderr say so."""
        return [p for p in self.players if p.bot is not None and self.tallies[p.seat].failed_every_turn]

    def to_json(self) -> dict[str, Any]:
        players = []
        for player in self.players:
            tally = self.tallies[player.seat]
            players.append(
                {
                    "seat": player.seat,
                    "name": player.name,
                    "bot_dir": str(player.bot.bot_dir) if player.bot else None,
                    "language": player.language,
                    **self.standings.get(player.seat, {}),
                    "timeouts": tally.timeouts,
                    "crashes": tally.crashes,
                    "over_budget": tally.over_budget,
                    "invalid_commands": tally.invalid_commands,
                    "bot_seconds": round(tally.bot_seconds, 3),
                    "answer_ms": tally.answer_ms(),
                    "events": tally.events,
                }
            )
        ranking = [list(group) for group in self.outcome.ranking] if self.outcome else None
        return {
            "game": self.game,
            "players": players,
            "winner": self.winner,
            "ranking": ranking,
            "rounds": self.rounds,
            "end_reason": self.end_reason,
            **(dict(self.outcome.details) if self.outcome else {}),
            "seed": self.seed,
            "options": self.options,
            "game_config": self.game_config,
            "wall_seconds": round(self.wall_seconds, 3),
        }


class MatchObserver(Protocol):
    """Receives progress; the CLI draws it."""

    def round_played(
        self, round_number: int, session: Session, report: TurnReport, outcomes: dict[str, TurnOutcome]
    ) -> None: ...


@attrs.frozen
class MatchSettings:
    players: tuple[Player, ...]
    folder: Path  # the match folder to create
    seed: int = 0
    limits: Limits = Limits()
    options: dict[str, Any] = attrs.field(factory=dict)  # the game's option values, recorded in match.json
    game_config: dict[str, Any] = attrs.field(factory=dict)  # the config as JSON, recorded in match.json
    extra_files: Mapping[str, str | bytes] = attrs.field(factory=dict)  # written beside the turns (configs, map)
    startup_ms: int = STARTUP_MS  # persistent bots: limit of the start-up and first answer


def _bot_output(outcome: TurnOutcome) -> str:
    """The bot's own output, then one line per runner event so authors see what happened."""
    notes = "".join(f"[td-runner] {event}\n" for event in outcome.events)
    return outcome.output + notes


def _threads(count: int, name: str) -> ThreadPoolExecutor:
    from concurrent.futures import ThreadPoolExecutor  # at first use (MatchRunner.pool)

    return ThreadPoolExecutor(max_workers=count, thread_name_prefix=name)


def uses_persistent(game: Game, bot: BotDefinition) -> bool:
    """Whether this bot runs as one process for the match: the game's only mode, or bot.json's opt-in."""
    if game.bot_modes == frozenset({BotMode.PERSISTENT}):
        return True
    return BotMode.PERSISTENT in game.bot_modes and bot.persistent


def open_persistent(game: Game, bot: BotDefinition, limits: Limits, startup_ms: int = STARTUP_MS) -> PersistentBot:
    """A persistent bot for `game`: the game's own request lines and `accept_line`, or, where the game offers
    them (`Game.persistent_frames`), the core's frames of its input files and answer file
    (runner/bots/framing.py), its answer read as a per-turn bot's answer file is."""
    answer = game.answer_file
    frames = None
    if getattr(game, "persistent_frames", False):  # a game written before the frames has none
        frames = FrameReader(answer.name, max(limits.command_cap_bytes, answer.cap_bytes),
                             answer.lines is AnswerLines.ALL)
    return PersistentBot(bot, limits, game.accept_line, answer.name, startup_ms, game.answers_in_order, frames)


class MatchRunner:
    """Plays one match from the first turn to the end, writing the log as it goes."""

    def __init__(
        self,
        game: Game,
        session: Session,
        settings: MatchSettings,
        observer: MatchObserver | None = None,
        console_input: ConsoleInput | None = None,
    ) -> None:
        self.game = game
        self.session = session
        self.settings = settings
        self.observer = observer
        self.console_input = console_input
        self.players = {player.seat: player for player in settings.players}
        self.tallies = {seat: PlayerTally() for seat in self.players}
        self.writer = MatchLogWriter(settings.folder, {seat: p.name for seat, p in self.players.items()})
        self.limits = {seat: self._limits_for(seat) for seat in self.players}  # after the log folder exists
        self.persistent: dict[str, PersistentBot] = {
            p.seat: open_persistent(game, p.bot, self.limits[p.seat], settings.startup_ms)
            for p in settings.players
            if p.bot is not None and uses_persistent(game, p.bot)
        }
        #: the game's time budget for each persistent seat (None: per-turn bots and humans)
        self.budgets = {seat: game.time_budget if seat in self.persistent else None for seat in self.players}
        for seat, bot in self.persistent.items():
            if bot.bot.request is not None:  # checked against game.request_formats by runner/play.py
                session.use_request_format(seat, bot.bot.request)  # type: ignore[attr-defined]
        bot_dirs = [p.bot.bot_dir for p in settings.players if p.bot]
        # one folder for two seats (self-play): their files would collide, so take turns like the official runner
        self.sequential = len(bot_dirs) != len(set(bot_dirs))
        # see run_players; bots of the core's frames are always asked through send and collect_all
        self.all_persistent = (not self.sequential and len(self.persistent) == len(self.players)
                               and not getattr(game, "persistent_frames", False))
        # made at its first use (_threads): a match of persistent bots needs none, and concurrent.futures costs
        # ~8 ms to import (it loads logging), a few % of a short match's fixed cost
        self._pool: ThreadPoolExecutor | None = None  # per-turn bots, all at once
        # the log of a turn (a folder log's turn folder, a log.jsonl's line, the core's record line) is written
        # on this thread right after the next turn's requests are sent, while the bots think, and before the
        # runner waits for anything (write_deferred_lines): no log thread, whose GIL and futex hand-offs cost
        # more CPU than the writes themselves. A log.jsonl game's bot output is gathered per seat and written
        # at the end (runner/matchlog/bot_output.py)
        self.deferred_folders: list[FolderTurn] = []
        #: (file name, the game's line | its record to encode | a turn of the core's record to format)
        self.deferred_lines: list[tuple[str, str | Mapping[str, Any] | tuple[Any, ...]]] = []
        self.bot_output = (BotOutputLog(tuple(self.players), settings.limits.output_cap_bytes)
                           if isinstance(game.log, JsonlLog) else None)
        self.folder_log = isinstance(game.log, FolderLog)
        self.view_logged = self.folder_log and game.log.view is not None  # type: ignore[union-attr]
        self.humans = frozenset(seat for seat, player in self.players.items() if player.bot is None)
        self.turns_played = 0  # match.json's `rounds` (Tower Defence: the number of the final round folder)
        self.last_turn: int | None = None  # the session's number of the last turn played
        self.stopped_by: KeyboardInterrupt | None = None  # what interrupted the match, if anything

    @property
    def pool(self) -> ThreadPoolExecutor:
        """The threads per-turn bots run on (made at the first such turn)."""
        if self._pool is None:
            self._pool = _threads(len(self.players), "bot")
        return self._pool

    def _limits_for(self, seat: str) -> Limits:
        """In the sandbox, each bot also loses sight of the other bots' folders and of the match log
        (bots run at once, so one could otherwise read another's answer as it is written)."""
        limits = self.settings.limits
        player = self.players[seat]
        if not limits.sandbox or player.bot is None:
            return limits
        others = [p.bot.bot_dir for p in self.settings.players if p.bot and p.bot.bot_dir != player.bot.bot_dir]
        return attrs.evolve(limits, hidden_paths=(*limits.hidden_paths, *others, self.settings.folder.resolve()))

    def run(self) -> MatchSummary:
        started = time.monotonic()
        for name, content in self.settings.extra_files.items():
            self.writer.write_file(name, content)
        self.write_record_header()
        end_reason = INTERRUPTED
        outcome: Outcome | None = None
        # what exists before the first turn (modules, the session, the caller's objects) lives to the end of the
        # match: frozen, the collector's full passes skip it (13% of the runner's own instructions per persistent
        # turn); thawed at the end for the caller (`td-runner match`, a league or tournament worker, tests)
        gc.freeze()
        try:
            while (outcome := self.session.outcome()) is None:
                self.play_one_turn()
            self.write_final_turn()
            end_reason = outcome.reason
        except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM (runner.interrupts.Terminated)
            outcome = None
            self.stopped_by = stop
        finally:
            gc.unfreeze()
            if self._pool is not None:
                self._pool.shutdown(wait=True, cancel_futures=True)
            for bot in self.persistent.values():
                bot.close()
            self.finish_log_writes()  # every turn already played reaches the disk, Ctrl-C or not
        summary = MatchSummary(
            game=self.game.name,
            folder=self.settings.folder,
            players=self.settings.players,
            tallies=self.tallies,
            standings=self.session.standings(),
            outcome=outcome,
            rounds=self.turns_played,
            end_reason=end_reason,
            seed=self.settings.seed,
            options=self.settings.options,
            game_config=self.settings.game_config,
            wall_seconds=time.monotonic() - started,
            turn_word=getattr(self.game, "turn_word", "turn"),  # a game written before Game.turn_word: "turn"
            last_turn=self.last_turn,
        )
        self.writer.write_json(MATCH_JSON, summary.to_json())
        return summary

    def play_one_turn(self) -> None:
        session = self.session
        turn = session.turn
        active = session.active_seats()
        inputs = session.inputs()
        # the text view: for a folder log that keeps it, or for a human who plays this turn
        view = session.text_view() if self.view_logged or (self.humans and self._human_plays(active)) else ""
        outcomes = self.run_players(turn, active, inputs, view)
        tallies, budgets = self.tallies, self.budgets
        answers = {}
        for seat, outcome in outcomes.items():  # a loop, not a comprehension: no frame of its own (3.11)
            answers[seat] = tallies[seat].answer(turn, outcome, budgets[seat])
        report = session.play_turn(answers)
        self.turns_played += 1
        self.last_turn = turn
        if report.rejected:  # refused for its content: a fault or a missing file is counted as such, not here
            for seat in report.rejected:
                answer = answers.get(seat)
                # a faulty turn is its fault alone (a bot that wrote a command, then crashed, is one crash)
                if answer is not None and answer.fault is None and answer.absent is None:
                    tallies[seat].invalid_commands += 1
        # the core's record line (runner/matchlog/record.py) is formatted off the turn's path, after the turn's
        # folder or the game's line, while the next turn's bots think (write_deferred_lines)
        if self.folder_log:
            self.log_turn(turn, {seat: inputs[seat].files for seat in active}, view, outcomes, report)
        else:  # a log.jsonl: no files
            self.log_line(turn, outcomes, report)
        self.deferred_lines.append((RECORD_FILE, (turn, answers, inputs, report)))
        if self.observer is not None:
            self.observer.round_played(turn, session, report, outcomes)

    def _human_plays(self, active: tuple[str, ...]) -> bool:
        return any(seat in self.humans for seat in active)

    def run_players(
        self, turn: int, active: tuple[str, ...], inputs: Mapping[str, Any], view: str
    ) -> dict[str, TurnOutcome]:
        """Run every active bot seat at once (one after the other for self-play); humans answer meanwhile.

        Persistent bots get their requests first and are collected on this thread (no thread hop per bot
        per turn: a 12,630-turn Invaders match is mostly such hops); per-turn bots run on the pool.
        """
        if self.all_persistent:  # Invaders: every turn
            bots, lines = [], []
            for seat in active:
                turn_input = inputs[seat]
                if turn_input.files:
                    break
                bots.append(self.persistent[seat])
                lines.append(turn_input.line or "")
            else:
                return dict(zip(active, exchange(bots, turn, lines, self.write_deferred_lines)))
        outcomes: dict[str, TurnOutcome] = {}
        futures: dict[str, Future[TurnOutcome]] = {}
        asks: list[tuple[PersistentBot, Request]] = []
        asked: list[str] = []  # the seats of `asks`
        humans: list[str] = []
        for seat in active:
            persistent = self.persistent.get(seat)
            if persistent is not None and not self.sequential:
                turn_input = inputs[seat]
                asks.append((persistent, persistent.send(turn, turn_input.files, turn_input.line or "")))
                asked.append(seat)
            elif seat in self.humans:
                humans.append(seat)
            elif self.sequential:
                outcomes[seat] = self._turn_call(turn, seat, inputs[seat])()
            else:
                futures[seat] = self.pool.submit(self._turn_call(turn, seat, inputs[seat]))
        self.write_deferred_lines()  # the previous turn's log line, while the bots think
        for seat in humans:
            outcomes[seat] = self.ask_human(self.players[seat], view)
        if asks:
            outcomes.update(zip(asked, collect_all(asks)))
        for seat, future in futures.items():
            outcomes[seat] = future.result()
        if len(asked) == len(outcomes):
            return outcomes  # persistent bots only: already in seat order
        return {seat: outcomes[seat] for seat in active}

    def _turn_call(self, turn: int, seat: str, turn_input: Any) -> Callable[[], TurnOutcome]:
        persistent = self.persistent.get(seat)
        if persistent is not None:
            return lambda: persistent.ask(turn, turn_input.files, turn_input.line or "")
        bot, limits, answer_file = self.players[seat].bot, self.limits[seat], self.game.answer_file
        return lambda: run_turn(bot, turn_input.files, limits, answer_file)

    def ask_human(self, player: Player, view: str) -> TurnOutcome:
        if self.console_input is None:
            raise RuntimeError("a console player needs console_input")
        started = time.monotonic()
        try:
            command = self.console_input(player.seat, view)
            events: tuple[str, ...] = ()
        except EOFError:
            # spec 8.5: a closed stdin means no command; the player does nothing
            command, events = "", ("no input (stdin closed): did nothing",)
        return TurnOutcome(TurnStatus.OK, command, time.monotonic() - started, "", 0, events)

    # -- the log --------------------------------------------------------------------------------------------

    def write_record_header(self) -> None:
        """The core record's first line (runner/matchlog/record.py), before any turn: a log cut short, with no
        match.json, still names its game."""
        names = {seat: player.name for seat, player in self.players.items()}
        requests = {seat: bot.bot.request for seat, bot in self.persistent.items() if bot.bot.request is not None}
        line = header_line(self.game.name, tuple(self.players), names, self.settings.seed, self.settings.options,
                           requests)
        self.writer.append_line(RECORD_FILE, line + "\n")

    def log_turn(
        self, turn: int, files: Mapping[str, Mapping[str, str]], view: str, outcomes: dict[str, TurnOutcome] | None,
        report: TurnReport | None, final_files: Mapping[str, str] | None = None,
    ) -> None:
        """Queue one turn for write_deferred_lines: a turn folder (FolderLog) or a log.jsonl line (JsonlLog)."""
        log = self.game.log
        if not isinstance(log, FolderLog):
            self.log_line(turn, outcomes, report)
            return
        seat_files = {}
        for seat, inputs in files.items():
            outcome = outcomes[seat] if outcomes else None
            entry = {log.file_names.get(name, name): text for name, text in inputs.items()}
            entry[log.answer] = self._logged_answer(seat, outcome, log.blank_answer) if outcome else ""
            if log.view is not None:
                entry[log.view] = view
            entry[log.output] = _bot_output(outcome) if outcome else ""
            seat_files[seat] = entry
        turn_files = {**(report.log_files if report else {}), **(final_files or {})}
        self.deferred_folders.append((log.turn_folder.format(turn=turn), seat_files, turn_files))

    def _logged_answer(self, seat: str, outcome: TurnOutcome, blank: str) -> str:
        """The answer as the folder log keeps it: the text read, or the game's words for a read, blank answer
        file (Tower Defence's "No Command"; a persistent bot's blank line stays as sent)."""
        if (outcome.command or outcome.absent is not None or outcome.status is TurnStatus.FAILED_TO_START
                or seat in self.persistent or seat in self.humans):  # no file read
            return outcome.command
        return blank

    def log_line(self, turn: int, outcomes: dict[str, TurnOutcome] | None, report: TurnReport | None) -> None:
        """A log.jsonl game's turn: its line, written by write_deferred_lines while the next turn's bots think,
        and the bots' output, gathered per seat (written at the end)."""
        if self.bot_output is not None and outcomes:
            for seat, outcome in outcomes.items():
                if outcome.output or outcome.events:
                    self.bot_output.add_turn(turn, seat, outcome)
        if report is not None:
            record = report.record_line or report.record  # the game's own line, else its record (`record`
            if record is not None:  # decodes a given line: not read when there is one)
                self.deferred_lines.append((self.game.log.file_name, record))  # type: ignore[union-attr]

    def write_deferred_lines(self) -> None:
        """Write the log of the turns played so far: their turn folders, then their lines (each turn's record line
        follows its folder). The match loop calls this after sending the next turn's requests, so the writes
        overlap the bots' thinking, and at the match's end, Ctrl-C included; a folder log's record.jsonl is
        flushed here, so every turn whose folder exists is in it too (a log.jsonl's lines wait up to FLUSH_S:
        12,630 Invaders turns would otherwise cost a write call each)."""
        folders = self.deferred_folders
        wrote_folders = bool(folders)
        while folders:  # one at a time: a turn whose write Ctrl-C cut short stays queued for finish_log_writes
            self.writer.write_round(*folders[0])
            del folders[0]
        lines, self.deferred_lines = self.deferred_lines, []
        for name, record in lines:  # the game's own line (TurnReport.record_line), its record to encode, or a
            if isinstance(record, str):  # turn of the core's record
                line = record
            elif isinstance(record, tuple):
                line = turn_line(*record)
            else:
                line = json.dumps(record, separators=(",", ":"))
            self.writer.append_line(name, line + "\n")
        if wrote_folders:
            self.writer.flush(RECORD_FILE)

    def finish_log_writes(self) -> None:
        """Write what the match has not written yet (the last turn, a turn Ctrl-C cut short) and close the log."""
        folders = self.deferred_folders
        if folders and (self.settings.folder / folders[0][0]).is_dir():
            del folders[0]  # renamed into place just before an interrupt: written
        try:
            self.write_deferred_lines()
            self._write_bot_output()
        finally:
            self.writer.close()

    def _write_bot_output(self) -> None:
        if self.bot_output is None or not isinstance(self.game.log, JsonlLog):
            return
        for name, text in self.bot_output.files().items():
            self.writer.write_text(f"{self.game.log.output_folder}/{name}", text)

    def bot_output_file(self, seat: str, turn: int) -> Path:
        """The file holding `seat`'s output of `turn` in this match's log."""
        log, folder = self.game.log, self.settings.folder
        if isinstance(log, FolderLog):
            return folder / log.turn_folder.format(turn=turn) / self.players[seat].name / log.output
        return output_path(folder, log.output_folder, seat)

    def write_final_turn(self) -> None:
        """A folder log's last folder: the final state for each seat (no bots run), then the end-of-game files."""
        if not isinstance(self.game.log, FolderLog):
            return
        session = self.session
        names = {seat: p.name for seat, p in self.players.items()}
        active = session.active_seats()
        inputs = session.inputs()
        view = session.text_view() if self.game.log.view is not None else ""
        files = {seat: inputs[seat].files for seat in active}
        self.log_turn(session.turn, files, view, None, None, session.final_files(names))
