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

from tests.replay.conftest import launched_chromium, open_page  # noqa: F401  (open_page: a fixture)

README = Path(runner.games.__file__).parent / "README.md"
BOT = """\
import sys
pile = int(open("pile.txt").read())
open("take.txt", "w").write(str(min(3, max(1, pile % 4 or 1))))
"""


@pytest.fixture(scope="module")
def browser():
    """This module's own headless Chromium, closed with the module: a session-wide one held from here would keep
    every later module's Playwright from starting."""
    yield from launched_chromium()


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

    assert "html_replay" not in vars(type(stones))  # the guide writes no HTML replay: GameDefaults gives one
    assert check_game(stones) == []


#: Beta's bot: crashes when it sees 6 stones, answers garbage when it sees 4, else plays as BOT does.
FAULTY = """\
import sys
pile = int(open("pile.txt").read())
if pile == 6:
    print("about to fail", file=sys.stderr)
    sys.exit(3)
open("take.txt", "w").write("lots" if pile == 4 else str(min(3, max(1, pile % 4 or 1))))
"""


def test_the_example_game_gets_the_default_html_replay(stones, tmp_path: Path, open_page) -> None:
    a, b = bot(tmp_path / "a", "Alpha"), bot(tmp_path / "b", "Beta")
    (b / "bot.py").write_text(FAULTY)
    code, _, err = cli("match", "--game", "stones", str(a), str(b), "--pile", "10", "--output", str(tmp_path),
                       "--name", "m", "--quiet", "--html")
    assert (code, err) == (0, ""), err
    assert "no board drawing" in (tmp_path / "m.html").read_text()  # `match --html` writes it beside the log
    summary = json.loads((tmp_path / "m" / "match.json").read_text())
    # pile 10: both take 2 (6); A takes 2 (4), B crashes; A takes 1 (3), B answers "lots"; A takes 3 (0): A won
    assert summary["winner"] == "A" and summary["rounds"] == 4
    players = {player["seat"]: player for player in summary["players"]}
    assert (players["B"]["crashes"], players["B"]["invalid_commands"]) == (1, 1)
    page_file = tmp_path / "page.html"
    code, out, err = cli("replay", "--html", str(page_file), str(tmp_path / "m"))
    assert (code, err) == (0, "") and out.startswith(f"wrote {page_file} (")
    opened = open_page(page_file)
    assert opened.errors == [] and opened.requests == [page_file.resolve().as_uri()]
    page = opened.page
    assert page.evaluate("ReplayViewer.record.turns") == [1, 2, 3, 4]
    assert "no board drawing" in page.evaluate("document.getElementById('note').textContent")
    assert "A - Alpha won after 4 turns" in page.inner_text("body")
    markers = page.evaluate("ReplayViewer.record.markers")
    assert [(turn, kind) for turn, kind, _ in markers] == [(2, "crash"), (3, "invalid"), (4, "end")]

    def seat_panel(seat: str) -> dict[str, str]:
        return page.evaluate(
            """seat => { const box = document.querySelector(`.player[data-seat="${seat}"]`);
                   return {ruling: box.querySelector('.ruling').textContent,
                           why: box.querySelector('.ruling-text').textContent,
                           text: box.textContent}; }""", seat)

    assert (opened.round, opened.numbers("A"), opened.numbers("B")) == (1, {"won": "0"}, {"won": "0"})
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.body.dataset.round === '2'")
    crashed = seat_panel("B")
    assert crashed["ruling"] == "crash" and "exit" in crashed["why"] and "about to fail" in crashed["text"]
    assert seat_panel("A")["ruling"] == "ok"
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.body.dataset.round === '3'")
    refused = seat_panel("B")
    assert refused["ruling"] == "invalid" and "take 1, 2 or 3, not 'lots'" in refused["why"]
    assert (opened.numbers("A"), opened.numbers("B")) == ({"won": "0"}, {"won": "0"})
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.body.dataset.round === '4'")
    assert (opened.numbers("A"), opened.numbers("B")) == ({"won": "1"}, {"won": "0"})


def test_html_of_a_folder_that_is_no_log_is_one_line(stones, tmp_path: Path) -> None:
    (tmp_path / "m").mkdir()
    expected = f"error: {tmp_path / 'm'}: not a match log written by td-runner (no record.jsonl with a header)\n"
    assert cli("replay", "--game", "stones", "--html", str(tmp_path / "m.html"), str(tmp_path / "m")) == (
        2, "", expected)
    assert not (tmp_path / "m.html").exists()
