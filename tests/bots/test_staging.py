"""A build runs in a staging copy beside the folder and moves back only what it made, whole (runner/bots/
staging.py): the folder never holds a half-built state, a failed build leaves it as it was; and a committed
jar stands in when Maven cannot run; a tournament builds an entrant `match` would refuse."""

from __future__ import annotations

import io
import os
import shutil
import threading
import time
from pathlib import Path

import pytest
from botfolders import write_bot_json

from runner.bots.recipes import plan_build
from runner.bots.staging import STAGE_MARK, run_staged
from runner.cli import main
from runner.tournament.entrants import load_entrants


def run_cli(*argv: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([*map(str, argv)], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_the_folder_sees_the_build_only_once_it_is_whole(tmp_path: Path) -> None:
    folder = write_bot_json(tmp_path / "bot", botLanguage="custom", command=["./bot"])
    (folder / "keep.txt").write_text("mine\n")
    (folder / "build.sh").write_text(
        "mkdir -p lib && echo part1 > lib/a.txt && sleep 1 && echo part2 > lib/b.txt\n"
        "printf '#!/bin/sh\\necho > command.txt\\n' > bot && chmod +x bot\n")
    plan = plan_build(folder, {"botLanguage": "custom", "command": ["./bot"]})
    assert plan is not None
    seen: list[list[str]] = []
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            seen.append(sorted(os.listdir(folder)) + sorted(os.listdir(folder / "lib") if (folder / "lib").is_dir() else []))
            time.sleep(0.02)

    watcher = threading.Thread(target=watch)
    watcher.start()
    result = run_staged(plan)
    done.set()
    watcher.join()
    assert result.ok, result.output
    assert sorted(os.listdir(folder)) == ["bot", "bot.json", "build.sh", "keep.txt", "lib"]
    assert (folder / "lib" / "b.txt").read_text() == "part2\n" and os.access(folder / "bot", os.X_OK)
    assert not any(STAGE_MARK in name for name in os.listdir(tmp_path))  # the copy is gone
    for listing in seen:  # lib/ appeared whole or not at all
        assert "lib" not in listing or {"a.txt", "b.txt"} <= set(listing), listing


def test_a_failed_build_leaves_the_folder_as_it_was(tmp_path: Path) -> None:
    folder = write_bot_json(tmp_path / "bot", botLanguage="custom", command=["./bot"])
    (folder / "build.sh").write_text("echo half > half.txt\necho broken > bot.json\nexit 2\n")
    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    code, out, err = run_cli("build", folder)
    assert (code, out) == (1, "")
    assert f"{folder}: build failed: `sh build.sh` exited with code 2" in err
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == before
    assert not any(STAGE_MARK in name for name in os.listdir(tmp_path))


def test_the_output_names_the_folder_not_the_copy(tmp_path: Path) -> None:
    folder = write_bot_json(tmp_path / "bot", botLanguage="custom", command=["./bot"])
    (folder / "build.sh").write_text("pwd\nexit 1\n")
    code, _, err = run_cli("build", folder)
    assert code == 1 and f"  | {folder}" in err.splitlines() and STAGE_MARK not in err


def test_a_committed_jar_stands_in_when_maven_is_missing(tmp_path: Path, monkeypatch) -> None:
    folder = write_bot_json(tmp_path / "bot", botLanguage="java", botLocation="/target", botFileName="bot.jar")
    (folder / "pom.xml").write_text("<project/>\n")
    (folder / "target").mkdir()
    (folder / "target" / "bot.jar").write_bytes(b"PK\x05\x06" + bytes(18))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))  # no mvn (and no java: `td-runner match` would say so)
    plan = plan_build(folder, {"botLanguage": "java", "botLocation": "/target", "botFileName": "bot.jar"})
    assert plan is not None
    result = run_staged(plan)
    assert result.ok and result.note == ("used the committed target/bot.jar: `mvn` is not installed "
                                         "(Debian/Ubuntu: apt-get install maven)")
    assert "[td-runner] used the committed target/bot.jar" in result.output


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (cc) here")
def test_a_tournament_builds_an_entrant_that_match_would_refuse(tmp_path: Path) -> None:
    built = write_bot_json(tmp_path / "cbot", botLanguage="c", botFileName="bot", nickName="C")
    (built / "bot.c").write_text('#include <stdio.h>\nint main(void) { fputs("", fopen("command.txt", "w")); }\n')
    broken = write_bot_json(tmp_path / "broken", botLanguage="c", botFileName="bot", nickName="Broken")
    (broken / "bot.c").write_text("int main(void) { return }\n")
    ready, failed = load_entrants([str(built), str(broken)])
    assert ready.can_start and os.access(built / "bot", os.X_OK)
    assert failed.problem == f"{broken}: build failed: `cc -O2 -o bot bot.c -lm` exited with code 1"
    assert sorted(os.listdir(broken)) == ["bot.c", "bot.json"]  # a failed build leaves the folder as it was
