"""The league's web server over real HTTP: every route answers, unknown paths are 404, standings.json is the
league's standings_json, a replay is sent as the league stored it (compressed to browsers that take gzip)
and never built on a request, pages are rendered once per change (in the background for pages asked for
lately) and answer 304 to their ETag, a client
trickling its headers is cut off, errors are one-line 500s without a path that leave the server serving."""

from __future__ import annotations

import gzip
import http.client
import json
import socket
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from runner.errors import UserError
from runner.league.standings import standings_json
from runner.league.store import connect
from runner.league.web import app as app_module
from runner.league.web.pages import player_path
from runner.league.web.server import start_server
from runner.replay.html import write_html_replay

from webdata import ALICE, BROKEN, GONE, SCRIPT, TOM, check_page, make_league, played_log


@pytest.fixture
def served(tmp_path: Path):
    folder = make_league(tmp_path / "league", played_log(tmp_path / "scratch"))
    server = start_server(folder, "127.0.0.1", 0)
    yield folder, server
    server.close()


def get(server, path: str) -> tuple[int, str, bytes]:
    """Status, content type and body of GET `path` (sent as given: no client-side normalising)."""
    address = urlsplit(server.url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type"), response.read()
    finally:
        connection.close()


def test_every_route_answers_and_unknown_paths_are_404(served) -> None:
    folder, server = served
    assert server.url.startswith("http://127.0.0.1:")
    pages = ["/", "/index.html", "/matches.html", "/crosstable.html", "/events.html",
             *("/" + player_path(name) for name in (ALICE, TOM, SCRIPT, BROKEN, GONE))]
    for path in pages:
        status, kind, body = get(server, path)
        assert (status, kind) == (200, "text/html; charset=utf-8"), path
        check_page(body.decode(), live=True)
    for path in ("/standings.json", "/state.json"):
        assert get(server, path)[:2] == (200, "application/json")
    for path in ("/nope", "/players/nobody.html", "/matches/99/replay.html", "/matches/1/../../league.sqlite",
                 "/../league.sqlite", "/league.sqlite", "/matches/000001/match.json", "/replays/1.html",
                 "/matches/-1/replay.html"):
        assert get(server, path)[0] == 404, path


def test_standings_json_is_the_leagues(served) -> None:
    folder, server = served
    db = connect(folder, readonly=True)
    try:
        assert json.loads(get(server, "/standings.json")[2]) == standings_json(db)
    finally:
        db.close()


def test_state_changes_when_a_match_finishes(served) -> None:
    """state.json at once; a page asked for lately within RENDER_EVERY_S (rendered again in the background)."""
    folder, server = served
    before = json.loads(get(server, "/state.json")[2])
    assert before["matches"] == 7
    assert 'data-state="' + before["key"] + '"' in get(server, "/index.html")[2].decode()
    db = connect(folder)  # the league's writer, beside the server's readers
    db.execute("INSERT INTO matches (id, task, seed, finished, end_reason, rounds, draw, wall_seconds, cpu_seconds) "
               "VALUES (8, 8, 8, 1.8e9, 'max_rounds', 4, 1, 1.0, 0.01)")
    db.close()
    changed = time.monotonic()
    after = json.loads(get(server, "/state.json")[2])
    assert after["matches"] == 8 and after["key"] != before["key"]
    while 'data-state="' + after["key"] + '"' not in get(server, "/index.html")[2].decode():
        assert time.monotonic() - changed < app_module.RENDER_EVERY_S + 2
        time.sleep(0.1)


def store_replay(folder: Path, match: int, tmp_path: Path) -> bytes:
    """The replay the league's worker writes for `match`: DIR/replays/<id>.html.gz; the page's bytes."""
    page, _ = write_html_replay(folder / "matches" / f"{match:06d}", tmp_path / f"expected-{match}.html")
    (folder / "replays").mkdir(exist_ok=True)
    (folder / "replays" / f"{match}.html.gz").write_bytes(gzip.compress(page.read_bytes()))
    return page.read_bytes()


def test_a_replay_is_never_built_on_a_request_and_is_sent_compressed(served, tmp_path: Path) -> None:
    folder, server = served
    status, kind, body = get(server, "/matches/3/replay.html")
    assert status == 503 and b"being built" in body  # not built here: the league's worker writes it
    assert not (folder / "replays").exists()
    expected = store_replay(folder, 3, tmp_path)
    address = urlsplit(server.url)
    for accept, encoded in (("gzip, deflate, br", True), ("identity", False)):
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
        connection.request("GET", "/matches/3/replay.html", headers={"Accept-Encoding": accept})
        response = connection.getresponse()
        data = response.read()
        connection.close()
        assert response.status == 200 and response.getheader("Content-Type") == "text/html; charset=utf-8"
        assert (response.getheader("Content-Encoding") == "gzip") is encoded
        assert (gzip.decompress(data) if encoded else data) == expected
        assert int(response.getheader("Content-Length")) == len(data)


def test_an_error_is_a_one_line_500_without_a_path_and_the_server_goes_on(served) -> None:
    folder, server = served
    (folder / "replays").mkdir()
    (folder / "replays" / "2.html.gz").write_bytes(b"not gzip at all")  # a broken file, sent to a client without gzip
    status, kind, body = get(server, "/matches/2/replay.html")
    assert status == 500 and kind.startswith("text/plain") and body.count(b"\n") == 1
    assert str(folder).encode() not in body and b"/" not in body
    assert get(server, "/index.html")[0] == 200


def test_pages_are_rendered_once_per_change_with_etag_and_304(served, monkeypatch) -> None:
    folder, server = served
    monkeypatch.setattr(app_module, "RENDER_EVERY_S", 0.3)
    monkeypatch.setattr(app_module, "STALE_MAX_S", 60.0)  # no request waits: the change is rendered in the background
    address = urlsplit(server.url)

    def fetch(path: str, etag: str | None = None):
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
        connection.request("GET", path, headers={"If-None-Match": etag} if etag else {})
        response = connection.getresponse()
        body = response.read()
        connection.close()
        return response.status, response.getheader("ETag"), response.getheader("Cache-Control"), body

    status, etag, cache, body = fetch("/crosstable.html")
    assert status == 200 and etag and cache == "public, max-age=2"
    assert fetch("/crosstable.html", etag)[:2] == (304, etag)
    app = server.app
    rendered = app._cached["crosstable.html"]
    assert fetch("/crosstable.html")[3] == body and app._cached["crosstable.html"] is rendered  # from memory
    db = connect(folder)
    db.execute("INSERT INTO matches (id, task, seed, finished, end_reason, rounds, draw, wall_seconds, cpu_seconds) "
               "VALUES (8, 8, 8, 1.8e9, 'max_rounds', 4, 1, 1.0, 0.01)")
    db.close()
    deadline = time.monotonic() + 10
    while app._cached["crosstable.html"] is rendered and time.monotonic() < deadline:
        time.sleep(0.05)  # a page asked for lately is rendered again once the league changed
    assert app._cached["crosstable.html"].key.startswith("8-")
    status, new_etag, _, new_body = fetch("/crosstable.html", etag)
    assert status == 200 and new_etag != etag and b"8 matches" in new_body  # the change is seen


@pytest.mark.parametrize(("parser", "loop"), [("httptools", "uvloop"), ("h11", "asyncio")])
def test_a_client_trickling_its_headers_is_cut_off(served, monkeypatch, parser, loop) -> None:
    """With the compiled parser and loop, and with the pure-Python ones they replace when missing: uvicorn alone
    would keep the connection while each byte restarts its timer."""
    from runner.league.web import server as web_server

    if parser == "httptools":
        pytest.importorskip("httptools")
        pytest.importorskip("uvloop")
    folder, server = served
    server.close()
    assert web_server.HEADERS_S == 10.0
    server = start_server(folder, "127.0.0.1", 0, parser=parser, loop=loop)
    try:
        monkeypatch.setattr(web_server, "HEADERS_S", 1.0)  # read when a connection opens and after each answer
        trickle(server, answered_first=False)
        trickle(server, answered_first=True)
        keep_alive = get_twice(server)
        assert keep_alive  # the first answer re-armed the deadline, and a prompt second request is served
    finally:
        server.close()


def get_twice(server) -> bool:
    """Two requests over one kept-alive connection, the second 0.5 s after the first's answer: both answered."""
    address = urlsplit(server.url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=10)
    try:
        statuses = []
        for _ in range(2):
            connection.request("GET", "/state.json")
            response = connection.getresponse()
            response.read()
            statuses.append(response.status)
            time.sleep(0.5)
        return statuses == [200, 200]
    finally:
        connection.close()


def trickle(server, answered_first: bool) -> None:
    """A client sending its headers a byte every 50 ms is cut off HEADERS_S (1 s here) after it connected, or
    (`answered_first`) after the answer to a first request on the same connection."""
    address = urlsplit(server.url)
    slow = socket.create_connection((address.hostname, address.port), timeout=10)
    if answered_first:
        slow.sendall(b"GET /state.json HTTP/1.1\r\nHost: x\r\n\r\n")
        answer = b""
        while b"}" not in answer:
            answer += slow.recv(4096)
        assert answer.startswith(b"HTTP/1.1 200")
    started = time.monotonic()
    closed_after = None
    try:
        for byte in b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100:
            slow.sendall(bytes([byte]))  # every byte would restart uvicorn's own keep-alive timer
            time.sleep(0.05)
            if time.monotonic() - started > 4:
                break
    except OSError:
        closed_after = time.monotonic() - started
    if closed_after is None:
        slow.settimeout(5)
        try:
            assert slow.recv(100) == b""
        except OSError:
            pass
        closed_after = time.monotonic() - started
    slow.close()
    assert 0.9 <= closed_after < 4.5
    assert get(server, "/index.html")[0] == 200  # others are served meanwhile and after


def test_not_a_league_and_a_taken_port_are_one_line_errors(tmp_path: Path, served) -> None:
    with pytest.raises(UserError, match="is not a league folder"):
        start_server(tmp_path / "empty", "127.0.0.1", 0)
    folder, server = served
    port = urlsplit(server.url).port
    with pytest.raises(UserError, match=f"cannot serve the league's pages on 127.0.0.1:{port}"):
        start_server(folder, "127.0.0.1", port)


def test_readers_do_not_block_the_writer(served, monkeypatch) -> None:
    """A page read while the league holds a write transaction still answers (WAL), and the write commits."""
    folder, server = served
    monkeypatch.setattr(app_module, "STALE_MAX_S", 0.3)  # the background is slower than that: a request renders
    monkeypatch.setattr(app_module, "WARM_EVERY_S", 60.0)
    monkeypatch.setattr(app_module, "HOT_S", 0.0)
    writer = connect(folder)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("INSERT INTO events (time, kind, player, text) VALUES (1.9e9, 'note', NULL, 'during a read')")
    assert get(server, "/events.html")[0] == 200
    writer.execute("COMMIT")
    writer.close()
    time.sleep(app_module.STALE_MAX_S + 2 * app_module.POLL_S)  # a page older than this is rendered for its request
    assert "during a read" in get(server, "/events.html")[2].decode()


def test_every_page_is_rendered_at_the_start_before_anyone_asks(served) -> None:
    folder, server = served
    expected = {"index.html", "matches.html", "crosstable.html", "events.html", "standings.json",
                *(player_path(name) for name in (ALICE, TOM, SCRIPT, BROKEN, GONE))}
    deadline = time.monotonic() + 10
    while set(server.app._cached) != expected:
        assert time.monotonic() < deadline, sorted(server.app._cached)
        time.sleep(0.05)
    rendered = dict(server.app._cached)
    assert get(server, "/crosstable.html")[0] == 200
    assert server.app._cached == rendered  # answered from memory


def test_a_stream_tells_its_first_change_at_once_then_only_comments(served, monkeypatch) -> None:
    """A live page reloads on the first key that is not its own and opens a new stream: later changes are not
    sent on the old one (300 tabs would be told of every match for nothing), its heartbeats are."""
    folder, server = served
    monkeypatch.setattr(app_module, "HEARTBEAT_S", 0.5)  # read by the state reader when it starts
    server.close()
    server = start_server(folder, "127.0.0.1", 0)
    try:
        address = urlsplit(server.url)
        sock = socket.create_connection((address.hostname, address.port), timeout=10)
        sock.sendall(b"GET /updates HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
        seen = b""
        while b"data: " not in seen:
            seen += sock.recv(4096)
        opened = seen.split(b"data: ", 1)[1].split(b"\n", 1)[0].decode()
        keys = []
        for match in (8, 9):
            db = connect(folder)
            db.execute("INSERT INTO matches (id, task, seed, finished, end_reason, rounds, draw, wall_seconds, "
                       "cpu_seconds) VALUES (?, ?, ?, 1.8e9, 'max_rounds', 4, 1, 1.0, 0.01)", (match, match, match))
            db.close()
            changed, more, told_after = time.monotonic(), b"", None
            while time.monotonic() - changed < 1.5:  # the stream's next 1.5 s: a key (the first time), comments
                more += sock.recv(4096)
                if told_after is None and b"data: " in more:
                    told_after = time.monotonic() - changed
            assert told_after is None or told_after < 4 * app_module.POLL_S  # at the state reader's next look
            keys.append([line[6:].decode() for line in more.split(b"\n") if line.startswith(b"data: ")])
            assert b": idle" in more
        sock.close()
        assert keys == [[f"8-{opened.split('-')[1]}"], []]
    finally:
        server.close()
