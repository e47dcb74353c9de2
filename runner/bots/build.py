"""Run a bot folder's build (`td-runner build BOT_DIR...`, a league's and a tournament's builds).

Which build a folder takes is runner/bots/recipes.py's table; this module runs it. Every command runs in the
folder that holds bot.json, with the user's environment (a sandboxed build: the bot's allowlist,
runner/bots/sandbox.py); none is given a time limit here (a first Maven or Cargo build downloads for
minutes; a league passes its own). A folder whose paths lead outside it (a build.sh linked elsewhere) is
refused before anything runs (runner/bots/containment.py). A folder no recipe applies to has nothing to
build (JavaScript without package.json, or Python without requirements.txt, runs from source).
`runner/bots/staging.py` runs a build in a copy of the folder and moves back only what it made, so that a
folder someone watches (a league's submissions) never holds a half-built state.

Python bots and their packages (issue 7). A python3 bot runs with td-runner's own interpreter, which need not
have what the bot imports (the official Python starter imports numpy). Installing the bot's packages into
td-runner's environment would mix every bot's versions with td-runner's own, so instead a bot folder with a
`requirements.txt` gets its own virtual environment, `<folder>/.venv`: made with td-runner's interpreter
(`python -m venv --without-pip`; without --system-site-packages, so the bot sees only what it asks for, as on
a fresh machine), then filled by td-runner's own pip (`python -m pip --python .venv/bin/python install -r
requirements.txt`: no copy of pip per bot, and no ensurepip, which Debian splits off). From then on
`load_bot` starts the bot with `.venv/bin/python` (any launch command that uses `{python}`), and a venv the
user made by hand in that place is used the same way. A bot with requirements.txt and no venv still runs
with td-runner's interpreter when that has every package named (by name; versions are not compared);
otherwise `td-runner match` refuses it with the one line that fixes it (`run td-runner build BOT_DIR`). The
venv sits inside the bot folder and needs only to be read, so it works under `--sandbox` too
(tests/bots/test_build.py plays a match both ways). A venv this build created is removed again when pip
fails, so a half-built one is never run; an existing venv is kept and only the pip step is repeated.

Nothing here prints: `run_build` returns a `BuildResult` that runner/commands/build.py words.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import importlib.util
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs

from runner.bots import sandbox
from runner.bots.recipes import BuildPlan, plan_build, shown, shown_command
from runner.errors import UserError

#: How many lines of a failed build's output the user is shown.
TAIL_LINES = 20


@attrs.frozen
class Tool:
    """Something a build needs on this machine, and how a Debian/Ubuntu user gets it."""

    name: str  # as the user knows it: the program, or "venv" / "pip" for modules of td-runner's Python
    install: str  # the Debian package (apt-get install ...)
    is_installed: Callable[[], bool]


def _program(name: str, package: str) -> Tool:
    return Tool(name, package, lambda: shutil.which(name) is not None)


def _has_venv() -> bool:
    return importlib.util.find_spec("venv") is not None


def _has_pip() -> bool:
    """pip 22.3 or later (it added --python, which installs into another environment)."""
    try:
        version = importlib.metadata.version("pip")
    except importlib.metadata.PackageNotFoundError:
        return False
    parts = [int(part) if part.isdigit() else 0 for part in version.split(".")[:2]]
    return tuple(parts) >= PIP_WITH_PYTHON_OPTION


#: The first pip with `--python` (October 2022; Python 3.11.0 bundles it).
PIP_WITH_PYTHON_OPTION = (22, 3)


#: Every tool a recipe may need, by the name its steps start with.
TOOLS: Mapping[str, Tool] = {
    tool.name: tool
    for tool in (
        _program("sh", "dash"),
        _program("mvn", "maven"),
        _program("gradle", "gradle"),
        _program("cargo", "cargo"),
        _program("go", "golang-go"),
        _program("dotnet", "dotnet-sdk-8.0 (on Debian from Microsoft's package repository)"),
        _program("make", "make"),
        _program("cmake", "cmake"),
        _program("cc", "gcc"),
        _program("c++", "g++"),
        _program("npm", "npm"),
        Tool("venv", f"python{sys.version_info.major}.{sys.version_info.minor}-venv", _has_venv),
        Tool("pip", "python3-pip (or upgrade an older one: python3 -m pip install --upgrade pip)", _has_pip),
    )
}


@attrs.frozen
class BuildResult:
    """How a build went: `problem` is None on success, else one line (a missing tool, a failing step)."""

    plan: BuildPlan
    problem: str | None
    output: str  # everything the steps printed (stdout and stderr interleaved)
    seconds: float
    note: str | None = None  # how it succeeded when not by its steps (a committed jar kept)
    retried: bool = False  # the plan's `retry` steps ran (Maven online after offline)

    @property
    def ok(self) -> bool:
        return self.problem is None

    @property
    def tail(self) -> list[str]:
        """The last TAIL_LINES lines of the output, where a build's error usually is."""
        return self.output.rstrip("\n").splitlines()[-TAIL_LINES:] if self.output.strip() else []


