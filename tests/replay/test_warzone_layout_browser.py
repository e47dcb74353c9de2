"""A Warzone replay of a map without coordinates (every territory at `0 0`, as many map files have them), in
headless Chromium: the board draws the record's own layout, and no two territories' discs (ring included)
overlap or leave the board. Before the layout, every disc was drawn on one point."""

from __future__ import annotations

import io
import itertools
import math
import os
import shutil
from pathlib import Path

import pytest

from runner.cli import main
from runner.games.warzone.rules.mapgen import generate_map
from runner.games.warzone.rules.mapwrite import render_domination
from runner.replay.html import build_record, write_html_replay

BOTS = Path(__file__).resolve().parents[2] / "starter-bots" / "warzone"


@pytest.fixture(scope="module")
def replay(tmp_path_factory) -> tuple[Path, dict]:
    folder = tmp_path_factory.mktemp("layout")
    map_path = folder / "flat.map"
    map_path.write_text(render_domination(generate_map(200, 12, 5, "flat")), encoding="utf-8")  # all at 0 0
    assert "\n1 " in map_path.read_text() and " 0 0\n" in map_path.read_text()
    err = io.StringIO()
    code = main(["match", "--game", "warzone", "--map", str(map_path), "--max-turns", "3", "--seed", "1", "--quiet",
                 "--output", str(folder), "--name", "flat", str(BOTS / "python3"), str(BOTS / "python3")],
                out=io.StringIO(), err=err)
    assert code == 0, err.getvalue()
    page, _ = write_html_replay(folder / "flat", folder / "flat.html")
    record, _ = build_record(folder / "flat")
    return page, record


def test_no_two_territories_overlap_on_the_drawn_board(replay, open_page, tmp_path) -> None:
    page, record = replay
    opened = open_page(page, f"#round={record['turns'][-1]}")
    assert opened.errors == []
    drawn = opened.page.evaluate("ReplayBoard.drawn")
    width = opened.page.evaluate("document.getElementById('board').clientWidth")
    assert drawn is not None and drawn["width"] == width
    reach = drawn["radius"] + drawn["ring"] / 2  # a disc's outer edge: its ring is stroked on the circle
    centres = {int(tid): place for tid, place in drawn["where"].items()}
    assert sorted(centres) == [t[0] for t in record["board"]["territories"]] and len(centres) == 200
    for x, y in centres.values():  # every disc wholly on the board
        assert reach <= x <= drawn["width"] - reach and reach <= y <= drawn["height"] - reach
    clashes = [(a, b) for (a, pa), (b, pb) in itertools.combinations(centres.items(), 2)
               if math.dist(pa, pb) < 2 * reach]
    assert clashes == [], f"{len(clashes)} pairs of overlapping territories, e.g. {clashes[:3]}"
    assert drawn["radius"] >= 6  # the board's smallest disc: still a visible dot holding its armies
    shot = tmp_path / "warzone_layout.png"
    opened.page.screenshot(path=str(shot), full_page=True)
    keep = os.environ.get("TD_RUNNER_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, Path(keep) / shot.name)
