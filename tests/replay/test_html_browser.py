"""The HTML replay of every game in a real browser (headless Chromium): it loads with no console error and no
network request, shows the first round, steps, plays, follows `#round=N`, and draws a non-blank board."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import runner.games
from runner.replay.html import build_record, render_page, write_html_replay

from tests.replay.conftest import MATCHES
from tests.replay.test_lanes_timesteps import decode

#: Every registered game: a new game is tested here as soon as it is in the registry.
GAMES = tuple(runner.games.GAMES)


def test_every_registered_game_has_a_short_match_to_replay() -> None:
    """conftest.MATCHES holds each game's match arguments; a game missing there fails here, by name."""
    assert sorted(MATCHES) == sorted(GAMES)


def shown(value: Any) -> str:
    """A number as the viewer prints it (viewer.js `format`)."""
    if value is None:
        return "-"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.2f}"
    return str(int(value)) if isinstance(value, float) else str(value)


def expected_numbers(record: dict[str, Any], index: int) -> dict[str, dict[str, str]]:
    """Each seat's own numbers at a turn (a stat the seat never has is not in its panel)."""
    return {seat["seat"]: {stat["name"]: shown(stat["values"][p][index]) for stat in record["stats"]
                           if any(value is not None for value in stat["values"][p])}
            for p, seat in enumerate(record["seats"])}


def shown_numbers(opened, record) -> dict[str, dict[str, str]]:
    return {seat["seat"]: opened.numbers(seat["seat"]) for seat in record["seats"]}


@pytest.fixture(scope="module")
def pages(match_logs, tmp_path_factory):
    """game -> (page path, record), written once per module."""
    folder = tmp_path_factory.mktemp("pages")
    cache: dict[str, tuple[Path, dict[str, Any]]] = {}

    def page_of(game: str) -> tuple[Path, dict[str, Any]]:
        if game not in cache:
            log = match_logs[game]
            target, _ = write_html_replay(log, folder / f"{game}.html")
            record, _ = build_record(log)
            cache[game] = (target, record)
        return cache[game]

    return page_of


@pytest.mark.parametrize("game", GAMES)
def test_loads_offline_without_errors_and_shows_the_first_round(game, pages, open_page) -> None:
    path, record = pages(game)
    opened = open_page(path)
    assert opened.errors == []
    assert [text for kind, text in opened.console if kind in ("error", "warning")] == []
    assert opened.requests == [path.resolve().as_uri()]  # the page itself, nothing else
    assert opened.round == record["turns"][0]
    assert shown_numbers(opened, record) == expected_numbers(record, 0)
    board = opened.page.evaluate("document.getElementById('board').getBoundingClientRect().height")
    assert board > 100


@pytest.mark.parametrize("game", GAMES)
def test_keys_step_jump_and_play(game, pages, open_page) -> None:
    path, record = pages(game)
    turns = record["turns"]
    assert len(turns) >= 3, "the test match is too short to step through"
    opened = open_page(path)
    for _ in range(2):
        opened.page.keyboard.press("ArrowRight")
    assert opened.round == turns[2]
    assert shown_numbers(opened, record) == expected_numbers(record, 2)
    opened.page.keyboard.press("ArrowLeft")
    assert opened.round == turns[1]
    opened.page.keyboard.press("End")
    assert opened.round == turns[-1]
    assert shown_numbers(opened, record) == expected_numbers(record, len(turns) - 1)
    opened.page.keyboard.press("Home")
    assert opened.round == turns[0]
    opened.page.keyboard.press("7")  # 16x
    assert opened.page.evaluate("document.getElementById('speed').value") == "6"
    opened.page.keyboard.press(" ")
    opened.page.wait_for_function("n => +document.body.dataset.round > n", arg=turns[0], timeout=5000)
    opened.page.keyboard.press(" ")
    stopped = opened.round
    opened.page.wait_for_timeout(150)
    assert opened.round == stopped
    assert opened.errors == []


@pytest.mark.parametrize("game", GAMES)
def test_round_in_the_url_opens_that_round(game, pages, open_page) -> None:
    path, record = pages(game)
    index = len(record["turns"]) // 2
    turn = record["turns"][index]
    opened = open_page(path, f"#round={turn}")
    assert opened.round == turn
    assert shown_numbers(opened, record) == expected_numbers(record, index)
    opened.page.evaluate(f"location.hash = '#round={record['turns'][1]}'")
    opened.page.wait_for_function("n => document.body.dataset.round === String(n)", arg=record["turns"][1],
                                  timeout=3000)
    opened.page.keyboard.press("ArrowRight")
    assert opened.page.evaluate("location.hash") == f"#round={record['turns'][2]}"


