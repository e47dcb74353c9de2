"""How a bot process is started so that limits apply before it runs and nothing it starts survives the turn.

The argv of a turn is `[prlimit ...] [unshare ... | bwrap ...] <bot argv>`:

* Limits: util-linux `prlimit --data=... <command>` sets the rlimits on itself and execs, so they are in
  place before the bot's first instruction and are inherited by everything it starts. The alternative,
  subprocess's `preexec_fn`, runs Python code between fork and exec, which the Python docs call unsafe with
  threads (the match loop runs both players' turns from two threads) and, measured here, costs more (it
  turns off vfork): about 1.6 ms against about 1.2 ms for the extra exec. `preexec_fn` is kept only as the
  fallback when prlimit is missing, and then does nothing but setrlimit calls.
* Clean-up: a PID namespace per turn, so that everything the bot starts, including what called setsid() or
  double-forked, is killed by the kernel when the namespace's PID 1 ends. The bot must not be that PID 1:
  the kernel drops any signal PID 1 has no handler for when it comes from inside the namespace, so a bot
  that calls abort() would die of SIGSEGV instead (glibc's last resort) and one that sends itself SIGTERM
  would keep running. The argv is therefore
  `unshare --pid -- sh -c '<init> & exec "$@"' sh unshare --fork --kill-child -- <bot argv>`:
  `unshare --pid` without --fork puts only the *children* of the shell in the new namespace, so the init
  the shell starts in the background (a `sleep` that ignores SIGCHLD, so orphans are reaped, and gets
  SIGKILL when its parent ends) is PID 1, and the bot, started next by `unshare --fork` (a process outside
  the namespace, where the shell was), is PID 2 with signals as anywhere else. Its parent waits for it and
  ends exactly as it did (same exit code, or the same signal re-raised), so no exit status is lost in a
  shell's 128+n. The runner learns the init's PID (the shell writes it to the runner's pipe through /proc,
  so no descriptor leaks into the bot), kills the process group (the init is in it) and waits for the
  init to be gone, which the kernel allows only once every process of the namespace is. Cost: two more
  execs on the way to the bot (the shell, the second unshare) and three for the init beside it; measured
  on a 2-CPU machine under load (an exec there about 3-5 ms), a turn of a `true` bot went from 20-24 ms to
  39-54 ms (median), a Python bot's turn being 250-400 ms there. Root may create the namespace directly;
  others need a user namespace. Where a mount namespace can be made too, the bot gets its own /tmp
  (`_init_shell`): what it writes there is gone with it, and JVMs, which all keep `/tmp/hsperfdata_<user>/<pid>`
  and are all PID 2 here, no longer collide.
* Sandbox: bubblewrap with its own PID namespace (and its own PID 1, so the bot is not), as an unprivileged
  user of its own user namespace, no network; it sees its own folder (writable), a private /tmp and the
  system's and its runtime's folders read-only, nothing else (runner/bots/sandbox.py lists them).
  bubblewrap reports a death by signal n as exit code 128 + n, so only there an exit code 129-192 reads as
  a signal.
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
import shlex
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from typing import Protocol

import attrs

from runner.bots import sandbox
from runner.bots.limits import Limits
from runner.errors import UserError

#: Set in every bot process's environment, unique per turn: how the fallback sweep recognises a bot's
#: leftovers, and how tests find any process a bot started.
MARKER_ENV = "TD_RUNNER_TURN"


class Isolation(enum.Enum):
    SANDBOX = "bubblewrap sandbox (own user and PID namespace, only the bot folder and its runtime visible, no network)"
    PID_NAMESPACE = "own PID namespace per turn"
    PROCESS_GROUP = "process group + marker sweep (no namespaces allowed here)"


@attrs.frozen
class LaunchPlan:
    prefix: tuple[str, ...]  # prepended to the bot's argv
    isolation: Isolation
    preexec: Callable[[], None] | None = None  # only when prlimit is missing
    pass_fds: tuple[int, ...] = ()  # to hand to Popen (the sandbox's info pipe)


def plan_launch(
    limits: Limits, bot_dir: str, info_fd: int | None = None, program: str | None = None, folder: str | None = None
) -> LaunchPlan:
    """The wrapper argv for one turn; UserError when the limits ask for isolation this machine lacks.

    `info_fd`: the write end of a pipe (kept open by the caller until the bot's main process has ended)
    that the namespace's PID 1 is reported on: bubblewrap writes JSON to it (pass `plan.pass_fds` to Popen),
    the PID-namespace init's shell writes its PID through /proc (nothing is passed). `open_init` reads it.
    `program`: the bot's argv[0], whose runtime the sandbox shows read-only; `folder`: the bot folder (holding
    bot.json, default `bot_dir`), the only place the sandbox lets the bot write.
    """
    rlimits = _rlimits(limits)
    prlimit = _prlimit_path()
    if prlimit is not None:
        prefix: tuple[str, ...] = (prlimit, *(f"--{name}={value}" for name, _, value in rlimits), "--") if rlimits else ()
        preexec = None
    else:
        prefix, preexec = (), functools.partial(_set_rlimits, tuple((res, value) for _, res, value in rlimits))
    isolation = check_isolation(limits)
    pass_fds: tuple[int, ...] = ()
    if isolation is Isolation.SANDBOX:
        prefix += _sandbox_prefix(bot_dir, limits, info_fd, program, folder)
        pass_fds = () if info_fd is None else (info_fd,)
    elif isolation is Isolation.PID_NAMESPACE:
        keep = _kept_under_tmp(folder or bot_dir, program)
        prefix += _namespace_launch(info_fd, keep, limits.file_size_bytes)
    return LaunchPlan(prefix, isolation, preexec, pass_fds)


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
    """The first `unshare ... --pid [--mount] --` that works here with the init (probed once), or None.

    `unshare --pid` without --fork: only the children of the program it runs join the new namespace. With
    `--mount` (tried first) each bot gets its own /tmp (`_private_tmp`)."""
    unshare, init = shutil.which("unshare"), _init_command()
    if unshare is None or init is None:
        return None
    candidates = [(unshare, "--pid")] if os.geteuid() == 0 else []
    candidates += [(unshare, "--user", "--map-current-user", "--pid"), (unshare, "--user", "--map-root-user", "--pid")]
    for candidate in candidates:
        for mount in (("--mount",), ()):
            prefix = (*candidate, *mount, "--")
            if _runs((*prefix, *_init_shell(init, None, () if mount else None), unshare, "--fork", "--kill-child",
                      "--", "true")):
                return prefix
    return None


def private_tmp() -> bool:
    """Whether a bot outside the sandbox gets its own /tmp here (a mount namespace per turn)."""
    prefix = _namespace_prefix()
    return prefix is not None and "--mount" in prefix


def _namespace_launch(info_fd: int | None, keep: tuple[str, ...] = (), tmp_size: int | None = None) -> tuple[str, ...]:
    prefix, init = _namespace_prefix(), _init_command()
    assert prefix is not None and init is not None  # check_isolation said PID_NAMESPACE
    tmp = keep if private_tmp() else None
    return (*prefix, *_init_shell(init, info_fd, tmp, tmp_size), prefix[0], "--fork", "--kill-child", "--")


def _kept_under_tmp(folder: str, program: str | None) -> tuple[str, ...]:
    """What a bot with its own /tmp must still see of the machine's: its folder (resolved, and as given when a
    link leads there: its working directory is the one, its argv may name the other) and the runtimes its
    program needs (sandbox.runtime_dirs: td-runner's Python, a venv, the program's prefix), where they lie in
    /tmp."""
    wanted = [os.path.realpath(folder), os.path.abspath(folder), *sandbox.runtime_dirs((program,) if program else ())]
    tops = tuple(dict.fromkeys(("/tmp/", os.path.realpath("/tmp") + os.sep)))
    return tuple(path for path in dict.fromkeys(wanted) if path.startswith(tops) and os.path.isdir(path))


#: sleep's longest portable argument (68 years): the init only has to outlive the turn, or the match.
_FOREVER = "2147483647"


@functools.cache
def _init_command() -> tuple[str, ...] | None:
    """The namespace's PID 1: `sleep`, under `setpriv --pdeathsig KILL` (it dies when the process that
    started it, the bot's parent, ends: no leftover waits for the runner's clean-up) and `env
    --ignore-signal=CHLD` (orphans of the bot are reaped at once instead of piling up as zombies over a
    match) where this util-linux / coreutils have them (2.33 / 8.31 and later)."""
    sleep = shutil.which("sleep")
    if sleep is None:
        return None
    command: tuple[str, ...] = (sleep, _FOREVER)
    env, setpriv = shutil.which("env"), shutil.which("setpriv")
    if env is not None and _runs((env, "--ignore-signal=CHLD", "true")):
        command = (env, "--ignore-signal=CHLD", *command)
    if setpriv is not None and _runs((setpriv, "--pdeathsig", "KILL", "--", "true")):
        command = (setpriv, "--pdeathsig", "KILL", "--", *command)
    return command


def _init_shell(init: tuple[str, ...], info_fd: int | None, tmp: tuple[str, ...] | None = None,
                tmp_size: int | None = None) -> tuple[str, ...]:
    """`sh -c` that starts `init` in the background (the namespace's PID 1) and execs its arguments.

    The init gets no descriptor of the bot's (its stdin/stdout/stderr are /dev/null), so a bot whose pipes
    close is seen to close them. With `info_fd`, the init's PID is written to that descriptor of the
    runner's, opened by path: the shell cannot close a descriptor above 9, so passing it would leak it into
    the bot.

    With `tmp` (in a mount namespace of its own), the bot gets an empty /tmp of its own: a tmpfs (at most
    `tmp_size` bytes) mounted over the machine's, and each folder of `tmp` (the bot's folder and runtimes
    that lie in /tmp) bound back at its own path, through a descriptor opened before the tmpfs hid it. Java
    needs this: every JVM keeps `/tmp/hsperfdata_<user>/<pid>`, and every bot is PID 2 of its namespace.
    """
    script = " ".join(shlex.quote(part) for part in init) + " </dev/null >/dev/null 2>&1 &"
    if info_fd is not None:
        script += f" {{ echo $! >/proc/{os.getpid()}/fd/{info_fd}; }} 2>/dev/null;"
    if tmp is not None:
        kept = tmp[: len(_KEEP_FDS)]
        size = f",size={tmp_size}" if tmp_size else ""
        opened = " ".join(f"{fd}<{shlex.quote(path)}" for fd, path in zip(_KEEP_FDS, kept))
        mounts = [f"mount -t tmpfs -o mode=1777{size} td-runner-tmp /tmp"]
        mounts += [f"mount -c --bind -o X-mount.mkdir /proc/self/fd/{fd} {shlex.quote(path)}"
                   for fd, path in zip(_KEEP_FDS, kept)]
        script += (f" {'exec ' + opened + ';' if opened else ''} {' && '.join(mounts)} || "
                   "{ echo 'td-runner: the bot could not be given its own /tmp' >&2; exit 125; };")
        if opened:
            script += " exec " + " ".join(f"{fd}<&-" for fd in _KEEP_FDS[: len(kept)]) + ";"
    script += ' exec "$@"'
    return (_sh_path(), "-c", script, "td-runner-init")


#: The shell's descriptors that hold the folders bound back into a bot's own /tmp (a shell reaches 3-9).
_KEEP_FDS = (3, 4, 5, 6, 7, 8, 9)


@functools.cache
def _sh_path() -> str:
    return shutil.which("sh") or "/bin/sh"


def _sandbox_prefix(
    bot_dir: str, limits: Limits, info_fd: int | None = None, program: str | None = None, folder: str | None = None
) -> tuple[str, ...]:
    """bubblewrap around one bot: `folder` (the bot folder, default `bot_dir`) writable, its runtime
    read-only, nothing else (runner/bots/sandbox.py says exactly what)."""
    info = ("--info-fd", str(info_fd)) if info_fd is not None else ()
    view = sandbox.View(folder or bot_dir, bot_dir, programs=(program,) if program else (),
                        hidden=limits.hidden_paths, tmp_size=limits.file_size_bytes)
    return (_bwrap_path() or "bwrap", *info, *sandbox.bwrap_arguments(view))


@functools.cache
def _bwrap_path() -> str | None:
    return shutil.which("bwrap")


#: Environment variables a sandboxed bot gets from the runner (the rest may hold the operator's secrets):
#: what locates programs and runtimes, and the locale.
SANDBOX_ENV = ("PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TERM", "JAVA_HOME", "GOROOT",
               "GOPATH", "DOTNET_ROOT", "NODE_PATH")


def bot_environment(mode: Isolation, marker: str, unset: Sequence[str] = ()) -> dict[str, str]:
    """The bot's environment: the runner's own, or only SANDBOX_ENV (and LC_*) in the sandbox; without `unset`
    (BotDefinition.unset_env)."""
    if mode is Isolation.SANDBOX:
        env = {key: value for key, value in os.environ.items() if key in SANDBOX_ENV or key.startswith("LC_")}
        env["TMPDIR"] = "/tmp"  # the sandbox's private one
        env.setdefault("GOCACHE", "/tmp/go-build")  # `go run` must write its build cache somewhere
    else:
        env = dict(os.environ)
        if mode is Isolation.PID_NAMESPACE and private_tmp():
            env["TMPDIR"] = "/tmp"  # its own, empty (the runner's TMPDIR may be a folder the bot cannot see)
    for name in unset:
        env.pop(name, None)
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
    view = sandbox.View(None, "/", programs=("true",))
    probe = subprocess.run([bwrap, *sandbox.bwrap_arguments(view), "true"], capture_output=True, text=True,
                           errors="replace", check=False)
    if probe.returncode == 0:
        return None
    return (probe.stderr.strip().splitlines() or [f"exit code {probe.returncode}"])[0]


def _runs(argv: tuple[str, ...]) -> bool:
    """Whether `argv` exits 0 within 10 s. Run in its own process group, killed afterwards: a probe of the
    namespace launch leaves its init behind when `true` ends before the init's pdeathsig is set."""
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError:
        return False
    pidfd = os.pidfd_open(proc.pid)
    try:
        ended = bool(select.select([pidfd], [], [], 10)[0])
    finally:
        os.close(pidfd)
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # unreaped, so the group id cannot have been reused
    except OSError:
        pass
    return proc.wait() == 0 and ended


