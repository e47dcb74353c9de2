"""`POST /submit`: a player's upload, from `td-runner league submit` (the archive as the body, the token in
`Authorization: Bearer`) or from the form on the player's page (multipart: fields `token` and `bot`).

The access rules: a token names exactly one player, and the upload becomes that player's folder (there is
no player field to get wrong or forge); a wrong, revoked or missing token is 401/403 with the same words
whoever exists; an address with many failed attempts gets 429 for a while (`Throttle`). Every answer is
plain text with one reason; every refusal is also an event in the league (the organiser's log).
"""

from __future__ import annotations

import email.parser
import email.policy
import threading
import time
from collections.abc import Mapping
from pathlib import Path

import attrs

from runner.errors import UserError
from runner.league.players import player_of_token
from runner.league.settings import LeagueSettings, stored_settings
from runner.league.store import add_event, connect, transaction
from runner.league.unpack import Caps, UploadRefused
from runner.league.upload import accept

FAILURES_ALLOWED = 5  # failed attempts per address within FAILURE_WINDOW_S before it must wait
FAILURE_WINDOW_S = 300.0
FAILURE_DELAY_S = 0.25  # every failed attempt's answer waits this long (guessing tokens is slow)


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
            self._failures[address] = recent
            if len(recent) < FAILURES_ALLOWED:
                return 0.0
            return FAILURE_WINDOW_S - (now - recent[-FAILURES_ALLOWED])

    def failed(self, address: str) -> None:
        with self._lock:
            self._failures.setdefault(address, []).append(time.monotonic())


def caps_of(settings: LeagueSettings) -> Caps:
    return Caps(int(settings.max_upload_mb * (1 << 20)), int(settings.max_unpacked_mb * (1 << 20)),
                settings.max_files)


def upload_cap(folder: Path) -> int:
    """The largest body `POST /submit` reads (the archive cap and room for a form's fields)."""
    settings = stored_settings(folder)
    return (caps_of(settings).upload_bytes if settings else Caps().upload_bytes) + 64 * 1024


def handle_submit(folder: Path, body: bytes, headers: Mapping[str, str], address: str, throttle: Throttle) -> Answer:
    """What `POST /submit` answers (see the module docstring)."""
    wait = throttle.wait_left(address)
    if wait > 0:
        return Answer(429, f"too many failed attempts from this address; try again in {wait:.0f} s")
    settings = stored_settings(folder)
    if settings is None:
        return Answer(503, "this league is not running")
    lowered = {key.lower(): value for key, value in headers.items()}
    try:
        token, data = _parts(body, lowered)
    except UploadRefused as exc:
        return _refused(folder, None, address, throttle, exc)
    if not token:
        throttle.failed(address)
        time.sleep(FAILURE_DELAY_S)
        return Answer(401, "no token: send Authorization: Bearer TOKEN (or the form's token field)")
    db = connect(folder)
    try:
        player = player_of_token(db, token)
    finally:
        db.close()
    if player is None:
        throttle.failed(address)
        time.sleep(FAILURE_DELAY_S)
        return Answer(403, "this token is not valid (unknown or revoked)")
    try:
        accept(data, Path(settings.submissions), player, settings.game, caps_of(settings))
    except UploadRefused as exc:
        return _refused(folder, player, address, throttle, exc)
    except (OSError, UserError) as exc:
        return Answer(500, f"the upload could not be stored: {exc}")
    _event(folder, "submitted", player, f"{player}: a bot was submitted from {address} ({len(data)} bytes)")
    return Answer(200, f"taken: the league plays it as {player}'s new version once it is built")


def _refused(folder: Path, player: str | None, address: str, throttle: Throttle, exc: UploadRefused) -> Answer:
    reason = str(exc)
    _event(folder, "refused", player, f"{player or 'an upload'} from {address} refused: {reason}")
    if player is None:
        throttle.failed(address)
    return Answer(exc.status, f"refused: {reason}")


def _event(folder: Path, kind: str, player: str | None, text: str) -> None:
    try:
        db = connect(folder)
        try:
            with transaction(db):
                add_event(db, kind, player, text)
        finally:
            db.close()
    except Exception:  # noqa: BLE001 (the organiser's log must not fail the player's request)
        pass


def _parts(body: bytes, headers: Mapping[str, str]) -> tuple[str | None, bytes]:
    """(token, archive bytes) from either kind of request."""
    kind = headers.get("content-type", "")
    if kind.startswith("multipart/form-data"):
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            f"Content-Type: {kind}\r\nMIME-Version: 1.0\r\n\r\n".encode() + body)
        token, data = None, None
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            if name == "token":
                token = part.get_payload(decode=True).decode("utf-8", errors="replace").strip()
            elif name == "bot":
                data = part.get_payload(decode=True)
        if data is None:
            raise UploadRefused("the form has no bot archive (field 'bot')")
        return token, data
    authorization = headers.get("authorization", "")
    token = authorization[7:].strip() if authorization.lower().startswith("bearer ") else None
    return token, body
