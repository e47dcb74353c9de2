"""The league's web server over real HTTP: every route answers, unknown paths are 404, standings.json is the
league's standings_json, a replay is built on first demand exactly as `replay --html` makes it and then read
from its cache, errors are one-line 500s that leave the server serving."""

from __future__ import annotations

import http.client
import json
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from runner.errors import UserError
from runner.league.standings import standings_json
from runner.league.store import connect
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
    folder, server = served
    before = json.loads(get(server, "/state.json")[2])
    assert before["matches"] == 7
    db = connect(folder)  # the league's writer, beside the server's readers
    db.execute("INSERT INTO matches (id, task, seed, finished, end_reason, rounds, draw, wall_seconds, cpu_seconds) "
               "VALUES (8, 8, 8, 1.8e9, 'max_rounds', 4, 1, 1.0, 0.01)")
    db.close()
    after = json.loads(get(server, "/state.json")[2])
    assert after["matches"] == 8 and after["key"] != before["key"]
    assert 'data-state="' + after["key"] + '"' in get(server, "/index.html")[2].decode()


def test_replay_is_built_once_then_cached(served, tmp_path: Path) -> None:
    folder, server = served
    cached = folder / "replays" / "3.html"
    assert not cached.exists()
    status, kind, body = get(server, "/matches/3/replay.html")
    assert (status, kind) == (200, "text/html; charset=utf-8")
    expected, _ = write_html_replay(folder / "matches" / "000003", tmp_path / "expected.html")
    assert body == expected.read_bytes() == cached.read_bytes()
    stamp = cached.stat().st_mtime_ns
    cached.write_bytes(b"the cached page")  # served from the cache from now on: not built again
    assert get(server, "/matches/3/replay.html")[2] == b"the cached page"
    assert cached.stat().st_mtime_ns != stamp and sorted(p.name for p in cached.parent.iterdir()) == ["3.html"]


def test_an_error_is_a_one_line_500_and_the_server_goes_on(served) -> None:
    folder, server = served
    shutil.rmtree(folder / "matches" / "000002")
    status, kind, body = get(server, "/matches/2/replay.html")
    assert status == 500 and kind.startswith("text/plain") and body.count(b"\n") == 1
    assert b"000002" in body
    assert get(server, "/index.html")[0] == 200


def test_not_a_league_and_a_taken_port_are_one_line_errors(tmp_path: Path, served) -> None:
    with pytest.raises(UserError, match="is not a league folder"):
        start_server(tmp_path / "empty", "127.0.0.1", 0)
    folder, server = served
    port = urlsplit(server.url).port
    with pytest.raises(UserError, match=f"cannot serve the league's pages on 127.0.0.1:{port}"):
        start_server(folder, "127.0.0.1", port)


def test_readers_do_not_block_the_writer(served) -> None:
    """A page read while the league holds a write transaction still answers (WAL), and the write commits."""
    folder, server = served
    writer = connect(folder)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("INSERT INTO events (time, kind, player, text) VALUES (1.9e9, 'note', NULL, 'during a read')")
    assert get(server, "/events.html")[0] == 200
    writer.execute("COMMIT")
    writer.close()
    assert "during a read" in get(server, "/events.html")[2].decode()
