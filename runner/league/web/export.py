"""`league export DIR OUT` and `standings DIR --html OUT`: the pages as a static folder any web server (or
file://) can show. The same routes as the live server (site.py), without the poll script; replays included,
a league's from its replay cache (built there first when missing), hard-linked where possible."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from runner.errors import UserError
from runner.league.web.league_data import LeagueSource
from runner.league.web.model import Source
from runner.league.web.replays import CACHE, ensure_replay
from runner.league.web.pages import replay_path
from runner.league.web.site import Site


def export(folder: Path, out: Path) -> int:
    """Write the league's pages under `out`; the number of files written."""
    folder, out = Path(folder), Path(out)
    with LeagueSource(folder) as source:
        if out.resolve() == folder.resolve():
            raise UserError(f"{out}: export the pages to another folder than the league's own")
        return write_site(source, out, cache=folder / CACHE)


def write_site(source: Source, out: Path, cache: Path | None) -> int:
    """Every page of `source` and its replays under `out`. Replays are built into `cache` and copied (into
    `out` directly when there is no cache or it cannot be written)."""
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
        built = None
        if cache is not None:
            try:
                built = ensure_replay(log, cache / f"{match}.html")
            except UserError:
                built = None  # a league folder we may not write to: build straight into `out`
        if built is not None:
            _copy(built, target)
        else:
            ensure_replay(log, target)
        written += 1
    return written


def _write(path: Path, data: bytes) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    except OSError as exc:
        raise UserError(f"{path}: cannot write: {exc.strerror or exc}") from None


def _copy(source: Path, target: Path) -> None:
    """A cached replay into the export: hard-linked where the file system allows (a replay is written once and
    never changed, and a league of thousands of matches holds gigabytes of them), else copied."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.unlink(missing_ok=True)  # an earlier export's file or link
        try:
            os.link(source, target)
            return
        except OSError:  # another file system, or one without hard links
            pass
        shutil.copyfile(source, target)
    except OSError as exc:
        raise UserError(f"{target}: cannot write: {exc.strerror or exc}") from None
