"""How a bot process is started so that limits apply before it runs and nothing it starts survives the turn.

The argv of a turn is `[prlimit ...] [unshare ... | bwrap ...] <bot argv>`:

* Limits: util-linux `prlimit --data=... <command>` sets the rlimits on itself and execs, so they are in
  place before the bot's first instruction and are inherited by everything it starts. The alternative,
  subprocess's `preexec_fn`, runs Python code between fork and exec, which the Python docs call unsafe with
  threads (the match loop runs both players' turns from two threads) and, measured here, costs more (it
  turns off vfork): about 1.6 ms against about 1.2 ms for the extra exec. `preexec_fn` is kept only as the
  fallback when prlimit is missing, and then does nothing but setrlimit calls.
* Clean-up: `unshare --pid --fork --kill-child` makes the bot PID 1 of a new PID namespace. When PID 1
  exits or is killed, the kernel kills every other process of the namespace, including those that called
  setsid() or double-forked, and unshare only returns once they are gone. Nothing to scan, nothing to race;
  it costs one exec (about 1.3 ms here). Like in a container, the bot is PID 1: a signal it sends itself
  without a handler is ignored. Root may create the namespace directly; others need a user namespace.
* Sandbox: bubblewrap with its own PID namespace (and its own PID 1, so the bot is not), the file system
  read-only but the bot folder, a private /tmp, no network.
* Fallback when neither namespace kind is allowed: the bot leads its own process group, which is killed at
  the end of every turn, and /proc is swept for processes carrying the turn's marker variable (catches
  setsid escapees that kept their environment; a bot that clears it can escape this mode only).
"""

from __future__ import annotations

import enum
import functools
import json
import os
import resource
import select
import shutil
import signal
import subprocess
from collections.abc import Callable
from typing import Protocol

import attrs

from runner.bots.limits import Limits
from runner.errors import UserError

#: Set in every bot process's environment, unique per turn: how the fallback sweep recognises a bot's
#: leftovers, and how tests find any process a bot started.
MARKER_ENV = "TD_RUNNER_TURN"


class Isolation(enum.Enum):
    SANDBOX = "bubblewrap sandbox (own PID namespace, read-only file system but the bot folder, no network)"
    PID_NAMESPACE = "own PID namespace per turn"
    PROCESS_GROUP = "process group + marker sweep (no namespaces allowed here)"


@attrs.frozen
class LaunchPlan:
    prefix: tuple[str, ...]  # prepended to the bot's argv
    isolation: Isolation
    preexec: Callable[[], None] | None = None  # only when prlimit is missing


def plan_launch(limits: Limits, bot_dir: str, info_fd: int | None = None) -> LaunchPlan:
    """The wrapper argv for one turn; UserError when the limits ask for isolation this machine lacks.

    `info_fd`: for the sandbox, the write end of a pipe that bubblewrap reports its PID 1 to
    (`sandbox_gone` reads it).
    """
    rlimits = _rlimits(limits)
    prlimit = _prlimit_path()
    if prlimit is not None:
        prefix: tuple[str, ...] = (prlimit, *(f"--{name}={value}" for name, _, value in rlimits), "--") if rlimits else ()
        preexec = None
    else:
        prefix, preexec = (), functools.partial(_set_rlimits, tuple((res, value) for _, res, value in rlimits))
    isolation = check_isolation(limits)
    if isolation is Isolation.SANDBOX:
        prefix += _sandbox_prefix(bot_dir, limits, info_fd)
    elif isolation is Isolation.PID_NAMESPACE:
        prefix += _namespace_prefix() or ()
    return LaunchPlan(prefix, isolation, preexec)


def check_isolation(limits: Limits) -> Isolation:
    """Which isolation the turns get; call before round 0 so a missing bwrap stops the match early."""
    if limits.sandbox:
        _check_sandbox()
        return Isolation.SANDBOX
    if limits.pid_namespace is False:
        return Isolation.PROCESS_GROUP
    if _namespace_prefix() is not None:
        return Isolation.PID_NAMESPACE
    if limits.pid_namespace:
        raise UserError("a PID namespace per bot was asked for, but `unshare --pid` is not permitted here")
    return Isolation.PROCESS_GROUP


def _rlimits(limits: Limits) -> list[tuple[str, int, int]]:
    """(prlimit option, resource, value) for each limit that is set; soft = hard so the bot cannot raise it."""
    table = [
        ("data", resource.RLIMIT_DATA, limits.memory_bytes),
        ("as", resource.RLIMIT_AS, limits.address_space_bytes),
        ("cpu", resource.RLIMIT_CPU, limits.cpu_limit()),
        ("fsize", resource.RLIMIT_FSIZE, limits.file_size_bytes),
        ("nofile", resource.RLIMIT_NOFILE, limits.open_files),
        ("nproc", resource.RLIMIT_NPROC, limits.processes),
    ]
    return [(name, res, value) for name, res, value in table if value is not None]


def _set_rlimits(rlimits: tuple[tuple[int, int], ...]) -> None:
    # runs in the child between fork and exec: setrlimit only, nothing that could take a lock
    for res, value in rlimits:
        resource.setrlimit(res, (value, value))


@functools.cache
def _prlimit_path() -> str | None:
    return shutil.which("prlimit")


