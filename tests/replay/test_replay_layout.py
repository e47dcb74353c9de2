"""Replays a bot writer can check (issue 34 item 6), in headless Chromium at 900 and 1400 px wide, for every game
of the registry: the board draws its coordinates (Tower Defence x/y, Lanes rows and columns, Invaders cells,
Warzone territory ids), every chart gives its axis values and a key of the seats it draws, each panel shows
only its own seat's numbers, and nothing sticks out of the page or of the board. The checks read the DOM and
the text the board drew (`ReplayViewer.boardText()`), not pixels; the screenshots are kept under
docs/replays/ with TD_RUNNER_SCREENSHOTS=docs/replays.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import runner.games
from runner.replay.html import build_record, render_page, write_html_replay

WIDTHS = (900, 1400)

#: game -> the labels its board must draw, from its record's board. Every registered game needs one (the
#: first test says which is missing).
COORDINATES: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "tower-defence": lambda r: ([str(x) for x in range(r["board"]["width"])]
                                + [str(y) for y in range(r["board"]["height"])]),
    "lanes": lambda r: ([str(col) for col in range(r["board"]["width"])]
                        + [str(row) for row in range(r["board"]["rows"])]) * 2
    # the timestep chart's axes and key
    + ["1", str(r["board"]["timesteps"]), "timestep", "lane 1: P2's soldiers (left axis)",
       "lane 2: P1's soldiers (left axis)", "lane 1: P1's towers' HP (right axis)",
       "lane 2: P2's towers' HP (right axis)"],
    "invaders": lambda r: [str(pos) for pos in range(r["board"]["length"])],
    "warzone": lambda r: [f"{t[0]} {t[1]}" for t in r["board"]["territories"]],
}

GAMES = tuple(runner.games.GAMES)


def test_every_registered_game_says_which_coordinates_its_board_draws() -> None:
    assert sorted(COORDINATES) == sorted(GAMES)


def axis_value(value: float) -> str:
    """A number as the charts' axes print it (viewer.js `axisValue`: at most two decimals)."""
    rounded = round(value * 100) / 100
    return str(int(rounded)) if float(rounded).is_integer() else repr(rounded)


