"""`td-runner build` and the per-bot venv: a Python bot with requirements.txt builds and then plays; unbuilt,
`match` refuses it in one line; build.sh, a failing build, a missing tool and the recipe table."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import shutil
import sys
import zipfile
from pathlib import Path

import pytest
from botfolders import write_bot_json

from runner.bots.build import BuildPlan, plan_build, run_build
from runner.bots.definition import load_bot
from runner.cli import main
from runner.errors import UserError

BUILD_BOTS = Path(__file__).parent / "build_bots"


def run_cli(*argv: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([*map(str, argv)], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def make_wheel(source: Path, destination: Path, name: str, version: str) -> Path:
    """A pure-Python wheel of the package folder `source`, so pip installs it with no network and no build
    backend (a wheel is a zip with a dist-info folder; RECORD lists each file's hash)."""
    destination.mkdir(parents=True, exist_ok=True)
    wheel = destination / f"{name}-{version}-py3-none-any.whl"
    info = f"{name}-{version}.dist-info"
    files = {f"{name}/{path.relative_to(source).as_posix()}": path.read_bytes() for path in sorted(source.rglob("*.py"))}
    files[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
    files[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: td-runner tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    record = []
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    files[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, data in files.items():
            archive.writestr(path, data)
    return wheel


@pytest.fixture
def python_starter(tmp_path: Path) -> Path:
    """A copy of build_bots/python-starter with wheels/ made from its localpkg/ (what requirements.txt finds)."""
    folder = Path(shutil.copytree(BUILD_BOTS / "python-starter", tmp_path / "python-starter"))
    make_wheel(folder / "localpkg" / "tdlocalpkg", folder / "wheels", "tdlocalpkg", "1.0")
    return folder


@pytest.fixture
def opponent(tmp_path: Path) -> Path:
    folder = write_bot_json(tmp_path / "opponent", botFileName="bot.py", botLanguage="python3", nickName="Idle")
    (folder / "bot.py").write_text("open('command.txt', 'w').write('')\n")
    return folder


def test_td_runners_python_lacks_the_test_package() -> None:
    # the premise of the tests below: without the bot's venv, tdlocalpkg cannot be imported
    assert shutil.which("tdlocalpkg") is None
    with pytest.raises(ImportError):
        __import__("tdlocalpkg")


def test_unbuilt_python_bot_is_refused_with_the_build_command(python_starter: Path, opponent: Path, tmp_path: Path) -> None:
    code, out, err = run_cli("match", python_starter, opponent, "--output", tmp_path / "matches", "--max-rounds", "3", "--quiet")
    assert (code, out) == (2, "")
    assert err == (
        f"error: {python_starter / 'bot.json'}: {python_starter / 'requirements.txt'} needs tdlocalpkg, which "
        f"td-runner's Python ({sys.executable}) lacks: run `td-runner build {python_starter}` to install them in "
        f"{python_starter / '.venv'}\n"
    )
    assert not (tmp_path / "matches").exists() or not any((tmp_path / "matches").iterdir())


@pytest.fixture(scope="module")
def built_starter(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, tuple[int, str, str]]:
    """The python-starter copy after `td-runner build` (built once: the tests after it only read the venv)."""
    folder = Path(shutil.copytree(BUILD_BOTS / "python-starter", tmp_path_factory.mktemp("built") / "python-starter"))
    make_wheel(folder / "localpkg" / "tdlocalpkg", folder / "wheels", "tdlocalpkg", "1.0")
    return folder, run_cli("build", folder)


def test_build_makes_the_bots_own_venv(built_starter: tuple[Path, tuple[int, str, str]]) -> None:
    folder, (code, out, err) = built_starter
    assert code == 0, err
    assert out.startswith(f"{folder}: built (python venv, ")
    assert err == (
        f"{folder}: building (python venv: python3 -m venv --without-pip .venv && python3 -m pip --python "
        ".venv/bin/python install --disable-pip-version-check --no-input -r requirements.txt)\n"
    )
    assert load_bot(folder).argv == (str(folder / ".venv" / "bin" / "python"), "StarterBot.py")
    # the venv does not see td-runner's packages (no --system-site-packages)
    assert "include-system-site-packages = false" in (folder / ".venv" / "pyvenv.cfg").read_text()


def sandbox_unavailable() -> str | None:
    from runner.bots.isolation import check_isolation
    from runner.bots.limits import Limits

    try:
        check_isolation(Limits(sandbox=True))
    except UserError as exc:
        return str(exc)
    return None


@pytest.mark.parametrize("sandbox", [False, True], ids=["plain", "sandbox"])
def test_built_python_bot_answers_every_round_with_its_venv(
    built_starter: tuple[Path, tuple[int, str, str]], opponent: Path, tmp_path: Path, sandbox: bool
) -> None:
    folder, (code, _, err) = built_starter
    assert code == 0, err
    if sandbox and sandbox_unavailable():
        pytest.skip(f"no sandbox here: {sandbox_unavailable()}")
    options = ["--sandbox"] if sandbox else []
    code, out, err = run_cli("match", folder, opponent, "--output", tmp_path / "matches", "--name", "m",
                             "--max-rounds", "3", "--quiet", *options)  # fmt: skip
    assert code == 0, err
    log = tmp_path / "matches" / "m"
    match = json.loads((log / "match.json").read_text())
    player = match["players"][0]
    assert (player["name"], player["crashes"], player["timeouts"], match["rounds"]) == ("A - PyStarter", 0, 0, 4)
    for number in range(match["rounds"]):  # the folder after the last holds the final state, no command
        round_folder = log / f"Round {number:03d}" / "A - PyStarter"
        command = (round_folder / "PlayerCommand.txt").read_text()
        assert command.endswith(",2"), f"round {number}: {command!r}"  # the package's answer, every round
        output = (round_folder / "Console" / "BotOutput.txt").read_text()
        assert f"tdlocalpkg 1.0 from {folder / '.venv'}: {command}" in output


def test_requirements_that_td_runners_python_has_need_no_build(tmp_path: Path) -> None:
    folder = write_bot_json(tmp_path / "bot", botFileName="bot.py", botLanguage="python3")
    (folder / "bot.py").write_text("import attrs\n")
    (folder / "requirements.txt").write_text("# attrs is a td-runner dependency\nattrs>=20  # any version\n")
    assert load_bot(folder).argv == (sys.executable, "bot.py")


def test_a_venv_made_by_hand_is_used(tmp_path: Path) -> None:
    folder = write_bot_json(tmp_path / "bot", botFileName="bot.py", botLanguage="python3")
    (folder / "bot.py").write_text("")
    (folder / ".venv" / "bin").mkdir(parents=True)
    (folder / ".venv" / "bin" / "python").symlink_to(sys.executable)
    assert load_bot(folder).argv == (str(folder / ".venv" / "bin" / "python"), "bot.py")


def test_failed_pip_install_removes_the_venv_it_made(tmp_path: Path) -> None:
    folder = write_bot_json(tmp_path / "bot", botFileName="bot.py", botLanguage="python3")
    (folder / "bot.py").write_text("")
    (folder / "requirements.txt").write_text("--no-index\nno-such-package-td-runner-test\n")
    code, out, err = run_cli("build", folder)
    assert (code, out) == (1, "")
    lines = err.splitlines()
    assert lines[1] == (f"{folder}: build failed: `python3 -m pip --python .venv/bin/python install "
                        "--disable-pip-version-check --no-input -r requirements.txt` exited with code 1")  # fmt: skip
    assert "no-such-package-td-runner-test" in err  # pip's own error, in the tail shown
    assert lines[-1] == "1 of 1 bot folder not ready"
    assert not (folder / ".venv").exists()  # a venv without the packages is never run
    with pytest.raises(UserError, match="run `td-runner build"):
        load_bot(folder)


def test_build_sh_bot(tmp_path: Path) -> None:
    folder = Path(shutil.copytree(BUILD_BOTS / "shell-built", tmp_path / "shell-built"))
    with pytest.raises(UserError, match=rf"does not exist \(build the bot first: td-runner build {folder}\)"):
        load_bot(folder)
    code, out, err = run_cli("build", folder)
    assert (code, err) == (0, f"{folder}: building (build.sh: sh build.sh)\n"), err
    assert out.startswith(f"{folder}: built (build.sh, ")
    assert load_bot(folder).argv == ("./bot",)


def test_failing_build_shows_the_last_lines_and_exits_1(tmp_path: Path) -> None:
    folder = Path(shutil.copytree(BUILD_BOTS / "failing", tmp_path / "failing"))
    code, out, err = run_cli("build", folder)
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        f"{folder}: building (build.sh: sh build.sh)",
        f"{folder}: build failed: `sh build.sh` exited with code 3",
        "  last 20 lines of its output:",
        *[f"  | compiling part {n}" for n in range(12, 31)],
        "  | bot.cpp:3: error: expected ';'",
        "1 of 1 bot folder not ready",
    ]


def test_a_build_that_leaves_no_bot_file_is_not_ready(tmp_path: Path) -> None:
    folder = write_bot_json(tmp_path / "bot", botFileName="bot", botLanguage="c++")
    (folder / "build.sh").write_text("echo done\n")
    code, out, err = run_cli("build", folder)
    assert (code, out) == (1, "")
    assert err.splitlines()[1] == (  # what the build did not make, never "build the bot first" after a build
        f"{folder}: built, but td-runner match would refuse it: `sh build.sh` worked but made no bot (the file "
        "bot.json's launch starts)"
    )


def test_missing_tool_names_the_debian_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = write_bot_json(tmp_path / "bot", botFileName="target/release/bot", botLanguage="rust")
    (folder / "Cargo.toml").write_text("[package]\nname = 'bot'\n")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    code, out, err = run_cli("build", folder)
    assert (code, out) == (1, "")
    assert err.splitlines()[1:] == [
        f"{folder}: build failed: `cargo` is not installed (Debian/Ubuntu: apt-get install cargo)",
        "1 of 1 bot folder not ready",
    ]


def test_nothing_to_build(tmp_path: Path) -> None:
    folder = write_bot_json(tmp_path / "bot", botFileName="bot.py", botLanguage="python3")
    (folder / "bot.py").write_text("")
    assert run_cli("build", folder) == (0, f"{folder}: nothing to build\n", "")


def test_bad_folders_are_exit_2_before_anything_is_built(tmp_path: Path) -> None:
    good = Path(shutil.copytree(BUILD_BOTS / "shell-built", tmp_path / "shell-built"))
    (tmp_path / "empty").mkdir()
    assert run_cli("build", good, tmp_path / "nowhere") == (2, "", f"error: bot folder {tmp_path / 'nowhere'} does not exist\n")
    assert run_cli("build", good, tmp_path / "empty") == (
        2, "", f"error: {tmp_path / 'empty' / 'bot.json'}: no such file (a bot folder needs a bot.json)\n",
    )  # fmt: skip
    assert not (good / "bot").exists()


def test_python_plan_reuses_an_existing_venv(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("six\n")
    plan = plan_build(tmp_path, {"botLanguage": "custom", "command": ["{python}", "-u", "{file}"]})
    assert plan is not None and plan.needs == ("venv", "pip") and len(plan.steps) == 2
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "python").symlink_to(sys.executable)
    plan = plan_build(tmp_path, {"botLanguage": "python3"})
    assert plan is not None and plan.needs == ("pip",)
    assert [step[1:6] for step in plan.steps] == [("-m", "pip", "--python", str(tmp_path / ".venv" / "bin" / "python"), "install")]


@pytest.mark.skipif(shutil.which("make") is None or shutil.which("g++") is None, reason="make or g++ not installed")
def test_make_builds_a_cpp_bot(tmp_path: Path) -> None:
    folder = write_bot_json(tmp_path / "bot", botFileName="bot", botLanguage="c++")
    (folder / "bot.cpp").write_text('#include <fstream>\nint main() { std::ofstream("command.txt") << "0,0,2"; }\n')
    (folder / "Makefile").write_text("bot: bot.cpp\n\tg++ -O1 -o bot bot.cpp\n")
    code, out, err = run_cli("build", folder)
    assert code == 0, err
    assert out.startswith(f"{folder}: built (make, ")
    assert os.access(folder / "bot", os.X_OK) and load_bot(folder).argv == ("./bot",)


def test_run_build_reports_a_program_that_cannot_start(tmp_path: Path) -> None:
    plan = BuildPlan(tmp_path, "custom", ((str(tmp_path / "no-such-compiler"),),), ())
    result = run_build(plan)
    assert not result.ok and result.problem == "`no-such-compiler` could not start: No such file or directory"


def test_a_build_with_a_time_limit_and_in_the_sandbox(tmp_path: Path) -> None:
    """run_build's time limit kills the whole build; in the sandbox a build writes its own folder only."""
    slow = tmp_path / "slow"
    slow.mkdir()
    (slow / "build.sh").write_text("echo begin\nsleep 20 &\nsleep 20\n")
    result = run_build(BuildPlan(slow, "build.sh", (("sh", "build.sh"),), ("sh",)), timeout_s=0.5)
    assert not result.ok and "time limit of 0.5 s" in result.problem and "begin" in result.output
    assert result.seconds < 10
    if sandbox_unavailable():
        pytest.skip(f"no sandbox here: {sandbox_unavailable()}")
    boxed = tmp_path / "boxed"
    boxed.mkdir()
    beside = tmp_path / "beside.txt"  # under /tmp: the sandbox's private /tmp takes it, not the real one
    elsewhere = Path(f"/var/tmp/td-runner-build-test-{os.getpid()}.txt")  # read-only in the sandbox
    (boxed / "build.sh").write_text(f"echo in > built.txt\necho x > {beside}\n"
                                    f"echo x > {elsewhere} || echo refused\necho home=$HOME\n")
    result = run_build(BuildPlan(boxed, "build.sh", (("sh", "build.sh"),), ("sh",)), sandbox=True)
    assert result.ok, result.output
    assert (boxed / "built.txt").read_text() == "in\n"
    assert not beside.exists() and not elsewhere.exists()
    assert "refused" in result.output and "home=/tmp" in result.output
