"""Where a league keeps its matches' HTML replays: `DIR/replays/<match id>.html.gz`, written once by the
worker that played the match (or a background builder, for matches recorded before replays were written
that way), never on a page request. A plain `<id>.html` left by an older td-runner is used as it is."""

from __future__ import annotations

from pathlib import Path

#: The league's replay folder, inside its folder.
CACHE = "replays"


def cached_replay(cache: Path, match: int) -> Path | None:
    """The stored replay of `match` (compressed first), or None while there is none."""
    for name in (f"{match}.html.gz", f"{match}.html"):
        path = cache / name
        if path.is_file():
            return path
    return None
