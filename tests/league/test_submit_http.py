"""Web submissions over real HTTP to a league's server started here: tokens, refusals with their reasons and
nothing left on disk, the throttle, and a submitted bot that becomes a version and plays."""

from __future__ import annotations

import http.client
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from league_helpers import TD_BOT, database, run_cli, td_submissions, write_bot
from test_unpack import GOOD, hostile_cases, make_zip
from test_web_browser import chromium  # noqa: F401 (the module-scoped headless browser)

pytest.importorskip("openskill", reason="leagues need openskill (td-runner[league])")


@pytest.fixture
def served(tmp_path: Path):
    """A Tower Defence league (2 players in the folder) with its server on a free port; no matches yet."""
    from runner.league import players
    from runner.league.settings import claim
    from runner.league.store import connect, transaction
    from runner.league.web import server

    subs = td_submissions(tmp_path, 2)
    folder = tmp_path / "league"
    db = connect(folder, create=True)
    with transaction(db):
        claim(db, {"submissions": str(subs), "options": {"max_rounds": 3}}, folder)
    tokens = {name: players.add_player(db, name) for name in ("ann", "bob")}
    db.close()
    web = server.start_server(folder, "127.0.0.1", 0)
    yield web.url, folder, subs, tokens
    web.close()


def post(url: str, body: bytes, token: str | None = None, *, headers: dict | None = None) -> tuple[int, str]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    sent = {"Content-Type": "application/zip", **({"Authorization": f"Bearer {token}"} if token else {}),
            **(headers or {})}
    connection.request("POST", "/submit", body=body, headers=sent)
    response = connection.getresponse()
    return response.status, response.read().decode()


def test_a_submitted_bot_becomes_a_version_and_plays(served, tmp_path: Path) -> None:
    url, folder, subs, tokens = served
    bot = write_bot(tmp_path / "mine", "Ann", TD_BOT.format(row=3, col=2))
    code, out, err = run_cli("league", "submit", url, bot, "--token", tokens["ann"])
    assert code == 0, out + err
    assert "taken" in out and (subs / "ann" / "bot.py").read_text() == TD_BOT.format(row=3, col=2)
    from runner.league.run import League
    from runner.league.settings import prepare_rules, stored_settings
    from runner.league.store import connect
    from runner.tournament.local import LocalPool

    db = connect(folder)
    pool = LocalPool(1)
    try:
        League(folder, prepare_rules(stored_settings(folder)), db, pool, lambda line: None).run(3, threading.Event())
    finally:
        pool.close()
        db.close()
    db = database(folder)
    row = db.execute("SELECT v.id, v.status FROM versions v JOIN players p ON p.id = v.player_id "
                     "WHERE p.name = 'ann'").fetchone()
    assert row["status"] == "active"
    assert db.execute("SELECT COUNT(*) FROM seats WHERE version_id = ?", (row["id"],)).fetchone()[0] >= 1
    events = [r[0] for r in db.execute("SELECT text FROM events WHERE kind = 'submitted'")]
    assert events and "ann" in events[0]


def test_a_token_submits_only_for_its_own_player_and_revoked_or_wrong_ones_are_refused(served) -> None:
    url, folder, subs, tokens = served
    status, text = post(url, make_zip(GOOD), tokens["bob"])
    assert status == 200, text
    assert (subs / "bob" / "bot.json").is_file() and not (subs / "ann").exists()  # the token decided the player
    assert post(url, make_zip(GOOD))[0] == 401
    status, text = post(url, make_zip(GOOD), "not-a-token")
    assert status == 403 and "not valid" in text
    assert run_cli("league", "player", "revoke", folder, "ann")[0] == 0
    status, revoked = post(url, make_zip(GOOD), tokens["ann"])
    assert status == 403 and revoked == text  # the same words whoever exists
    assert not (subs / "ann").exists()
    code, listing, _ = run_cli("league", "player", "list", folder)
    assert "ann\tactive\ttoken: revoked" in listing and tokens["bob"] not in listing


def test_hostile_uploads_are_refused_with_their_reason_and_leave_nothing(served) -> None:
    url, folder, subs, tokens = served
    before = sorted(p.name for p in subs.iterdir())
    cases = hostile_cases(make_zip(GOOD))  # (the 1 GiB bomb has its own test in test_unpack.py)
    del cases["1 GiB zip bomb"]
    for label, (data, reason) in cases.items():
        status, text = post(url, data, tokens["ann"])
        assert 400 <= status < 500 and reason in text, (label, status, text)
        assert sorted(p.name for p in subs.iterdir()) == before, label
    from runner.league.inbox import pending

    refused = [event for event in pending(folder) if event["kind"] == "refused"]
    assert len(refused) == len(cases)  # each one left for the league to log for the organiser


