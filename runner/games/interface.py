"""The one interface between the generic core and a game: records the core reads, and two Protocols.

The core (match loop, bot processes, log writers, CLI) never imports a game package: it asks the registry
(`runner.games.get_game`) for a `Game` and from then on talks only through the names below. A game's
package implements `Game` once (static facts: seats, bot protocol, options, config, log tools) and
`Session` once (one match in progress). See runner/games/README.md for a worked example.

Data flows one way: config -> Session state -> `inputs()` (views) -> bots -> `Answer`s -> `play_turn`.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from runner.bots.languages import LaunchTemplate  # a game's own launch (Game.languages): a record, no I/O

if TYPE_CHECKING:  # the interface stays free of I/O modules (tests/games/test_boundaries.py)
    from pathlib import Path

KiB = 1 << 10


class BotMode(enum.Enum):
    """How a game's bots run."""

    PER_TURN = "per-turn"  # a fresh process every turn (the official Entelect runner's way)
    #: one process per match: a request on stdin, an answer on stdout; the game's own lines
    #: (`TurnInput.line`, `Game.accept_line`) or the core's frames (`Game.persistent_frames`)
    PERSISTENT = "persistent"


class AnswerLines(enum.Enum):
    """How much of the answer file a per-turn bot leaves counts."""

    FIRST = "first"  # the first line only (Tower Defence's command.txt)
    ALL = "all"  # every line (multi-line order files)


@attrs.frozen
class AnswerFile:
    """Where a per-turn bot leaves its answer and how much of it is read."""

    name: str = "command.txt"
    cap_bytes: int = 64 * KiB
    lines: AnswerLines = AnswerLines.FIRST


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a whole number") from None


def positive_int(text: str) -> int:
    """An `Option.type` for counts such as `--max-turns N`: an integer of 1 or more."""
    value = _whole_number(text)
    if value < 1:
        raise ValueError(f"{text!r} is not a positive integer")
    return value


def non_negative_int(text: str) -> int:
    """An `Option.type` for limits that may be 0, such as Tower Defence's `--max-rounds N` (round 0 only)."""
    value = _whole_number(text)
    if value < 0:
        raise ValueError(f"{text!r} is not 0 or more")
    return value


@attrs.frozen
class Option:
    """A per-game `td-runner match` option (`--map FILE`, `--max-turns N`); shown by `match --game G --help`.

    `dest` is the key under which the value reaches `Game.configure` and `Game.new_session`.
    """

    flag: str
    dest: str
    help: str
    type: Any = str  # a callable turning the argument text into the value (argparse's `type`)
    metavar: str | None = None
    choices: tuple[str, ...] | None = None
    default: Any = None


@attrs.frozen
class TimeBudget:
    """A limit on a persistent bot's mean answer time over consecutive blocks of turns (Invaders: 15 ms over
    each 100 turns). The turn that closes a block whose mean is over gets the fault `OVER_BUDGET`."""

    block_turns: int = 100
    mean_ms: float = 15.0


@attrs.frozen
class Tool:
    """A game's own subcommand, e.g. `td-runner warzone-map` (a random valid map).

    `add_arguments(parser)` adds its options to an argparse parser; `run(args, streams)` does the work and
    returns the exit code, printing to `streams.out` / `streams.err` (a UserError becomes one line, exit 2).
    """

    name: str
    help: str
    add_arguments: Callable[[Any], None]
    run: Callable[[Any, Any], int]


#: built every turn of games of tens of thousands of turns: a mutable attrs record, as a frozen one's init
#: costs three times as much (0.9 vs 0.3 us); nothing changes it after it is made.
@attrs.define
class TurnInput:
    """What one seat's bot receives this turn.

    `files` are written into the bot folder before the bot runs (per-turn bots; persistent Tower Defence bots
    too), or sent on a persistent bot's stdin in the core's frames (`Game.persistent_frames`). `line` is sent
    on a persistent bot's stdin (no newline inside; the core adds it); None when the game has no line of its
    own.
    """

    files: Mapping[str, str] = attrs.field(factory=dict)
    line: str | None = None


