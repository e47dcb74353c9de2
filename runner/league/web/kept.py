"""Answers kept in memory by the league's web server (app.py), so that a request for a page or a replay is a
dict look-up and one write, not a render, a database read or a file read.

A page is kept as rendered for one state of the league, with its gzip form (compressed once, by the thread that
rendered it, not per request: most of a page's cost on a busy server is sending its bytes) and the response
headers of both forms made ready. Replays never change once the league wrote them, so the stored gzip bytes
are kept as read, up to REPLAY_BYTES in all (the least recently asked-for are dropped first)."""

from __future__ import annotations

import gzip
import hashlib
from collections import OrderedDict

import attrs

from runner.league.web.site import Response

#: Pages smaller than this are sent as they are (gzip would save a few hundred bytes at most).
GZIP_FROM = 1024
#: The replays kept in memory, in compressed bytes (a long Invaders match's replay is under 2 MB).
REPLAY_BYTES = 64 * 1024 * 1024
PUBLIC = "public, max-age=2"

Headers = list[tuple[bytes, bytes]]


def _raw(pairs: list[tuple[str, str]]) -> Headers:
    return [(name.encode("latin-1"), value.encode("latin-1")) for name, value in pairs]


@attrs.frozen
class Kept:
    """A page rendered for one state of the league: its bytes, their gzip form, and the headers of each."""

    key: str  # the league's state key the page was rendered from
    at: float  # time.monotonic() when its render began
    response: Response
    etag: str
    gzipped: bytes | None
    plain_headers: Headers
    gzip_headers: Headers
    not_modified_headers: Headers

    def answer(self, if_none_match: str | None, gzip_ok: bool) -> tuple[int, Headers, bytes]:
        """Status, headers and body for a request with these headers (304 when the browser has this page)."""
        if if_none_match is not None and self.etag in if_none_match:
            return 304, self.not_modified_headers, b""
        if gzip_ok and self.gzipped is not None:
            return 200, self.gzip_headers, self.gzipped
        return 200, self.plain_headers, self.response.body


def keep(key: str, at: float, response: Response, vary_cookie: bool) -> Kept:
    """The Kept form of a rendered 200 page (run on the rendering thread: it hashes and compresses)."""
    body = response.body
    etag = f'"{hashlib.sha1(body).hexdigest()[:20]}"'
    gzipped = gzip.compress(body, 6, mtime=0) if len(body) >= GZIP_FROM else None
    vary = "Accept-Encoding, Cookie" if vary_cookie else "Accept-Encoding"
    common = [("etag", etag), ("cache-control", PUBLIC), ("vary", vary), ("x-content-type-options", "nosniff")]
    plain = _raw([*common, ("content-type", response.content_type), ("content-length", str(len(body)))])
    packed = plain if gzipped is None else _raw([*common, ("content-type", response.content_type),
                                                 ("content-encoding", "gzip"),
                                                 ("content-length", str(len(gzipped)))])
    return Kept(key, at, response, etag, gzipped, plain, packed, _raw(common))


class ReplayCache:
    """Replays' stored (gzip) bytes by match id, least recently used dropped past `limit` bytes."""

    def __init__(self, limit: int = REPLAY_BYTES) -> None:
        self.limit = limit
        self.size = 0
        self._kept: OrderedDict[int, bytes] = OrderedDict()

    def get(self, match: int) -> bytes | None:
        data = self._kept.get(match)
        if data is not None:
            self._kept.move_to_end(match)
        return data

    def put(self, match: int, data: bytes) -> None:
        if len(data) > self.limit or match in self._kept:
            return
        self._kept[match] = data
        self.size += len(data)
        while self.size > self.limit:
            _, dropped = self._kept.popitem(last=False)
            self.size -= len(dropped)