@pytest.mark.parametrize("game", GAMES)
def test_screenshot_is_not_blank(game, pages, open_page, tmp_path) -> None:
    path, record = pages(game)
    turn = record["turns"][(len(record["turns"]) * 2) // 3]
    inside = "&step=3" if record.get("step_word") else ""  # a turn with steps: a few steps in, units moving
    opened = open_page(path, f"#round={turn}{inside}")
    colours = opened.page.evaluate("""() => {
        const canvas = document.getElementById('board');
        const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        const seen = new Set();
        for (let i = 0; i < data.length; i += 4 * 7) seen.add(data[i] << 16 | data[i + 1] << 8 | data[i + 2]);
        return seen.size;
    }""")
    assert colours > 8, "the board canvas is (nearly) one colour"
    shot = tmp_path / f"{game}.png"
    opened.page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 20_000  # (the kept screenshots are test_replay_layout.py's)


def test_bot_output_cannot_break_out_of_the_page(match_logs, open_page, tmp_path) -> None:
    """A bot printing HTML or `</script>` shows as text; the page still runs."""
    record, board_js = build_record(match_logs["tower-defence"])
    evil = "</script><script>document.title='owned'</script><b>bold</b>\u2028<!--"
    record["outputs"][0][0] = evil
    page = tmp_path / "evil.html"
    page.write_text(render_page(record, board_js), encoding="utf-8")
    opened = open_page(page)
    assert opened.errors == []
    assert opened.page.title() != "owned"
    assert opened.page.evaluate("document.querySelector('.player .output').textContent") == evil


@pytest.mark.parametrize("game", GAMES)
def test_only_a_game_with_steps_inside_a_turn_shows_the_step_bar(game, pages, open_page) -> None:
    path, record = pages(game)
    opened = open_page(path)
    hidden = opened.page.evaluate("document.getElementById('substeps').hidden")
    assert hidden == (game != "lanes")
    assert opened.page.evaluate("document.body.dataset.step") == (None if hidden else "100")  # a turn's end


def test_lanes_board_draws_a_mid_turn_timestep_as_the_engine_has_it(pages, open_page) -> None:
    """The board's own decoding (html_board.js `units`) at a busy mid-turn timestep is the record's, decoded
    in Python; the canvas differs from the same turn's start; comma and period step, across turns too."""
    path, record = pages("lanes")
    index = len(record["turns"]) // 2
    turn, steps = record["turns"][index], record["frames"][index]["s"]
    step = max(range(1, 60), key=lambda t: steps[t - 1][0] + steps[t - 1][1])  # the busiest early timestep
    assert steps[step - 1][0] + steps[step - 1][1] > 0
    opened = open_page(path, f"#round={turn}&step={step}")
    page = opened.page
    assert (opened.round, page.evaluate("document.body.dataset.step")) == (turn, str(step))
    assert page.evaluate("document.getElementById('step-position').textContent") == f"Timestep {step} / 100"
    drawn = page.evaluate("([i, s]) => ReplayBoard.units(ReplayViewer.record, i, s)", [index, step])
    assert drawn == [decode(lane, record["board"], step) for lane in record["frames"][index]["b"]]
    staying = [sum(1 for soldier in lane["soldiers"] if soldier[4] == 0) for lane in drawn]
    assert staying == steps[step - 1][:2]
    assert f"after timestep {step}: soldiers on the lanes {staying[0]} and {staying[1]}" in page.evaluate(
        "document.getElementById('describe').textContent")
    image = "document.getElementById('board').toDataURL()"
    mid = page.evaluate(image)
    page.keyboard.press(",")
    assert page.evaluate("document.body.dataset.step") == str(step - 1)
    page.evaluate(f"location.hash = '#round={turn}&step=0'")
    page.wait_for_function("() => document.body.dataset.step === '0'", timeout=3000)
    assert page.evaluate(image) != mid
    page.keyboard.press(",")  # before the turn's first timestep: the previous turn's end
    assert (opened.round, page.evaluate("document.body.dataset.step")) == (record["turns"][index - 1], "100")
    page.keyboard.press(".")
    assert (opened.round, page.evaluate("document.body.dataset.step")) == (turn, "0")
    page.keyboard.press("ArrowRight")  # a turn: its end
    assert (opened.round, page.evaluate("document.body.dataset.step")) == (record["turns"][index + 1], "100")
    assert page.evaluate("location.hash") == f"#round={record['turns'][index + 1]}"
    assert opened.errors == []
    assert [text for kind, text in opened.console if kind in ("error", "warning")] == []


def test_lanes_plays_through_the_timesteps(pages, open_page) -> None:
    path, record = pages("lanes")
    opened = open_page(path, f"#round={record['turns'][1]}")
    page = opened.page
    page.keyboard.press("t")
    assert page.evaluate("document.getElementById('step-play').checked")
    page.keyboard.press(" ")  # from the turn's end: its timesteps from the start
    page.wait_for_function("() => +document.body.dataset.step >= 3", timeout=5000)
    page.keyboard.press(" ")
    stopped = page.evaluate("document.body.dataset.step")
    assert opened.round == record["turns"][1] and 3 <= int(stopped) < 100
    page.wait_for_timeout(150)
    assert page.evaluate("document.body.dataset.step") == stopped
    assert opened.errors == []
