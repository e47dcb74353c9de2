"""What a sandboxed bot (or bot build) sees: the bubblewrap arguments that build its file system.

The sandbox starts from nothing and adds only what a bot needs (an allowlist, not `/` with holes):

* its own folder (the one holding bot.json), writable, at its own path; the working directory is inside it;
* a private, size-capped `/tmp` (empty at every start), a read-only `/dev` with only null, zero, full,
  random, urandom, tty and a 64 MiB `/dev/shm`, and `/proc` of its own PID namespace (no other process of
  the machine is there); the root of it all is read-only;
* read-only: the system's programs and libraries (`/usr`, and `/bin`, `/sbin`, `/lib*` as the machine has
  them), a short list of `/etc` entries that language runtimes read (`ETC`: the dynamic linker's cache,
  users and groups, time zone, the JVM's configuration; a build's `BUILD_ETC` adds name resolution,
  certificates and the build tools' configuration; never `shadow`, `gshadow`, `ssl/private`, `sudoers` or
  `ssh`);
* read-only: the runtimes the bot is started with that live elsewhere (`runtime_dirs`): the Python running
  td-runner (its installation or venv, e.g. `~/.pyenv/versions/3.11.7`, never the home folder around it),
  the launch program found on PATH and the prefix around its `bin` folder, `JAVA_HOME`, `GOROOT` and
  `DOTNET_ROOT` when set, and td-runner's own package (games ship hosts there: Invaders' koth-js);
* nothing else: no home folder, no `/root`, no `/home`, `/var`, `/srv`, `/mnt`, `/work`, no league folder,
  no submissions, no other bot. No runtime is bound from inside a `hidden` folder (the opponent's, the
  match log, a league's), and one inside the bot's own folder is covered by an empty tmpfs.

The bot runs as uid/gid 65534 in its own user namespace, with no capabilities, no network (builds get it
only when asked), its own IPC, host name and session. A runner started as root stays root to the kernel
outside the namespace, so what the bot can reach is exactly what is mounted above: that is why nothing
else is.
"""

from __future__ import annotations

import functools
import glob
import os
import shutil
import sys
from collections.abc import Iterable

import attrs

#: The user and group a sandboxed process runs as, inside its user namespace ("nobody").
UID = GID = 65534

#: The size of the sandbox's /dev/shm (POSIX shared memory and semaphores; /dev itself is read-only).
SHM_BYTES = 64 << 20

#: The system's program and library folders, bound read-only (a symlink, as /bin -> usr/bin, stays one).
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")

#: The /etc entries a bot's runtime reads (glob patterns allowed): the dynamic linker's cache, users and
#: groups, the time zone, the JVM's configuration (Debian links the JDK's conf/ there) and `alternatives`
#: (/usr/bin/java leads through it), .NET's install location. Each is a bind mount, about half a
#: millisecond of every sandboxed start, so the list is short.
ETC = ("ld.so.cache", "alternatives", "passwd", "group", "nsswitch.conf", "localtime", "timezone", "java-*",
       "dotnet")

#: What a build reads besides: name resolution and certificates (with --build-network), the build tools'
#: configuration, the dynamic linker's configuration (a linker reads it).
BUILD_ETC = (*ETC, "ld.so.conf", "ld.so.conf.d", "host.conf", "hosts", "resolv.conf", "gai.conf", "services",
             "protocols", "os-release", "debian_version", "mime.types", "ssl/certs", "ssl/openssl.cnf",
             "ca-certificates", "ca-certificates.conf", "maven", "mavenrc", "python3", "python3.*")

#: Environment variables naming a runtime's installation, bound read-only when set.
RUNTIME_HOMES = ("JAVA_HOME", "GOROOT", "DOTNET_ROOT")

#: Never bound as a runtime, nor anything that holds them (a `bin` folder right in one of these).
_NEVER = ("/", "/root", "/home", "/etc", "/var", "/tmp", "/run", "/srv", "/mnt", "/media", "/opt")


@attrs.frozen
class View:
    """One sandboxed process's file system and namespaces."""

    folder: str | None  # the bot folder, writable; None: nothing writable (the probe)
    workdir: str  # the working directory (the bot folder or a folder inside it)
    programs: tuple[str, ...] = ()  # what the process starts (argv[0]s): their runtimes are bound read-only
    hidden: tuple[str, ...] = ()  # folders that must not show through anything bound
    network: bool = False
    tmp_size: int | None = None  # bytes of the private /tmp
    read_only: tuple[str, ...] = ()  # more runtime folders to bind read-only (a build's toolchain homes)
    etc: tuple[str, ...] = ETC  # the /etc entries shown (BUILD_ETC for a build)


