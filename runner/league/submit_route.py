"""Who is asking, and may they upload: the access rules of `POST /submit` and `POST /login`, kept apart from
the HTTP plumbing (runner/league/web/app.py) so each rule reads in one place.

An upload comes from `td-runner league submit` (the archive as the body, the token in `Authorization:
Bearer`) or from the form on a player's page (multipart, field `bot`), whose browser signed in first: `POST
/login` turned the token into an HttpOnly cookie. Either way the token is known from the headers, so
everything is decided before a byte of the body is read: the token names exactly one player (there is no
player field to get wrong or forge); a missing, wrong or revoked token is 401/403 with the same words whoever
exists; an address with many failed attempts is slowed (`Throttle`), but a valid token is never refused by
it (one student's typos must not lock out a class behind one school NAT); a player may have
`uploads_per_hour` uploads taken an hour (`UploadRate`). Only then is the body read, into a temporary
file, against the size cap.
"""

from __future__ import annotations

import hmac
import re
import threading
import time
from collections.abc import Mapping
from http.cookies import CookieError, SimpleCookie
from pathlib import Path

import attrs

from runner.errors import UserError
from runner.league.settings import LeagueSettings
from runner.league.unpack import Caps, UploadRefused
from runner.league.upload import accept

FAILURES_ALLOWED = 5  # failed attempts per address within FAILURE_WINDOW_S before it must wait
FAILURE_WINDOW_S = 300.0
FAILURE_DELAY_S = 0.25  # every failed attempt's answer waits this long (guessing tokens is slow)
UPLOAD_WINDOW_S = 3600.0  # uploads_per_hour counts accepted uploads in this window
COOKIE = "td_league"  # the signed-in browser's token (HttpOnly, SameSite=Strict)
ORGANISER_TOKEN = "organiser.token"  # DIR/organiser.token: the organiser's own sign-in (see the README)

NO_TOKEN = "no token: send Authorization: Bearer TOKEN, or sign in on your player page first"
BAD_TOKEN = "this token is not valid (unknown or revoked)"


@attrs.frozen
class Answer:
    status: int
    text: str


class Throttle:
    """Failed attempts per client address; past FAILURES_ALLOWED in the window, the address waits."""

    def __init__(self) -> None:
        self._failures: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def wait_left(self, address: str) -> float:
        with self._lock:
            now = time.monotonic()
            recent = [t for t in self._failures.get(address, []) if now - t < FAILURE_WINDOW_S]
            if recent:
                self._failures[address] = recent
            else:
                self._failures.pop(address, None)  # an address seen once costs nothing afterwards
            if len(recent) < FAILURES_ALLOWED:
                return 0.0
            return FAILURE_WINDOW_S - (now - recent[-FAILURES_ALLOWED])

    def failed(self, address: str) -> None:
        with self._lock:
            self._failures.setdefault(address, []).append(time.monotonic())


class UploadRate:
    """Accepted uploads per player in the last hour. A slot is taken when an upload is let in (before its
    body is read, so two at once cannot both pass the last slot) and given back if it is refused."""

    def __init__(self, earlier: Mapping[str, list[float]] | None = None) -> None:
        # earlier: wall-clock times of uploads taken before this server started (the league's events)
        now, wall = time.monotonic(), time.time()
        self._taken = {player: [now - (wall - t) for t in times] for player, times in (earlier or {}).items()}
        self._lock = threading.Lock()

    def take(self, player: str, per_hour: int) -> float:
        """0 and a slot taken, or the seconds until the player may upload again."""
        with self._lock:
            now = time.monotonic()
            recent = [t for t in self._taken.get(player, []) if now - t < UPLOAD_WINDOW_S]
            if len(recent) >= per_hour:
                self._taken[player] = recent
                return UPLOAD_WINDOW_S - (now - recent[-per_hour])
            self._taken[player] = recent + [now]
            return 0.0

    def give_back(self, player: str) -> None:
        with self._lock:
            if self._taken.get(player):
                self._taken[player].pop()


