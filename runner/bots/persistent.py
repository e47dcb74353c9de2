"""A bot that stays alive for the whole match: one request line on stdin per turn, answers on stdout.

Starting a process costs 10-150 ms (a JVM far more), which is the whole turn budget of some games and most
of a Tower Defence round. A persistent bot is started once, under the same limits and `--sandbox` as a
per-turn bot; each turn the runner writes the turn's files (if the game has any), sends one line, and reads
stdout lines until the game accepts one as this turn's answer (`Game.accept_line`), or the time is up.

Time: the turn that starts the process may take `startup_ms` (interpreters and JVMs load), every later one
`limits.timeout_ms` (so a bot that never answers costs the usual limit per turn, not the start-up one). Sending
the request counts too: stdin is written without blocking, and what a bot has not read yet is sent before the
next request. A late answer is not waited for: the bot keeps running and, when the game's lines carry the turn
number (Tower Defence's `C;<round>;<command>`), its stale answer is dropped next turn; when they carry none but
come one per request, in order (Invaders: `Game.answers_in_order`), the first line accepted after a time-out is
the late answer and is dropped too. A game of the core's frames (`Game.persistent_frames`: Lanes, Warzone) has
no lines of its own: the turn's files go on stdin and the answer file's bytes come back on stdout, each
length-prefixed (runner/bots/framing.py), and a frame stamped with an earlier turn is the late answer. A bot
whose process ended (crash, end of output, closed input) fails every later turn without being restarted; one
that could not be started fails every turn with that reason. stderr, and stdout lines that are not answers,
are the turn's output (capped like a per-turn bot's, the rest counted). The whole process tree is killed in
`close()`, on every path out of the match.

Thread-safe in the way the match loop uses it: one thread per bot, `ask` and `close` never concurrently.
"""

from __future__ import annotations

import os
import select
import subprocess
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

import attrs

from runner.bots import isolation
from runner.bots.definition import BotDefinition
from runner.bots.framing import Frame, FrameReader, encode_request
from runner.bots.limits import Limits
from runner.compiled import load_compiled, pure_forced
from runner.bots.outcome import TurnOutcome, TurnStatus, describe_exit, exit_detail, format_size, seconds_text
from runner.bots.process import (
    Capture,
    end_tree,
    has_exited,
    missing_program,
    open_bot_dir,
    write_turn_files,
)

NO_FILES: Mapping[str, str] = {}  # a turn without files (never written to)

#: Default wall-clock limit for the first answer (process start-up included).
STARTUP_MS = 10_000
#: Added to a first request's time-out when not a byte came on stdout: the usual cause is an answer written
#: but left in the bot's output buffer (C's stdout to a pipe is fully buffered, so is Java's and Python's).
UNFLUSHED_HINT = ("nothing arrived on its stdout: if it printed an answer, flush stdout after every line "
                  "(C: fflush(stdout), or setvbuf(stdout, NULL, _IOLBF, 0) once; C++: std::endl; "
                  "Java: System.out.flush(); Python: print(..., flush=True); Go: Flush() a bufio.Writer)")
_READ_CHUNK = 1 << 16
_SWEEP_GRACE_S = 2.0
_POLLIN, _POLLOUT = select.POLLIN, select.POLLOUT
#: a module constant: `TurnStatus.OK` goes through the enum class's __getattr__ hook (Python 3.11)
_OK = TurnStatus.OK
_LINE_CAP = 1 << 20  # a longer stdout "line" is cut: no bot may grow the runner's memory without bound

#: Game hook: a stdout line -> this turn's answer, or None to keep reading (`Game.accept_line`).
AcceptLine = Callable[[str, int], "str | None"]


@attrs.define
class Request:
    """A request sent to a persistent bot, not yet answered (`PersistentBot.send` -> `collect`)."""

    turn: int
    started: float
    limit_ms: int
    starting: bool
    events: list[str]
    output: Capture | None
    done: TurnOutcome | None = None  # already decided at send time (the bot could not be asked)


