"""The served league pages in headless Chromium (playwright, as tests/replay does): the standings list every
player, a player page shows its rating chart (an SVG with a path), a replay link opens a replay that plays,
names and outputs holding HTML show as text (no element injected, no script run), nothing is fetched from
elsewhere, a bot's output shows only to a signed-in organiser (or its player), and the page reloads itself
(told by the server's event stream) when a match finishes. Skips where no Chromium or playwright is
installed. TD_RUNNER_SCREENSHOTS=DIR keeps standings.png and player.png there (the README's: docs/league).
The first test reads a hand-made database (every case at once: hostile names, faults, versions, retirements);
the second the pages of a league that `league run` really played, so the pages and the league's writer cannot
drift apart unseen."""

from __future__ import annotations

import gzip
import os
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from runner.league.store import connect
from runner.league.web.pages import player_href
from runner.league.web.server import start_server
from runner.replay.html import write_html_replay

from league_helpers import run_cli, td_submissions
from webdata import ALICE, BROKEN, FAULT_OUTPUT, GONE, SCRIPT, TOM, make_league, played_log

NAMES = (ALICE, TOM, SCRIPT, BROKEN, GONE)


@pytest.fixture(scope="module")
def chromium():
    executable = os.environ.get("TD_RUNNER_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not executable:
        pytest.skip("no Chromium installed (apt-get install chromium, as .ci/run does): browser test skipped")
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="playwright is not installed (pip install -e '.[test]')")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield browser
        browser.close()


def keep(shot: Path) -> None:
    folder = os.environ.get("TD_RUNNER_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, Path(folder) / shot.name)


def store_replays(folder: Path) -> None:
    """What the league's workers write beside each match: DIR/replays/<id>.html.gz (where missing)."""
    db = connect(folder, readonly=True)
    try:
        logs = db.execute("SELECT id, log FROM matches WHERE log IS NOT NULL").fetchall()
    finally:
        db.close()
    (folder / "replays").mkdir(exist_ok=True)
    for match, log in logs:
        target = folder / "replays" / f"{match}.html.gz"
        if not target.exists():
            page, _ = write_html_replay(folder / log, folder / "replays" / f".{match}.html")
            target.write_bytes(gzip.compress(page.read_bytes()))
            page.unlink()


def test_served_league_in_chromium(chromium, tmp_path: Path) -> None:
    folder = make_league(tmp_path / "league", played_log(tmp_path / "scratch"))
    store_replays(folder)
    (folder / "organiser.token").write_text("the-organisers-token\n")
    server = start_server(folder, "127.0.0.1", 0)
    page = chromium.new_page(viewport={"width": 1100, "height": 700})
    requests, errors, dialogs = [], [], []
    page.on("request", lambda request: requests.append(request.url))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    try:
        page.goto(server.url)
        links = page.eval_on_selector_all("td a[href^='players/']", "links => links.map(a => a.textContent)")
        assert sorted(links) == sorted(NAMES)
        page.screenshot(path=str(tmp_path / "standings.png"), full_page=True)
        keep(tmp_path / "standings.png")

        # the player named <script>alert(1)</script>: its name is text; its fault's output is shown only to
        # its player and the organiser (signed in), and then as text
        with page.expect_navigation():
            page.click(f"td a[href='{player_href('', SCRIPT)}']")
        assert page.text_content("h1") == SCRIPT
        assert FAULT_OUTPUT not in page.inner_text("body")
        page.fill("#login input[name=token]", "the-organisers-token")
        with page.expect_navigation():
            page.click("#login button")
        assert page.text_content("h1") == SCRIPT
        assert FAULT_OUTPUT in page.eval_on_selector_all("pre", "pres => pres.map(p => p.textContent)")
        assert page.locator("img").count() == 0 and page.locator("script").count() == 1  # the poll script
        assert page.evaluate("document.body.dataset.injected") is None

        page.goto(server.url + player_href("", ALICE))
        assert page.get_attribute("svg.chart path.mu", "d").count("L") == 5
        assert page.locator("svg.chart line.version").count() == 1
        page.screenshot(path=str(tmp_path / "player.png"), full_page=True)
        keep(tmp_path / "player.png")

        # a replay link opens the match's replay, which plays
        with page.expect_navigation():
            page.click("a[href$='/replay.html']")
        assert urlsplit(page.url).path == "/matches/7/replay.html"
        page.wait_for_function("() => document.body.dataset.round !== undefined && document.body.dataset.round !== ''")

        # the standings page reloads itself when a match finishes
        page.goto(server.url)
        state = page.evaluate("document.body.dataset.state")
        with page.expect_navigation(timeout=15_000):
            db = connect(folder)
            db.execute("INSERT INTO matches (id, task, seed, finished, end_reason, rounds, draw, wall_seconds, "
                       "cpu_seconds) VALUES (8, 8, 8, 1.8e9, 'max_rounds', 4, 1, 1.0, 0.01)")
            db.close()
        assert page.evaluate("document.body.dataset.state") != state
        assert page.text_content("nav .muted") == "8 matches"
    finally:
        page.close()
        server.close()
    assert errors == [] and dialogs == []
    assert {urlsplit(url).netloc for url in requests} == {urlsplit(server.url).netloc}


def test_a_league_that_really_played_in_chromium(chromium, tmp_path: Path) -> None:
    """The pages of a league `league run` really played (not a hand-made database): three Tower Defence
    players, three matches; the standings list them, a player page charts its rating and lists its matches,
    and a match's replay opens and plays."""
    pytest.importorskip("openskill", reason="leagues need openskill (td-runner[league])")
    subs = td_submissions(tmp_path, 3)
    folder = tmp_path / "league"
    code, _, err = run_cli("league", "run", folder, "--submissions", subs, "--max-matches", "3", "--max-rounds", "3",
                           "--workers", "1", "--quiet")
    assert code == 0, err
    store_replays(folder)
    server = start_server(folder, "127.0.0.1", 0)
    page = chromium.new_page(viewport={"width": 1100, "height": 700})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(server.url)
        links = page.eval_on_selector_all("td a[href^='players/']", "links => links.map(a => a.textContent)")
        assert sorted(links) == ["tiny0", "tiny1", "tiny2"]  # players are named by their folders
        assert page.text_content("nav .muted") == "3 matches"
        with page.expect_navigation():
            page.click(f"td a[href='{player_href('', 'tiny1')}']")
        assert page.text_content("h1") == "tiny1"
        assert page.locator("svg.chart path.mu").count() == 1  # its rating over its matches
        with page.expect_navigation():
            page.click("a[href$='/replay.html']")
        page.wait_for_function("() => document.body.dataset.round !== undefined && document.body.dataset.round !== ''")
    finally:
        page.close()
        server.close()
    assert errors == []