def caps_of(settings: LeagueSettings) -> Caps:
    return Caps(int(settings.max_upload_mb * (1 << 20)), int(settings.max_unpacked_mb * (1 << 20)),
                settings.max_files)


def body_cap(settings: LeagueSettings | None) -> int:
    return (caps_of(settings).upload_bytes if settings else Caps().upload_bytes) + 64 * 1024


def uploads_per_hour(settings: LeagueSettings) -> int:
    return settings.uploads_per_hour


def rate_refusal(player: str, per_hour: int, wait: float) -> Answer:
    return Answer(429, f"{player} has had {per_hour} uploads taken in the last hour, as many as this league takes; "
                       f"the next one is possible in {max(1, round(wait / 60))} min")


def throttled(wait: float) -> Answer:
    return Answer(429, f"too many failed attempts from this address; try again in {wait:.0f} s")


def token_of(headers: Mapping[str, str]) -> str | None:
    """The token a request carries (lower-case header names): `Authorization: Bearer`, else the cookie."""
    authorization = headers.get("authorization", "")
    if authorization[:7].lower() == "bearer ":
        return authorization[7:].strip() or None
    return cookie_token(headers.get("cookie", ""))


def cookie_token(header: str) -> str | None:
    try:
        morsel = SimpleCookie(header).get(COOKIE)
    except CookieError:
        return None
    return morsel.value if morsel is not None and morsel.value else None


def organiser_token(folder: Path) -> str | None:
    """The organiser's token (DIR/organiser.token), or None when there is none."""
    try:
        text = (folder / ORGANISER_TOKEN).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text or None


def ensure_organiser_token(folder: Path) -> Path | None:
    """DIR/organiser.token, made (readable by its owner alone) when missing; None when it cannot be written."""
    import os
    import secrets

    path = folder / ORGANISER_TOKEN
    if path.is_file():
        return path
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path
    except OSError:
        return None
    with os.fdopen(descriptor, "w") as handle:
        handle.write(secrets.token_urlsafe(32) + "\n")
    return path


def is_organiser(token: str, organiser: str | None) -> bool:
    return organiser is not None and hmac.compare_digest(token.encode(), organiser.encode())


def store_upload(archive: Path, settings: LeagueSettings, player: str) -> Answer:
    """Install the archive as the player's folder (runner/league/upload.py): the one call into the uploads
    code, with the archive read from the temporary file the body was streamed into."""
    try:
        accept(archive, Path(settings.submissions), player, settings.game, caps_of(settings))
    except UploadRefused as exc:
        return Answer(exc.status, f"refused: {exc}")
    except (OSError, UserError):
        return Answer(500, "refused: the upload could not be stored (the organiser's disk); try again later")
    return Answer(200, f"taken: the league plays it as {player}'s new version once it is built")


def multipart_part(data: bytes, content_type: str, name: str) -> bytes | None:
    """The content of form field `name` in a multipart/form-data body, or None when it has none."""
    boundary = None
    for parameter in content_type.split(";")[1:]:
        key, _, value = parameter.strip().partition("=")
        if key.lower() == "boundary":
            boundary = value.strip().strip('"')
    if not boundary:
        return None
    delimiter = b"\r\n--" + boundary.encode("latin-1")
    body = b"\r\n" + data  # the first delimiter has no CRLF before it
    start = body.find(delimiter)
    while start != -1:
        head_start = start + len(delimiter)
        if body[head_start:head_start + 2] == b"--":
            return None  # the closing delimiter
        head_end = body.find(b"\r\n\r\n", head_start)
        if head_end == -1:
            return None
        end = body.find(delimiter, head_end + 4)
        if end == -1:
            return None
        headers = body[head_start:head_end].decode("latin-1")
        if re.search(rf'(?:^|[;\s])name="{re.escape(name)}"', headers, re.IGNORECASE):
            return body[head_end + 4:end]
        start = end
    return None
