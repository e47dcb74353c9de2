"""The site's routes: one table from a path to the page it shows, used by the live server (server.py) and
by the static export (export.py), so both have the same pages at the same relative paths.

Paths are relative to the site's top, as in the links, and a static copy keeps each page at its path (a
player's name is spelled safely for both by `pages.slug`). Match ids in replay paths are integers: nothing
outside the league folder can be named.

A replay is never built here: the worker that played the match writes `DIR/replays/<id>.html.gz` (or a
background builder does, for older leagues); until it is there the route answers that it is being built.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs

from runner.league.web import pages
from runner.league.web.model import Info, Source
from runner.league.web.replays import cached_replay

#: How many matches the matches page lists, and events the events page.
RECENT_MATCHES, RECENT_EVENTS = 200, 500

HTML, JSON = "text/html; charset=utf-8", "application/json"


@attrs.frozen
class Response:
    status: int
    content_type: str
    body: bytes
    encoding: str | None = None  # 'gzip': `body` is compressed (Content-Encoding)


def _html(text: str, status: int = 200) -> Response:
    return Response(status, HTML, text.encode("utf-8"))


def _json(data: Any) -> Response:
    return Response(200, JSON, (json.dumps(data, indent=2) + "\n").encode("utf-8"))


def _state(info: Info) -> dict[str, Any]:
    """What a live page polls: `key` changes when a match finishes or an event is recorded."""
    return {"key": info.state, "matches": info.matches}


#: Fixed pages: path -> (source, live) -> response.
PAGES: dict[str, Callable[[Source, bool], Response]] = {
    "index.html": lambda source, live: _html(pages.standings_page(
        source.info(), source.standings(), live=live, ranks=getattr(source, "ranks", lambda: None)())),
    "matches.html": lambda source, live: _html(
        pages.matches_page(source.info(), source.recent_matches(RECENT_MATCHES), live=live)),
    "crosstable.html": lambda source, live: _html(
        pages.crosstable_page(source.info(), source.crosstable(), live=live)),
    "events.html": lambda source, live: _html(pages.events_page(source.info(), source.events(RECENT_EVENTS),
                                                                 live=live)),
    "standings.json": lambda source, live: _json(source.standings_json()),
    "state.json": lambda source, live: _json(_state(source.info())),
}
ALIASES = {"": "index.html"}

PLAYER = re.compile(r"players/([^/]+)\.html")  # the name's slug (pages.slug)
REPLAY = re.compile(r"matches/([0-9]{1,18})/replay\.html")


#: A viewer who may read every player's private parts (their bots' output): the league's organiser.
ORGANISER = "\0organiser"  # no player's name: names come from folder names, which hold no NUL


class Site:
    """The pages of one source. `cache`: where the replays are kept (None: no replay route). `viewer`: the
    player signed in (or ORGANISER; None: nobody), who alone sees their bots' output on their page."""

    def __init__(self, source: Source, *, live: bool, cache: Path | None, viewer: str | None = None) -> None:
        self.source, self.live, self.cache, self.viewer = source, live, cache, viewer

    def get(self, path: str) -> Response:
        """The response for a URL path (without the leading '/'); 404 for anything unknown."""
        path = ALIASES.get(path, path)
        page = PAGES.get(path)
        if page is not None and (path != "events.html" or self.source.info().has_events):
            return page(self.source, self.live)
        if match := PLAYER.fullmatch(path):
            name = pages.unslug(match.group(1))
            player = None if name is None else self.source.player(name)
            if player is not None:
                private = self.viewer in (name, ORGANISER)
                shown = None if self.viewer is None else "the organiser" if self.viewer == ORGANISER else self.viewer
                return _html(pages.player_page(self.source.info(), player, live=self.live, private=private,
                                               viewer=name if self.viewer == ORGANISER else shown))
            return self.not_found(path)
        if (match := REPLAY.fullmatch(path)) and self.cache is not None:
            response = self.replay(int(match.group(1)), gzip_ok=False)
            if response is not None:
                return response
        return self.not_found(path)

    def replay(self, match: int, *, gzip_ok: bool) -> Response | None:
        """A match's replay page as stored (compressed when `gzip_ok`), a page saying it is being built, or
        None (no such match, or it has no log)."""
        if self.cache is None or self.source.match_log(match) is None:
            return None
        found = cached_replay(self.cache, match)
        if found is None:
            text = f"The replay of match {match} is being built; this page reloads until it is there."
            return Response(503, HTML, pages.message_page(self.source.info(), "Replay being built", text,
                                                          root="../../", refresh_s=5).encode())
        data = found.read_bytes()
        if found.suffix != ".gz":
            return Response(200, HTML, data)
        return Response(200, HTML, data, "gzip") if gzip_ok else Response(200, HTML, gzip.decompress(data))

    def not_found(self, path: str) -> Response:
        root = "../" * path.count("/")
        return _html(pages.not_found_page(self.source.info(), f"no page {path}", root=root), status=404)

    def page_paths(self) -> Iterator[str]:
        """Every page's path but the replays' and state.json (a static copy has no state to poll)."""
        yield from (path for path in PAGES if path != "state.json"
                    and (path != "events.html" or self.source.info().has_events))
        yield from (pages.player_path(name) for name in self.source.player_names())