class Fault(enum.Enum):
    """Why a bot gave no proper answer; the game decides what a fault means (nothing, or disqualification)."""

    TIMEOUT = "timeout"
    CRASH = "crash"  # the process exited non-zero, was killed, or ended (persistent: end of output)
    FAILED_TO_START = "failed_to_start"
    OVER_BUDGET = "over_budget"  # answered, but the mean answer time of a block of turns exceeded the budget


class Absent(enum.Enum):
    """Why a per-turn bot's answer has no text: there was no file to read. Set beside a fault too (a bot that
    timed out or crashed before writing one), so a game that rules on faults checks `Answer.fault` first.

    Games whose rules tell "no file" from "an empty file" (Warzone's `no_file`, Lanes' E01) read it here.
    """

    NO_FILE = "no_file"  # the bot wrote no answer file
    REFUSED = "refused"  # the core would not read the file it found (a symlink out of the folder, hard links, ...)


#: built every turn of games of tens of thousands of turns: a mutable attrs record, as a frozen one's init
#: costs three times as much (0.9 vs 0.3 us); nothing changes it after it is made.
@attrs.define
class Answer:
    """One seat's answer to this turn: the answer text as read (file or stdin line) and the fault, if any.

    `text` is "" when there was no answer at all, or a blank one (an empty or all-whitespace first-line answer
    file): every game gets the same "" and renders it its own way. A game must accept any text without raising.
    `absent` says why a per-turn answer has no file, fault or not (None: the file was read, perhaps empty,
    or the bot is persistent; a persistent bot of the core's frames says `answer <N> none` for NO_FILE).
    `detail` is the core's words for a fault or a refused file, to follow "bot ": "did not finish within
    2.0 s", "exited with status 1", "was killed by SIGSEGV", "could not be started: ...", "went over its time
    budget", "wrote a command.txt that cannot be read: command.txt has 2 hard links". "" when all went well.
    """

    text: str
    fault: Fault | None = None
    seconds: float = 0.0  # how long the bot took (timing only: rules that want determinism must not use it)
    absent: Absent | None = None
    detail: str = ""


#: built every turn of games of tens of thousands of turns: a mutable attrs record, as a frozen one's init
#: costs three times as much (0.9 vs 0.3 us); nothing changes it after it is made.
@attrs.define
class TurnReport:
    """What one turn produced, as data.

    `events`: engine messages of the turn (one line each, for the terminal and the log).
    `rejected`: seat -> why its answer was refused, wholly or in part (seats absent: accepted).
    `log_files`: turn-level files a folder log keeps in the turn's folder (`events.json`); file-name -> text.
    `record`: the turn's line of a `log.jsonl` log (JSON-able), for games whose log is one file.
    `record_line`: optionally, `record` already encoded, exactly `json.dumps(record, separators=(",", ":"))`
    (no newline): a game whose records are long and mostly repeat (Invaders' tower rows) renders it faster
    by hand than the encoder can, and the match loop writes it as it is. A game that gives the line may leave
    `record` out (None): reading `record` then decodes the line, so the match loop, which only writes the
    line, never builds the dict (Invaders: a fifth of the board's work per turn).
    """

    events: tuple[str, ...] = ()
    rejected: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    log_files: Mapping[str, str] = attrs.field(factory=dict)
    _record: Mapping[str, Any] | None = attrs.field(default=None, alias="record")
    record_line: str | None = None

    @property
    def record(self) -> Mapping[str, Any] | None:
        """The turn's log record: as given, else decoded from `record_line` (each time: a report stays as made,
        so two reports of the same turn stay equal), else None."""
        if self._record is None and self.record_line is not None:
            return json.loads(self.record_line)
        return self._record