class PersistentBot:
    """One long-lived bot process; `ask` once per turn, `close` at the end."""

    def __init__(self, bot: BotDefinition, limits: Limits, accept: AcceptLine, answer_name: str = "command.txt",
                 startup_ms: int = STARTUP_MS, answers_in_order: bool = False,
                 frames: FrameReader | None = None) -> None:
        self.bot = bot
        self.limits = limits
        self.accept = accept
        #: the core's frames (runner/bots/framing.py) instead of the game's lines: the turn's files go on stdin,
        #: not into the folder, and stdout is read as frames (`accept` and the request line are not used)
        self.frames = frames
        self.frame: Frame | None = None  # this turn's answer frame, once read (its notes and `absent`)
        #: `Game.answers_in_order`: every accepted line answers the oldest request still owed one, so after a
        #: time-out the next accepted line is the late answer and is dropped (`late` counts those owed)
        self.answers_in_order = answers_in_order
        self.late = 0
        self.late_dropped = 0
        self.answer_name = answer_name
        self.startup_ms = startup_ms
        self.proc: subprocess.Popen[bytes] | None = None
        self.plan: isolation.LaunchPlan | None = None
        self.marker = os.urandom(8).hex()
        self.pending = b""  # stdout bytes after the last complete line
        self.stdout_seen = False  # a byte came on stdout (the first request reads it here): UNFLUSHED_HINT
        self.unsent = b""  # request bytes the bot has not read yet (a busy bot stops reading stdin)
        self.dead_reason: str | None = None  # set once the process is gone: every later turn fails with it
        self.closed_untold = False  # close() set dead_reason and no turn has been told it yet
        self.dead_status = TurnStatus.CRASH  # FAILED_TO_START when it never started
        self.exit_code: int | None = None
        self.info_read: int | None = None
        self.fds = (-1, -1, -1)  # stdout, stderr, stdin of the running process: looked up once, used every turn

    # -- life cycle ----------------------------------------------------------------------------------------

    def _start(self) -> str | None:
        """Start the process; a reason when it cannot be started."""
        missing = missing_program(self.bot)
        if missing:
            return missing
        sandboxed = isolation.check_isolation(self.limits) is isolation.Isolation.SANDBOX
        info_write = None
        if sandboxed:
            self.info_read, info_write = os.pipe()
        # no CPU-time rlimit: it counts the whole match, not a turn; the wall clock bounds each answer
        plan = isolation.plan_launch(self.limits.persistent(), str(self.bot.bot_dir), info_write,
                                     program=self.bot.argv[0], folder=str(self.bot.player_dir))
        try:
            self.proc = subprocess.Popen(
                [*plan.prefix, *self.bot.argv],
                cwd=self.bot.bot_dir,
                env=isolation.bot_environment(plan.isolation, self.marker, self.bot.unset_env),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                preexec_fn=plan.preexec,  # noqa: PLW1509  (only without prlimit; setrlimit calls only)
                pass_fds=() if info_write is None else (info_write,),
            )
        except OSError as exc:
            if self.info_read is not None:
                os.close(self.info_read)
                self.info_read = None
            return f"failed to start {self.bot.argv[0]}: {exc.strerror or exc}"
        finally:
            if info_write is not None:
                os.close(info_write)
        self.plan = plan
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            os.set_blocking(stream.fileno(), False)  # type: ignore[union-attr]
        self.fds = (self.proc.stdout.fileno(), self.proc.stderr.fileno(), self.proc.stdin.fileno())  # type: ignore[union-attr]
        return None

    def close(self) -> None:
        """Kill the whole process tree (idempotent); later turns fail without starting a process."""
        if self.dead_reason is None:  # never started again; the first turn asked after this is told why
            self.dead_reason, self.closed_untold = "the bot was closed by the runner", True
        proc = self.proc
        if proc is None or self.plan is None:
            return
        self.proc = None
        self.fds = (-1, -1, -1)  # closed below: the numbers may soon name other files
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                stream.close()  # type: ignore[union-attr]
            except OSError:
                pass  # stdin with unsent bytes: its flush fails on a full or closed pipe
        end_tree(proc, self.plan.isolation, timed_out=not has_exited(proc.pid))
        if self.info_read is not None:
            isolation.await_sandbox_gone(self.info_read, 2.0)
            os.close(self.info_read)
            self.info_read = None
        if self.plan.isolation is isolation.Isolation.PROCESS_GROUP:
            # a SIGKILLed process shows in /proc until it is scheduled to die: sweep until a pass finds none
            give_up = time.perf_counter() + _SWEEP_GRACE_S
            while isolation.sweep_marked(self.marker) and time.perf_counter() < give_up:
                time.sleep(0.001)

    # -- one turn -------------------------------------------------------------------------------------------

    def ask(self, turn: int, files: Mapping[str, str], line: str) -> TurnOutcome:
        """Write the turn's files, send `line`, wait for this turn's answer. Never raises for the bot's doing."""
        return self.collect(self.send(turn, files, line))

    def send(self, turn: int, files: Mapping[str, str], line: str) -> Request:
        """Write the turn's files and start sending `line` (as much as the pipe takes now), without waiting.

        The match loop sends every persistent bot its request, then collects the answers: the bots think
        at the same time and no thread has to wake up per bot per turn.
        """
        events: list[str] = []
        if files and self.frames is None:
            dir_fd = open_bot_dir(self.bot, events)
            if dir_fd is None:
                failed = TurnOutcome(TurnStatus.FAILED_TO_START, "", 0.0, "", None, tuple(events),
                                     f"could not be started: {events[-1] if events else 'no bot folder'}")
                return Request(turn, 0.0, 0, False, events, None, failed)
            try:
                write_turn_files(dir_fd, files, self.answer_name, events)
            finally:
                os.close(dir_fd)
        starting = self.proc is None and self.dead_reason is None
        # dead at an earlier turn: that fault was told then (a close by the runner told no turn: told now)
        repeated, self.closed_untold = self.dead_reason is not None and not self.closed_untold, False
        if starting:
            problem = self._start()
            if problem:
                self.dead_reason, self.dead_status = problem, TurnStatus.FAILED_TO_START
        if self.dead_reason is not None:
            notes = tuple(events) if repeated else (*events, self.dead_reason)
            done = TurnOutcome(self.dead_status, "", 0.0, "", self.exit_code, notes, self._dead_detail(),
                               None, repeated)
            return Request(turn, 0.0, 0, starting, events, None, done)
        started = time.perf_counter()
        self.unsent += line.encode("utf-8") + b"\n" if self.frames is None else encode_request(turn, files)
        return self._requested(turn, started, self._write_request(), starting, events)

    def _requested(self, turn: int, started: float, open_input: bool = True, starting: bool = False,
                   events: list[str] | None = None) -> Request:
        """The request of a line written (or being written: `unsent`) at `started`; `open_input` False when the
        bot closed its stdin (then it is dead)."""
        limits = self.limits
        output = Capture(limits.output_cap_bytes)
        if not open_input:
            self._mark_dead(output, "closed its input and stopped answering")
        limit_ms = max(self.startup_ms, limits.timeout_ms) if starting else limits.timeout_ms
        return Request(turn, started, limit_ms, starting, [] if events is None else events, output)

    def collect(self, request: Request) -> TurnOutcome:
        """Wait for the answer to `request` (or the deadline, or the end of the process)."""
        return collect_all(((self, request),))[0]

    def _outcome(self, request: Request, answer: str | None, seconds: float) -> TurnOutcome:
        """The turn's outcome once its wait is over: the answer, the end of the process, or a time-out."""
        events, output = request.events, request.output
        assert output is not None
        absent = None
        if self.frames is not None:  # the notes on the frame read, then any on the lines around it
            frame, self.frame = self.frame, None
            if frame is not None:
                events.extend(frame.notes)
                absent = frame.absent
            events.extend(self.frames.notes)
            self.frames.notes.clear()
        if answer is not None and not (events or output.kept or output.dropped or self.late_dropped):
            return TurnOutcome(_OK, answer, seconds, "", None, (), "", absent)  # the usual turn: a bare answer
        if output.dropped:
            events.append(f"output truncated: {format_size(output.dropped)} dropped")
        if self.late_dropped:
            count, self.late_dropped = self.late_dropped, 0
            events.append(f"dropped {count} late answer{'s' if count > 1 else ''} to an earlier turn")
        if answer is not None:
            return TurnOutcome(_OK, answer, seconds, output.text(), None, tuple(events), "", absent)
        if self.dead_reason is not None:
            events.append(self.dead_reason)
            return TurnOutcome(TurnStatus.CRASH, "", seconds, output.text(), self.exit_code, tuple(events),
                               self._dead_detail())
        what = "start-up and first answer" if request.starting else "answer"
        events.append(f"no {what} within {request.limit_ms} ms; the bot keeps running, a late answer is dropped")
        if request.starting and not self.stdout_seen:  # not a byte on stdout yet: the classic unflushed answer
            events.append(UNFLUSHED_HINT)
        if self.answers_in_order:
            self.late += 1
        # a per-turn bot's words: a game that shows them (Lanes' E01) logs the same time-out either way
        return TurnOutcome(TurnStatus.TIMEOUT, "", seconds, output.text(), None, tuple(events),
                           f"did not finish within {seconds_text(request.limit_ms)}")

    def _dead_detail(self) -> str:
        """Why a dead bot gives no answer, in the words of `TurnOutcome.detail`."""
        if self.dead_status is TurnStatus.FAILED_TO_START:
            return f"could not be started: {self.dead_reason}"
        if self.exit_code:
            return exit_detail(self.exit_code)
        return "ended its process" if self.exit_code == 0 else "stopped answering"

    def _on_stdout(self, turn: int, output: Capture) -> str | None | bool:
        """stdout is readable: the answer, None to keep waiting, or False when the bot is now dead."""
        try:
            chunk = os.read(self.fds[0], _READ_CHUNK)
        except BlockingIOError:
            return None
        except OSError:
            chunk = b""
        return self._on_chunk(chunk, turn, output)

    def _on_chunk(self, chunk: bytes, turn: int, output: Capture) -> str | None | bool:
        """What `_on_stdout` read (b"" at the end of stdout): the answer, None to keep waiting, or False."""
        if chunk == b"":
            self._mark_dead(output, "closed its output and stopped answering")
            return False
        self.stdout_seen = True
        if self.frames is not None:
            self.frames.feed(chunk)
            return self._take_frames(turn, output)
        if not self.pending and not self.late and chunk.find(b"\n") == len(chunk) - 1:  # one whole line: the usual
            answer = self.accept(chunk[:-1].decode("utf-8", errors="replace").removesuffix("\r"), turn)
            if answer is not None:
                return answer
        self.pending += chunk
        return self._take_lines(turn, output)

    def _write_request(self) -> bool:
        """Write what the pipe takes of the unsent request bytes; False when the bot closed its stdin."""
        try:
            written = os.write(self.fds[2], self.unsent)
        except BlockingIOError:
            return True
        except OSError:  # BrokenPipeError: SIGPIPE is ignored in Python
            return False
        self.unsent = b"" if written == len(self.unsent) else self.unsent[written:]
        return True

    def _take_lines(self, turn: int, output: Capture) -> str | None:
        """Consume complete stdout lines: the first the game accepts is the answer, the others are output.

        One split per read, not per line: a flood of empty lines costs about 0.5 us a line, not a copy of
        the rest of the buffer each."""
        lines = self.pending.split(b"\n")
        self.pending = lines.pop()
        for index, raw in enumerate(lines):
            answer = self.accept(raw.decode("utf-8", errors="replace").removesuffix("\r"), turn)
            if answer is not None and self.late:  # the answer to a turn that timed out: not this turn's
                self.late -= 1
                self.late_dropped += 1
                answer = None
            if answer is not None:
                self.pending = b"\n".join([*lines[index + 1 :], self.pending])  # next turn's (stale) lines
                return answer
            if len(output.kept) < output.cap:
                _keep(output, raw + b"\n")
            else:
                output.dropped += len(raw) + 1
        if len(self.pending) > _LINE_CAP:
            _keep(output, self.pending)
            self.pending = b""
        return None

    def _take_frames(self, turn: int, output: Capture) -> str | None:
        """`_take_lines` for a bot of the core's frames: output lines are output, an earlier turn's frame is a
        late answer (dropped), this turn's is the answer; what follows it stays for the next turn."""
        frames = self.frames
        assert frames is not None
        while (item := frames.next()) is not None:
            if type(item) is Frame:
                if item.turn == turn:
                    self.frame = item
                    return item.text
                if item.turn < turn:
                    self.late_dropped += 1
                else:
                    frames.notes.append(f"dropped an answer to turn {item.turn}, which is not this turn ({turn})")
            elif len(output.kept) < output.cap:
                _keep(output, item)  # type: ignore[arg-type]
            else:
                output.dropped += len(item)  # type: ignore[arg-type]
        return None

    def _buffered_answer(self, turn: int, output: Capture) -> str | None:
        """An answer to `turn` among what was read after last turn's answer or deadline (usually nothing)."""
        if self.frames is not None:
            return self._take_frames(turn, output) if self.frames.buffer else None
        return self._take_lines(turn, output) if b"\n" in self.pending else None

    def _read_into(self, fd: int, output: Capture) -> bool:
        """Read what stderr holds now into the output; False at its end."""
        output.closed = False
        output.read(fd)
        return not output.closed

    def _collect_stderr(self, output: Capture) -> None:
        if self.proc is not None and self.proc.stderr is not None:
            try:
                self._read_into(self.proc.stderr.fileno(), output)
            except (OSError, ValueError):
                pass

    def _mark_dead(self, output: Capture, reason_if_running: str) -> None:
        """The process closed its output or its input: wait briefly for its exit status, then say why."""
        assert self.proc is not None and self.plan is not None
        _keep(output, self.pending)  # a last line without its newline is output too
        self.pending = b""
        if self.frames is not None:  # so is a frame cut short
            _keep(output, self.frames.leftover())
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            self._collect_stderr(output)
            self.dead_reason = reason_if_running
            return
        # after the exit: the last of stderr, where a launch wrapper's own last words are (see bot_exit_code)
        self._collect_stderr(output)
        self.exit_code = isolation.bot_exit_code(self.plan.isolation, code, output)
        detail = "exited normally" if self.exit_code == 0 else describe_exit(self.exit_code)
        self.dead_reason = f"the bot process ended ({detail}); it is not restarted"


