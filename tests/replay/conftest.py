"""Logs of every game (short matches of the starter bots, played once per test session) and a headless
Chromium (Debian's `chromium`, driven by playwright), for the HTML replay tests.

The browser tests skip, saying why, where no Chromium or no playwright is installed. Set
TD_RUNNER_SCREENSHOTS=DIR to keep test_replay_layout.py's screenshots of each game at 900 and 1400 px there
(`docs/replays` holds the README's).
"""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest

from runner.cli import main

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "starter-bots"
MAPS = ROOT / "runner" / "games" / "warzone" / "maps"

#: game -> the `td-runner match` arguments of a short match of its starter bots. Every registered game needs
#: one: test_html_browser.py checks this table against the registry (runner/games/__init__.py).
MATCHES = {
    "tower-defence": [str(BOTS / "python3"), str(BOTS / "reference"), "--max-rounds", "20"],
    # the starter bot loses to the reference bot in one turn: two reference bots last
    "lanes": ["--game", "lanes", str(BOTS / "lanes" / "reference"), str(BOTS / "lanes" / "reference"),
              "--max-turns", "6"],
    # a Conquest-dialect map with coordinates (tests/replay/test_html_record.py reads tiny-ring too)
    "warzone": ["--game", "warzone", "--map", str(MAPS / "td-harbour.map"), "--max-turns", "10",
                *[str(BOTS / "warzone" / "python3")] * 3],
    "invaders": ["--game", "invaders", str(BOTS / "invaders" / "python3"), str(BOTS / "invaders" / "python3"),
                 "--max-turns", "300"],
}

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")


@pytest.fixture(scope="session")
def match_logs(tmp_path_factory) -> dict[str, Path]:
    """One log per game, played lazily: `match_logs[game]`."""
    return _Logs(tmp_path_factory.mktemp("logs"))


class _Logs(dict):
    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder

    def __missing__(self, game: str) -> Path:
        assert game in MATCHES, f"{game}: no short match in tests/replay/conftest.py MATCHES"
        out, err = io.StringIO(), io.StringIO()
        code = main(["match", *MATCHES[game], "--output", str(self.folder), "--name", game, "--quiet",
                     "--seed", "1"], out=out, err=err)
        assert code == 0, err.getvalue()
        self[game] = self.folder / game
        return self[game]


def chromium_path() -> str | None:
    """The system Chromium: $TD_RUNNER_CHROMIUM, else the first of CHROMIUM_NAMES on PATH."""
    given = os.environ.get("TD_RUNNER_CHROMIUM")
    if given:
        return given if Path(given).is_file() else None
    return next((found for name in CHROMIUM_NAMES if (found := shutil.which(name))), None)


def launched_chromium():
    """Headless Chromium for as long as the generator runs. Only one Playwright may run at a time in a thread:
    a fixture outside tests/replay that wants a browser holds it for its module only (scope="module"), so that
    the league's and the replay's browsers can start after it."""
    executable = chromium_path()
    if executable is None:
        pytest.skip("no Chromium installed (apt-get install chromium, as .ci/run does): browser tests skipped")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install -e '.[test]'): browser tests skipped")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def browser():
    yield from launched_chromium()


class Opened:
    """A page with every console message, page error and request it made."""

    def __init__(self, page) -> None:
        self.page = page
        self.console: list[tuple[str, str]] = []
        self.errors: list[str] = []
        self.requests: list[str] = []
        page.on("console", lambda message: self.console.append((message.type, message.text)))
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("request", lambda request: self.requests.append(request.url))

    @property
    def round(self) -> int:
        return int(self.page.evaluate("document.body.dataset.round"))

    def numbers(self, seat: str) -> dict[str, str]:
        """The numbers shown in a seat's panel: stat name -> text."""
        return self.page.evaluate(
            """seat => Object.fromEntries([...document.querySelectorAll(`.player[data-seat="${seat}"] b`)]
                   .map(b => [b.dataset.stat, b.textContent]))""", seat)


@pytest.fixture
def open_page(browser):
    pages = []

    def opener(path: Path, fragment: str = "") -> Opened:
        page = browser.new_page(viewport={"width": 1280, "height": 860})
        pages.append(page)
        opened = Opened(page)
        page.goto(path.resolve().as_uri() + fragment)
        page.wait_for_function("() => document.body.dataset.round !== ''")
        return opened

    yield opener
    for page in pages:
        page.close()
