"""One bot turn: write the round's files, run the bot under limits, collect command.txt (spec 8.4, 4.1).

Thread-safe: the match loop runs both players' turns at once from two threads. Nothing here changes
process-wide state (no chdir, no signal handlers, no umask); each turn owns its file descriptors.
"""

from __future__ import annotations

import errno
import os
import select
import shutil
import signal
import subprocess
import time
from collections.abc import Mapping

from runner.bots import containment, isolation
from runner.bots.command_file import COMMAND_FILE, read_command
from runner.games.interface import Absent, AnswerFile, AnswerLines
from runner.bots.definition import BotDefinition
from runner.bots.limits import Limits
from runner.bots.outcome import TurnOutcome, TurnStatus, describe_exit, exit_detail, format_size, seconds_text

__all__ = ["Limits", "run_turn"]

#: The Entelect convention: command.txt, its first line counts, at most 64 KiB read (spec 4.1).
DEFAULT_ANSWER = AnswerFile(COMMAND_FILE)

_READ_CHUNK = 1 << 16
_DISCARD_CHUNK = 1 << 20  # once the cap is reached, read big chunks: fewer wake-ups during a flood
_REAP_GRACE_S = 2.0  # how long a killed tree may take to disappear before we stop waiting for it


def run_turn(
    bot: BotDefinition, files: Mapping[str, str], limits: Limits, answer: AnswerFile = DEFAULT_ANSWER
) -> TurnOutcome:
    """Run one turn of `bot`: never raises for anything the bot does (a UserError only when the limits ask
    for isolation the machine lacks, which `isolation.check_isolation` reports before the match).

    `files` maps a plain file name (state.json, textMap.txt) to its text, written as UTF-8 bytes exactly;
    `answer` says which file the bot answers in and how much of it counts.
    """
    events: list[str] = []
    dir_fd = open_bot_dir(bot, events)
    if dir_fd is None:
        return _failed(events.pop(), events)
    try:
        write_turn_files(dir_fd, files, answer.name, events)
        return _run(bot, limits, dir_fd, events, answer)
    finally:
        os.close(dir_fd)