@attrs.frozen
class Outcome:
    """How a finished match ended.

    `reason` is a short word for match.json's `end_reason` (`health`, `max_rounds`, `conquest`, ...).
    `ranking` lists the seats best first; seats that tie share one group.
    `details` adds game-specific keys to match.json (e.g. `{"disqualified": "invader"}`).
    `draw`: nobody won although the ranking orders the seats (Warzone at the turn limit: ranked by
    territories, but a draw).
    """

    reason: str
    ranking: tuple[tuple[str, ...], ...]
    details: Mapping[str, Any] = attrs.field(factory=dict)
    draw: bool = False

    @property
    def winner(self) -> str | None:
        """The seat ranked alone at the top, or None for a draw or a tie at the top."""
        if self.draw:
            return None
        return self.ranking[0][0] if self.ranking and len(self.ranking[0]) == 1 else None


class Session(Protocol):
    """One match in progress, advanced turn by turn by the match loop. Pure: no files, processes or clock."""

    seats: tuple[str, ...]
    turn_limit: int | None  # the last turn the match can reach (the progress bar's end); None: unknown

    @property
    def turn(self) -> int:
        """The number of the turn the current state is for (rendered files carry it)."""

    def active_seats(self) -> tuple[str, ...]:
        """The seats whose bots play this turn (an eliminated Warzone player's bot no longer runs)."""

    def inputs(self) -> dict[str, TurnInput]:
        """Each active seat's input for the current turn."""

    def play_turn(self, answers: Mapping[str, Answer]) -> TurnReport:
        """Apply every active seat's answer and advance one turn. Never raises on any answer."""

    def outcome(self) -> Outcome | None:
        """The result once the match is over, else None."""

    def standings(self) -> dict[str, dict[str, int | float]]:
        """Per seat numbers for match.json and the result table (score, health, armies, ...)."""

    def text_view(self) -> str:
        """The spectator's text view of the current state (terminal replay, console players)."""

    def final_files(self, names: Mapping[str, str]) -> dict[str, str]:
        """Files a folder log adds to the last turn's folder once the match is over (endGameState.txt);
        `names` maps each seat to its player name."""

    def snapshot(self) -> dict[str, Any]:
        """The whole current state as JSON-able data (HTML replays, the in-process API)."""


class FastObservations(Protocol):
    """Optional `Session` methods the in-process API (runner/api) uses when a session has them, instead of
    parsing `inputs()` back (Tower Defence has them: 7,500-11,500 rounds/s instead of 1,000-1,400 in
    runner/api/README.md's three runs)."""

    def observations(self) -> dict[str, dict[str, Any]]:
        """Each active seat's observation as data, equal to json.loads of its state file or request line.
        Read-only: it may share parts with other seats' and earlier turns' observations, and a session never
        changes one it has returned."""

    def action_masks(self) -> dict[str, bytes]:
        """Games with a discrete action space: one byte (0 or 1) per action, equal to
        `Game.action_space(config).mask(observation)`."""


@attrs.frozen
class FolderLog:
    """A log with one folder per turn, one sub-folder per seat (Tower Defence's official layout).

    `turn_folder` is formatted with the turn number; seat folders are `"<seat> - <bot nick name>"`.
    `file_names` renames the bot's input files in the log (state.json -> JsonMap.json); `answer`, `output`
    and `view` are the per-seat names of the answer given, the bot's output and `Session.text_view()`
    (None: not kept).
    """

    turn_folder: str = "Turn {turn:03d}"
    file_names: Mapping[str, str] = attrs.field(factory=dict)
    answer: str = "answer.txt"
    output: str = "BotOutput.txt"
    view: str | None = None
    #: what the log's `answer` file holds for an answer file that was read and blank (the game is given "");
    #: Tower Defence's official layout writes "No Command" (spec 4.1)
    blank_answer: str = ""


