"""The league's web app: a small ASGI application (served by uvicorn, see server.py) over the routes of site.py.

Work is done once, not per request (kept.py): every page is rendered in the background when the server starts,
one at a time, and kept in memory with its gzip form and an ETag (304 when the browser has it; `Cache-Control:
public, max-age=2`, which a reverse proxy may honour). While the league changes (the state key: the newest
match's and event's ids), a kept page is rendered again in the background, one page at a time: at most every
RENDER_EVERY_S when it was asked for within HOT_S, every WARM_EVERY_S otherwise. So a request, a tab's first
load or reload included, is a dict look-up and never waits for a render: a page is rendered for a request only
when none is kept (a player who appeared since) or when the background fell STALE_MAX_S behind on a starved CPU.
What a request gets may be a few seconds behind the league; a live page is told so by its stream's first
message and reloads itself (pages.RELOAD_MS), by when its background render is done.
Live pages hear of changes through one server-sent-events stream per page load (`/updates`), fed by one task
that reads the state key every POLL_S: a stream sends the key when it opens and then the first change only, at
once (the page reloads on it and opens a new stream; a tab reloads at most every few seconds whatever the
stream says, so further changes would be bytes for nothing), then a comment every HEARTBEAT_S; an idle tab
costs an open socket.
Replays are files the league wrote (`DIR/replays/<id>.html.gz`), kept in memory once read and sent
compressed to browsers that take gzip.

The database is only read (a read-only connection per thread). Uploads are checked from their headers before
their body is read (runner/league/submit_route.py), then streamed into a temporary file against the cap; what
the league must record (an upload taken or refused) is left in its inbox (runner/league/inbox.py). No answer
names a path of the server: an unexpected error is one generic line here and a traceback on the server's
terminal.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import gzip
import logging
import sqlite3
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from runner.league import submit_route as rules
from runner.league.inbox import pending, post_event
from runner.league.players import player_of_token
from runner.league.settings import LeagueSettings, stored_settings
from runner.league.store import connect
from runner.league.web.kept import Kept, ReplayCache, keep
from runner.league.web.ledger import Ledger
from runner.league.web.league_data import LeagueSource, state_key
from runner.league.web.replays import CACHE
from runner.league.web.site import ALIASES, HTML, ORGANISER, PAGES, PLAYER, REPLAY, Response, Site

log = logging.getLogger("runner.league.web")

TEXT = "text/plain; charset=utf-8"
#: How often the one state reader looks for a change (one read of two indexed maxima, far cheaper than one
#: page request; a change is told to the streams waiting for one at that read), and how often a stream sends
#: a comment (so proxies and browsers keep it open, and a dead peer is found).
POLL_S, HEARTBEAT_S = 0.1, 20.0
#: While the league changes, a kept page asked for within HOT_S is rendered again in the background at most
#: every RENDER_EVERY_S (pages.RELOAD_MS is 5 s: a tab told of a change reloads once its page is at least that
#: old, by when the background has rendered it again), any other kept page every WARM_EVERY_S (so a first
#: visitor after a quiet spell is not shown a page older than that, nor made to wait for a render). A request
#: renders its page itself only when none is kept, or when the kept one is STALE_MAX_S old with the league
#: changed since (the background renders fell that far behind).
HOT_S, RENDER_EVERY_S, WARM_EVERY_S, STALE_MAX_S = 10.0, 3.0, 30.0, 60.0
#: An upload's body: each chunk must come within BODY_CHUNK_S, the whole body within BODY_TOTAL_S.
BODY_CHUNK_S, BODY_TOTAL_S = 30.0, 300.0
#: A sign-in form's body is small.
LOGIN_CAP = 8 * 1024
#: Unpacking uploads at once (each is a child process: runner/league/upload.py).
UPLOADS_AT_ONCE = 2
PRIVATE = "private, no-store"
INTERNAL = b"internal error: the league's web server could not answer this (its terminal says why)\n"

Send = Callable[[dict[str, Any]], Awaitable[None]]
Receive = Callable[[], Awaitable[dict[str, Any]]]


class BodyProblem(Exception):
    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status


class LeagueApp:
    """The ASGI app of one league folder (see the module docstring)."""

    def __init__(self, folder: Path, trusted_proxies: frozenset[str] = frozenset()) -> None:
        self.folder = Path(folder)
        self.trusted_proxies = trusted_proxies
        self.ledger = Ledger()
        self.throttle = rules.Throttle()
        self.rate: rules.UploadRate | None = None
        self.key = ""  # the league's state as last read
        self.stopping = False
        # done when the league changes (the streams not yet told of a change send it), and at each heartbeat
        self._changed: asyncio.Future | None = None
        self._beat: asyncio.Future | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._poller: asyncio.Task | None = None
        self._refresher_task: asyncio.Task | None = None
        self._cached: dict[str, Kept] = {}
        self._hot: dict[str, float] = {}  # a kept page's path -> when it was last asked for
        self._to_warm: list[str] | None = None  # the pages to render at the start (None: not listed yet)
        self._rendering: dict[str, asyncio.Future] = {}
        self._replays = ReplayCache()
        self._threads = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="league-pages")
        # the background renders on a thread of their own: a request never queues behind them
        self._refresher = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="league-refresh")
        self._local = threading.local()
        self._uploads: asyncio.Semaphore | None = None
        self._settings: LeagueSettings | None = None

    # --- plumbing ------------------------------------------------------------------------------------------

    def db(self) -> sqlite3.Connection:
        """This thread's read-only connection (autocommit: each statement sees the newest commit)."""
        db = getattr(self._local, "db", None)
        if db is None:
            db = connect(self.folder, readonly=True)
            db.isolation_level = None
            self._local.db = db
        return db

    def close(self) -> None:
        """Stop the streams (from any thread) and the render threads."""
        self.stopping = True
        if self._loop is not None and self._changed is not None:
            try:
                self._loop.call_soon_threadsafe(self._wake_streams, True)
            except RuntimeError:  # the loop has ended already
                pass
        self._threads.shutdown(wait=False, cancel_futures=True)
        self._refresher.shutdown(wait=False, cancel_futures=True)

    def settings(self) -> LeagueSettings | None:
        if self._settings is None:
            self._settings = stored_settings(self.folder)
        return self._settings

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":  # the server starting: the pages are rendered before anyone asks
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        if self._poller is None:  # a server without lifespan events: started by the first request
            self._start()
        try:
            await self._route(scope, receive, send)
        except Exception:  # noqa: BLE001 (one request's failure must not reach the league or other pages)
            log.exception("league web: %s %s failed", scope.get("method"), scope.get("path"))
            await respond(send, 500, TEXT, INTERNAL, close=True)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        """uvicorn's start and stop: the state reader and the background renders start with the server, so
        the pages are kept before the first visitor (a class opening its tabs at once) asks."""
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                if self._poller is None:
                    self._start()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return

    def _start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._changed, self._beat = self._loop.create_future(), self._loop.create_future()
        self._uploads = asyncio.Semaphore(UPLOADS_AT_ONCE)
        self.key = state_key(self.db())
        self._poller = self._loop.create_task(self._poll())
        self._refresher_task = self._loop.create_task(self._refresh())

    async def _poll(self) -> None:
        """The one reader of the state key: wakes the live tabs' streams on a change (at this read, not
        later: each stream sends one change only, so there is nothing to save by gathering them), and every
        HEARTBEAT_S for a comment; `key` is what the background renders (_refresh) and the requests compare
        their kept pages with."""
        beat_at = time.monotonic() + HEARTBEAT_S
        while not self.stopping:
            await asyncio.sleep(POLL_S)
            try:
                key = state_key(self.db())
            except sqlite3.Error:
                continue  # the database busy or replaced for a moment: the next look will do
            if key != self.key:
                self.key = key
                self._wake_streams(False)
            if time.monotonic() >= beat_at:
                beat_at = time.monotonic() + HEARTBEAT_S
                self._wake_streams(True)

    def _wake_streams(self, beat: bool) -> None:
        """Wake the streams waiting for a change (`beat`: every stream, for a comment, or to end)."""
        assert self._loop is not None and self._changed is not None and self._beat is not None
        woken = [self._changed]
        self._changed = self._loop.create_future()
        if beat:
            woken.append(self._beat)
            self._beat = self._loop.create_future()
        for future in woken:
            if not future.done():
                future.set_result(None)

    async def _refresh(self) -> None:
        """Render, in the background and one at a time, every page at the start, then each kept page the
        league changed since, when it is due (_due); a request for the page being rendered waits for that
        render alone, one for another page has a thread of its own (`_threads`)."""
        while not self.stopping:
            try:
                if self._to_warm is None:
                    self._to_warm = await asyncio.get_running_loop().run_in_executor(self._refresher, self._paths)
                path = self._due(time.monotonic())
                if path is None:
                    await asyncio.sleep(POLL_S)
                    continue
                await self._render_once(path, self._refresher)
            except Exception:  # noqa: BLE001 (the next request renders it, and answers its own error)
                if self.stopping:
                    break
                log.exception("league web: rendering in the background failed")
                self._to_warm = self._to_warm or []
                await asyncio.sleep(POLL_S)

    def _paths(self) -> list[str]:
        """Every kept page's path: the fixed pages and each player's."""
        source = LeagueSource(self.folder, self.db(), self.ledger)
        return ["standings.json", *Site(source, live=True, cache=None).page_paths()]

    def _due(self, now: float) -> str | None:
        """The page to render next in the background: one of the start's not rendered yet; else, of the kept
        pages the league changed since, the one rendered longest ago that was asked for within HOT_S and is
        RENDER_EVERY_S old; else the one rendered longest ago that is WARM_EVERY_S old."""
        while self._to_warm:
            path = self._to_warm.pop(0)
            if path not in self._cached and path not in self._rendering:
                return path
        hot = warm = None
        for path, kept in self._cached.items():
            if kept.key == self.key or path in self._rendering:
                continue
            if now - self._hot.get(path, -HOT_S - 1) <= HOT_S:
                if now - kept.at >= RENDER_EVERY_S and (hot is None or kept.at < self._cached[hot].at):
                    hot = path
            elif now - kept.at >= WARM_EVERY_S and (warm is None or kept.at < self._cached[warm].at):
                warm = path
        return hot or warm

    async def _route(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        path = scope.get("raw_path", b"").decode("latin-1").split("?", 1)[0].lstrip("/")
        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
        method = scope["method"]
        if method == "POST":
            handler = {"submit": self._submit, "login": self._login, "logout": self._logout}.get(path)
            if handler is None:
                await respond(send, 404, TEXT, b"not found\n", close=True)
            else:
                await handler(scope, headers, receive, send)
            return
        if method not in ("GET", "HEAD"):
            await respond(send, 405, TEXT, b"only GET, HEAD and POST are answered here\n", close=True,
                          headers=[("allow", "GET, HEAD, POST")])
            return
        if path == "updates":
            await self._updates(receive, send)
        elif path == "state.json":
            key = state_key(self.db())
            body = f'{{"key": "{key}", "matches": {int(key.split("-")[0])}}}\n'.encode()
            await respond(send, 200, "application/json", body, headers=[("cache-control", "no-cache")])
        elif match := REPLAY.fullmatch(path):
            await self._replay(int(match.group(1)), headers, send)
        else:
            await self._page(path, headers, send)

    # --- pages -----------------------------------------------------------------------------------------------

    async def _page(self, path: str, headers: dict[str, str], send: Send) -> None:
        viewer = None
        if PLAYER.fullmatch(path):
            token = rules.cookie_token(headers.get("cookie", ""))
            viewer = self._viewer(token) if token else None
        if viewer is not None:  # a signed-in player's own view: rendered for them, kept by nobody
            _, response = await self._run(self._render, path, viewer)
            await respond(send, response.status, response.content_type, response.body,
                          headers=[("cache-control", PRIVATE)])
            return
        path = ALIASES.get(path, path)
        now = time.monotonic()
        kept = self._cached.get(path)
        if kept is None or (kept.key != self.key and now - kept.at >= STALE_MAX_S):
            kept = await self._render_once(path, self._threads)
        if isinstance(kept, Response):  # not a page that is kept (a 404)
            await respond(send, kept.status, kept.content_type, kept.body, headers=[("cache-control", "no-cache")])
            return
        self._hot[path] = now
        status, raw, body = kept.answer(headers.get("if-none-match"),
                                        "gzip" in headers.get("accept-encoding", "").lower())
        await send({"type": "http.response.start", "status": status, "headers": raw})
        await send({"type": "http.response.body", "body": body, "more_body": False})

    async def _render_once(self, path: str, threads: concurrent.futures.Executor) -> Kept | Response:
        """The page for the league's current state, rendered on one of `threads` once however many ask at
        once; a page that is not kept (any answer but a 200) is its Response."""
        waiting = self._rendering.get(path)
        if waiting is not None:
            return await asyncio.shield(waiting)
        future = asyncio.get_running_loop().create_future()
        self._rendering[path] = future
        try:
            kept = await asyncio.get_running_loop().run_in_executor(threads, self._render_kept, path)
            if isinstance(kept, Kept):
                self._cached[path] = kept  # a fixed page or a player's (the league's size bounds them)
            future.set_result(kept)
            return kept
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # read here: no "never retrieved" warning when nobody else waited
            raise
        finally:
            del self._rendering[path]

    def _render_kept(self, path: str) -> Kept | Response:
        """A page for everyone, from one snapshot, made ready to keep when it is a page that is kept."""
        began = time.monotonic()
        key, response = self._render(path, None)
        if response.status == 200 and (path in PAGES or PLAYER.fullmatch(path)):
            return keep(key, began, response, vary_cookie=PLAYER.fullmatch(path) is not None)
        return response

    def _render(self, path: str, viewer: str | None) -> tuple[str, Response]:
        """One page from one consistent snapshot of the database (a worker thread), and that snapshot's state."""
        db = self.db()
        db.execute("BEGIN")
        try:
            source = LeagueSource(self.folder, db, self.ledger)
            key = state_key(db)
            return key, Site(source, live=True, cache=self.folder / CACHE, viewer=viewer).get(path)
        finally:
            db.execute("COMMIT")

    async def _run(self, function: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._threads, function, *args)

    def _viewer(self, token: str) -> str | None:
        if rules.is_organiser(token, rules.organiser_token(self.folder)):
            return ORGANISER
        return player_of_token(self.db(), token)

    async def _replay(self, match: int, headers: dict[str, str], send: Send) -> None:
        gzip_ok = "gzip" in headers.get("accept-encoding", "").lower()

        def read() -> Response | None:
            db = self.db()
            source = LeagueSource(self.folder, db, self.ledger)
            return Site(source, live=True, cache=self.folder / CACHE).replay(match, gzip_ok=True)

        data = self._replays.get(match)
        if data is None:
            response = await self._run(read)
            if response is not None and response.status == 200 and response.encoding == "gzip":
                self._replays.put(match, response.body)
                data = response.body
        if data is not None:
            response = (Response(200, HTML, data, "gzip") if gzip_ok
                        else await self._run(lambda: Response(200, HTML, gzip.decompress(data))))
        if response is None:
            _, response = await self._run(self._render, f"matches/{match}/replay.html", None)  # the 404 page
        extra = [("vary", "Accept-Encoding")]
        if response.status == 200:
            extra.append(("cache-control", "public, max-age=3600"))
        else:
            extra += [("cache-control", "no-store"), ("retry-after", "5")]
        if response.encoding:
            extra.append(("content-encoding", response.encoding))
        await respond(send, response.status, response.content_type, response.body, headers=extra)

    async def _updates(self, receive: Receive, send: Send) -> None:
        """A live page's stream: the state key now, the first change after it, and a comment every
        HEARTBEAT_S (the page reloads on a key that is not its own, and opens a new stream)."""
        await receive()  # the request (a GET has no body): the next receive is the peer going away
        gone = asyncio.ensure_future(receive())
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"text/event-stream"), (b"cache-control", b"no-store"),
            (b"x-accel-buffering", b"no")]})
        key = self.key
        await send({"type": "http.response.body", "body": f"retry: 5000\ndata: {key}\n\n".encode(),
                    "more_body": True})
        told = False
        try:
            while not self.stopping and not gone.done():
                assert self._changed is not None and self._beat is not None
                beat = self._beat
                waits = (beat, gone) if told else (self._changed, beat, gone)
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)  # no task made per wait
                if gone.done() or self.stopping:
                    break
                if not told and self.key != key:
                    told = True
                    await send({"type": "http.response.body", "body": f"data: {self.key}\n\n".encode(),
                                "more_body": True})
                elif beat.done():
                    await send({"type": "http.response.body", "body": b": idle\n\n", "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            gone.cancel()

    # --- sign-in and uploads -------------------------------------------------------------------------------

    def client(self, scope: dict[str, Any], headers: dict[str, str]) -> str:
        from runner.league.web.server import client_address

        peer = (scope.get("client") or ("?", 0))[0]
        return client_address(peer, headers.get("x-forwarded-for"), self.trusted_proxies)

    async def _refuse_token(self, token: str | None, address: str, send: Send) -> None:
        """A request without a valid token: counted against its address, answered slowly, connection closed."""
        wait = self.throttle.wait_left(address)
        if wait > 0:
            answer = rules.throttled(wait)
        else:
            self.throttle.failed(address)
            await asyncio.sleep(rules.FAILURE_DELAY_S)
            answer = rules.Answer(401, rules.NO_TOKEN) if token is None else rules.Answer(403, rules.BAD_TOKEN)
        await respond(send, answer.status, TEXT, f"{answer.text}\n".encode(), close=True)

    async def _submit(self, scope: dict[str, Any], headers: dict[str, str], receive: Receive, send: Send) -> None:
        address = self.client(scope, headers)
        token = rules.token_of(headers)
        player = player_of_token(self.db(), token) if token else None
        if player is None:  # decided from the headers: not a byte of the body read
            await self._refuse_token(token, address, send)
            return
        settings = self.settings()
        if settings is None:
            await respond(send, 503, TEXT, b"this league is not running\n", close=True)
            return
        cap = rules.body_cap(settings)
        length = headers.get("content-length")
        if length is not None and not (length.isdigit() and int(length) <= cap):
            await respond(send, 413, TEXT, f"refused: the upload is {length} bytes; this league takes at most "
                                           f"{cap}\n".encode(), close=True)
            return
        per_hour = rules.uploads_per_hour(settings)
        wait = self._rate().take(player, per_hour)
        if wait > 0:
            answer = rules.rate_refusal(player, per_hour, wait)
            await respond(send, answer.status, TEXT, f"{answer.text}\n".encode(), close=True)
            return
        taken = False
        try:
            with tempfile.TemporaryDirectory(prefix="td-league-upload-") as scratch:
                body = Path(scratch) / "body"
                try:
                    size = await read_body(receive, cap, body)
                except BodyProblem as problem:
                    await respond(send, problem.status, TEXT, f"refused: {problem}\n".encode(), close=True)
                    return
                kind = headers.get("content-type", "")
                assert self._uploads is not None
                async with self._uploads:  # a few unpacking children (256 MiB each) at a time
                    archive = body
                    if kind.startswith("multipart/form-data"):
                        archive = Path(scratch) / "bot"
                        size = await asyncio.to_thread(_form_archive, body, kind, archive)
                    if size is None:
                        answer = rules.Answer(400, "refused: the form has no bot archive (field 'bot')")
                    else:
                        answer = await asyncio.to_thread(rules.store_upload, archive, settings, player)
            taken = answer.status == 200
            if taken:
                self._event("submitted", player, f"{player}: a bot was submitted ({size} bytes)")
            else:
                self._event("refused", player, f"{player}: an upload {answer.text}")
            await respond(send, answer.status, TEXT, f"{answer.text}\n".encode(), close=not taken)
        finally:
            if not taken:
                self._rate().give_back(player)

    def _rate(self) -> rules.UploadRate:
        """The per-player upload count, started from the uploads the league (and its inbox) already hold."""
        if self.rate is None:
            since = time.time() - rules.UPLOAD_WINDOW_S
            earlier: dict[str, list[float]] = {}
            for player, when in self.db().execute(
                    "SELECT player, time FROM events WHERE kind = 'submitted' AND time > ? AND player IS NOT NULL",
                    (since,)):
                earlier.setdefault(player, []).append(when)
            for event in pending(self.folder):
                if event["kind"] == "submitted" and event["player"] and event["time"] > since:
                    earlier.setdefault(event["player"], []).append(event["time"])
            self.rate = rules.UploadRate({player: sorted(times) for player, times in earlier.items()})
        return self.rate

    def _event(self, kind: str, player: str | None, text: str) -> None:
        try:
            post_event(self.folder, kind, player, text)
        except OSError as exc:  # the organiser's log must not fail the player's request
            log.warning("league web: cannot leave an event in %s: %s", self.folder / "inbox", exc)

    async def _login(self, scope: dict[str, Any], headers: dict[str, str], receive: Receive, send: Send) -> None:
        address = self.client(scope, headers)
        fields = await _form_fields(receive, send)
        if fields is None:
            return
        token = (fields.get("token") or [""])[0].strip() or None
        viewer = self._viewer(token) if token else None
        if viewer is None:
            await self._refuse_token(token, address, send)
            return
        secure = "; Secure" if self._https(scope, headers) else ""
        cookie = f"{rules.COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=2592000{secure}"
        await respond(send, 303, TEXT, b"signed in\n", headers=[
            ("location", _next(fields)), ("set-cookie", cookie), ("cache-control", "no-store")])

    async def _logout(self, scope: dict[str, Any], headers: dict[str, str], receive: Receive, send: Send) -> None:
        fields = await _form_fields(receive, send)
        if fields is None:
            return
        await respond(send, 303, TEXT, b"signed out\n", headers=[
            ("location", _next(fields)), ("set-cookie", f"{rules.COOKIE}=; HttpOnly; SameSite=Strict; Path=/; "
                                                        "Max-Age=0"), ("cache-control", "no-store")])

    def _https(self, scope: dict[str, Any], headers: dict[str, str]) -> bool:
        peer = (scope.get("client") or ("?", 0))[0]
        forwarded = headers.get("x-forwarded-proto", "") if peer in self.trusted_proxies else ""
        return scope.get("scheme") == "https" or forwarded.lower() == "https"


def _form_archive(body: Path, content_type: str, archive: Path) -> int | None:
    """A browser form's `bot` field written to `archive`; its size, or None when the form has none."""
    part = rules.multipart_part(body.read_bytes(), content_type, "bot")
    if part is None:
        return None
    archive.write_bytes(part)
    return len(part)


def _next(fields: dict[str, list[str]]) -> str:
    """Where a sign-in goes back to: a player's page of this site, else the standings (never elsewhere)."""
    target = (fields.get("next") or [""])[0]
    return target if PLAYER.fullmatch(target) else "index.html"


async def read_body(receive: Receive, cap: int, into: Path, total_s: float | None = None) -> int:
    """Stream the request body into the file `into`; its size. BodyProblem when it is over `cap` (at the
    chunk that crosses it: the rest is never read), when a chunk is slower than BODY_CHUNK_S or the whole
    slower than `total_s` (BODY_TOTAL_S), or when the peer went away."""
    deadline = time.monotonic() + (BODY_TOTAL_S if total_s is None else total_s)
    size = 0
    with into.open("wb") as handle:
        while True:
            left = deadline - time.monotonic()
            try:
                message = await asyncio.wait_for(receive(), timeout=max(0.0, min(BODY_CHUNK_S, left)))
            except asyncio.TimeoutError:
                raise BodyProblem(408, "the body came too slowly (the time-out ended it)") from None
            if message["type"] == "http.disconnect":
                raise BodyProblem(400, "the connection ended before the body did")
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > cap:
                raise BodyProblem(413, f"the upload is over {cap} bytes, the most this league takes")
            handle.write(chunk)
            if not message.get("more_body", False):
                return size


async def respond(send: Send, status: int, content_type: str | None, body: bytes, *,
                  headers: list[tuple[str, str]] = (), close: bool = False) -> None:  # type: ignore[assignment]
    """One whole response. `close`: the connection ends after it (an unread body is not read)."""
    raw = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in headers]
    if content_type is not None:
        raw.append((b"content-type", content_type.encode("latin-1")))
    if status != 304:
        raw.append((b"content-length", str(len(body)).encode()))
    raw.append((b"x-content-type-options", b"nosniff"))
    if close:
        raw.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body, "more_body": False})


async def _form_fields(receive: Receive, send: Send) -> dict[str, list[str]] | None:
    """The fields of a small URL-encoded form (sign-in, sign-out), read within LOGIN_CAP and the body's
    time-out; None when the body was refused (the refusal is sent)."""
    with tempfile.TemporaryDirectory(prefix="td-league-login-") as scratch:
        try:
            await read_body(receive, LOGIN_CAP, Path(scratch) / "body", total_s=BODY_CHUNK_S)
        except BodyProblem as problem:
            await respond(send, problem.status, TEXT, f"refused: {problem}\n".encode(), close=True)
            return None
        return parse_qs((Path(scratch) / "body").read_text("latin-1"))