def open_bot_dir(bot: BotDefinition, events: list[str]) -> int | None:
    """The bot folder opened without following a symlink put in its place; None (and why, in events) if not."""
    bot_dir = str(bot.bot_dir)
    try:
        return os.open(bot_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        reason = "was replaced by a symlink" if exc.errno == errno.ELOOP else f"cannot be opened ({exc.strerror})"
        events.append(f"bot folder {bot_dir} {reason}")
        return None


def write_turn_files(dir_fd: int, files: Mapping[str, str], answer_name: str, events: list[str]) -> None:
    """Delete the answer file, then write the turn's files (spec 7.4 order)."""
    for name in files:
        if not name or "/" in name or name in (".", "..", answer_name):
            raise ValueError(f"not a plain state file name: {name!r}")
    _remove(dir_fd, answer_name, events)
    for name, text in files.items():
        _write(dir_fd, name, text.encode("utf-8"), events)


def _run(bot: BotDefinition, limits: Limits, dir_fd: int, events: list[str], answer: AnswerFile) -> TurnOutcome:
    missing = missing_program(bot)
    if missing:
        return _failed(missing, events)
    # the wrapper names the namespace's PID 1 here, so the turn can wait for the whole namespace to be gone
    namespaced = isolation.check_isolation(limits) is not isolation.Isolation.PROCESS_GROUP
    info_read, info_write = os.pipe() if namespaced else (None, None)
    try:
        plan = isolation.plan_launch(limits, str(bot.bot_dir), info_write, program=bot.argv[0], folder=str(bot.player_dir))
        marker = os.urandom(8).hex()
        env = isolation.bot_environment(plan.isolation, marker, bot.unset_env)
        started = time.perf_counter()
        try:
            proc = subprocess.Popen(
                [*plan.prefix, *bot.argv],
                cwd=bot.bot_dir,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,  # one stream, interleaved as written, like BotOutput.txt (spec 8.4)
                start_new_session=True,  # the bot leads its own process group and session
                preexec_fn=plan.preexec,  # noqa: PLW1509  (only without prlimit; setrlimit calls only)
                pass_fds=plan.pass_fds,
            )
        except OSError as exc:
            return _failed(f"failed to start {bot.argv[0]}: {exc.strerror or exc}", events)
        finally:
            if info_write is not None and plan.pass_fds:
                os.close(info_write)  # only bubblewrap holds it now, so reading it cannot block once it exits
                info_write = None
        capture = Capture(limits.output_cap_bytes)
        try:
            timed_out = _wait(proc, capture, started + limits.timeout_ms / 1000)
            seconds = time.perf_counter() - started
            if info_write is not None:
                os.close(info_write)  # the init's shell wrote to it (through /proc) before the bot started
                info_write = None
            init = isolation.open_init(info_read, proc.pid) if info_read is not None else None
            try:
                end_tree(proc, plan.isolation, timed_out)
            finally:
                isolation.await_gone(init, _REAP_GRACE_S)
            capture.drain(proc.stdout.fileno())  # type: ignore[union-attr]
        finally:
            proc.stdout.close()  # type: ignore[union-attr]
    finally:
        for fd in (info_read, info_write):
            if fd is not None:
                os.close(fd)
    if plan.isolation is isolation.Isolation.PROCESS_GROUP:
        leftovers = isolation.sweep_marked(marker)
        if leftovers:
            events.append(f"killed {leftovers} leftover process{'es' if leftovers > 1 else ''}")
    exit_code = isolation.bot_exit_code(plan.isolation, proc.returncode, capture)
    detail = ""
    if timed_out:
        events.append(f"timed out after {limits.timeout_ms} ms, process tree killed")
        status, exit_code = TurnStatus.TIMEOUT, None
        detail = f"did not finish within {seconds_text(limits.timeout_ms)}"
    else:
        status = TurnStatus.OK if exit_code == 0 else TurnStatus.CRASH
        if exit_code:
            events.append(describe_exit(exit_code))
            detail = exit_detail(exit_code)
    if capture.dropped:
        events.append(f"output truncated: {format_size(capture.dropped)} dropped")
    command, command_events = read_command(
        dir_fd, str(bot.bot_dir), max(limits.command_cap_bytes, answer.cap_bytes), answer.name,
        every_line=answer.lines is AnswerLines.ALL,
    )
    events.extend(command_events)
    absent = None
    if command is None:
        absent = Absent.REFUSED if command_events else Absent.NO_FILE
        if command_events and not detail:
            detail = f"wrote a {answer.name} that cannot be read: {command_events[-1].removesuffix(', ignored')}"
        command = ""
    return TurnOutcome(status, command, seconds, capture.text(), exit_code, tuple(events), detail, absent)


class Capture:
    """Keeps the first `cap` bytes of the output and counts the rest, reading as fast as the bot writes.

    `tail` holds the last bytes seen even past the cap: the launch wrapper's own last words are there.
    """

    TAIL = 256

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.kept = bytearray()
        self.dropped = 0
        self.closed = False
        self.tail = b""

    def read(self, fd: int) -> None:
        """Read what is available now (the fd is non-blocking); marks `closed` at end of file."""
        while True:
            room = self.cap - len(self.kept)
            try:
                chunk = os.read(fd, min(room, _READ_CHUNK) if room > 0 else _DISCARD_CHUNK)
            except BlockingIOError:
                return
            if not chunk:
                self.closed = True
                return
            self.tail = (self.tail + chunk)[-self.TAIL :]
            if room > 0:
                self.kept += chunk
            else:
                self.dropped += len(chunk)

    def strip_tail(self, suffix: bytes) -> None:
        """Remove wrapper text that ends the output (from what is kept and from the tail)."""
        if self.tail.endswith(suffix):
            self.tail = self.tail[: -len(suffix)]
            if self.dropped >= len(suffix):
                self.dropped -= len(suffix)
            elif self.kept.endswith(suffix[: len(suffix) - self.dropped]):
                del self.kept[len(self.kept) - (len(suffix) - self.dropped) :]
                self.dropped = 0

    def drain(self, fd: int) -> None:
        if not self.closed:
            self.read(fd)

    def text(self) -> str:
        return self.kept.decode("utf-8", errors="replace")


def _wait(proc: subprocess.Popen[bytes], capture: Capture, deadline: float) -> bool:
    """Read output until the main process exits (False) or the deadline passes (True).

    The process is left unreaped (a zombie) so its process group id cannot be recycled before the kill.
    """
    out = proc.stdout.fileno()  # type: ignore[union-attr]
    os.set_blocking(out, False)
    poller = select.poll()
    poller.register(out, select.POLLIN)
    try:
        exit_fd: int | None = os.pidfd_open(proc.pid)  # readable at exit: no polling loop, no SIGCHLD handler
        poller.register(exit_fd, select.POLLIN)
    except (AttributeError, OSError):
        exit_fd = None  # kernel < 5.3: look for the exit every 2 ms instead
    try:
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return not has_exited(proc.pid)
            step = remaining if exit_fd is not None else min(remaining, 0.002)
            for fd, _ in poller.poll(max(1, int(step * 1000 + 0.999))):
                if fd == out:
                    capture.read(out)
                    if capture.closed:
                        poller.unregister(out)
                elif fd == exit_fd:
                    return False
            if exit_fd is None and has_exited(proc.pid):
                return False
    finally:
        if exit_fd is not None:
            os.close(exit_fd)


def has_exited(pid: int) -> bool:
    """Whether the child has exited, without reaping it (WNOWAIT)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def end_tree(proc: subprocess.Popen[bytes], mode: isolation.Isolation, timed_out: bool) -> None:
    """Make sure no process of the turn is alive, then reap the main one."""
    gone: list[int] = []
    if timed_out and mode is not isolation.Isolation.PROCESS_GROUP:
        # Kill the wrapper's children: bubblewrap's PID 1, or the namespace's init and the bot. A namespace's
        # PID 1 ends only once every process of the namespace is gone, which its pidfd tells.
        for child in isolation.children_of(proc.pid):
            try:
                gone.append(os.pidfd_open(child))
            except OSError:
                continue
            _kill(child)
        if gone:
            _await_exit(proc.pid, _REAP_GRACE_S)
    # The group id is still reserved while the leader is unreaped, so this cannot hit a recycled group.
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    proc.wait()
    for pidfd in gone:
        isolation.await_gone(pidfd, _REAP_GRACE_S)


def _await_exit(pid: int, timeout: float) -> None:
    """Wait up to `timeout` for the child to exit, leaving it unreaped."""
    give_up = time.perf_counter() + timeout
    while not has_exited(pid) and time.perf_counter() < give_up:
        time.sleep(0.001)


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


def missing_program(bot: BotDefinition) -> str | None:
    """Checked every turn, because a wrapper cannot tell "could not exec the bot" from "the bot failed";
    and the folder checked again for paths that now lead outside it (runner/bots/containment.py)."""
    escaped = containment.launch_problem(bot.player_dir, bot.bot_dir, bot.file_name)
    if escaped:
        return f"failed to start: {escaped}"
    program = bot.argv[0]
    if os.sep in program:
        path = os.path.join(bot.bot_dir, program)
        return None if os.access(path, os.X_OK) else f"failed to start: {path} is missing or not executable"
    return None if shutil.which(program) else f"failed to start: `{program}` is not installed"


def _failed(reason: str, events: list[str] | None = None) -> TurnOutcome:
    return TurnOutcome(TurnStatus.FAILED_TO_START, "", 0.0, "", None, (*(events or ()), reason),
                       f"could not be started: {reason}")


def _remove(dir_fd: int, name: str, events: list[str]) -> None:
    """Remove a file of the bot folder without following links; a bot-made folder of that name goes too."""
    try:
        os.unlink(name, dir_fd=dir_fd)
    except FileNotFoundError:
        pass
    except IsADirectoryError:
        try:
            shutil.rmtree(name, dir_fd=dir_fd)
        except OSError as exc:
            events.append(f"could not remove the folder {name} ({exc.strerror})")
    except OSError as exc:
        events.append(f"could not remove {name} ({exc.strerror})")


def _write(dir_fd: int, name: str, data: bytes, events: list[str]) -> None:
    """Create `name` afresh: a symlink the bot left in its place is removed, never written through."""
    _remove(dir_fd, name, events)
    try:
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644, dir_fd=dir_fd)
    except OSError as exc:
        events.append(f"could not write {name} ({exc.strerror})")
        return
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except OSError as exc:
        events.append(f"could not write {name} ({exc.strerror})")
    finally:
        os.close(fd)