def check_tools(plan: BuildPlan) -> str | None:
    """The first tool the plan needs that this machine lacks, said with how to install it; or None."""
    for name in plan.needs:
        tool = TOOLS[name]
        if not tool.is_installed():
            module = name in ("venv", "pip")  # a module of td-runner's Python, not a program
            version = f"{sys.version_info.major}.{sys.version_info.minor}"
            what = f"td-runner's Python ({version}) has no {name}" if module else f"`{name}` is not installed"
            return f"{what} (Debian/Ubuntu: apt-get install {tool.install})"
    return None


def run_build(
    plan: BuildPlan, *, timeout_s: float | None = None, sandbox: bool = False, network: bool = False
) -> BuildResult:
    """Run the plan's steps in its folder; stops at the first that fails. Never raises for a failing build.

    When they fail and the build has a network (`network`, or no sandbox: the machine's), the plan's `retry`
    steps run instead (Maven online after offline). When the tool is missing or every attempt failed, a plan
    with a committed `artifact` succeeds with a note saying so. `timeout_s` bounds the whole build (its
    process group is killed when it runs over: a league builds whatever players upload). `sandbox` runs each
    step under bubblewrap as a bot runs (runner/bots/sandbox.py: only the bot folder writable, its toolchain
    read-only, a private /tmp as HOME, an allowlist of environment variables), without network unless
    `network` (dependency downloads)."""
    started = time.monotonic()
    deadline = None if timeout_s is None else started + timeout_s
    missing = check_tools(plan)
    if missing is not None:
        return _fallback(plan, missing, "", started)
    made_venv = plan.venv is not None and not plan.venv.exists()
    output: list[str] = []
    prefix = build_sandbox_prefix(plan, network) if sandbox else ()
    env = build_environment() if sandbox else None
    problem = _run_steps(plan.steps, plan.folder, prefix, env, deadline, output, timeout_s or 0)
    retried = problem is not None and bool(plan.retry) and (network or not sandbox) and "time limit" not in problem
    if retried:
        output.append(f"[td-runner] {problem}; again with the network: {shown_command(plan.retry, plan.folder)}\n")
        problem = _run_steps(plan.retry, plan.folder, prefix, env, deadline, output, timeout_s or 0)
    if problem is not None and made_venv and plan.venv is not None:
        shutil.rmtree(plan.venv, ignore_errors=True)  # a venv without the bot's packages must not be run
    if problem is not None:
        return attrs.evolve(_fallback(plan, problem, "".join(output), started), retried=retried)
    return BuildResult(plan, None, "".join(output), time.monotonic() - started, retried=retried)


def _fallback(plan: BuildPlan, problem: str, output: str, started: float) -> BuildResult:
    """A failed build, or a success on the committed artifact the plan names (said in `note` and the output)."""
    if plan.artifact is None or not (plan.folder / plan.artifact).is_file():
        return BuildResult(plan, problem, output, time.monotonic() - started)
    note = f"used the committed {plan.artifact}: {problem}"
    return BuildResult(plan, None, f"{output}[td-runner] {note}\n", time.monotonic() - started, note)


