"""The served league as an attacker and a class would use it, over real HTTP on 127.0.0.1 (issues 31 and 32):
an upload without a valid token is answered before its body is sent; twenty held-open 20 MB uploads neither
grow the server nor stay open; a valid token's stalled body times out; a player's upload rate has its own
429; live updates arrive by server-sent events; what a bot printed shows on its own page to its signed-in
player alone."""

from __future__ import annotations

import http.client
import json
import os
import socket
import sys
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest

from league_helpers import run_cli, td_submissions, write_bot
from test_unpack import GOOD, make_zip

pytest.importorskip("openskill", reason="leagues need openskill (td-runner[league])")

MB = 1 << 20


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024


@pytest.fixture
def league(tmp_path: Path):
    """A Tower Defence league (2 players, tokens for ann and bob, 2 uploads an hour) served on a free port."""
    from runner.league import players
    from runner.league.settings import claim
    from runner.league.store import connect, transaction
    from runner.league.web.server import start_server

    subs = td_submissions(tmp_path, 2)
    folder = tmp_path / "league"
    db = connect(folder, create=True)
    with transaction(db):
        claim(db, {"submissions": str(subs), "options": {"max_rounds": 3}, "uploads_per_hour": 2}, folder)
    tokens = {name: players.add_player(db, name) for name in ("ann", "bob")}
    db.close()
    web = start_server(folder, "127.0.0.1", 0)
    yield web, folder, subs, tokens
    web.close()


def address(web) -> tuple[str, int]:
    parts = urlsplit(web.url)
    return parts.hostname, parts.port


def post(web, body: bytes, token: str | None = None) -> tuple[int, str]:
    connection = http.client.HTTPConnection(*address(web), timeout=30)
    headers = {"Content-Type": "application/zip", **({"Authorization": f"Bearer {token}"} if token else {})}
    connection.request("POST", "/submit", body=body, headers=headers)
    response = connection.getresponse()
    try:
        return response.status, response.read().decode()
    finally:
        connection.close()


def open_upload(web, token: str | None, length: int = 20 * MB) -> socket.socket:
    """A connection that sent an upload's headers (and nothing of its body)."""
    sock = socket.create_connection(address(web), timeout=10)
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    sock.sendall(f"POST /submit HTTP/1.1\r\nHost: x\r\nContent-Type: application/gzip\r\n{auth}"
                 f"Content-Length: {length}\r\n\r\n".encode())
    return sock


def answer(sock: socket.socket, timeout: float = 10) -> bytes:
    """Everything the server sends until it closes the connection."""
    sock.settimeout(timeout)
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk


def test_an_upload_without_a_valid_token_is_answered_before_its_body_is_sent(league) -> None:
    web, folder, subs, tokens = league
    for token, status in ((None, b"401"), ("wrong", b"403")):
        sock = open_upload(web, token)
        reply = answer(sock)  # no body byte was sent: the answer (and the close) come anyway
        sock.close()
        assert reply.startswith(b"HTTP/1.1 " + status) and b"connection: close" in reply.lower(), reply


def test_twenty_held_open_unauthenticated_uploads_neither_grow_the_server_nor_stay_open(league) -> None:
    web, folder, subs, tokens = league
    before = rss_mb()
    socks = [open_upload(web, None) for _ in range(20)]
    chunk = os.urandom(MB)
    started = time.monotonic()
    for sock in socks:
        try:
            for _ in range(19):  # all but the last megabyte
                sock.sendall(chunk)
        except OSError:
            pass  # refused and closed already: the rest is never read
    replies = [answer(sock) for sock in socks]
    for sock in socks:
        sock.close()
    assert all(reply.startswith(b"HTTP/1.1 4") for reply in replies)
    assert time.monotonic() - started < 30
    assert rss_mb() - before < 20, f"the server grew by {rss_mb() - before:.1f} MB"
    assert post(web, make_zip(GOOD), tokens["ann"])[0] == 200  # and goes on serving


def test_a_valid_tokens_stalled_body_times_out(league, monkeypatch) -> None:
    from runner.league.web import app

    web, folder, subs, tokens = league
    monkeypatch.setattr(app, "BODY_CHUNK_S", 1.0)
    sock = open_upload(web, tokens["bob"])
    sock.sendall(b"x" * 100_000)  # then nothing more
    started = time.monotonic()
    reply = answer(sock)
    sock.close()
    assert reply.startswith(b"HTTP/1.1 408") and b"too slowly" in reply
    assert 0.8 < time.monotonic() - started < 5
    assert not (subs / "bob").exists()  # nothing installed


def test_a_players_upload_rate_has_its_own_429_and_refusals_do_not_count(league) -> None:
    web, folder, subs, tokens = league
    assert post(web, b"not an archive", tokens["ann"])[0] in (400, 415, 422)  # refused: does not count
    assert [post(web, make_zip(GOOD), tokens["ann"])[0] for _ in range(2)] == [200, 200]
    status, text = post(web, make_zip(GOOD), tokens["ann"])
    assert status == 429 and "ann has had 2 uploads taken in the last hour" in text
    assert post(web, make_zip(GOOD), tokens["bob"])[0] == 200  # another player's own count
    sock = open_upload(web, tokens["ann"])  # refused from the headers too: the body is never read
    assert answer(sock).startswith(b"HTTP/1.1 429")
    sock.close()


