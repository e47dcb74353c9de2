"""`league export DIR OUT` and `standings DIR --html OUT`: the pages as a static folder any web server (or
file://) can show. The same routes as the live server (site.py), without the live script and without any
bot's own words (an export is public); replays included: a league's from its replay folder (decompressed, or
hard-linked when stored plain), and built straight into OUT for a match that has none yet (the league folder
is only read)."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

from runner.errors import UserError
from runner.replay.html import write_html_replay
from runner.league.web.league_data import LeagueSource
from runner.league.web.model import Source
from runner.league.web.replays import CACHE, cached_replay
from runner.league.web.pages import replay_path
from runner.league.web.site import Site
from runner.tournament.entrants import link_or_copy


def export(folder: Path, out: Path) -> int:
    """Write the league's pages under `out`; the number of files written."""
    folder, out = Path(folder), Path(out)
    with LeagueSource(folder) as source:
        if out.resolve() == folder.resolve():
            raise UserError(f"{out}: export the pages to another folder than the league's own")
        return write_site(source, out, cache=folder / CACHE)


def write_site(source: Source, out: Path, cache: Path | None) -> int:
    """Every page of `source` and its replays under `out`: those stored in `cache` copied, the others built
    into `out`."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".td-runner-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise UserError(f"{out}: cannot write the pages there: {exc.strerror or exc}") from None
    site = Site(source, live=False, cache=cache)
    written = 0
    for path in site.page_paths():
        _write(out / path, site.get(path).body)
        written += 1
    for match in source.match_ids():
        log = source.match_log(match)
        if log is None:
            continue
        target = out / replay_path(match)
        stored = cached_replay(cache, match) if cache is not None else None
        if stored is None:
            _build(log, target)
        elif stored.suffix == ".gz":
            _write(target, gzip.decompress(stored.read_bytes()))
        else:
            _copy(stored, target)
        written += 1
    return written


def _write(path: Path, data: bytes) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    except OSError as exc:
        raise UserError(f"{path}: cannot write: {exc.strerror or exc}") from None


def _build(log: Path, target: Path) -> None:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"{target.parent}: cannot write: {exc.strerror or exc}") from None
    write_html_replay(log, target, public=True)


def _copy(source: Path, target: Path) -> None:
    """A cached replay into the export: hard-linked where the file system allows (a replay is written once and
    never changed, and a league of thousands of matches holds gigabytes of them), else copied."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.unlink(missing_ok=True)  # an earlier export's file or link
        link_or_copy(source, target, shutil.copyfile)
    except OSError as exc:
        raise UserError(f"{target}: cannot write: {exc.strerror or exc}") from None
