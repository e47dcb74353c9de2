"""A bot whose name and output spell the page's own placeholders and HTML that would end its <script>
elements breaks no replay (issue 31 finding 6): a real match of every game, the page in headless Chromium.

The bot is the game's usual test bot (tests/replay/conftest.py MATCHES) wrapped: its bot.json's nickName is
HOSTILE, and it prints HOSTILE before playing (to stdout where that is the bot's output, to stderr for a
persistent bot, whose stdout is its answers).
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

import runner.games
from runner.cli import main
from runner.replay.html import build_record, write_html_replay

from tests.replay.conftest import MATCHES

HOSTILE = ("{{RECORD}}</script><!--<script>{{BOARD_JS}}</SCRIPT >{{VIEWER_JS}}{{TITLE}}{{STYLE}}"
           "<script>document.title='owned'</script>\u2028\u2029&amp;\"'\\u003c")

_WRAPPER = """import runpy, sys
from pathlib import Path
print({text!r}, file={stream}, flush=True)
runpy.run_path(str(Path(__file__).with_name("played.py")), run_name="__main__")
"""


def hostile_copy(bot: Path, into: Path) -> Path:
    """`bot` copied into `into` with HOSTILE as its nickName and printed before it plays."""
    shutil.copytree(bot, into)
    definition = json.loads((into / "bot.json").read_text(encoding="utf-8"))
    definition["nickName"] = HOSTILE
    (into / "bot.json").write_text(json.dumps(definition), encoding="utf-8")
    script = into / definition["botFileName"]
    script.rename(into / "played.py")
    stream = "sys.stderr" if definition.get("persistent") else "sys.stdout"
    script.write_text(_WRAPPER.format(text=HOSTILE, stream=stream), encoding="utf-8")
    return into


def _hostile(name: str) -> bool:
    """A seat's name made from HOSTILE (the runner spells a `/` in a name `_`, for file names)."""
    return "{{RECORD}}" in name and "<script>" in name and "{{VIEWER_JS}}" in name


@pytest.fixture(scope="module")
def hostile_pages(tmp_path_factory):
    """game -> (page, log) of a match whose first seat is the hostile bot."""
    folder = tmp_path_factory.mktemp("hostile")
    made: dict[str, tuple[Path, Path]] = {}

    def page_of(game: str) -> tuple[Path, Path]:
        if game not in made:
            args = list(MATCHES[game])
            first = next(i for i, arg in enumerate(args) if Path(arg).is_dir())
            args[first] = str(hostile_copy(Path(args[first]), folder / f"bot-{game}"))
            out, err = io.StringIO(), io.StringIO()
            code = main(["match", *args, "--output", str(folder), "--name", game, "--quiet", "--seed", "1"],
                        out=out, err=err)
            assert code == 0, err.getvalue()
            log = folder / game
            page, _ = write_html_replay(log, folder / f"{game}.html")
            made[game] = (page, log)
        return made[game]

    return page_of


@pytest.mark.parametrize("game", sorted(runner.games.GAMES))  # the registry (MATCHES has each game)
def test_the_page_is_the_template_filled_once(game, hostile_pages) -> None:
    page, log = hostile_pages(game)
    html = page.read_text(encoding="utf-8")
    record, _ = build_record(log)
    assert any(_hostile(seat["name"]) for seat in record["seats"])
    assert html.count("<script") == 3 and html.lower().count("</script") == 3  # the page's own, no more
    assert html.count("<!--") == 0
    assert html.count("window.ReplayBoard =") == 1
    assert html.count("td-runner's generic replay viewer") == 1  # viewer.js, once


@pytest.mark.parametrize("game", sorted(runner.games.GAMES))  # the registry (MATCHES has each game)
def test_the_page_plays_and_shows_the_name_and_output_as_text(game, hostile_pages, open_page) -> None:
    page, log = hostile_pages(game)
    record, _ = build_record(log)
    opened = open_page(page)
    assert opened.errors == []
    assert opened.page.title() != "owned" and _hostile(opened.page.title())
    names = opened.page.evaluate("[...document.querySelectorAll('.player h2')].map(h => h.textContent)")
    assert names == [seat["name"] for seat in record["seats"]]
    assert any(_hostile(name) for name in names)
    if game != "invaders":  # a persistent bot's log keeps no output: its stderr is not in the replay
        outputs = record["outputs"][0]
        shown_at = next(i for i, text in enumerate(outputs) if HOSTILE in text)
        opened.page.evaluate(f"ReplayViewer.show({shown_at})")
        assert HOSTILE in opened.page.evaluate("document.querySelector('.player .output').textContent")
    opened.page.keyboard.press("End")
    assert opened.round == record["turns"][-1]
    opened.page.keyboard.press("Home")
    opened.page.keyboard.press("7")
    opened.page.keyboard.press(" ")
    opened.page.wait_for_function("n => +document.body.dataset.round > n", arg=record["turns"][0], timeout=5000)
    assert opened.errors == []
    assert [text for kind, text in opened.console if kind == "error"] == []
