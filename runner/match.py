"""The round loop: game session + bots + match log. Both bots run at the same time, every round."""

from __future__ import annotations

import concurrent.futures
import time
from pathlib import Path
from typing import Any, Callable, Protocol

import attrs

from runner.bots.definition import BotDefinition
from runner.bots.outcome import TurnOutcome, TurnStatus
from runner.bots.limits import Limits
from runner.bots.process import run_turn
from runner.games import GameSession, Outcome, RoundReport
from runner.matchlog.layout import BOT_OUTPUT, CONSOLE, PLAYER_COMMAND
from runner.matchlog.writer import MatchLogWriter

INTERRUPTED = "interrupted"
MATCH_JSON = "match.json"


@attrs.frozen
class Player:
    """A seat's player: a bot, or a human at the terminal when `bot` is None (official console player)."""

    seat: str
    name: str  # log folder and endGameState name, e.g. "A - StarterBot"
    bot: BotDefinition | None

    @property
    def language(self) -> str:
        return self.bot.language if self.bot else "console"


#: Reads one command line from a human for a seat, given the console map; used for console players.
ConsoleInput = Callable[[str, str], str]


@attrs.define
class PlayerTally:
    """Per player counters that end up in match.json."""

    timeouts: int = 0
    crashes: int = 0
    invalid_commands: int = 0
    bot_seconds: float = 0.0
    events: list[dict[str, Any]] = attrs.field(factory=list)

    def record_turn(self, round_number: int, outcome: TurnOutcome) -> None:
        self.bot_seconds += outcome.seconds
        if outcome.status is TurnStatus.TIMEOUT:
            self.timeouts += 1
        elif outcome.status in (TurnStatus.CRASH, TurnStatus.FAILED_TO_START):
            self.crashes += 1
        self.events.extend({"round": round_number, "event": event} for event in outcome.events)


@attrs.frozen
class MatchSummary:
    folder: Path
    players: tuple[Player, ...]
    tallies: dict[str, PlayerTally]
    standings: dict[str, dict[str, int]]
    winner: str | None
    rounds: int
    end_reason: str
    seed: int
    game_config: dict[str, Any]
    wall_seconds: float

    @property
    def interrupted(self) -> bool:
        return self.end_reason == INTERRUPTED

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
                    "score": self.standings[player.seat]["score"],
                    "health": self.standings[player.seat]["health"],
                    "timeouts": tally.timeouts,
                    "crashes": tally.crashes,
                    "invalid_commands": tally.invalid_commands,
                    "bot_seconds": round(tally.bot_seconds, 3),
                    "events": tally.events,
                }
            )
        return {
            "players": players,
            "winner": self.winner,
            "rounds": self.rounds,
            "end_reason": self.end_reason,
            "seed": self.seed,
            "game_config": self.game_config,
            "wall_seconds": round(self.wall_seconds, 3),
        }


class MatchObserver(Protocol):
    """Receives progress; the CLI draws it. All methods are optional to implement meaningfully."""

    def round_played(
        self, round_number: int, session: GameSession, report: RoundReport, outcomes: dict[str, TurnOutcome]
    ) -> None: ...


@attrs.frozen
class MatchSettings:
    players: tuple[Player, Player]
    folder: Path  # the match folder to create (official layout inside)
    seed: int = 0
    limits: Limits = Limits()
    extra_files: dict[str, str] = attrs.field(factory=dict)  # written next to the rounds (configs used)


def _bot_output(outcome: TurnOutcome) -> str:
    """BotOutput.txt: the bot's own output, then one line per runner event so authors see what happened."""
    notes = "".join(f"[td-runner] {event}\n" for event in outcome.events)
    return outcome.output + notes


