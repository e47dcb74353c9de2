"""Which build a bot folder takes: the recipe table, read from its bot.json and the project files it holds.

The recipes are tried in order; the first that applies is the folder's build (`custom` bots match on their
project files alone, whatever language they are written in):

    build.sh                          sh build.sh                        any language: the bot's own word wins
    pom.xml                           mvn -B -o package, then online     java, kotlin, scala, custom
    build.gradle(.kts)                sh gradlew build / gradle build    java, kotlin, scala, custom
    Cargo.toml                        cargo build --release              rust, custom
    go.mod, or .go files              go build                           golang (always), custom
    *.csproj                          dotnet publish                     c#core (always), custom
    CMakeLists.txt                    cmake -S . -B build && cmake --build build    c, c++, custom
    Makefile                          make                               c, c++, custom
    one .c / one .cpp file            cc / c++ -O2 -o <bot file>         c, c++, custom
    package.json                      npm ci (with a lock file) or npm install      javascript, custom
    requirements.txt                  the bot's own venv (runner/bots/build.py)     python3, custom {python}

Go without go.mod (the official 2018 Go starter has none) is built from its .go files named on the command
line, which Go compiles as a module of their own; a `golang` bot is started with `go run` (spec 8.3), so its
build writes no binary (`-o /dev/null`): it proves the code compiles and fills Go's build cache. A custom
bot's build writes the program its `command` starts (`./bot` -> `-o bot`).

Maven runs in batch mode (no colour codes in the output a league shows) and offline first: a local
repository that has every plugin and dependency builds without the network; only when that fails is it run
again online, and only where the build has a network. A JVM bot whose jar is committed (the file bot.json
starts, e.g. `target/bot.jar`, present before the build) keeps that jar when Maven or Gradle is missing or
fails: the build says so and succeeds (`BuildPlan.artifact`).
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs

from runner.bots.definition import REQUIREMENTS, VENV, path_problems
from runner.errors import UserError

Step = tuple[str, ...]


@attrs.frozen
class BuildPlan:
    """What building one folder takes: commands run one after the other in `folder`, stopping at a failure."""

    folder: Path  # holds bot.json; the commands' working directory
    recipe: str  # the table row: "build.sh", "maven", "python venv", ...
    steps: tuple[Step, ...]
    needs: tuple[str, ...]  # the tools (runner/bots/build.py TOOLS) the steps start
    venv: Path | None = None  # the venv a python plan makes or reuses
    retry: tuple[Step, ...] = ()  # run instead when `steps` fail and the build has a network (Maven online)
    artifact: str | None = None  # a committed build output (relative) kept when the tool is missing or fails
    scratch: tuple[str, ...] = ()  # folders the build makes anew, left out of a staged copy (CMake's build/)

    @property
    def command(self) -> str:
        """The steps as one shell-like line, for messages."""
        return shown_command(self.steps, self.folder)

    def moved(self, folder: Path) -> BuildPlan:
        """The same plan for a copy of the folder at `folder` (a staged build): every path in it follows."""
        old, new = os.path.abspath(self.folder), os.path.abspath(folder)

        def follow(step: Step) -> Step:
            return tuple(new + part[len(old):] if part == old or part.startswith(old + os.sep) else part
                         for part in step)

        venv = Path(follow((str(self.venv),))[0]) if self.venv is not None else None
        return attrs.evolve(self, folder=folder, steps=tuple(map(follow, self.steps)),
                            retry=tuple(map(follow, self.retry)), venv=venv)


def shown_command(steps: tuple[Step, ...], folder: Path) -> str:
    return " && ".join(shlex.join(shown(step, folder)) for step in steps)


def shown(step: Step, folder: Path) -> Step:
    """A step as the user would type it: td-runner's Python as `python3`, paths inside the folder relative."""
    base = os.path.abspath(folder) + os.sep
    parts = []
    for part in step:
        if part == sys.executable:
            part = "python3"
        elif part.startswith(base):
            part = part[len(base):]
        parts.append(part)
    return tuple(parts)


@attrs.frozen
class Project:
    """What a recipe reads: the folder, its top-level file names, the bot's language and launch file."""

    folder: Path
    names: frozenset[str]  # top-level file names
    language: str  # botLanguage; a custom bot whose command runs {python} counts as python3
    launch_file: str | None  # the file the launch starts, relative to the folder ("bot", "target/bot.jar")

    def sources(self, *suffixes: str) -> list[str]:
        return sorted(name for name in self.names if name.endswith(suffixes) and not name.endswith("_test.go"))