# util-linux `unshare --fork` re-raises the signal that killed its child (the bot) on itself, which cannot
# work for SIGKILL: it then prints this and exits 1 (seen with 2.38).
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


def open_init(info_read_fd: int, group: int | None = None) -> int | None:
    """A pidfd on the namespace's PID 1 named on the info pipe (bubblewrap's JSON, or the init shell's
    line), or None when nothing was written or it is already gone.

    Call once the bot's main process has ended and every write end the runner holds is closed; reads
    without blocking and trusts only the first line (written before the bot started). `group`: the
    process group the init must be in (against a PID reused since).
    """
    try:
        os.set_blocking(info_read_fd, False)
        text = os.read(info_read_fd, 1 << 16).decode("ascii", errors="replace")
    except OSError:  # BlockingIOError: nothing written
        return None
    try:
        pid = int(json.loads(text or "{}")["child-pid"]) if text.startswith("{") else int(text.split("\n")[0])
        pidfd = os.pidfd_open(pid)
    except (OSError, ValueError, KeyError, TypeError):
        return None  # never started, or already gone
    if group is not None and _process_group(pid) != group:
        os.close(pidfd)
        return None
    return pidfd


def await_gone(pidfd: int | None, timeout: float) -> None:
    """Wait until the process behind `pidfd` has ended, then close it. For a namespace's PID 1 that means
    the namespace is empty: the kernel ends PID 1 only after every other process of it."""
    if pidfd is None:
        return
    try:
        select.select([pidfd], [], [], timeout)
    finally:
        os.close(pidfd)