class MatchRunner:
    """Plays one match from round 0 to the end, writing the log as it goes."""

    def __init__(
        self,
        session: GameSession,
        settings: MatchSettings,
        observer: MatchObserver | None = None,
        console_input: ConsoleInput | None = None,
    ) -> None:
        self.session = session
        self.settings = settings
        self.observer = observer
        self.console_input = console_input
        self.players = {player.seat: player for player in settings.players}
        self.tallies = {seat: PlayerTally() for seat in self.players}
        self.writer = MatchLogWriter(settings.folder, {seat: p.name for seat, p in self.players.items()})
        self.limits = {seat: self._limits_for(seat) for seat in self.players}  # after the log folder exists
        bot_dirs = [p.bot.bot_dir for p in settings.players if p.bot]
        # one folder for both seats (self-play): their files would collide, so take turns like the official runner
        self.sequential = len(bot_dirs) != len(set(bot_dirs))
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=len(self.players), thread_name_prefix="bot")
        # the log is written by one background thread, in round order, while the next round's bots run: the
        # disk's latency (10 small files a round) stays off the round loop
        self.log_writer = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="log")
        self.log_writes: list[concurrent.futures.Future[None]] = []

    def _limits_for(self, seat: str) -> Limits:
        """In the sandbox, each bot also loses sight of the other bot's folder and of the match log
        (both run at once, so one could otherwise read the other's command.txt as it is written)."""
        limits = self.settings.limits
        player = self.players[seat]
        if not limits.sandbox or player.bot is None:
            return limits
        others = [p.bot.bot_dir for p in self.settings.players if p.bot and p.bot.bot_dir != player.bot.bot_dir]
        return attrs.evolve(limits, hidden_paths=(*limits.hidden_paths, *others, self.settings.folder.resolve()))

    def run(self) -> MatchSummary:
        started = time.monotonic()
        for name, text in self.settings.extra_files.items():
            self.writer.write_text(name, text)
        end_reason = INTERRUPTED
        outcome: Outcome | None = None
        try:
            while (outcome := self.session.outcome()) is None:
                self.play_one_round()
            self.write_final_round()
            end_reason = outcome.reason
        except KeyboardInterrupt:
            outcome = None
        finally:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.finish_log_writes()  # every round already played reaches the disk, Ctrl-C or not
        summary = MatchSummary(
            folder=self.settings.folder,
            players=self.settings.players,
            tallies=self.tallies,
            standings=self.session.standings(),
            winner=outcome.winner if outcome else None,
            rounds=self.session.round,
            end_reason=end_reason,
            seed=self.settings.seed,
            game_config=self.session.config_json(),
            wall_seconds=time.monotonic() - started,
        )
        self.writer.write_json(MATCH_JSON, summary.to_json())
        return summary

    def play_one_round(self) -> None:
        session = self.session
        round_number = session.round
        files = session.player_files()
        console = session.console_view()
        outcomes = self.run_players(files, console)
        for seat, outcome in outcomes.items():
            self.tallies[seat].record_turn(round_number, outcome)
        self.log_round(files, console, outcomes)
        report = session.play_round({seat: outcome.command for seat, outcome in outcomes.items()})
        for seat in report.rejected:
            self.tallies[seat].invalid_commands += 1
        if self.observer is not None:
            self.observer.round_played(round_number, session, report, outcomes)

    def run_players(self, files: dict[str, dict[str, str]], console: str) -> dict[str, TurnOutcome]:
        """Run every bot seat at once (one after the other for self-play); humans answer meanwhile."""
        bots = [p for p in self.players.values() if p.bot is not None]
        outcomes: dict[str, TurnOutcome] = {}
        futures: dict[str, concurrent.futures.Future[TurnOutcome]] = {}
        for player in bots:
            arguments = (player.bot, files[player.seat], self.limits[player.seat])
            if self.sequential:
                outcomes[player.seat] = run_turn(*arguments)
            else:
                futures[player.seat] = self.pool.submit(run_turn, *arguments)
        for player in self.players.values():
            if player.bot is None:
                outcomes[player.seat] = self.ask_human(player, console)
        outcomes.update((seat, future.result()) for seat, future in futures.items())
        return {seat: outcomes[seat] for seat in self.players}

    def ask_human(self, player: Player, console: str) -> TurnOutcome:
        if self.console_input is None:
            raise RuntimeError("a console player needs console_input")
        started = time.monotonic()
        try:
            command = self.console_input(player.seat, console)
            events: tuple[str, ...] = ()
        except EOFError:
            # spec 8.5: a closed stdin means no command; the player does nothing
            command, events = "", ("no input (stdin closed): did nothing",)
        return TurnOutcome(TurnStatus.OK, command, time.monotonic() - started, "", 0, events)

    def log_round(
        self, files: dict[str, dict[str, str]], console: str, outcomes: dict[str, TurnOutcome] | None,
        end_of_game: str | None = None,
    ) -> None:
        """Write each player's five files of the current round; `outcomes` None for the final round."""
        renamed = self.session.log_file_names
        round_files = {}
        for seat in self.players:
            outcome = outcomes[seat] if outcomes else None
            round_files[seat] = {
                **{renamed[name]: text for name, text in files[seat].items()},
                PLAYER_COMMAND: outcome.command if outcome else "",
                CONSOLE: console,
                BOT_OUTPUT: _bot_output(outcome) if outcome else "",
            }
        self.log_writes.append(
            self.log_writer.submit(self.writer.write_round, self.session.round, round_files, end_of_game)
        )
        self._raise_write_errors(wait=False)

    def _raise_write_errors(self, wait: bool) -> None:
        """Surface a failed log write (a LogWriteError: disk full, folder gone) in the round loop."""
        pending = []
        for future in self.log_writes:
            if wait or future.done():
                future.result()
            else:
                pending.append(future)
        self.log_writes = pending

    def finish_log_writes(self) -> None:
        try:
            self._raise_write_errors(wait=True)
        finally:
            self.log_writer.shutdown(wait=True)

    def write_final_round(self) -> None:
        """The final state for each player (no bots run; empty command and output), then endGameState.txt."""
        session = self.session
        names = {seat: p.name for seat, p in self.players.items()}
        self.log_round(session.player_files(), session.console_view(), None, session.end_of_game_text(names))