def _run_steps(steps: tuple[tuple[str, ...], ...], folder: Path, prefix: tuple[str, ...],
               env: dict[str, str] | None, deadline: float | None, output: list[str], limit: float = 0) -> str | None:
    """Run `steps` one after the other in `folder`, their output appended to `output`; the first failure."""
    for step in steps:
        left = None if deadline is None else deadline - time.monotonic()
        command = f"`{shlex.join(shown(step, folder))}`"
        try:
            process = subprocess.Popen(
                (*prefix, *step), cwd=folder, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        except OSError as exc:  # e.g. the program vanished between the check and the start
            return f"{command} could not start: {exc.strerror or exc}"
        try:
            stdout, _ = process.communicate(timeout=max(left, 0.001) if left is not None else None)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            stdout, _ = process.communicate()
            output.append(_plain(stdout))
            return f"{command} did not finish within the build time limit of {limit:g} s"
        output.append(_plain(stdout))
        if process.returncode != 0:
            return f"{command} {_exit_description(process.returncode)}"
    return None


def build_sandbox_prefix(plan: BuildPlan, network: bool = False) -> tuple[str, ...]:
    """bubblewrap for the plan's steps: the bot folder writable, the programs the steps start and the tools
    the recipe needs visible read-only (with rustup's toolchains), nothing else; the network only if asked."""
    from runner.bots.isolation import _bwrap_path

    folder = os.path.abspath(plan.folder)
    view = sandbox.View(folder, folder, programs=tuple(step[0] for step in plan.steps) + _TOOL_PROGRAMS,
                        network=network, read_only=_rust_toolchain(), etc=sandbox.BUILD_ETC)
    return (_bwrap_path() or "bwrap", *sandbox.bwrap_arguments(view))


def build_environment() -> dict[str, str]:
    """A sandboxed build's environment: the bot's allowlist (no secret of the organiser's reaches a build
    script, whose output is shown on the player's page), HOME and the tools' caches in the private /tmp,
    and rustup's home, read-only, where the `cargo` on PATH is rustup's."""
    from runner.bots.isolation import SANDBOX_ENV

    env = {key: value for key, value in os.environ.items() if key in SANDBOX_ENV or key.startswith("LC_")}
    env.update(HOME="/tmp", TMPDIR="/tmp", GOCACHE="/tmp/go-build", GOPATH="/tmp/go", CARGO_HOME="/tmp/cargo")
    rustup = _rustup_home()
    if rustup:
        env["RUSTUP_HOME"] = rustup
    return env


#: What a build script may call besides its recipe's own tool: the programs of every recipe (cargo apart).
_TOOL_PROGRAMS = ("mvn", "gradle", "go", "dotnet", "make", "cmake", "cc", "c++", "javac", "java", "node", "npm")


def _rust_toolchain() -> tuple[str, ...]:
    """rustup's toolchains and the folder of its `cargo`/`rustc` proxies (rustup's usual ~/.cargo/bin), read-only:
    the proxies find the toolchain through RUSTUP_HOME. Not all of ~/.cargo (its registry cache and any
    credentials.toml); a build's own CARGO_HOME is in its private /tmp."""
    cargo = shutil.which("cargo")
    if cargo is None:
        return ()
    home = _rustup_home()
    return tuple(path for path in (os.path.dirname(os.path.abspath(cargo)), home) if path)


def _rustup_home() -> str | None:
    """Where rustup keeps its toolchains (`$RUSTUP_HOME`, else ~/.rustup), when there is one."""
    path = os.environ.get("RUSTUP_HOME") or os.path.expanduser("~/.rustup")
    return path if os.path.isdir(path) else None


#: Terminal control sequences (colours, cursor moves): Maven 3.8 writes resets even in batch mode, and a
#: build's output is read in a league's pages and in captured logs, where they are noise.
_CONTROL = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


def _plain(raw: bytes) -> str:
    return _CONTROL.sub("", raw.decode("utf-8", errors="replace"))


def _exit_description(code: int) -> str:
    return f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"