def await_sandbox_gone(info_read_fd: int, timeout: float) -> None:
    """Wait until the sandbox's PID namespace is empty.

    bubblewrap's outer process exits as soon as the bot's main process does, while its PID 1 is still
    taking the namespace down; that PID 1 (named on the info pipe) ends only once every process of the
    namespace is gone, and a pidfd on it says when.
    """
    await_gone(open_init(info_read_fd), timeout)


def _process_group(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
        return int(stat[stat.rindex(b")") + 2 :].split()[2])  # after "pid (comm) state ppid"
    except (OSError, ValueError, IndexError):
        return None


def children_of(pid: int) -> list[int]:
    """Direct children (needs CONFIG_PROC_CHILDREN, present in the usual distribution kernels)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children", "rb") as handle:
            return [int(part) for part in handle.read().split()]
    except (OSError, ValueError):
        return []


def sweep_marked(marker: str, *, passes: int = 5, settle_s: float = 1.0) -> int:
    """SIGKILL every process whose environment holds `MARKER_ENV=marker`; how many were killed.

    Repeated because a process may fork between the scan and the kill; stops at the first empty scan. A
    killed process stays visible for a moment after SIGKILL, so after `passes` quick scans it keeps looking
    (1 ms apart, up to `settle_s`) until none is left: the caller may count on them being gone.
    """
    needle = f"{MARKER_ENV}={marker}".encode() + b"\0"
    killed: set[int] = set()
    give_up = time.monotonic() + settle_s
    scans = 0
    while True:
        found = find_marked(needle)
        if not found:
            break
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)
            except OSError:
                pass
        scans += 1
        if scans >= passes:
            if time.monotonic() >= give_up:
                break
            time.sleep(0.001)
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
