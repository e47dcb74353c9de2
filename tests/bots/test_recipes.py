"""The build table: which project files make which build, for each language and for `custom` bots, and what
`td-runner build` says when there is nothing it can build (runner/bots/recipes.py)."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from botfolders import write_bot_json

from runner.bots.recipes import launch_file, plan_build
from runner.cli import main

MVN = ("mvn", "-B", "-Dstyle.color=never", "-q")
CUSTOM = {"botLanguage": "custom", "command": ["./bot"]}


@pytest.mark.parametrize(
    ("bot", "files", "recipe", "steps"),
    [
        ({"botLanguage": "java"}, ["pom.xml"], "maven", [(*MVN, "-o", "package")]),
        ({"botLanguage": "kotlin"}, ["build.gradle.kts"], "gradle", [("gradle", "build")]),
        ({"botLanguage": "java"}, ["build.gradle", "gradlew"], "gradle", [("sh", "gradlew", "build")]),
        ({"botLanguage": "rust"}, ["Cargo.toml"], "cargo", [("cargo", "build", "--release")]),
        ({"botLanguage": "golang", "botFileName": "main.go"}, ["go.mod", "main.go"], "go",
         [("go", "build", "-o", "/dev/null")]),
        # the official 2018 Go starter has no go.mod: its files by name, a module of their own
        ({"botLanguage": "golang", "botFileName": "main.go"}, ["main.go", "util.go", "util_test.go"], "go",
         [("go", "build", "-o", "/dev/null", "main.go", "util.go")]),
        ({"botLanguage": "c#core"}, [], "dotnet", [("dotnet", "publish")]),
        ({"botLanguage": "c++", "botFileName": "bot"}, ["Makefile", "bot.cpp"], "make", [("make",)]),
        ({"botLanguage": "c", "botFileName": "bot"}, ["bot.c"], "compile", [("cc", "-O2", "-o", "bot", "bot.c", "-lm")]),
        ({"botLanguage": "c++", "botFileName": "bot"}, ["main.cpp"], "compile", [("c++", "-O2", "-o", "bot", "main.cpp")]),
        ({"botLanguage": "c", "botFileName": "bot"}, ["a.c", "b.c"], None, None),  # two files: say how (Makefile)
        ({"botLanguage": "javascript"}, ["package.json"], "npm", [("npm", "install", "--no-audit", "--no-fund", "--no-progress")]),
        ({"botLanguage": "javascript"}, ["package.json", "package-lock.json"], "npm",
         [("npm", "ci", "--no-audit", "--no-fund", "--no-progress")]),
        # custom bots: the project file decides, and a compiler writes the program the command starts
        (CUSTOM, ["go.mod", "main.go"], "go", [("go", "build", "-o", "bot")]),
        (CUSTOM, ["Cargo.toml"], "cargo", [("cargo", "build", "--release")]),
        (CUSTOM, ["CMakeLists.txt", "bot.cpp"], "cmake",
         [("cmake", "-S", ".", "-B", "build", "-DCMAKE_BUILD_TYPE=Release"), ("cmake", "--build", "build")]),
        (CUSTOM, ["Makefile", "bot.c"], "make", [("make",)]),
        (CUSTOM, ["pom.xml"], "maven", [(*MVN, "-o", "package")]),
        (CUSTOM, ["build.gradle"], "gradle", [("gradle", "build")]),
        (CUSTOM, ["Bot.csproj"], "dotnet", [("dotnet", "publish")]),
        (CUSTOM, ["bot.c"], "compile", [("cc", "-O2", "-o", "bot", "bot.c", "-lm")]),
        (CUSTOM, ["bot.cpp"], "compile", [("c++", "-O2", "-o", "bot", "bot.cpp")]),
        ({"botLanguage": "custom", "command": ["node", "bot.js"]}, ["package.json"], "npm",
         [("npm", "install", "--no-audit", "--no-fund", "--no-progress")]),
        ({"botLanguage": "custom", "command": ["{dir}/bin/lanes"]}, ["go.mod"], "go", [("go", "build", "-o", "bin/lanes")]),
        ({"botLanguage": "rust"}, ["Cargo.toml", "build.sh"], "build.sh", [("sh", "build.sh")]),  # the bot's own script wins
        ({"botLanguage": "javascript"}, ["build.sh"], "build.sh", [("sh", "build.sh")]),
        (CUSTOM, ["Makefile", "build.sh"], "build.sh", [("sh", "build.sh")]),
        ({"botLanguage": "java"}, [], None, None),  # a jar built elsewhere
        ({"botLanguage": "c++"}, [], None, None),
        ({"botLanguage": "python3"}, [], None, None),
        ({"botLanguage": "javascript"}, [], None, None),
        (CUSTOM, [], None, None),
    ],
)
def test_project_files_pick_the_build(tmp_path: Path, bot: dict, files: list[str], recipe: str | None, steps) -> None:
    for name in files:
        (tmp_path / name).write_text("")
    plan = plan_build(tmp_path, bot)
    if recipe is None:
        assert plan is None
    else:
        assert plan is not None and (plan.recipe, list(plan.steps)) == (recipe, steps)


def test_maven_goes_online_only_after_offline_and_keeps_a_committed_jar(tmp_path: Path) -> None:
    (tmp_path / "pom.xml").write_text("")
    bot = {"botLanguage": "java", "botLocation": "/target", "botFileName": "bot.jar"}
    plan = plan_build(tmp_path, bot)
    assert plan is not None and plan.retry == ((*MVN, "package"),) and plan.artifact is None
    (tmp_path / "target").mkdir()
    (tmp_path / "target" / "bot.jar").write_bytes(b"PK")
    plan = plan_build(tmp_path, bot)
    assert plan is not None and plan.artifact == "target/bot.jar"


@pytest.mark.parametrize(
    ("bot", "expected"),
    [
        ({"botLanguage": "c", "botFileName": "bot"}, "bot"),
        ({"botLanguage": "java", "botLocation": "/target", "botFileName": "bot.jar"}, "target/bot.jar"),
        ({"botLanguage": "custom", "command": ["./bin/bot", "--fast"]}, "bin/bot"),
        ({"botLanguage": "custom", "command": ["{dir}/bot"]}, "bot"),
        ({"botLanguage": "custom", "command": ["./{file}"], "botFileName": "b"}, "b"),
        ({"botLanguage": "custom", "command": ["java", "-jar", "x.jar"]}, None),
        ({"botLanguage": "custom", "command": ["{python}", "bot.py"]}, None),
    ],
)
def test_launch_file(bot: dict, expected: str | None) -> None:
    assert launch_file(bot) == expected


def run_cli(*argv: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([*map(str, argv)], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_a_custom_bot_with_nothing_to_build_is_told_what_was_looked_for(tmp_path: Path) -> None:
    folder = write_bot_json(tmp_path / "lanes-go", botLanguage="custom", command=["./lanes-bot"])
    (folder / "main.rs").write_text("fn main() {}\n")
    code, out, err = run_cli("build", folder)
    assert (code, out) == (1, "")
    first = err.splitlines()[0]
    assert first == (
        f"{folder}: nothing to build, but td-runner match would refuse it: the file bot.json's launch starts, "
        "lanes-bot, does not exist, and the folder has nothing that builds it (looked for build.sh, pom.xml, "
        "build.gradle, Cargo.toml, go.mod, *.csproj, CMakeLists.txt, Makefile, a single .c or .cpp file, "
        "package.json or requirements.txt)")
    assert "td-runner build" not in err  # never the command just run


def test_c_is_a_language_that_runs_its_compiled_file(tmp_path: Path) -> None:
    from runner.bots.definition import load_bot

    folder = write_bot_json(tmp_path / "cbot", botLanguage="c", botFileName="bot")
    (folder / "bot").write_text("#!/bin/sh\n")
    (folder / "bot").chmod(0o755)
    assert load_bot(folder).argv == ("./bot",)


def test_a_build_that_does_not_make_the_bot_file_says_so(tmp_path: Path) -> None:
    folder = write_bot_json(tmp_path / "jbot", botLanguage="custom", command=["java", "-jar", "{file}"],
                            botFileName="target/bot.jar")
    (folder / "build.sh").write_text("echo compiled\n")
    code, out, err = run_cli("build", folder)
    assert (code, out) == (1, "")
    assert err.splitlines()[1] == (
        f"{folder}: built, but td-runner match would refuse it: bot.json: bot file {folder / 'target' / 'bot.jar'} "
        "does not exist (`sh build.sh` did not make it)")


def test_maven_offline_first_then_online_and_the_command_is_shown(tmp_path: Path, monkeypatch) -> None:
    """A stand-in `mvn` (a script first on PATH) that cannot build offline and builds online."""
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "mvn").write_text('#!/bin/sh\ncase " $* " in *" -o "*) echo "[ERROR] offline: not downloaded"; exit 1;; esac\n'
                               'mkdir -p target && printf PK > target/bot.jar && echo "\\033[1;32mBUILD SUCCESS\\033[m"\n')
    (tools / "mvn").chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}:{os.environ['PATH']}")
    folder = write_bot_json(tmp_path / "jbot", botLanguage="java", botLocation="/target", botFileName="bot.jar")
    (folder / "pom.xml").write_text("<project/>\n")
    code, out, err = run_cli("build", folder, "--verbose")
    assert code == 0, err
    assert out.startswith(f"{folder}: built (maven, ")
    lines = err.splitlines()
    assert lines[0] == f"{folder}: building (maven: mvn -B -Dstyle.color=never -q -o package)"
    assert lines[1] == f"{folder}: again with the network (mvn -B -Dstyle.color=never -q package)"
    assert "[ERROR] offline: not downloaded" in err and "BUILD SUCCESS" in err and "\x1b" not in err
    assert (folder / "target" / "bot.jar").read_bytes() == b"PK"