def expected_axes(record: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """stat -> its chart's y axis (top, bottom: from 0), x axis (first and last turn) and key (seats drawn)."""
    charts = {}
    for stat in record["stats"]:
        drawn = [p for p, series in enumerate(stat["values"])
                 if any(isinstance(v, (int, float)) and not isinstance(v, bool) for v in series)]
        if not drawn:
            continue
        values = [v for p in drawn for v in stat["values"][p] if isinstance(v, (int, float))]
        low, high = min(0, min(values)), max(values)
        charts[stat["name"]] = {
            "y": [axis_value(high if high != low else low + 1), axis_value(low)],
            "x": [str(record["turns"][0]), str(record["turns"][-1])],
            "key": [record["seats"][p]["seat"] for p in drawn],
        }
    return charts


@pytest.fixture(scope="module")
def replays(match_logs, tmp_path_factory):
    folder = tmp_path_factory.mktemp("layout")
    made: dict[str, tuple[Path, dict[str, Any]]] = {}

    def replay_of(game: str) -> tuple[Path, dict[str, Any]]:
        if game not in made:
            target, _ = write_html_replay(match_logs[game], folder / f"{game}.html")
            made[game] = (target, build_record(match_logs[game])[0])
        return made[game]

    return replay_of


def _open(browser, path: Path, width: int, fragment: str = ""):
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(path.resolve().as_uri() + fragment)
    page.wait_for_function("() => document.body.dataset.round !== ''")
    return page, errors


SHOWN = """() => {
  const charts = {};
  for (const chart of document.querySelectorAll('.chart')) {
    charts[chart.dataset.stat] = {
      y: [chart.querySelector('.y-max').textContent, chart.querySelector('.y-min').textContent],
      x: [chart.querySelector('.x-min').textContent, chart.querySelector('.x-max').textContent],
      key: [...chart.querySelectorAll('.key-item')].map(item => item.textContent),
    };
  }
  const panels = {};
  for (const panel of document.querySelectorAll('.player')) {
    panels[panel.dataset.seat] = [...panel.querySelectorAll('.numbers b')].map(b => b.dataset.stat);
  }
  const width = document.documentElement.clientWidth;
  const outside = [...document.querySelectorAll('#board, .chart, .chart *, .player, #controls, #scrubber, header')]
    .filter(node => { const box = node.getBoundingClientRect();
                      return box.width > 0 && (box.left < -0.5 || box.right > width + 0.5); })
    .map(node => (node.className.baseVal ?? node.className) || node.id);
  const board = document.getElementById('board');
  return {charts, panels, outside, scroll: document.documentElement.scrollWidth, width,
          board: [board.clientWidth, board.clientHeight], text: ReplayViewer.boardText()};
}"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game", GAMES)
def test_coordinates_axes_and_nothing_cut_off(game, width, replays, browser, tmp_path) -> None:
    path, record = replays(game)
    turn = record["turns"][len(record["turns"]) // 2]
    page, errors = _open(browser, path, width, f"#round={turn}")
    try:
        shown = page.evaluate(SHOWN)
        shot = tmp_path / f"{game.replace('-', '_')}-{width}.png"
        page.screenshot(path=str(shot), full_page=True)
    finally:
        page.close()
    assert errors == []
    drawn = Counter(text for text, *_ in shown["text"])
    missing = Counter(COORDINATES[game](record)) - drawn
    assert not missing, f"{game}: the board does not draw {sorted(missing)}"
    board_width, board_height = shown["board"]
    cut = [(text, round(left), round(y)) for text, left, y, size in shown["text"]
           if left < -1 or left + size > board_width + 1 or not 0 <= y <= board_height]
    assert cut == [], f"{game} at {width} px: text drawn outside the board"
    assert shown["charts"] == expected_axes(record)
    for p, seat in enumerate(record["seats"]):  # each panel its own numbers only
        own = [stat["name"] for stat in record["stats"] if any(v is not None for v in stat["values"][p])]
        assert shown["panels"][seat["seat"]] == own
    assert shown["outside"] == [] and shown["scroll"] <= shown["width"], f"{game} at {width} px: {shown['outside']}"
    keep = os.environ.get("TD_RUNNER_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, Path(keep) / shot.name)


def test_the_invader_panel_has_no_life_and_the_life_chart_starts_at_zero(replays, browser) -> None:
    path, record = replays("invaders")
    page, errors = _open(browser, path, 900)
    try:
        shown = page.evaluate(SHOWN)
    finally:
        page.close()
    assert "life" not in shown["panels"]["invader"] and "life" in shown["panels"]["defender"]
    assert shown["charts"]["life"]["y"][1] == "0" and shown["charts"]["life"]["key"] == ["defender"]
    assert errors == []


def test_command_lines_are_numbered_as_the_rulings_number_them(match_logs, browser, tmp_path) -> None:
    """A Lanes command file's lines in the box are numbered from 1 as the E-codes count them (spec 10.5), and
    the lines a ruling names are marked."""
    record, board_js = build_record(match_logs["lanes"])
    lines = record["commands"][0][1].split("\n")[:-1]
    record["rulings"][0][1] = ["invalid", "E07 line 2: not enough money; E09 line 3: no such unit"]
    page_path = tmp_path / "lines.html"
    page_path.write_text(render_page(record, board_js), encoding="utf-8")
    page, errors = _open(browser, page_path, 900, f"#round={record['turns'][1]}")
    try:
        box = page.evaluate("""() => [...document.querySelectorAll('.player[data-seat="P1"] pre.command .line')]
            .map(line => [line.dataset.line, line.querySelector('.ln').textContent, line.classList.contains('named'),
                          line.textContent.slice(line.querySelector('.ln').textContent.length)])""")
    finally:
        page.close()
    assert errors == []
    assert [number for number, *_ in box] == [str(n) for n in range(1, len(lines) + 1)]
    assert [number for number, shown, *_ in box] == [shown for _, shown, *_ in box]
    assert [text for *_, text in box] == [f"{line}\n" for line in lines]
    assert [number for number, _, named, _ in box if named] == ["2", "3"]