@functools.cache
def _namespace_prefix() -> tuple[str, ...] | None:
    """The first unshare invocation that works here (probed once), or None."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    pid_ns = ("--pid", "--fork", "--kill-child")
    candidates = [(unshare, *pid_ns)] if os.geteuid() == 0 else []
    candidates += [(unshare, "--user", "--map-current-user", *pid_ns), (unshare, "--user", "--map-root-user", *pid_ns)]
    for candidate in candidates:
        if _runs((*candidate, "--", "true")):
            return (*candidate, "--")
    return None


def _sandbox_prefix(bot_dir: str, limits: Limits, info_fd: int | None = None) -> tuple[str, ...]:
    tmp_size = ("--size", str(limits.file_size_bytes)) if limits.file_size_bytes else ()
    info = ("--info-fd", str(info_fd)) if info_fd is not None else ()
    hidden = [("--tmpfs", path) for path in limits.hidden_paths if os.path.isdir(path)]
    return (
        _bwrap_path() or "bwrap",
        *info,
        "--die-with-parent", "--new-session",
        "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
        "--ro-bind", "/", "/",
        "--dev", "/dev",
        "--proc", "/proc",
        *tmp_size, "--tmpfs", "/tmp",
        *(argument for pair in hidden for argument in pair),
        "--bind", bot_dir, bot_dir,  # after the tmpfs mounts, so a bot folder under one stays visible
        "--chdir", bot_dir,
        "--",
    )  # fmt: skip


@functools.cache
def _bwrap_path() -> str | None:
    return shutil.which("bwrap")


#: Environment variables a sandboxed bot gets from the runner (the rest may hold the operator's secrets):
#: what locates programs and runtimes, and the locale.
SANDBOX_ENV = ("PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TERM", "JAVA_HOME", "GOROOT",
               "GOPATH", "DOTNET_ROOT", "NODE_PATH")


def bot_environment(mode: Isolation, marker: str) -> dict[str, str]:
    """The bot's environment: the runner's own, or only SANDBOX_ENV (and LC_*) in the sandbox."""
    if mode is Isolation.SANDBOX:
        env = {key: value for key, value in os.environ.items() if key in SANDBOX_ENV or key.startswith("LC_")}
        env["TMPDIR"] = "/tmp"  # the sandbox's private one
        env.setdefault("GOCACHE", "/tmp/go-build")  # `go run` must write its build cache somewhere
    else:
        env = dict(os.environ)
    env[MARKER_ENV] = marker
    return env


def _check_sandbox() -> None:
    bwrap = _bwrap_path()
    if bwrap is None:
        raise UserError(
            "--sandbox needs bubblewrap (`bwrap`), which is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
        )
    problem = _sandbox_problem(bwrap)
    if problem:
        raise UserError(f"--sandbox: bubblewrap cannot create a sandbox on this machine: {problem}")


@functools.cache
def _sandbox_problem(bwrap: str) -> str | None:
    """Try the sandbox once per process (about 10 ms): user namespaces may be disabled, for one."""
    probe = subprocess.run(
        [*_sandbox_prefix("/", Limits()), "true"], capture_output=True, text=True, errors="replace", check=False
    )
    if probe.returncode == 0:
        return None
    return (probe.stderr.strip().splitlines() or [f"exit code {probe.returncode}"])[0]


def _runs(argv: tuple[str, ...]) -> bool:
    try:
        return subprocess.run(argv, capture_output=True, timeout=10, check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


# util-linux unshare re-raises the signal that killed PID 1 on itself, which cannot work for SIGKILL: it
# then prints this and exits 1 (seen with 2.38).
_UNSHARE_SIGKILL = b"unshare: sigprocmask unblock failed: Invalid argument\n"


def bot_exit_code(mode: Isolation, code: int, capture: _HasTail) -> int:
    """The bot's own exit status from the wrapper's (negative = killed by that signal, as in subprocess).

    Strips the wrapper's complaint from the captured output when it made one.
    """
    if mode is Isolation.PID_NAMESPACE and code == 1 and capture.tail.endswith(_UNSHARE_SIGKILL):
        capture.strip_tail(_UNSHARE_SIGKILL)
        return -signal.SIGKILL
    if mode is Isolation.SANDBOX and 128 < code < 128 + signal.NSIG:
        return 128 - code  # bubblewrap's PID 1 reports a signal death as 128 + n, like a shell
    return code


class _HasTail(Protocol):
    tail: bytes

    def strip_tail(self, suffix: bytes) -> None: ...


def await_sandbox_gone(info_read_fd: int, timeout: float) -> None:
    """Wait until the sandbox's PID namespace is empty.

    bubblewrap's outer process exits as soon as the bot's main process does, while its PID 1 is still
    taking the namespace down; that PID 1 (named on the info pipe) ends only once every process of the
    namespace is gone, and a pidfd on it says when.
    """
    try:
        info = json.loads(os.read(info_read_fd, 1 << 16) or b"{}")
        pidfd = os.pidfd_open(int(info["child-pid"]))
    except (OSError, ValueError, KeyError, TypeError):
        return  # never started, or already gone
    try:
        select.select([pidfd], [], [], timeout)
    finally:
        os.close(pidfd)


def children_of(pid: int) -> list[int]:
    """Direct children (needs CONFIG_PROC_CHILDREN, present in the usual distribution kernels)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children", "rb") as handle:
            return [int(part) for part in handle.read().split()]
    except (OSError, ValueError):
        return []


def sweep_marked(marker: str, *, passes: int = 5) -> int:
    """SIGKILL every process whose environment holds `MARKER_ENV=marker`; how many were killed.

    Repeated because a process may fork between the scan and the kill; stops at the first empty pass.
    """
    needle = f"{MARKER_ENV}={marker}".encode() + b"\0"
    killed: set[int] = set()
    for _ in range(passes):
        found = find_marked(needle)
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)
            except OSError:
                pass
        if not found:
            break
    return len(killed)


def find_marked(needle: bytes) -> list[int]:
    """Pids whose /proc/<pid>/environ contains `needle` (zombies have an empty environ and are skipped)."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/environ", "rb") as handle:
                environ = b"\0" + handle.read()
        except OSError:
            continue
        if b"\0" + needle in environ:
            found.append(int(entry.name))
    return found
