"""The live web pages of a league: stdlib `http.server.ThreadingHTTPServer` in a daemon thread.

The stdlib server is enough here: GET of small server-rendered pages to a handful of browsers, a thread per
request, no TLS (bind to 127.0.0.1, the default, or put a proxy in front). Each request opens its own
read-only SQLite connection (WAL lets readers work beside the league's writer) and closes it; a request
never raises into the league: any error is a 500 with one line of text. Routes are the dict in site.py
(GET) and `POST_ROUTES` here (`/submit`: runner/league/submit_route.py); a POST body larger than the
league's upload cap is refused from its Content-Length, before it is read.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from runner.errors import UserError
from runner.league.submit_route import Throttle, handle_submit, upload_cap
from runner.league.web.league_data import LeagueSource
from runner.league.web.replays import CACHE
from runner.league.web.site import Response, Site

_THROTTLE = Throttle()


def _submit(folder: Path, body: bytes, headers: dict[str, str], address: str) -> Response:
    answer = handle_submit(folder, body, headers, address, _THROTTLE)
    return Response(answer.status, "text/plain; charset=utf-8", f"{answer.text}\n".encode())


#: POST path -> handler(folder, request body, headers, client address) -> Response.
POST_ROUTES: dict[str, Callable[[Path, bytes, dict[str, str], str], Response]] = {"/submit": _submit}


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


class WebServer:
    """A running server; `.url` is where it answers (with the port it got), `.close()` stops it."""

    def __init__(self, httpd: ThreadingHTTPServer, thread: threading.Thread) -> None:
        self._httpd, self._thread = httpd, thread
        host, port = httpd.server_address[:2]
        host = f"[{host}]" if ":" in str(host) else host
        self.url = f"http://{host}:{port}/"

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)


def _handler(folder: Path, trusted_proxies: frozenset[str]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "td-runner-league"

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            self._answer(lambda: self._get(urlsplit(self.path).path))

        def do_HEAD(self) -> None:  # noqa: N802
            self._answer(lambda: self._get(urlsplit(self.path).path), body=False)

        def do_POST(self) -> None:  # noqa: N802
            route = POST_ROUTES.get(urlsplit(self.path).path)
            if route is None:
                self._send(Response(404, "text/plain; charset=utf-8", b"not found\n"))
                return
            try:
                length = int(self.headers.get("Content-Length") or "")
            except ValueError:
                self.close_connection = True
                self._send(Response(411, "text/plain; charset=utf-8", b"refused: a Content-Length is needed\n"))
                return
            cap = upload_cap(folder)
            if not 0 <= length <= cap:  # refused before a byte of the body is read
                self.close_connection = True
                self._send(Response(413, "text/plain; charset=utf-8",
                                    f"refused: the upload is {length} bytes; this league takes at most {cap}\n".encode()))
                return
            data = self.rfile.read(length)
            client = client_address(self.client_address[0], self.headers.get("X-Forwarded-For"), trusted_proxies)
            self._answer(lambda: route(folder, data, dict(self.headers), client))

        def _get(self, path: str) -> Response:
            with LeagueSource(folder) as source:
                return Site(source, live=True, cache=folder / CACHE).get(path.lstrip("/"))

        def _answer(self, respond: Callable[[], Response], body: bool = True) -> None:
            try:
                response = respond()
            except UserError as exc:
                response = Response(500, "text/plain; charset=utf-8", f"{exc}\n".encode())
            except Exception as exc:  # noqa: BLE001 (a page's bug must not stop the league)
                line = f"internal error: {type(exc).__name__}: {exc}".splitlines()[0]
                response = Response(500, "text/plain; charset=utf-8", f"{line}\n".encode())
            self._send(response, body)

        def _send(self, response: Response, body: bool = True) -> None:
            try:
                self.send_response(response.status)
                self.send_header("Content-Type", response.content_type)
                self.send_header("Content-Length", str(len(response.body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                if body:
                    self.wfile.write(response.body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the browser went away

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass  # the league's terminal is for the league

    return Handler


def _server_class(host: str) -> type[ThreadingHTTPServer]:
    if ":" not in host:
        return ThreadingHTTPServer

    class IPv6Server(ThreadingHTTPServer):
        address_family = socket.AF_INET6

    return IPv6Server


def start_server(folder: Path, host: str, port: int, trusted_proxies: Iterable[str] = ()) -> WebServer:
    """Serve the pages of the league in `folder` on host:port (port 0: a free one) from a daemon thread;
    requests from `trusted_proxies` are counted by the client address they forward (client_address)."""
    folder = Path(folder)
    LeagueSource(folder).close()  # not a league: one error line now, not a 500 on every page
    try:
        httpd = _server_class(host)((host, port), _handler(folder, frozenset(trusted_proxies)))
    except OSError as exc:
        raise UserError(f"cannot serve the league's pages on {host}:{port}: {exc.strerror or exc}") from None
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, name="league-web", daemon=True)
    thread.start()
    return WebServer(httpd, thread)
