"""`export(DIR, OUT)`: the league's pages as a static folder whose every link leads to a file in it, replays
taken from the league's replay folder (or built into OUT), no live script, no bot's own words; one-line errors for a bad DIR or OUT."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from runner.errors import UserError
from runner.league.standings import standings_json
from runner.league.store import connect
from runner.league.web.export import export
from runner.league.web.pages import player_path
from runner.replay.html import write_html_replay

from webdata import ALICE, BROKEN, BUILD_OUTPUT, FAULT_OUTPUT, GONE, LOGGED, SCRIPT, TOM, links_resolve, make_league, played_log


@pytest.fixture
def league(tmp_path: Path) -> Path:
    return make_league(tmp_path / "league", played_log(tmp_path / "scratch"))


def test_export_writes_every_page_with_links_that_resolve(league: Path, tmp_path: Path) -> None:
    (league / "replays").mkdir()
    (league / "replays" / "1.html").write_text("cached replay 1")  # as an older td-runner left it
    (league / "replays" / "2.html.gz").write_bytes(gzip.compress(b"stored replay 2"))  # as the worker writes it
    out = tmp_path / "site"
    written = export(league, out)
    pages = {str(path.relative_to(out)) for path in out.rglob("*") if path.is_file()}
    players = {player_path(name) for name in (ALICE, TOM, SCRIPT, BROKEN, GONE)}
    replays = {f"matches/{number}/replay.html" for number in LOGGED}
    fixed = {"index.html", "matches.html", "crosstable.html", "events.html", "standings.json"}
    assert pages == fixed | players | replays
    assert written == len(pages)
    assert links_resolve(out) > 40
    db = connect(league, readonly=True)
    try:
        assert json.loads((out / "standings.json").read_text()) == standings_json(db)
    finally:
        db.close()
    # replays come from the league's replay folder, and the missing ones are built into OUT (the league is
    # only read)
    assert (out / "matches/1/replay.html").read_text() == "cached replay 1"
    assert (out / "matches/2/replay.html").read_text() == "stored replay 2"
    assert sorted(path.name for path in (league / "replays").iterdir()) == ["1.html", "2.html.gz"]
    expected, _ = write_html_replay(league / "matches" / "000003", tmp_path / "expected.html")
    assert (out / "matches/3/replay.html").read_bytes() == expected.read_bytes()
    assert "<script" in (out / "matches/3/replay.html").read_text()  # the replay player itself
    # on one file system the export links a plain stored replay instead of copying it (gigabytes in a big league)
    assert (out / "matches/1/replay.html").samefile(league / "replays/1.html")
    # exporting again overwrites in place
    assert export(league, out) == written
    assert (out / "matches/1/replay.html").samefile(league / "replays/1.html")
    # an export is public: no bot's own words in it
    for page in out.rglob("*.html"):
        assert FAULT_OUTPUT not in page.read_text() and BUILD_OUTPUT not in page.read_text()


def test_export_errors_are_one_line(league: Path, tmp_path: Path) -> None:
    with pytest.raises(UserError, match="is not a league folder"):
        export(tmp_path / "nothing", tmp_path / "out")
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(UserError, match="cannot write the pages there") as error:
        export(league, blocker / "out")
    assert "\n" not in str(error.value)
    with pytest.raises(UserError, match="another folder than the league's own"):
        export(league, league)