def test_an_oversized_body_is_refused_before_it_is_read(served) -> None:
    url, folder, subs, tokens = served
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    connection.putrequest("POST", "/submit")
    connection.putheader("Authorization", f"Bearer {tokens['ann']}")
    connection.putheader("Content-Length", str(1 << 30))
    connection.endheaders()  # no body sent at all: the answer must come anyway
    response = connection.getresponse()
    assert response.status == 413 and "at most" in response.read().decode()


def test_repeated_failures_from_one_address_are_slowed_down(served) -> None:
    url, folder, subs, tokens = served
    started = time.monotonic()
    statuses = [post(url, b"x", "wrong")[0] for _ in range(6)]
    assert statuses[:5] == [403] * 5 and statuses[5] == 429
    assert time.monotonic() - started >= 5 * 0.25  # every failed attempt waited
    # a valid token is never refused by the throttle: one student's typos do not lock out a class behind a NAT
    status, text = post(url, make_zip(GOOD), tokens["ann"])
    assert status == 200, text
    assert post(url, b"x", "wrong")[0] == 429  # while wrong ones still wait out the window



def test_the_upload_form_works_in_chromium(chromium, served, tmp_path: Path) -> None:  # noqa: F811
    """On a served player page in headless Chromium: a wrong token in the sign-in form shows the refusal's
    words; the right one signs in (an HttpOnly cookie the page's scripts cannot read) and brings the upload
    form, whose bot is installed as that player's."""
    from runner.league.web.pages import player_href

    url, folder, subs, tokens = served
    archive = tmp_path / "bot.zip"
    archive.write_bytes(make_zip(GOOD))
    context = chromium.new_context()
    page = context.new_page()
    try:
        page.goto(url + player_href("", "ann"))
        assert page.locator("input[name=bot]").count() == 0  # signed out: no upload form
        page.fill("#login input[name=token]", "wrong")
        with page.expect_navigation():
            page.click("#login button")
        assert "not valid" in page.inner_text("body")
        page.goto(url + player_href("", "ann"))
        page.fill("#login input[name=token]", tokens["ann"])
        with page.expect_navigation():
            page.click("#login button")
        assert page.url == url + player_href("", "ann")
        cookie = next(c for c in context.cookies() if c["name"] == "td_league")
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        assert page.evaluate("document.cookie") == ""
        page.set_input_files("#submit input[name=bot]", str(archive))
        with page.expect_navigation():
            page.click("#submit button")
        assert "taken" in page.inner_text("body")
    finally:
        context.close()
    assert (subs / "ann" / "bot.json").is_file()


def test_behind_a_trusted_proxy_the_throttle_counts_the_forwarded_address(tmp_path: Path) -> None:
    """--trusted-proxy 127.0.0.1: the failures of one forwarded client do not throttle another one."""
    from runner.league.web import server

    subs = td_submissions(tmp_path, 2)
    folder = tmp_path / "league"
    from runner.league.settings import claim
    from runner.league.store import connect, transaction

    db = connect(folder, create=True)
    with transaction(db):
        claim(db, {"submissions": str(subs), "options": {"max_rounds": 3}}, folder)
    db.close()
    web = server.start_server(folder, "127.0.0.1", 0, trusted_proxies=["127.0.0.1"])
    try:
        forwarded = {"X-Forwarded-For": "198.51.100.7"}
        statuses = [post(web.url, b"x", "wrong", headers=forwarded)[0] for _ in range(6)]
        assert statuses[:5] == [403] * 5 and statuses[5] == 429
        other = {"X-Forwarded-For": "198.51.100.7, 203.0.113.9"}  # what the client claimed, then the proxy's entry
        assert post(web.url, b"x", "wrong", headers=other)[0] == 403  # another client: not throttled
    finally:
        web.close()


def test_the_client_address_is_the_last_one_a_trusted_proxy_gives() -> None:
    from runner.league.web.server import client_address

    trusted = frozenset({"127.0.0.1", "10.0.0.2"})
    assert client_address("127.0.0.1", None, trusted) == "127.0.0.1"  # no header: the proxy itself
    assert client_address("127.0.0.1", "203.0.113.9", trusted) == "203.0.113.9"
    assert client_address("127.0.0.1", "1.2.3.4, 203.0.113.9, 10.0.0.2", trusted) == "203.0.113.9"  # two proxies
    assert client_address("198.51.100.1", "203.0.113.9", trusted) == "198.51.100.1"  # not a proxy: its own
    assert client_address("127.0.0.1", " , ", trusted) == "127.0.0.1"


def test_trusted_proxy_needs_serve_and_an_ip_address(tmp_path: Path) -> None:
    subs = td_submissions(tmp_path, 2)
    code, out, err = run_cli("league", "run", tmp_path / "l", "--submissions", subs, "--trusted-proxy", "127.0.0.1")
    assert code == 2 and "give --serve too" in err
    code, out, err = run_cli("league", "run", tmp_path / "l", "--submissions", subs, "--serve", "0",
                             "--trusted-proxy", "proxy.local")
    assert code == 2 and "give the proxy's IP address" in err
