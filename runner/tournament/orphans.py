"""A worker whose parent died ends at once, and a run started afterwards never meets one.

A local worker (worker.py) is fed by its parent (a tournament or `league run`) through its stdin pipe, which
only the parent holds open for writing: when the parent dies, however (`kill -9` included), the kernel closes
that end and the pipe reports a hang-up. `ParentWatch` is a thread that waits for exactly that (and, in case
some process inherited the pipe's end, for the parent's pid to change) and then stops the match the way
SIGTERM does, kills every process the worker started (the bots' wrappers lead their own process groups;
their namespace's init or bubblewrap's PID 1 goes with them) and leaves with `os._exit`: no result to write,
no traceback, within `STOP_S` of the parent's death. `prctl(PR_SET_PDEATHSIG)` was not used: it fires when the
parent *thread* that started the worker ends (a pool slot's thread, which comes and goes), not the parent.

An orphan might still be writing a match log when the next run starts and cleans the same folder. So a
worker holds a shared `flock` on the folder its log goes in (`playing_in`) for as long as it plays, and
checks, once it holds it, that its parent still lives; a run that is about to clean or reuse a folder first
takes the exclusive lock (`await_orphans`), which waits for the last orphan to be gone.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

from runner.errors import UserError

STOP_S = 0.5  # after the parent's death, the match has this long to stop by itself before the worker just ends
AWAIT_S = 10.0  # how long a new run waits for an earlier run's orphans (they end within STOP_S)
_KILL_EVERY_S = 0.02  # the bots' processes are killed this often while the match stops (a turn may start one)
_WRAPPERS_AFTER_S = 0.1  # and their wrappers too after this long (see kill_children)


class ParentWatch:
    """Ends this worker process when its parent is gone (see the module docstring). `playing` tells whether a
    match is under way, so whether there is one to stop."""

    def __init__(self, jobs_fd: int) -> None:
        self.jobs_fd = jobs_fd
        self.parent = os.getppid()
        self.playing = False
        self.gone = threading.Event()
        self._main = threading.main_thread().ident
        threading.Thread(target=self._watch, name="td-parent-watch", daemon=True).start()

    def parent_alive(self) -> bool:
        """Checked now, not when the watch last looked (a worker that takes a folder's lock asks)."""
        poller = select.poll()
        poller.register(self.jobs_fd, 0)  # only the hang-up (always reported): jobs stay for the main thread
        return not poller.poll(0) and os.getppid() == self.parent and not self.gone.is_set()

    def _watch(self) -> None:
        poller = select.poll()
        poller.register(self.jobs_fd, 0)
        while not poller.poll(100) and os.getppid() == self.parent:
            pass
        self.gone.set()
        if not self.playing:  # between matches (the pool's own close looks the same): nothing to stop
            self.end()
        if self._main is not None:
            signal.pthread_kill(self._main, signal.SIGTERM)  # the match stops as on Ctrl-C: no new turn
        started = time.monotonic()
        while (now := time.monotonic()) < started + STOP_S:  # (the main thread ends the worker once stopped)
            kill_children(wrappers=now - started >= _WRAPPERS_AFTER_S)
            time.sleep(_KILL_EVERY_S)
        self.end()

    def end(self) -> NoReturn:
        """Kill what this process started and end it, quietly (its parent is gone: nobody reads a result)."""
        kill_children()
        os._exit(0)


def kill_children(wrappers: bool = True) -> None:
    """SIGKILL the children of this process's children (whichever thread started them): a bot, a namespace's
    init, bubblewrap's PID 1 (each namespace dies with its PID 1); with `wrappers`, the children themselves
    and their process groups too (each leads its own). The wrappers are best left a moment to reap the bot
    they wait for (`unshare --fork`): a bot orphaned unreaped goes to the machine's PID 1, and the namespace's
    init, the turn waits for, ends only once that has reaped it. Without namespaces the child is the bot."""
    for child in _task_children(os.getpid()):
        for grandchild in _task_children(child):
            with contextlib.suppress(OSError):  # (already gone)
                os.kill(grandchild, signal.SIGKILL)
        if wrappers:
            with contextlib.suppress(OSError):
                os.killpg(child, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.kill(child, signal.SIGKILL)


def _task_children(pid: int) -> list[int]:
    """The children of every thread of `pid` (/proc lists a child under the thread that started it)."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", "rb") as handle:
                found.extend(int(part) for part in handle.read().split())
        except (OSError, ValueError):
            continue
    return found


@contextlib.contextmanager
def playing_in(folder: Path, watch: ParentWatch) -> Iterator[None]:
    """Hold a shared lock on the folder `folder` is in while a match plays into it; a worker whose parent
    died before it got the lock ends there (the next run may already have cleaned that folder)."""
    parent = folder.parent
    parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        with contextlib.suppress(OSError):  # a file system without locks: played unguarded, as it must be
            fcntl.flock(fd, fcntl.LOCK_SH)
        if not watch.parent_alive():
            watch.end()
        yield
    finally:
        os.close(fd)


def await_orphans(folder: Path, timeout_s: float = AWAIT_S) -> None:
    """Return once no worker plays into `folder` (an earlier run's orphans end within STOP_S); a UserError
    if one still does after `timeout_s` (a stopped process, say)."""
    if not folder.is_dir():
        return
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        give_up = time.monotonic() + timeout_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:  # (any other OSError: a file system without locks, nothing to wait for)
                if time.monotonic() >= give_up:
                    holders = ", ".join(str(pid) for pid in _flock_holders(fd)) or "unknown"
                    raise UserError(f"{folder}: a worker of an earlier run still writes a match log here after "
                                    f"{timeout_s:g} s (process {holders}); end it and start again") from None
                time.sleep(0.05)
            except OSError:
                return
    finally:
        os.close(fd)


def _flock_holders(fd: int) -> list[int]:
    """The processes holding a flock on the file `fd` is open on, as /proc/locks names them."""
    stat = os.fstat(fd)
    inode = f"{os.major(stat.st_dev):02x}:{os.minor(stat.st_dev):02x}:{stat.st_ino}"
    holders = []
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as handle:
            for line in handle:
                fields = line.split()  # "1: FLOCK ADVISORY READ 1234 08:01:5678 0 EOF"
                if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == inode and fields[4].isdigit():
                    holders.append(int(fields[4]))
    except OSError:
        pass
    return sorted(set(holders))