@attrs.frozen
class Recipe:
    """One row of the table: applies to `languages` (None: any; `custom` always) when `applies` says so."""

    name: str
    languages: frozenset[str] | None
    applies: Callable[[Project], bool]
    plan: Callable[[Project], BuildPlan]
    always: frozenset[str] = frozenset()  # languages it applies to with no project file (golang, c#core)


def _has(*names: str) -> Callable[[Project], bool]:
    return lambda project: any(name in project.names for name in names)


def _script(project: Project) -> BuildPlan:
    return BuildPlan(project.folder, "build.sh", (("sh", "build.sh"),), ("sh",))


def _jvm_artifact(project: Project) -> str | None:
    """The committed jar (the file bot.json starts), when it is there before the build."""
    file = project.launch_file
    return file if file and (project.folder / file).is_file() else None


def _maven(project: Project) -> BuildPlan:
    batch = ("mvn", "-B", "-Dstyle.color=never", "-q")
    return BuildPlan(project.folder, "maven", ((*batch, "-o", "package"),), ("mvn",), retry=((*batch, "package"),),
                     artifact=_jvm_artifact(project))


def _gradle(project: Project) -> BuildPlan:
    artifact = _jvm_artifact(project)
    if "gradlew" in project.names:  # the project's pinned Gradle, as its README would say to use
        return BuildPlan(project.folder, "gradle", (("sh", "gradlew", "build"),), ("sh",), artifact=artifact)
    return BuildPlan(project.folder, "gradle", (("gradle", "build"),), ("gradle",), artifact=artifact)


def _cargo(project: Project) -> BuildPlan:
    return BuildPlan(project.folder, "cargo", (("cargo", "build", "--release"),), ("cargo",))


def _go(project: Project) -> BuildPlan:
    """`go build`; a golang bot (run by `go run`) builds to /dev/null; no go.mod: its .go files by name."""
    output = ("-o", "/dev/null") if project.language == "golang" else _output(project)
    files = () if "go.mod" in project.names else tuple(project.sources(".go"))
    return BuildPlan(project.folder, "go", (("go", "build", *output, *files),), ("go",))


def _dotnet(project: Project) -> BuildPlan:
    return BuildPlan(project.folder, "dotnet", (("dotnet", "publish"),), ("dotnet",))


def _cmake(project: Project) -> BuildPlan:
    steps = (("cmake", "-S", ".", "-B", "build", "-DCMAKE_BUILD_TYPE=Release"), ("cmake", "--build", "build"))
    return BuildPlan(project.folder, "cmake", steps, ("cmake",), scratch=("build",))


def _make(project: Project) -> BuildPlan:
    return BuildPlan(project.folder, "make", (("make",),), ("make",))


C_SOURCES = (".c",)
CPP_SOURCES = (".cpp", ".cc", ".cxx")


def _one_source(project: Project) -> bool:
    """One C file, or one C++ file (a c bot: C; a c++ bot: C++; a custom bot: either), and no other."""
    suffixes = {"c": C_SOURCES, "c++": CPP_SOURCES}.get(project.language, C_SOURCES + CPP_SOURCES)
    return len(project.sources(*suffixes)) == 1


def _compile(project: Project) -> BuildPlan:
    source = project.sources(*({"c": C_SOURCES, "c++": CPP_SOURCES}.get(project.language, C_SOURCES + CPP_SOURCES)))[0]
    output = _output(project) or ("-o", Path(source).stem)
    if source.endswith(C_SOURCES):
        return BuildPlan(project.folder, "compile", (("cc", "-O2", *output, source, "-lm"),), ("cc",))
    return BuildPlan(project.folder, "compile", (("c++", "-O2", *output, source),), ("c++",))


def _npm(project: Project) -> BuildPlan:
    locked = "package-lock.json" in project.names or "npm-shrinkwrap.json" in project.names
    step = ("npm", "ci" if locked else "install", "--no-audit", "--no-fund", "--no-progress")
    return BuildPlan(project.folder, "npm", (step,), ("npm",))


def _python_venv(project: Project) -> BuildPlan:
    venv = Path(os.path.abspath(project.folder)) / VENV
    python = venv / "bin" / "python"
    steps: list[Step] = []
    if not python.is_file():
        # without pip: td-runner's own pip installs into it (--python), 0.4 s instead of ensurepip's 5-10 s
        steps.append((sys.executable, "-m", "venv", "--without-pip", str(venv)))
    steps.append((sys.executable, "-m", "pip", "--python", str(python), "install", "--disable-pip-version-check",
                  "--no-input", "-r", REQUIREMENTS))
    return BuildPlan(project.folder, "python venv", tuple(steps), ("venv", "pip") if len(steps) == 2 else ("pip",), venv)