def collect_all(asks: Iterable[tuple[PersistentBot, Request]]) -> list[TurnOutcome]:
    """Wait for the answers to requests already sent (`PersistentBot.send`), every bot in one poll.

    Each bot keeps its own deadline; the wait ends when every bot has answered, timed out or died. Writing
    and reading share the poll: a bot blocked on a full stdout pipe is not reading stdin, so waiting for
    either alone could wait for the deadline. One poll object per turn for all bots, not a thread or a
    stderr read per bot: on a 12,630-turn Invaders match those were most of the runner's own time.
    """
    asks = tuple(asks)
    ended: list[tuple[str | None, float]] = [(None, 0.0)] * len(asks)  # (answer, seconds) per ask
    waiting: dict[int, tuple[PersistentBot, Request]] = {}  # index -> the bots still owing an answer
    for index, (bot, request) in enumerate(asks):
        if request.done is None and bot.dead_reason is not None:  # its input closed as the request was sent
            ended[index] = (None, time.perf_counter() - request.started)
        elif request.done is None:
            # what was read after last turn's answer or deadline (usually nothing)
            answer = bot._buffered_answer(request.turn, request.output)  # type: ignore[arg-type]
            if answer is None:
                waiting[index] = (bot, request)
            else:
                ended[index] = (answer, time.perf_counter() - request.started)
    return _wait_for(asks, waiting, ended)


