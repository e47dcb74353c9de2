"""Build a bot folder the conventional way of its language (`td-runner build BOT_DIR...`).

The recipes are a table, tried in order; the first that applies is the folder's build:

    build.sh present                 sh build.sh                  (any language: the bot's own word wins)
    java/kotlin/scala + pom.xml      mvn -q package
    java/kotlin/scala + build.gradle sh gradlew build (with a wrapper) or gradle build
    rust + Cargo.toml                cargo build --release
    golang                           go build
    c#core                           dotnet publish
    c++ + Makefile                   make
    python3 + requirements.txt       the bot's own venv, see below

Every command runs in the folder that holds bot.json, with the user's environment (a sandboxed build: the
bot's allowlist, runner/bots/sandbox.py); none is given a time limit (a first Maven or Cargo build downloads
for minutes). A folder whose paths lead outside it (a build.sh linked elsewhere) is refused before anything
runs (runner/bots/containment.py). A folder no recipe applies to has nothing to
build (JavaScript, or Python without requirements.txt, runs from source).

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
from runner.bots.definition import REQUIREMENTS, VENV, path_problems
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
        Tool("venv", f"python{sys.version_info.major}.{sys.version_info.minor}-venv", _has_venv),
        Tool("pip", "python3-pip (or upgrade an older one: python3 -m pip install --upgrade pip)", _has_pip),
    )
}


@attrs.frozen
class BuildPlan:
    """What building one folder takes: commands run one after the other in `folder`, stopping at a failure."""

    folder: Path  # holds bot.json; the commands' working directory
    recipe: str  # the table row: "build.sh", "maven", "python venv", ...
    steps: tuple[tuple[str, ...], ...]
    needs: tuple[str, ...]  # keys of TOOLS
    venv: Path | None = None  # the venv a python plan makes or reuses

    @property
    def command(self) -> str:
        """The steps as one shell-like line, for messages."""
        return " && ".join(shlex.join(_shown(step, self.folder)) for step in self.steps)


@attrs.frozen
class BuildResult:
    """How a build went: `problem` is None on success, else one line (a missing tool, a failing step)."""

    plan: BuildPlan
    problem: str | None
    output: str  # everything the steps printed (stdout and stderr interleaved)
    seconds: float

    @property
    def ok(self) -> bool:
        return self.problem is None

    @property
    def tail(self) -> list[str]:
        """The last TAIL_LINES lines of the output, where a build's error usually is."""
        return self.output.rstrip("\n").splitlines()[-TAIL_LINES:] if self.output.strip() else []


@attrs.frozen
class Recipe:
    """One row of the table: applies to `languages` (None: any) when `markers` (any one) exist."""

    name: str
    languages: frozenset[str] | None
    markers: tuple[str, ...]
    plan: Callable[[Path, str], BuildPlan]


def _simple(name: str, *argv: str) -> Callable[[Path, str], BuildPlan]:
    return lambda folder, marker: BuildPlan(folder, name, (argv,), (argv[0],))


def _gradle(folder: Path, marker: str) -> BuildPlan:
    if (folder / "gradlew").is_file():  # the project's pinned Gradle, as its README would say to use
        return BuildPlan(folder, "gradle", (("sh", "gradlew", "build"),), ("sh",))
    return BuildPlan(folder, "gradle", (("gradle", "build"),), ("gradle",))


def _python_venv(folder: Path, marker: str) -> BuildPlan:
    venv = Path(os.path.abspath(folder)) / VENV
    python = venv / "bin" / "python"
    steps: list[tuple[str, ...]] = []
    if not python.is_file():
        # without pip: td-runner's own pip installs into it (--python), 0.4 s instead of ensurepip's 5-10 s
        steps.append((sys.executable, "-m", "venv", "--without-pip", str(venv)))
    steps.append((sys.executable, "-m", "pip", "--python", str(python), "install", "--disable-pip-version-check",
                  "--no-input", "-r", marker))
    return BuildPlan(folder, "python venv", tuple(steps), ("venv", "pip") if len(steps) == 2 else ("pip",), venv)


_JVM = frozenset({"java", "kotlin", "scala"})

RECIPES: tuple[Recipe, ...] = (
    Recipe("build.sh", None, ("build.sh",), _simple("build.sh", "sh", "build.sh")),
    Recipe("maven", _JVM, ("pom.xml",), _simple("maven", "mvn", "-q", "package")),
    Recipe("gradle", _JVM, ("build.gradle", "build.gradle.kts"), _gradle),
    Recipe("cargo", frozenset({"rust"}), ("Cargo.toml",), _simple("cargo", "cargo", "build", "--release")),
    Recipe("go", frozenset({"golang"}), (), _simple("go", "go", "build")),
    Recipe("dotnet", frozenset({"c#core"}), (), _simple("dotnet", "dotnet", "publish")),
    Recipe("make", frozenset({"c++"}), ("Makefile", "makefile", "GNUmakefile"), _simple("make", "make")),
    Recipe("python venv", frozenset({"python3"}), (REQUIREMENTS,), _python_venv),
)