@attrs.frozen
class JsonlLog:
    """A log that is one `log.jsonl` (one `TurnReport.record` per line) beside match.json: for games of
    tens of thousands of turns, where a folder per turn would mean hundreds of thousands of files."""

    file_name: str = "log.jsonl"
    output_folder: str = "bot-output"  # `<output_folder>/<seat>.txt`: each seat's bot output for the match


@attrs.frozen
class FileReport:
    """The verdict of `td-runner validate` on one file: its problems (each printed as `path: problem`), or
    why it could not be checked at all (`unreadable`)."""

    path: Path
    kind: str | None
    problems: tuple[Any, ...] = ()
    unreadable: str | None = None

    @property
    def is_valid(self) -> bool:
        return self.unreadable is None and not self.problems


@attrs.frozen
class Check:
    """The verdict of `verify` or `diff`: `same` is the answer, `lines` say it to the user, `data` for --json."""

    same: bool
    lines: tuple[str, ...]
    data: Mapping[str, Any] = attrs.field(factory=dict)


class Game(Protocol):
    """A game's static facts and its entry points. One instance per game, built by the registry."""

    name: str  # the `--game` value and match.json's `game`
    title: str
    summary: str  # one line for `td-runner games`
    player_counts: tuple[int, ...]  # how many players it accepts, e.g. (2,) or (2, 3, 4, 5, 6)
    bot_modes: frozenset[BotMode]  # the modes a bot may use; the first of `default_mode` when bot.json is silent
    default_mode: BotMode
    answer_file: AnswerFile
    timeout_ms: int  # default wall-clock limit per turn (persistent: per answer)
    log: FolderLog | JsonlLog
    options: tuple[Option, ...]  # `td-runner match` options
    verify_options: tuple[Option, ...]  # `td-runner verify` options
    file_kinds: tuple[str, ...]  # kinds of file `validate` knows (`validate --kind`), e.g. ("map",)
    end_reasons: Mapping[str, str]  # end_reason -> words for the result line
    console_prompt: str | None  # the prompt of a human player at the terminal; None: no console players
    #: botLanguage -> launch argv template the game adds (koth-js), or a LaunchTemplate (runner/bots/languages.py)
    languages: Mapping[str, tuple[str, ...] | LaunchTemplate]
    tools: tuple[Tool, ...]  # the game's own subcommands (`td-runner warzone-map`)
    #: lean request lines a persistent bot may ask for with bot.json "request": name -> what it sends; a game
    #: that offers any gives its sessions `use_request_format(seat, name)`, called before the first inputs()
    request_formats: Mapping[str, str]
    time_budget: TimeBudget | None  # a mean answer time limit over blocks of turns, besides timeout_ms
    #: a persistent bot answers each request with exactly one stdout line, in order, and the lines carry no
    #: turn number (Invaders): after a time-out the core drops the late line instead of taking it as the next
    #: turn's answer. False: `accept_line` tells a stale line itself (Tower Defence's `C;<round>;...`).
    answers_in_order: bool
    #: the game's own word for a turn, lower case ("round", "turn"): the result line, `replay --round`'s help
    turn_word: str
    #: whether the match seed changes anything (Lanes and Invaders have no randomness): `watch` plays one seed
    #: of a game that ignores it, since every seed gives the same match
    uses_seed: bool
    #: persistent bots speak the core's frames (runner/bots/framing.py): each turn's input files on stdin, the
    #: answer file's bytes on stdout, read as a per-turn bot's answer file; `TurnInput.line` and `accept_line`
    #: are then not used. False: the game's own request lines and `accept_line` (Tower Defence, Invaders).
    persistent_frames: bool

    def seats(self, player_count: int) -> tuple[str, ...]:
        """The seat names for this many players (`A`, `B`; `A`..`F`; `defender`, `invader`)."""

    def configure(self, config_file: Path | None, options: Mapping[str, Any]) -> Any:
        """The game config from a file (None: defaults) with the options applied; UserError on problems."""

    def config_json(self, config: Any) -> dict[str, Any]:
        """The config as JSON, written as `game-config.json` next to the log and into match.json."""

    def config_problems(self, data: Any) -> list[Any]:
        """What is wrong with a config given as JSON data (match.json's `game_config`): objects with
        `where` (a JSON path) and `message`, like runner.schemas.Problem; [] when it is valid."""

    def new_session(self, config: Any, seats: Sequence[str], seed: int, options: Mapping[str, Any]) -> Session:
        """A new match. `seed` is the only source of randomness."""

    def match_files(self, config: Any, options: Mapping[str, Any]) -> dict[str, bytes]:
        """Files to keep beside the log besides game-config.json (a byte copy of the map)."""

    def accept_line(self, line: str, turn: int) -> str | None:
        """A persistent bot's output line -> this turn's answer text, or None to keep reading (a stale or
        chatty line). Only called for games with BotMode.PERSISTENT."""

    #: JSON keys `verify` and `diff` leave out of every comparison (timing the rules do not make deterministic)
    log_forgives: tuple[str, ...]
    #: what `diff` takes in any order (the lists under these JSON keys, the runs of text lines starting with them)
    log_unordered: tuple[str, ...]

    def is_log(self, path: Path) -> bool:
        """Whether `path` is a log of this game from outside td-runner (an official Tower Defence log, a spec
        trace file). A log the core wrote names its game (record.jsonl's header): nothing guesses it."""

    def open_foreign_log(self, path: Path) -> Any:
        """A log from outside td-runner (a spec trace file, an official log) read into the core's record (a
        runner.logtools.record.MatchRecord), so `verify`, `diff`, `replay` and `validate` are the core's for it
        too; None when `path` is no such log. Tried only where `path` has no record.jsonl."""

    def log_session(self, record: Any) -> Session:
        """A new session for replaying a core-written log (a runner.logtools.record.MatchRecord): by default
        from its game-config.json and the record's seats, seed, options and request formats."""

    def verify(self, path: Path, options: Mapping[str, Any]) -> Check:
        """Replay a log's answers through the rules and compare everything it recorded."""

    def diff(self, path_a: Path, path_b: Path, options: Mapping[str, Any]) -> Check:
        """Compare two logs of this game turn by turn."""

    def validate(self, path: Path, kind: str | None, options: Mapping[str, Any]) -> list[FileReport] | None:
        """Check a file this game defines (a map, a config, a state) or a whole log folder of this game;
        `kind` one of `file_kinds` or None to detect. None when the path is not something this game knows."""

    def detect_kind(self, path: Path, data: Any) -> str | None:
        """The kind (of `file_kinds`) of a file `validate` was given no kind for, from its name or its JSON
        `data` (runner.logtools.validate.NOT_JSON when it is not JSON); None when it is not this game's."""

    def replay(self, path: Path) -> "Replay":
        """The turns of a log, ready to show in the terminal."""

    def replay_view(self, session: Session, names: Mapping[str, str]) -> list[Any]:
        """The lines (str or rich Text) the terminal replay shows of the session's state, `names` the seats'
        folder names (`A - nick`); by default the lines of `text_view()` (a game may colour them)."""

    def html_replay(self, path: Path) -> tuple[dict[str, Any], str]:
        """The HTML replay of a log: its compact record (shape: runner/replay/record.py) and the JavaScript
        that draws the board (sets `window.ReplayBoard = {aspect, draw, describe?}`); `td-runner replay
        --html` inlines both into one page. `GameDefaults` gives every game the core's replay without a board
        drawing (runner/replay/default.py)."""

    def action_space(self, config: Any) -> Any:
        """A discrete action space for the in-process API (`size`, `encode(text)`, `decode(n)`, `mask(view)`),
        or None when the game's actions are command text (runner/api)."""