def _wait_for(asks: tuple[tuple[PersistentBot, Request], ...], waiting: dict[int, tuple[PersistentBot, Request]],
              ended: list[tuple[str | None, float]]) -> list[TurnOutcome]:
    """`collect_all` once the bots of `waiting` are the ones still owing an answer (the others in `ended`)."""
    _Wait(asks, waiting, ended).run()
    return [request.done if request.done is not None else bot._outcome(request, *ended[index])
            for index, (bot, request) in enumerate(asks)]


#: the compiled `write_each` and `wait_lines` (runner/bots/_pipes.c), None where it is not built: the Python
#: ones below, same contracts, run instead
_PIPES = None if pure_forced() else load_compiled("runner.bots._pipes", Path(__file__).with_name("_pipes.c"),
                                                     "persistent bots' turns")
STOP_DEADLINE, STOP_EVENT, STOP_CHUNK = 0, 1, 2  # why `wait_lines` stopped before every bot answered


def exchange(bots: Sequence[PersistentBot], turn: int, lines: Sequence[str],
             meanwhile: Callable[[], object]) -> list[TurnOutcome]:
    """`send` (a turn without files) to every bot, `meanwhile()` while they think, then `collect_all`.

    Built for the usual turn of a long match (Invaders: 12,630 of them), where each bot is running and owes
    nothing, the pipe takes each request at once, and each answer is one whole line in one read with nothing
    else: then no Request or Capture is made, and the writes and the wait are one call each (`write_each`,
    `wait_lines`: compiled in runner/bots/_pipes.c where built). At the first other thing (a bot not running
    or owing a late answer, a request the pipe does not take whole, stderr, a line in pieces or several, a
    line that is no answer, the end of a pipe, a deadline) the turn goes on exactly as `send` and
    `collect_all` take it."""
    if not bots:
        meanwhile()
        return []
    ins: list[int] = []
    outs: list[int] = []
    errs: list[int] = []
    encoded: list[bytes] = []
    limit_ms = bots[0].limits.timeout_ms
    # loops, not comprehensions, on this path: in Python 3.11 a comprehension is a frame of its own
    for bot, line in zip(bots, lines):
        if bot.proc is None or bot.dead_reason is not None or bot.pending or bot.unsent or bot.late or bot.late_dropped:
            asks = [(bot, bot.send(turn, NO_FILES, line)) for bot, line in zip(bots, lines)]
            meanwhile()
            return collect_all(asks)
        out, err, into = bot.fds
        ins.append(into)
        outs.append(out)
        errs.append(err)
        encoded.append(line.encode("utf-8") + b"\n")
        limit_ms = min(limit_ms, bot.limits.timeout_ms)
    pipes = _PIPES
    datas = tuple(encoded)
    perf_counter = time.perf_counter
    started = perf_counter()
    unwritten = pipes.write_each(tuple(ins), datas) if pipes is not None else _write_each(ins, datas)
    if unwritten != -1:
        index, written = unwritten
        asks = [(other, other._requested(turn, started)) for other in bots[:index]]
        bot = bots[index]
        bot.unsent = datas[index][max(written, 0):]
        asks.append((bot, bot._requested(turn, started, written >= 0)))
        asks += [(other, other.send(turn, NO_FILES, line)) for other, line in zip(bots[index + 1:], lines[index + 1:])]
        meanwhile()
        return collect_all(asks)
    meanwhile()
    waited = perf_counter()
    timeout_s = started + limit_ms / 1000 - waited
    got, seconds, stop = (pipes.wait_lines(tuple(outs), tuple(errs), timeout_s) if pipes is not None
                          else _wait_lines(outs, errs, timeout_s))
    answers: list[str | None] = [None] * len(bots)
    reads: list[tuple[int, bytes, bool]] = []  # (index, chunk, whether it is a whole line that is no answer)
    for index, line in enumerate(got):
        if line is not None:
            answer = bots[index].accept(line[:-1].decode("utf-8", errors="replace").removesuffix("\r"), turn)
            if answer is None:
                reads.append((index, line, True))
            else:
                answers[index] = answer
                seconds[index] += waited - started
    if stop is None and not reads:
        outcomes = []
        for index, answer in enumerate(answers):
            outcomes.append(TurnOutcome(_OK, answer, seconds[index], "", None, ()))
        return outcomes
    if stop is not None and stop[0] == STOP_CHUNK:
        reads.append((stop[1], stop[2], False))
    return _hand_over(bots, turn, started, answers, seconds, reads)