def plan_build(folder: Path, bot_json: Mapping[str, Any]) -> BuildPlan | None:
    """The build of the bot folder `folder` (whose bot.json holds `bot_json`), or None: nothing to build.

    A `custom` bot whose command runs `{python}` counts as python3. UserError (one line) when a path of the
    folder leads outside it (a build.sh linked elsewhere would run another folder's script)."""
    problems = path_problems(folder, dict(bot_json))
    if problems:
        raise UserError(f"{Path(folder) / 'bot.json'}: {problems[0]}")
    language = bot_json.get("botLanguage")
    command = bot_json.get("command")
    if language == "custom" and isinstance(command, list) and any("{python}" in str(part) for part in command):
        language = "python3"
    for recipe in RECIPES:
        if recipe.languages is not None and language not in recipe.languages:
            continue
        if not recipe.markers:
            return recipe.plan(folder, "")
        for marker in recipe.markers:
            if (folder / marker).is_file():
                return recipe.plan(folder, marker)
    return None


def check_tools(plan: BuildPlan) -> str | None:
    """The first tool the plan needs that this machine lacks, said with how to install it; or None."""
    for name in plan.needs:
        tool = TOOLS[name]
        if not tool.is_installed():
            module = name in ("venv", "pip")  # a module of td-runner's Python, not a program
            what = f"td-runner's Python ({sys.executable}) has no {name}" if module else f"`{name}` is not installed"
            return f"{what} (Debian/Ubuntu: apt-get install {tool.install})"
    return None


def run_build(
    plan: BuildPlan, *, timeout_s: float | None = None, sandbox: bool = False, network: bool = False
) -> BuildResult:
    """Run the plan's steps in its folder; stops at the first that fails. Never raises for a failing build.

    `timeout_s` bounds the whole build (its process group is killed when it runs over: a league builds
    whatever players upload). `sandbox` runs each step under bubblewrap as a bot runs (runner/bots/sandbox.py:
    only the bot folder writable, its toolchain read-only, a private /tmp as HOME, an allowlist of
    environment variables), without network unless `network` (dependency downloads)."""
    started = time.monotonic()
    missing = check_tools(plan)
    if missing is not None:
        return BuildResult(plan, missing, "", 0.0)
    made_venv = plan.venv is not None and not plan.venv.exists()
    output: list[str] = []
    problem = None
    prefix = build_sandbox_prefix(plan, network) if sandbox else ()
    env = build_environment() if sandbox else None
    for step in plan.steps:
        left = None if timeout_s is None else timeout_s - (time.monotonic() - started)
        shown = f"`{shlex.join(_shown(step, plan.folder))}`"
        try:
            process = subprocess.Popen(
                (*prefix, *step), cwd=plan.folder, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        except OSError as exc:  # e.g. the program vanished between the check and the start
            problem = f"{shown} could not start: {exc.strerror or exc}"
            break
        try:
            stdout, _ = process.communicate(timeout=max(left, 0.001) if left is not None else None)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            stdout, _ = process.communicate()
            output.append(stdout.decode("utf-8", errors="replace"))
            problem = f"{shown} did not finish within the build time limit of {timeout_s:g} s"
            break
        output.append(stdout.decode("utf-8", errors="replace"))
        if process.returncode != 0:
            problem = f"{shown} {_exit_description(process.returncode)}"
            break
    if problem is not None and made_venv and plan.venv is not None:
        shutil.rmtree(plan.venv, ignore_errors=True)  # a venv without the bot's packages must not be run
    return BuildResult(plan, problem, "".join(output), time.monotonic() - started)


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
_TOOL_PROGRAMS = ("mvn", "gradle", "go", "dotnet", "make", "javac", "java", "node", "npm")


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


def _exit_description(code: int) -> str:
    return f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"


def _shown(step: tuple[str, ...], folder: Path) -> tuple[str, ...]:
    """A step as the user would type it: td-runner's Python as `python3`, paths inside the folder relative."""
    base = os.path.abspath(folder) + os.sep
    shown = []
    for part in step:
        if part == sys.executable:
            part = "python3"
        elif part.startswith(base):
            part = part[len(base):]
        shown.append(part)
    return tuple(shown)
