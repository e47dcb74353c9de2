"""Each bot gets its own /tmp outside the sandbox too (a mount namespace per turn, runner/bots/isolation.py):
what it writes there is gone with it and no other bot sees it, its own folder stays where it was, and two
JVMs at once no longer fight over `/tmp/hsperfdata_<user>/2` (every bot is PID 2 of its namespace)."""

from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path

import pytest
from botfolders import write_bot_json

from runner.bots.isolation import private_tmp
from runner.cli import main

JAVA_BOT = Path(__file__).parents[1] / "league" / "starter_bots" / "java-td"

pytestmark = pytest.mark.skipif(not private_tmp(), reason="no mount namespace for a bot here (unshare --mount)")


def play(*bots: Path, output: Path) -> dict:
    out, err = io.StringIO(), io.StringIO()
    code = main(["match", *map(str, bots), "--output", str(output), "--name", "m", "--max-rounds", "2", "--quiet"],
                out=out, err=err)
    assert code == 0, err.getvalue()
    return json.loads((output / "m" / "match.json").read_text())


def test_a_bot_writes_its_own_tmp_and_still_sees_its_folder(tmp_path: Path) -> None:
    marker = f"/tmp/td-runner-private-tmp-{os.getpid()}"
    code = f"""
import os, tempfile
open({marker!r}, "w").write("mine")
seen = sorted(os.listdir("/tmp"))
print("tmp holds", seen, "TMPDIR", os.environ.get("TMPDIR"), "temp", tempfile.gettempdir())
print("own folder", os.path.isfile(os.path.join(os.getcwd(), "bot.json")), os.path.isfile("state.json"))
open("command.txt", "w").write("")
"""
    bots = []
    for name in ("a", "b"):
        folder = write_bot_json(tmp_path / name, botFileName="bot.py", botLanguage="python3", nickName=name.upper())
        (folder / "bot.py").write_text(code)
        bots.append(folder)
    play(*bots, output=tmp_path / "matches")
    assert not os.path.exists(marker)  # the machine's /tmp never saw it
    output = (tmp_path / "matches" / "m" / "Round 001" / "A - A" / "Console" / "BotOutput.txt").read_text()
    top = str(tmp_path).split(os.sep)[2]  # the first folder under /tmp on the way to the bot's own
    assert f"tmp holds [{top!r}, {os.path.basename(marker)!r}] TMPDIR /tmp temp /tmp" in output, output
    assert "own folder True True" in output


@pytest.mark.skipif(shutil.which("java") is None, reason="java is not installed")
def test_two_jvms_at_once_share_no_hsperfdata(tmp_path: Path) -> None:
    first = Path(shutil.copytree(JAVA_BOT, tmp_path / "first"))
    second = Path(shutil.copytree(JAVA_BOT, tmp_path / "second"))
    data = json.loads((second / "bot.json").read_text()) | {"nickName": "JavaJar2"}
    (second / "bot.json").write_text(json.dumps(data))
    match = play(first, second, output=tmp_path / "matches")
    assert [player["crashes"] for player in match["players"]] == [0, 0]
    for console in (tmp_path / "matches" / "m").glob("Round */*/Console/*"):
        assert "hsperfdata" not in console.read_text(errors="replace"), console