def _write_each(fds: Sequence[int], datas: Sequence[bytes]) -> int | tuple[int, int]:
    """`write_each` of _pipes.c: -1 when each data went whole to its fd, else (index, written) of the first
    that did not (0: the pipe was full, -1: the bot closed its stdin)."""
    for index, data in enumerate(datas):
        try:
            written = os.write(fds[index], data)
        except BlockingIOError:
            written = 0
        except OSError:  # BrokenPipeError: SIGPIPE is ignored in Python
            written = -1
        if written != len(data):
            return index, written
    return -1


#: `_wait_lines`' poll objects, by the fds they watch: a poll object only holds fd numbers, so one made for a
#: set of fds is right for whichever bots hold those numbers now (bounded: cleared past _POLLERS_KEPT)
_pollers: dict[tuple[int, ...], select.poll] = {}
_POLLERS_KEPT = 64


def _wait_lines(outs: Sequence[int], errs: Sequence[int], timeout_s: float
                ) -> tuple[list[bytes | None], list[float], tuple[int, int, bytes | None] | None]:
    """`wait_lines` of _pipes.c: per bot its whole answer line (or None) and when it was read (seconds since
    the call), and why it stopped early (None: every bot answered). Stdout fds are polled before stderr fds
    (poll reports them in that order: stderr written before an answer shows in the poll that shows the
    answer). Unlike the compiled one, it keeps an answered bot's stdout in its poll object, and stops
    (STOP_EVENT) when that bot writes again."""
    key = (*outs, *errs)
    poller = _pollers.get(key)
    if poller is None:
        if len(_pollers) >= _POLLERS_KEPT:
            _pollers.clear()
        poller = _pollers[key] = select.poll()
        for fd in key:
            poller.register(fd, _POLLIN)
    perf_counter = time.perf_counter
    started = perf_counter()
    lines: list[bytes | None] = [None] * len(outs)
    seconds = [0.0] * len(outs)
    owed = dict(zip(outs, range(len(outs))))
    while owed:
        left = timeout_s - (perf_counter() - started)
        if left <= 0:
            return lines, seconds, (STOP_DEADLINE, -1, None)
        for fd, _ in poller.poll(int(left * 1000 + 0.999)):
            index = owed.pop(fd, None)
            if index is None:  # stderr, or a bot that answered writing again: `_Wait` reads it
                return lines, seconds, (STOP_EVENT, -1, None)
            try:
                chunk = os.read(fd, _READ_CHUNK)
            except BlockingIOError:
                owed[fd] = index
                continue
            except OSError:
                chunk = b""
            if not chunk or chunk.find(b"\n") != len(chunk) - 1:
                return lines, seconds, (STOP_CHUNK, index, chunk)
            lines[index] = chunk
            seconds[index] = perf_counter() - started
    return lines, seconds, None