def bwrap_arguments(view: View) -> tuple[str, ...]:
    """bubblewrap's options for `view`, up to and including `--`, without the bwrap program itself."""
    args: list[str] = [
        "--unshare-user", "--uid", str(UID), "--gid", str(GID), "--unshare-pid", "--unshare-ipc",
        "--unshare-uts", "--unshare-cgroup-try", *(() if view.network else ("--unshare-net",)),
        "--die-with-parent", "--new-session", "--cap-drop", "ALL",
    ]  # fmt: skip
    args += _system_arguments(view.etc)
    args += ["--proc", "/proc", "--dev", "/dev", "--size", str(SHM_BYTES), "--tmpfs", "/dev/shm"]
    if view.tmp_size:
        args += ["--size", str(view.tmp_size)]
    args += ["--tmpfs", "/tmp"]
    own = _own_paths(view.folder)
    protected = (*own, *(os.path.abspath(path) for path in view.hidden))
    runtimes = runtime_dirs(view.programs, view.read_only, protected)
    for path in runtimes:  # after /tmp's tmpfs: a venv under /tmp stays visible
        args += ["--ro-bind", path, path]
    for path in own:
        args += ["--bind", own[0], path]
    # no runtime holds or lies in a hidden folder (runtime_dirs): only the bot's own folder may hold one
    for path in view.hidden:
        path = os.path.abspath(path)
        if os.path.isdir(path) and any(_within(path, outer) for outer in own):
            args += ["--tmpfs", path]
    # bubblewrap's root and /dev are tmpfs without a size: writable, a bot could fill memory with files
    args += ["--remount-ro", "/dev", "--remount-ro", "/"]
    args += ["--chdir", view.workdir, "--"]
    return tuple(args)


def _own_paths(folder: str | None) -> tuple[str, ...]:
    """The bot folder's resolved path, then its path as given when that differs (a symlink on the way):
    the bot's argv and working directory may use either."""
    if folder is None:
        return ()
    real, given = os.path.realpath(folder), os.path.abspath(folder)
    return (real,) if real == given else (real, given)


@functools.cache
def _system_arguments(etc: tuple[str, ...]) -> tuple[str, ...]:
    args: list[str] = []
    for path in SYSTEM:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    for pattern in etc:
        for path in sorted(glob.glob(os.path.join("/etc", pattern))):
            if os.path.exists(path):  # a dangling link would stop bubblewrap
                args += ["--ro-bind", path, path]
    return tuple(args)


def runtime_dirs(programs: Iterable[str], extra: Iterable[str] = (), protected: Iterable[str] = ()) -> list[str]:
    """See `_runtime_dirs`; remembered (a few ms of PATH look-ups and realpath calls, at every sandboxed start)."""
    environment = (os.environ.get("PATH", ""), *(os.environ.get(name, "") for name in RUNTIME_HOMES))
    return list(_runtime_dirs(tuple(programs), tuple(extra), tuple(protected), sys.executable, environment))


@functools.lru_cache(maxsize=256)
def _runtime_dirs(
    programs: tuple[str, ...], extra: tuple[str, ...], protected: tuple[str, ...], executable: str,
    environment: tuple[str, ...],  # only a part of the cache's key: PATH and RUNTIME_HOMES, read below
) -> tuple[str, ...]:
    """The folders outside the system ones that starting `programs` (and td-runner's Python) needs, to bind
    read-only: each program (found on PATH when it has no slash) as given and resolved, or the prefix
    around its `bin` folder; Python's prefixes; td-runner's package; the RUNTIME_HOMES set; `extra`.

    A folder is left out when it is one of `_NEVER`, or holds one of them or the home folder, or holds or
    lies inside a `protected` path (the bot's own folder, a hidden one: the opponent's, the league's); a
    folder inside another on the list is dropped."""
    candidates: list[str] = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix]
    candidates.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the runner package
    candidates += [os.environ[name] for name in RUNTIME_HOMES if os.environ.get(name)]
    candidates += extra
    for program in (executable, *programs):
        if os.sep in program and not os.path.isabs(program):
            continue  # `./bot`: the bot's own file, in its folder (not in the runner's working directory)
        found = program if os.sep in program else shutil.which(program)
        if not found:
            continue
        for path in dict.fromkeys((os.path.abspath(found), os.path.realpath(found))):
            folder = os.path.dirname(path)
            candidates.append(os.path.dirname(folder) if os.path.basename(folder) == "bin" else path)
    protected = tuple(os.path.normpath(os.path.abspath(path)) for path in protected)
    home = os.path.normpath(os.path.expanduser("~"))
    chosen: list[str] = []
    for path in sorted({os.path.normpath(os.path.abspath(path)) for path in candidates if path}):
        if not os.path.exists(path) or _is_system(path) or any(_within(inner, path) for inner in (*_NEVER, home)):
            continue
        if any(_within(path, other) or _within(other, path) for other in protected):
            continue
        if not any(_within(path, outer) for outer in chosen):
            chosen.append(path)
    return tuple(chosen)


def _is_system(path: str) -> bool:
    """Whether `path` is already visible read-only (under a SYSTEM folder, through its symlink too)."""
    return any(_within(path, top) or _within(path, os.path.realpath(top)) for top in SYSTEM)


def _within(path: str, outer: str) -> bool:
    """Whether `path` is `outer` or lies under it (both absolute and normalised)."""
    return path == outer or path.startswith(outer.rstrip(os.sep) + os.sep)
