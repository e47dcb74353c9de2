"""SIGTERM ends a match the way Ctrl-C does: `timeout`, `docker stop`, a CI cancel or a Dask worker shutting
down must leave a complete log and match.json (`end_reason: interrupted`), not a half-written folder."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator


class Terminated(KeyboardInterrupt):
    """Raised in the main thread on SIGTERM; a KeyboardInterrupt, so everything that cleans up on Ctrl-C
    (the match loop, the log writer, bot processes) does the same here."""


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM raises Terminated (main thread only: elsewhere Python cannot set handlers)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