class GameDefaults:
    """What a game that has nothing to say about the optional parts of `Game` inherits, the log tools included:
    `verify`, `diff`, `replay` and `validate` of the logs the core writes (runner/logtools), which a game may
    override one by one."""

    verify_options: tuple[Option, ...] = ()
    end_reasons: Mapping[str, str] = {}
    console_prompt: str | None = None
    languages: Mapping[str, tuple[str, ...] | LaunchTemplate] = {}
    request_formats: Mapping[str, str] = {}
    tools: tuple[Tool, ...] = ()
    time_budget: TimeBudget | None = None
    answers_in_order: bool = False
    turn_word: str = "turn"
    uses_seed: bool = True
    log_forgives: tuple[str, ...] = ()
    #: what `diff` (not `verify`, which replays in the recorded order) takes in any order: the lists under these
    #: JSON keys, and in text files the runs of lines that start with one of them
    log_unordered: tuple[str, ...] = ()

    @property
    def file_kinds(self) -> tuple[str, ...]:
        """`<game>-config`, `<game>-state`, ... for each schema under schema/<game>/, and `<game>-log`."""
        from runner.logtools.validate import file_kinds  # the log tools read files: only when asked

        return file_kinds(self.name)  # type: ignore[attr-defined]

    def is_log(self, path: Path) -> bool:
        return False  # logs the core writes name their game; only logs from outside need recognising

    def open_foreign_log(self, path: Path) -> Any:
        """A log from outside (no record.jsonl) read into the core's `MatchRecord`, or None: the log tools then
        serve it too (Tower Defence reads the official layout; runner/logtools/record.py)."""
        return None

    def log_session(self, record: Any) -> Session:
        from runner.logtools.record import default_log_session

        return default_log_session(self, record)  # type: ignore[arg-type]

    def verify(self, path: Path, options: Mapping[str, Any]) -> Check:
        from runner.logtools.verify import verify_log

        return verify_log(self, path)

    def diff(self, path_a: Path, path_b: Path, options: Mapping[str, Any]) -> Check:
        from runner.logtools.diff import diff_logs

        return diff_logs(self, path_a, path_b, options)

    def replay(self, path: Path) -> "Replay":
        from runner.logtools.replay import replay_log

        return replay_log(self, path)

    def replay_view(self, session: Session, names: Mapping[str, str]) -> list[Any]:
        return session.text_view().splitlines()

    #: the board drawing of the core's HTML replay (runner/replay/default.py `BoardView`), None: none; a game
    #: gives it as a property that imports it, so that only a replay loads it
    board_view: Any = None

    def html_replay(self, path: Path) -> tuple[dict[str, Any], str]:
        """The core's HTML replay of the log (runner/replay/default.py): every turn's answers, rulings, faults,
        bot output and `standings()` numbers, with the game's `board_view` drawing its board (if it has one)."""
        from runner.replay.default import default_html_replay

        return default_html_replay(self, path, self.board_view)

    def detect_kind(self, path: Path, data: Any) -> str | None:
        from runner.logtools.validate import kind_by_name  # by name: a game whose files share names says more

        return kind_by_name(self.name, path)  # type: ignore[attr-defined]

    def validate(self, path: Path, kind: str | None, options: Mapping[str, Any]) -> list[FileReport] | None:
        from runner.logtools.validate import validate_path

        return validate_path(self, path, kind)
    persistent_frames: bool = False

    def config_problems(self, data: Any) -> list[Any]:
        return []

    def match_files(self, config: Any, options: Mapping[str, Any]) -> dict[str, bytes]:
        return {}

    def accept_line(self, line: str, turn: int) -> str | None:
        return None  # only persistent games are asked

    def action_space(self, config: Any) -> Any:
        return None  # actions are command text


class Replay(Protocol):
    """A log opened for the terminal replay: `turns` lists the turn numbers it holds."""

    turns: tuple[int, ...]
    seats: tuple[str, ...]

    def render(self, turn: int, seat: str | None = None) -> list[Any]:
        """The lines (str or rich Text) that show one turn; with `seat`, that seat's bot output too."""