def _hand_over(bots: Sequence[PersistentBot], turn: int, started: float, answers: list[str | None],
               seconds: list[float], reads: list[tuple[int, bytes, bool]]) -> list[TurnOutcome]:
    """`exchange` from where it stopped on as `collect_all`: the requests it sent (at `started`), the answers
    it took, and `reads`: stdout chunks read but not taken, as (index, chunk, whether it is one whole line that
    is no answer)."""
    asks = tuple((bot, bot._requested(turn, started)) for bot in bots)
    ended = [(answer, seconds[index]) for index, answer in enumerate(answers)]
    waiting = {index: asks[index] for index, answer in enumerate(answers) if answer is None}
    for index, chunk, not_an_answer in reads:
        bot, request = asks[index]
        if not_an_answer:
            _keep(request.output, chunk)  # type: ignore[arg-type]  # output, as `_take_lines` keeps it
            continue
        answer = bot._on_chunk(chunk, turn, request.output)  # type: ignore[arg-type]
        if answer is not None:
            del waiting[index]
            ended[index] = (None if answer is False else answer, time.perf_counter() - started)
    return _wait_for(asks, waiting, ended)


_OUT, _ERR, _IN = 0, 1, 2  # which of a bot's pipes a polled fd is


class _Wait:
    """One turn's wait for the bots of `waiting`, on one poll object: until each has an entry in `ended`
    (then one last look, timeout 0, at stderr when an answer came from last turn's reads).

    The usual event is a whole answer line in one read: it is decoded and accepted at once, without going
    through `pending` and a split. An answered bot's stdout leaves the poll (a stale line stays in the pipe
    for the next turn); its stderr stays, so what it writes while the others think is this turn's output."""

    def __init__(self, asks: tuple[tuple[PersistentBot, Request], ...],
                 waiting: dict[int, tuple[PersistentBot, Request]], ended: list[tuple[str | None, float]]) -> None:
        self.waiting = waiting
        self.ended = ended
        self.poller = select.poll()
        self.streams: dict[int, tuple[int, int, PersistentBot, Request]] = {}  # fd -> (index, pipe, bot, request)
        self.deadlines: dict[int, float] = {}
        #: whether a bot's answer is already in (read last turn): its stderr needs one look after the wait. A bot
        #: answering during the wait needs none: its stderr, written before the answer and polled after its
        #: stdout, shows in the very poll that shows the answer (poll checks the fds in order, each time).
        self.unpolled = False
        streams, register = self.streams, self.poller.register
        for index, (bot, request) in enumerate(asks):
            if request.output is None or bot.dead_reason is not None:
                continue
            self.unpolled = self.unpolled or index not in waiting
            out, err, into = bot.fds
            if index in waiting:  # stdout first: a batch of events is handled in this order
                streams[out] = (index, _OUT, bot, request)
                register(out, _POLLIN)
                self.deadlines[index] = request.started + request.limit_ms / 1000
            streams[err] = (index, _ERR, bot, request)
            register(err, _POLLIN)
            if index in waiting and bot.unsent:  # the rest of the request, as the bot reads it
                streams[into] = (index, _IN, bot, request)
                register(into, _POLLOUT)

    def _forget(self, fd: int) -> None:
        if self.streams.pop(fd, None) is not None:
            self.poller.unregister(fd)

    def run(self) -> None:
        waiting, deadlines = self.waiting, self.deadlines
        now = time.perf_counter()
        while waiting:
            nearest = min(deadlines.values())
            if nearest <= now:
                for index, ends in list(deadlines.items()):
                    if ends <= now:
                        bot, request = waiting[index]
                        bot._collect_stderr(request.output)  # type: ignore[arg-type]
                        self._done(index, None)
                continue
            self._handle(self.poller.poll(int((nearest - now) * 1000 + 0.999) or 1))
            now = time.perf_counter()
        if self.unpolled and self.streams:  # stderr an answer taken from `pending` may follow, not read yet
            self._handle(self.poller.poll(0))

    def _handle(self, events: list[tuple[int, int]]) -> None:
        streams = self.streams
        for fd, _ in events:
            stream = streams.get(fd)
            if stream is None:
                continue  # left the poll earlier in this batch of events
            index, kind, bot, request = stream
            output = request.output
            assert output is not None
            if kind == _OUT:
                answer = bot._on_stdout(request.turn, output)
                if answer is not None:
                    self._done(index, None if answer is False else answer)
            elif kind == _ERR:
                if not bot._read_into(fd, output):
                    self._forget(fd)
            elif not bot._write_request():
                bot._mark_dead(output, "closed its input and stopped answering")
                self._done(index, None)
            elif not bot.unsent:
                self._forget(fd)

    def _done(self, index: int, answer: str | None) -> None:
        """`waiting[index]` has its answer (or None): note it; its stdout and stdin leave the poll, and all
        of its pipes when it died."""
        bot, request = self.waiting.pop(index)
        self.ended[index] = (answer, time.perf_counter() - request.started)
        del self.deadlines[index]
        out, err, into = bot.fds
        streams, poller = self.streams, self.poller
        del streams[out]
        poller.unregister(out)
        if into in streams:
            self._forget(into)
        if bot.dead_reason is not None:
            self._forget(err)


def _keep(output: Capture, data: bytes) -> None:
    """Add stdout bytes to the turn's output, within its cap; the rest is counted as dropped."""
    room = max(0, output.cap - len(output.kept))
    output.kept += data[:room]
    output.dropped += max(0, len(data) - room)
