"""The worked example of runner/games/README.md is real code: register it and play it through the CLI."""

from __future__ import annotations

import io
import json
import re
import sys
import types
from pathlib import Path

import pytest

import runner.games
from runner.cli import main

README = Path(runner.games.__file__).parent / "README.md"
BOT = """\
import sys
pile = int(open("pile.txt").read())
open("take.txt", "w").write(str(min(3, max(1, pile % 4 or 1))))
"""


@pytest.fixture
def stones(monkeypatch: pytest.MonkeyPatch):
    code = re.search(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL).group(1)
    module = types.ModuleType("stones_example")
    exec(compile(code, str(README), "exec"), module.__dict__)  # noqa: S102  (our own README)
    monkeypatch.setitem(sys.modules, "stones_example", module)
    monkeypatch.setitem(runner.games.GAMES, "stones", "stones_example")
    return module.GAME


def bot(folder: Path, nick: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "bot.json").write_text(json.dumps({
        "author": "t", "email": "t@example.invalid", "nickName": nick, "botLocation": "/",
        "botFileName": "bot.py", "botLanguage": "python3"}))
    (folder / "bot.py").write_text(BOT)
    return folder


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(args), out=out, err=err), out.getvalue(), err.getvalue()


def test_the_example_game_plays_verifies_and_lists(stones, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    a, b = bot(tmp_path / "a", "Alpha"), bot(tmp_path / "b", "Beta")
    code, out, err = cli("match", "--game", "stones", str(a), str(b), "--pile", "10", "--output", str(tmp_path),
                         "--name", "m", "--quiet")
    assert (code, err) == (0, ""), err
    summary = json.loads((tmp_path / "m" / "match.json").read_text())
    assert summary["game"] == "stones" and summary["end_reason"] == "pile_empty"
    assert summary["options"]["pile"] == 10 and summary["game_config"] == {"pile": 10}
    # pile 10: both see 10 and take 2 (6 left); both see 6 and take 2 (2 left); A takes 2 (0): A took the last
    assert summary["winner"] == "A" and summary["rounds"] == 3
    assert (tmp_path / "m" / "Turn 004" / "result.txt").read_text() == "A - Alpha took the last stone\n"
    assert cli("verify", str(tmp_path / "m"))[0] == 0  # the log tools come with GameDefaults (runner/logtools)
    code, out, _ = cli("validate", str(tmp_path / "m"))
    assert code == 0 and out == ""
    code, out, _ = cli("replay", str(tmp_path / "m"), "--turn", "2", "--player", "A")
    assert code == 0 and out.splitlines()[:4] == ["turn 2", "pile: oooooo", "events:", "  A takes 2, 4 left"]
    assert "A: 2 -> accepted" in out and "--- A bot output ---" in out
    code, out, _ = cli("match", "--game", "stones", str(a), str(b), "--pile", "11", "--output", str(tmp_path),
                       "--name", "m11", "--quiet")
    code, out, _ = cli("diff", str(tmp_path / "m"), str(tmp_path / "m11"))
    assert code == 1 and out.startswith("the logs part at turn 1: ")
    assert "turn 1, seat A, pile.txt: line 1: '10' != '11'" in out
    (tmp_path / "m" / "Turn 002" / "B - Beta" / "pile.txt").write_text("9\n")
    code, out, _ = cli("verify", str(tmp_path / "m"))
    assert code == 1 and "turn 2, seat B, Turn 002/B - Beta/pile.txt: line 1: '9' != '6'" in out
    assert "stones" in cli("games")[1]
    with pytest.raises(SystemExit):
        cli("match", "--game", "stones", "--help")  # argparse prints help on sys.stdout, then exits 0
    assert "stones options:\n  --pile N" in capsys.readouterr().out


def test_a_bad_option_value_is_one_line(stones, tmp_path: Path) -> None:
    a, b = bot(tmp_path / "a", "Alpha"), bot(tmp_path / "b", "Beta")
    code, _, err = cli("match", "--game", "stones", str(a), str(b), "--pile", "0", "--output", str(tmp_path))
    assert code == 2 and err == "error: --pile must be at least 1, got 0\n"
    assert not list(tmp_path.glob("20*"))  # no match folder for a match that never started


def test_the_example_game_passes_check_game(stones) -> None:
    from runner.games.check import check_game

    assert not hasattr(stones, "html_replay")  # the guide leaves the HTML replay out, as a first game would
    assert check_game(stones) == []


def test_html_of_a_game_without_an_html_replay_is_one_line(stones, tmp_path: Path) -> None:
    a, b = bot(tmp_path / "a", "Alpha"), bot(tmp_path / "b", "Beta")
    expected = "error: stones: this game has no HTML replay yet (its Game has no html_replay)\n"
    code, out, err = cli("match", "--game", "stones", str(a), str(b), "--output", str(tmp_path), "--name", "m",
                         "--quiet", "--html")
    assert (code, out, err) == (2, "", expected)
    assert not (tmp_path / "m").exists()  # refused before the match, not after playing it
    assert cli("match", "--game", "stones", str(a), str(b), "--output", str(tmp_path), "--name", "m",
               "--quiet")[0] == 0
    assert cli("replay", str(tmp_path / "m"), "--html", str(tmp_path / "m.html")) == (2, "", expected)
    assert cli("replay", "--html", str(tmp_path / "m")) == (2, "", expected)
    assert not (tmp_path / "m.html").exists()
