"""A match's self-contained HTML replay, exactly as `td-runner replay --html` makes it, built once on first
demand: later requests read the file. Built aside and renamed into place (runner/replay/html.py), one build
at a time in this process, so two requests for the same replay never race on its temporary file."""

from __future__ import annotations

import threading
from pathlib import Path

from runner.errors import UserError
from runner.replay.html import write_html_replay

#: The league's cache of built replays, inside its folder: replays/<match id>.html.
CACHE = "replays"

_building = threading.Lock()


def ensure_replay(log: Path, target: Path) -> Path:
    """`target`, built from the match log `log` unless it is there already."""
    if target.is_file():
        return target
    with _building:
        if not target.is_file():
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise UserError(f"{target.parent}: cannot create the replay folder: {exc.strerror or exc}") from None
            write_html_replay(log, target)
    return target
