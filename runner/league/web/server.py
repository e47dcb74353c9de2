"""Serving the league's web app (app.py) with uvicorn, in a process of its own (`td-runner league serve`, which
`league run --serve` starts as a child) or on a thread of the caller (`start_server`, for tests and scripts).

Why uvicorn: a maintained ASGI server whose event loop holds hundreds of idle live-update streams and slow
sockets without a thread each (the stdlib `http.server` it replaces spent a thread, and a 1.3 GB peak, on 760
slow sockets), with a connection cap (`limit_concurrency`) and a listen backlog. Its parser is httptools
(compiled; the league extra installs it) when installed, else h11 (pure Python). uvicorn has no time limit on
receiving a request's headers (its keep-alive timer restarts with every byte, so a client trickling a header a
byte at a time holds a socket for ever), so both protocols are guarded (_Guard): HEADERS_S from the connection
(or from the previous response) to the end of the headers, else the connection is closed; a client that stops
reading its answer is cut off after STALLED_S with its write buffer full. Bodies have their own time-outs in
the app.

The server runs at a lower CPU priority than the league by default (`--priority`, set_priority): on a machine
the league keeps busy, the league's matches come first and the pages get the CPU they leave (measured in
benchmarks/league_web.py; runner/league/README.md says what it costs the pages).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import importlib.util
import logging
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Coroutine, Iterable
from pathlib import Path
from typing import Any

from runner.errors import UserError
from runner.league.web.app import LeagueApp
from runner.league.web.league_data import LeagueSource
from runner.league.web.priority import DEFAULT_PRIORITY, set_priority

#: A request's headers must have arrived this long after the connection opened (or the last answer ended).
HEADERS_S = 10.0
#: An idle kept-alive connection is closed after this long: longer than a live tab's time between reloads
#: (5-8 s, pages.RELOAD_MS and JITTER_MS), so a tab's reload reuses its connection instead of opening one
#: (uvicorn's default of 5 s made nearly every reload a new connection); shorter than HEADERS_S, whose
#: deadline would abort it.
KEEP_ALIVE_S = 9
#: A client whose socket takes nothing for this long while an answer waits to be sent is cut off.
STALLED_S = 30.0
#: The HTTP parsers the server can use: httptools (compiled, a request's parsing a fraction of h11's CPU; the
#: league extra installs it) or h11 (pure Python, uvicorn's own dependency).
PARSERS = ("httptools", "h11")
#: The event loops the server can run on: uvloop (libuv's: accepting a connection, reading and writing cost a
#: fraction of asyncio's own loop; the league extra installs it) or asyncio's.
LOOPS = ("uvloop", "asyncio")
#: Connections (and requests in progress) at once: 300 live tabs + 500 slow sockets + readers, with room.
CONNECTIONS = 2000
BACKLOG = 2048


class _Guard:
    """What both guarded protocols add to uvicorn's: TCP_NODELAY, the deadline for a request's headers
    (HEADERS_S, armed when a connection opens and when an answer ends with no request waiting) and the cut-off
    of a client that does not read (STALLED_S). Mixed in before the uvicorn protocol class."""

    _deadline: asyncio.TimerHandle | None = None
    _stalled: asyncio.TimerHandle | None = None
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport

    def _opened(self, transport: asyncio.Transport) -> None:
        # asyncio sets TCP_NODELAY only on sockets whose proto is IPPROTO_TCP, and a socket accepted from one
        # made by socket.create_server has proto 0: without it, an answer's body (a second write) waits for
        # the ACK of its headers, 40 ms on every kept-alive request
        with contextlib.suppress(OSError, AttributeError):
            transport.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(HEADERS_S, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._stalled is not None:
            self._stalled.cancel()
        super().connection_lost(exc)  # type: ignore[misc]

    def pause_writing(self) -> None:
        super().pause_writing()  # type: ignore[misc]
        if self._stalled is None:
            self._stalled = self.loop.call_later(STALLED_S, self.transport.abort)

    def resume_writing(self) -> None:
        super().resume_writing()  # type: ignore[misc]
        if self._stalled is not None:
            self._stalled.cancel()
            self._stalled = None


def _guarded_h11() -> type:
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11(_Guard, H11Protocol):
        """uvicorn's h11 protocol, guarded (_Guard). h11 says nothing when a request's headers are complete,
        so the request awaited is the next new cycle after arming."""

        _armed_for: object = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._opened(transport)

        def _arm(self) -> None:
            self._armed_for = self.cycle
            super()._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self._deadline is not None and self.cycle is not self._armed_for:
                self._disarm()  # a new request's headers are in

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.conn.their_state in (h11.IDLE, h11.SEND_BODY, h11.DONE):
                if self.cycle is None or self.cycle.response_complete:
                    self._arm()

    return GuardedH11


def _guarded_httptools() -> type:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class GuardedHttpTools(_Guard, HttpToolsProtocol):
        """uvicorn's httptools protocol, guarded (_Guard): the parser says when a request's headers are in."""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._opened(transport)

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.cycle.response_complete:  # no request waiting
                self._arm()

    return GuardedHttpTools


def protocol(parser: str | None = None) -> type:
    """The guarded protocol for `parser` (PARSERS); None: httptools when it is installed, else h11."""
    if parser is None:
        parser = "httptools" if importlib.util.find_spec("httptools") else "h11"
    return _guarded_httptools() if parser == "httptools" else _guarded_h11()


def client_address(peer: str, forwarded_for: str | None, trusted_proxies: frozenset[str]) -> str:
    """The address the submission throttle counts: the peer's own, or, when the peer is a trusted reverse proxy
    (--trusted-proxy), the last address of X-Forwarded-For that is not itself a trusted proxy (each proxy
    appends the address it was reached from, so that one is the first a trusted proxy vouches for; those
    before it are the client's own words)."""
    if peer not in trusted_proxies or not forwarded_for:
        return peer
    for address in reversed([part.strip() for part in forwarded_for.split(",")]):
        if address and address not in trusted_proxies:
            return address
    return peer


def listen(host: str, port: int) -> socket.socket:
    """The listening socket (port 0: a free one); UserError, one line, when it cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family, backlog=BACKLOG)
    except OSError as exc:
        raise UserError(f"cannot serve the league's pages on {host}:{port}: {exc.strerror or exc}") from None


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    host = f"[{host}]" if ":" in str(host) else host
    return f"http://{host}:{port}/"


def check_league(folder: Path) -> None:
    """One error line now (not a 500 on every page) when `folder` is no league this process can read."""
    folder = Path(folder)
    if folder.is_dir() and not os.access(folder, os.R_OK | os.X_OK):
        raise UserError(f"{folder}: cannot read this folder (its permissions keep this user out)")
    LeagueSource(folder).close()


def _server(app: LeagueApp, parser: str | None = None) -> object:
    import uvicorn

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self):  # type: ignore[no-untyped-def]
            """Ctrl-C and SIGTERM stop the server, which then exits 0 as `league run` does (uvicorn's own
            handlers raise the signal again once stopped: a KeyboardInterrupt, exit code 130)."""
            if threading.current_thread() is not threading.main_thread():
                yield
                return
            stop = lambda signum, frame: setattr(self, "should_exit", True)  # noqa: E731
            previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
            try:
                yield
            finally:
                for sig, handler in previous.items():
                    signal.signal(sig, handler)

    logging.getLogger("uvicorn.error").setLevel(logging.WARNING)
    config = uvicorn.Config(app, http=protocol(parser), loop="asyncio", lifespan="on", ws="none",
                            log_config=None, access_log=False, limit_concurrency=CONNECTIONS, backlog=BACKLOG,
                            timeout_keep_alive=KEEP_ALIVE_S, timeout_graceful_shutdown=1, server_header=False)
    return Server(config)


class WebServer:
    """A server running on a thread of this process; `.url` is where it answers, `.close()` stops it."""

    def __init__(self, folder: Path, sock: socket.socket, trusted_proxies: frozenset[str],
                 parser: str | None = None, loop: str | None = None) -> None:
        self.url = url_of(sock)
        self.app = LeagueApp(folder, trusted_proxies)
        self._server = _server(self.app, parser)
        self._thread = threading.Thread(target=self._serve, args=(sock, loop), name="league-web", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started and self._thread.is_alive() and time.monotonic() < deadline:  # type: ignore
            time.sleep(0.01)

    def _serve(self, sock: socket.socket, loop: str | None) -> None:
        run_loop(self._server.serve(sockets=[sock]), loop)  # type: ignore[attr-defined]

    def close(self) -> None:
        self.app.close()
        self._server.should_exit = True  # type: ignore[attr-defined]
        self._thread.join(timeout=10)


def start_server(folder: Path, host: str, port: int, trusted_proxies: Iterable[str] = (),
                 parser: str | None = None, loop: str | None = None) -> WebServer:
    """Serve the pages of the league in `folder` on host:port (port 0: a free one) from a daemon thread;
    requests from `trusted_proxies` are counted by the client address they forward (client_address); `parser`
    and `loop`: one of PARSERS and LOOPS (None: the fastest installed)."""
    check_league(folder)
    return WebServer(Path(folder), listen(host, port), frozenset(trusted_proxies), parser, loop)


def serve(folder: Path, sock: socket.socket, trusted_proxies: Iterable[str], parent: int | None = None,
          priority: str = DEFAULT_PRIORITY) -> None:
    """`league serve`: serve until SIGINT/SIGTERM (uvicorn's handlers) or, with `parent`, until that process
    is gone (the league that started this server), at `priority` (set_priority)."""
    set_priority(priority)
    app = LeagueApp(Path(folder), frozenset(trusted_proxies))
    server = _server(app)

    if parent is not None:
        die_with_parent()
        if os.getppid() != parent:  # the league ended before the signal was asked for
            return

    async def main() -> None:
        if parent is not None:
            async def watch() -> None:
                while os.getppid() == parent:
                    await asyncio.sleep(0.5)
                server.should_exit = True  # type: ignore[attr-defined]

            watcher = asyncio.get_running_loop().create_task(watch())
        try:
            await server.serve(sockets=[sock])  # type: ignore[attr-defined]
        finally:
            app.close()
            if parent is not None:
                watcher.cancel()

    run_loop(main())


def run_loop(main: Coroutine[Any, Any, None], loop: str | None = None) -> None:
    """Run the server's event loop (LOOPS; None: uvloop's when it is installed, else asyncio's)."""
    if loop is None:
        loop = "uvloop" if importlib.util.find_spec("uvloop") else "asyncio"
    if loop == "asyncio":
        asyncio.run(main)
        return
    import uvloop

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(main)


def die_with_parent() -> None:
    """SIGTERM to this process when its parent dies (Linux; elsewhere `serve` polls its parent). Asked for by
    the child itself once started (not between fork and exec, where a multi-threaded parent's locks may be
    held), so the caller checks the parent is still there afterwards."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class ServeChild:
    """`league run --serve`: the web server as a child process (`td-runner league serve`). The league binds
    the socket (so a taken port is the league's own one-line error, and port 0 is known at once) and hands it
    over; the child dies with the league, and the league plays on whatever becomes of the child."""

    def __init__(self, folder: Path, host: str, port: int, trusted_proxies: Iterable[str],
                 priority: str = DEFAULT_PRIORITY) -> None:
        import subprocess

        sock = listen(host, port)
        self.url = url_of(sock)
        command = [sys.executable, "-m", "runner", "league", "serve", str(folder), "--fd", str(sock.fileno()),
                   "--parent", str(os.getpid()), "--priority", priority]
        for proxy in trusted_proxies:
            command += ["--trusted-proxy", proxy]
        try:
            self.process = subprocess.Popen(command, pass_fds=[sock.fileno()], stdin=subprocess.DEVNULL, env=_env())
        finally:
            sock.close()  # the child holds it now: when the child is gone, so is the port
        self.reported = False

    def check(self, log) -> None:  # type: ignore[no-untyped-def]
        """Say once that the server is gone (the league plays on); `league serve DIR` starts another."""
        code = self.process.poll()
        if code is not None and not self.reported:
            self.reported = True
            log(f"the league's web server stopped (exit code {code}); the league plays on: "
                f"`td-runner league serve DIR --port PORT` serves the pages again")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except Exception:  # noqa: BLE001
                self.process.kill()
                self.process.wait()


def _env() -> dict[str, str]:
    """The child imports the same `runner` as this process (an editable install may point elsewhere)."""
    env = dict(os.environ)
    top = str(Path(__file__).resolve().parents[3])
    env["PYTHONPATH"] = top + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env