def _output(project: Project) -> tuple[str, ...]:
    """`-o FILE` for a compiler, FILE being what the bot's launch starts (a custom `./bot`, a c bot's file)."""
    return ("-o", project.launch_file) if project.launch_file else ()


_JVM = frozenset({"java", "kotlin", "scala"})
_C = frozenset({"c", "c++"})

RECIPES: tuple[Recipe, ...] = (
    Recipe("build.sh", None, _has("build.sh"), _script),
    Recipe("maven", _JVM, _has("pom.xml"), _maven),
    Recipe("gradle", _JVM, _has("build.gradle", "build.gradle.kts"), _gradle),
    Recipe("cargo", frozenset({"rust"}), _has("Cargo.toml"), _cargo),
    Recipe("go", frozenset({"golang"}), lambda project: "go.mod" in project.names or bool(project.sources(".go")),
           _go, always=frozenset({"golang"})),
    Recipe("dotnet", frozenset({"c#core"}), lambda project: bool(project.sources(".csproj")), _dotnet,
           always=frozenset({"c#core"})),
    Recipe("cmake", _C, _has("CMakeLists.txt"), _cmake),
    Recipe("make", _C, _has("Makefile", "makefile", "GNUmakefile"), _make),
    Recipe("compile", _C, _one_source, _compile),
    Recipe("npm", frozenset({"javascript"}), _has("package.json"), _npm),
    Recipe("python venv", frozenset({"python3"}), _has(REQUIREMENTS), _python_venv),
)

#: What a custom bot's folder is searched for, in the table's order (for "nothing to build" messages).
PROJECT_FILES = ("build.sh", "pom.xml", "build.gradle", "Cargo.toml", "go.mod", "*.csproj", "CMakeLists.txt",
                 "Makefile", "a single .c or .cpp file", "package.json", REQUIREMENTS)


def plan_build(folder: Path, bot_json: Mapping[str, Any]) -> BuildPlan | None:
    """The build of the bot folder `folder` (whose bot.json holds `bot_json`), or None: nothing to build.

    UserError (one line) when a path of the folder leads outside it (a build.sh linked elsewhere would run
    another folder's script)."""
    problems = path_problems(folder, dict(bot_json))
    if problems:
        raise UserError(f"{Path(folder) / 'bot.json'}: {problems[0]}")
    project = read_project(folder, bot_json)
    for recipe in RECIPES:
        if project.language == "custom" or recipe.languages is None or project.language in recipe.languages:
            if project.language in recipe.always or recipe.applies(project):
                return recipe.plan(project)
    return None


def read_project(folder: Path, bot_json: Mapping[str, Any]) -> Project:
    try:
        names = frozenset(entry.name for entry in os.scandir(folder) if entry.is_file())
    except OSError:
        names = frozenset()
    language = bot_json.get("botLanguage")
    language = language if isinstance(language, str) else ""
    command = bot_json.get("command")
    if language == "custom" and isinstance(command, list) and any("{python}" in str(part) for part in command):
        language = "python3"
    return Project(Path(folder), names, language, launch_file(bot_json))


def launch_file(bot_json: Mapping[str, Any]) -> str | None:
    """The file inside the folder the bot's launch starts, relative to it: a custom command's `./prog`
    (`{dir}/prog`, `{file}`), else botLocation/botFileName; None when the launch starts none of its own."""
    location = bot_json.get("botLocation")
    location = location.strip("/") if isinstance(location, str) else ""
    file_name = bot_json.get("botFileName")
    file_name = file_name if isinstance(file_name, str) and file_name else None
    if bot_json.get("botLanguage") == "custom":
        command = bot_json.get("command")
        program = command[0] if isinstance(command, list) and command and isinstance(command[0], str) else ""
        if program == "{file}" or program in ("./{file}", "{dir}/{file}"):
            program = f"./{file_name}" if file_name else ""
        elif program.startswith("{dir}/"):
            program = "./" + program[len("{dir}/"):]
        if not program.startswith("./") or "{" in program:
            return None
        relative = os.path.normpath(program[2:])
        return os.path.join(location, relative) if location else relative
    if file_name is None:
        return None
    return os.path.join(location, file_name) if location else file_name