def test_uploads_events_reach_the_database_through_the_league(league) -> None:
    """The server never writes the database: its events wait in DIR/inbox until the league records them,
    exactly once."""
    from runner.league.inbox import ingest, pending
    from runner.league.store import connect

    web, folder, subs, tokens = league
    assert post(web, make_zip(GOOD), tokens["ann"])[0] == 200
    assert [event["kind"] for event in pending(folder)] == ["submitted"]
    db = connect(folder)
    try:
        assert ingest(db, folder, print) == 1 and ingest(db, folder, print) == 0
        rows = db.execute("SELECT kind, player FROM events WHERE kind = 'submitted'").fetchall()
        assert [tuple(row) for row in rows] == [("submitted", "ann")]
        assert not pending(folder) and not db.execute("SELECT 1 FROM meta WHERE key LIKE 'inbox:%'").fetchall()
    finally:
        db.close()


def test_live_updates_arrive_as_server_sent_events(league) -> None:
    from runner.league.store import add_event, connect, transaction

    web, folder, subs, tokens = league
    sock = socket.create_connection(address(web), timeout=10)
    sock.sendall(b"GET /updates HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
    seen = b""
    while b"data: " not in seen:
        seen += sock.recv(4096)
    assert b"text/event-stream" in seen.lower()
    first = seen.split(b"data: ", 1)[1].split(b"\n", 1)[0]
    db = connect(folder)
    with transaction(db):
        add_event(db, "note", None, "something happened")
    db.close()
    started, more = time.monotonic(), b""
    while b"data: " not in more:
        more += sock.recv(4096)
    sock.close()
    assert time.monotonic() - started < 3
    key = more.split(b"data: ", 1)[1].split(b"\n", 1)[0]
    assert key != first and key.split(b"-")[1] > first.split(b"-")[1]


MARKER = "MARKER-7f3a"
LOUD_BOT = (f"import sys\nprint('{MARKER} on stdout')\nprint('{MARKER} on stderr', file=sys.stderr)\n"
            "sys.exit(3)\n")


def test_what_a_bot_prints_shows_only_to_its_signed_in_player(tmp_path: Path) -> None:
    """A bot printing a marker to stdout and stderr (and crashing) in a league that really played: the
    marker is on no page fetched without its player's token, and on its own page with it."""
    from runner.league.web.pages import player_path
    from runner.league.web.server import start_server

    subs = td_submissions(tmp_path, 2)
    write_bot(subs / "loud", "Loud", LOUD_BOT)
    folder = tmp_path / "league"
    code, _, err = run_cli("league", "run", folder, "--submissions", subs, "--max-matches", "4", "--max-rounds", "3",
                           "--workers", "1", "--quiet")
    assert code == 0, err
    code, out, _ = run_cli("league", "player", "add", folder, "loud")
    token = out.split("token ")[1].split()[0]
    from runner.league.store import connect

    db = connect(folder, readonly=True)
    assert MARKER in "".join(row[0] for row in db.execute("SELECT faults FROM seats"))  # it was recorded
    names = [row[0] for row in db.execute("SELECT name FROM players")]
    matches = [row[0] for row in db.execute("SELECT id FROM matches")]
    db.close()
    web = start_server(folder, "127.0.0.1", 0)
    try:
        def fetch(path: str, cookie: str | None = None) -> str:
            connection = http.client.HTTPConnection(*address(web), timeout=30)
            connection.request("GET", path, headers={"Cookie": cookie} if cookie else {})
            body = connection.getresponse().read()
            connection.close()
            return body.decode("utf-8", errors="replace")

        paths = ["/", "/matches.html", "/crosstable.html", "/events.html", "/standings.json", "/state.json",
                 *(f"/{player_path(name)}" for name in names), *(f"/matches/{m}/replay.html" for m in matches)]
        for path in paths:
            assert MARKER not in fetch(path), path
        connection = http.client.HTTPConnection(*address(web), timeout=30)
        connection.request("POST", "/login", body=urlencode({"token": token, "next": player_path("loud")}),
                           headers={"Content-Type": "application/x-www-form-urlencoded"})
        response = connection.getresponse()
        response.read()
        connection.close()
        assert response.status == 303 and response.getheader("Location") == player_path("loud")
        cookie = response.getheader("Set-Cookie")
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        session = cookie.split(";")[0]
        assert MARKER in fetch(f"/{player_path('loud')}", session)
        for name in names:  # signed in as loud, another player's page is the public one
            if name != "loud":
                assert MARKER not in fetch(f"/{player_path(name)}", session)
        assert MARKER not in fetch(f"/{player_path('loud')}", "td_league=wrong-token")
    finally:
        web.close()


def test_a_client_that_stops_reading_is_cut_off(league, monkeypatch) -> None:
    """An answer the client does not read fills the socket's buffers; after STALLED_S the server drops it."""
    from runner.league.store import connect
    from runner.league.web import server as web_server

    web, folder, subs, tokens = league
    monkeypatch.setattr(web_server, "STALLED_S", 1.0)
    (folder / "matches" / "000001").mkdir(parents=True)
    db = connect(folder)
    db.execute("INSERT INTO matches (id, task, seed, finished, end_reason, rounds, draw, wall_seconds, cpu_seconds, "
               "log) VALUES (1, 1, 1, 1.8e9, 'max_rounds', 4, 1, 1.0, 0.01, 'matches/000001')")
    db.close()
    (folder / "replays").mkdir()
    size = 64 * MB  # more than loopback's socket buffers hold
    (folder / "replays" / "1.html.gz").write_bytes(os.urandom(size))
    sock = socket.create_connection(address(web), timeout=10)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
    sock.sendall(b"GET /matches/1/replay.html HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
    time.sleep(4)  # reading nothing
    received = 0
    try:
        received = len(answer(sock, timeout=10))
    except OSError:  # reset: the server aborted the connection
        pass
    sock.close()
    assert received < size
    assert post(web, make_zip(GOOD), tokens["ann"])[0] == 200  # the server goes on
