"""Long matches (issue 32.4, issue 34.6): every turn keeps its numbers, commands and rulings while the boards
are kept for some turns only; the Invaders reader's fast path gives exactly the record of parsing every line
whole, whatever the bots answered; the viewer shows, at a turn without its own board, the last one before it
and says so."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from runner.games.invaders import html_record as invaders_record
from runner.replay.html import build_record, fit, page_json, render_page, write_html_replay
from runner.replay.pack import unpacked
from runner.replay.record import RecordBuilder, thin

from tests.replay.test_lanes_timesteps import page_record

DATA = Path(__file__).parents[1] / "games" / "invaders" / "data"


def _builder(frame_bytes: int | None) -> RecordBuilder:
    return RecordBuilder("g", "G", [("A", "a"), ("B", "b")], ["n"], frame_bytes=frame_bytes)


def test_boards_halve_as_they_outgrow_the_budget_and_every_turn_keeps_its_numbers() -> None:
    builder = _builder(frame_bytes=20_000)
    made: list[int] = []

    def frame(turn: int):
        def make():
            made.append(turn)
            return {"turn": turn, "pad": "z" * 80}
        return make

    for turn in range(1, 5001):
        builder.add(turn, [{"n": turn}, {"n": -turn}], [f"c{turn}", ""], [("ok", ""), ("none", "")], ["", ""],
                    frame(turn), 100)
        if turn == 2345:
            builder.mark(turn, "crash", "boom")
    record = builder.build({})
    assert record["turns"] == list(range(1, 5001))
    assert record["stats"][0]["values"] == [list(range(1, 5001)), [-t for t in range(1, 5001)]]
    assert record["commands"][0][4999] == "c5000"
    index = record["frame_index"]
    assert index[0] == 0 and index[-1] == 4999 and 2344 in index  # first, last, marked
    assert 100 <= len(index) <= 203 and len(record["frames"]) == len(index)
    assert [frame["turn"] for frame in record["frames"]] == [record["turns"][i] for i in index]
    assert sorted(made) == sorted(set(made)) == sorted(frame["turn"] for frame in record["frames"])  # only kept ones
    stride = index[2] - index[1]
    assert stride & (stride - 1) == 0 and stride >= 32  # a power of two
    fitted = fit(record)
    assert "the board is drawn at" in fitted["note"]
    assert f"at {len(index)} of 5000 turns" in fitted["note"]


def test_fit_drops_boards_before_turns_and_turns_only_when_the_numbers_alone_are_too_big() -> None:
    builder = _builder(frame_bytes=None)
    for turn in range(1000):
        builder.add(turn, [{"n": turn}, {"n": turn}], [f"x{turn}", f"y{turn}"], [("ok", ""), ("ok", "")], ["", ""],
                    {"pad": "z" * 500})
    builder.mark(777, "crash", "boom")
    record = builder.build({}, max_bytes=200_000)
    fitted = fit(record)
    assert fitted["turns"] == list(range(1000))  # every turn
    assert len(page_json(fitted)) <= 200_000  # the page's record, packed
    assert 777 in fitted["frame_index"] and fitted["frame_index"][-1] == 999
    assert "of 1000 turns kept" not in fitted["note"]
    small = builder.build({}, max_bytes=10_000)  # the numbers alone are over it: turns go too
    thinned = fit(small)
    assert len(thinned["turns"]) < 1000 and "turns kept (one in" in thinned["note"]
    assert thinned["turns"][0] == 0 and thinned["turns"][-1] == 999


def test_thinning_turns_keeps_each_kept_turns_own_frame() -> None:
    builder = _builder(frame_bytes=None)
    for turn in range(10):
        builder.add(turn, [{"n": turn}, {"n": turn}], ["", ""], [("ok", ""), ("ok", "")], ["", ""], turn * 10)
    record = thin({**builder.build({}), "frame_index": [0, 3, 6, 9], "frames": [0, 30, 60, 90]}, [0, 2, 3, 9])
    assert record["turns"] == [0, 2, 3, 9]
    assert record["frame_index"] == [0, 2, 3] and record["frames"] == [0, 30, 90]


def _line(turn: int, ia, da, ir: str = "applied", dr: str = "none", **extra) -> str:
    row = {"t": turn, "ig": 5, "dg": 7, "life": 100 - turn // 3, "thru": turn // 3, "inc": 10, "bmax": 1,
           "hpm": 1.21, "tsls": 0, "ia": ia, "da": da, "sp": ia is not None,
           **({"end": True} if extra.pop("end", False) else {}),
           "tw": [[5, "turret", 1, 1, turn % 2, 0], [9, "stunner", 1, 2, 0, 1]],
           "iv": [[p, 10, 12, 0, 0, p % 2] for p in range(0, turn % 7)], "ir": ir, "dr": dr, **extra}
    return json.dumps(row, separators=(",", ":")) + "\n"


HOSTILE_ANSWERS = [
    {"tw": [[1, "x", 1, 1, 1, 1]], "iv": [[1]]},
    {"note": '],"iv":[ ]] ,"tw":[ </script>'},
    ["tw", {"iv": []}, {"tw": []}],
    None,
]


def _hostile_log(folder: Path) -> Path:
    folder.mkdir()
    (folder / "match.json").write_text(json.dumps({"game": "invaders", "players": [
        {"seat": "defender", "name": "defender - d"}, {"seat": "invader", "name": "invader - i"}]}))
    lines = []
    for turn in range(1, 41):
        answer = HOSTILE_ANSWERS[turn % len(HOSTILE_ANSWERS)]
        extra = {"faults": {"invader": "timeout"}} if turn == 17 else {}
        lines.append(_line(turn, answer, {"action": "upgrade", "pos": turn % 3}, ir="bad answer" if turn % 5 else
                           "applied", end=turn == 40, **extra))
    (folder / "log.jsonl").write_text("".join(lines))
    return folder


@pytest.fixture
def slow_only(monkeypatch):
    """html_record with every line parsed whole (the fast path refuses every line)."""
    def record_of(path: Path) -> dict:
        with monkeypatch.context() as patch:
            patch.setattr(invaders_record, "_turn", lambda line, plays: None)
            return invaders_record.html_record(path)
    return record_of


def _fast(path: Path, monkeypatch) -> tuple[dict, int]:
    """html_record as it runs, and how many lines the fast path left to the slow one."""
    slow = []
    original = invaders_record._parsed_turn

    def counted(line: str, where: str):
        slow.append(line)
        return original(line, where)

    with monkeypatch.context() as patch:
        patch.setattr(invaders_record, "_parsed_turn", counted)
        return invaders_record.html_record(path), len([line for line in slow if line.strip()])


def test_invaders_fast_path_equals_parsing_whole_on_a_real_match(match_logs, slow_only, monkeypatch) -> None:
    record, slow = _fast(match_logs["invaders"], monkeypatch)
    assert slow == 0  # the session's lines all take the fast path
    assert record == slow_only(match_logs["invaders"])
    assert record["stats"][0]["values"][1] == [None] * len(record["turns"])  # the invader has no life of its own


@pytest.mark.parametrize("trace", sorted(p.name for p in DATA.glob("*.jsonl.gz"))[:3])
def test_invaders_fast_path_equals_parsing_whole_on_reference_traces(trace, tmp_path, slow_only, monkeypatch) -> None:
    path = tmp_path / trace
    shutil.copyfile(DATA / trace, path)
    record, _ = _fast(path, monkeypatch)
    assert record == slow_only(path)


def test_invaders_fast_path_is_not_fooled_by_answers_spelling_the_board_keys(tmp_path, slow_only,
                                                                             monkeypatch) -> None:
    log = _hostile_log(tmp_path / "hostile")
    record, slow = _fast(log, monkeypatch)
    assert slow == 0
    assert record == slow_only(log)
    assert record["stats"][2]["values"][0][:3] == [2, 2, 2]  # towers counted from the row's own list
    assert record["frames"][0] == ["." * 5 + "t" + "..." + "S" + "." * 90, [0, 10, 12, 0]]
    assert record["commands"][1][0] == json.dumps(HOSTILE_ANSWERS[1], separators=(",", ":"))
    assert record["rulings"][1][16] == ["fault", "fault: timeout"]  # the game's word; the core names the fault
    assert [17, "timeout", "invader - i: fault: timeout"] in build_record(log)[0]["markers"]


def test_a_broken_line_is_one_error_naming_the_line(tmp_path) -> None:
    from runner.errors import UserError

    log = _hostile_log(tmp_path / "broken")
    lines = (log / "log.jsonl").read_text().splitlines(keepends=True)
    lines[3] = lines[3][:40] + "\n"
    (log / "log.jsonl").write_text("".join(lines))
    with pytest.raises(UserError, match=r"log\.jsonl:4: not JSON"):
        invaders_record.html_record(log)


def test_a_page_with_some_boards_shows_the_last_board_and_every_turns_numbers(tmp_path, open_page,
                                                                               monkeypatch) -> None:
    log = _hostile_log(tmp_path / "long")
    monkeypatch.setattr(invaders_record, "FRAME_BYTES", 1500)
    record, board_js = build_record(log)
    index = record["frame_index"]
    assert len(index) < len(record["turns"])
    between = next(i for i in range(len(record["turns"])) if i not in index)
    owner = max(i for i in index if i < between)
    page = tmp_path / "page.html"
    page.write_text(render_page(record, board_js), encoding="utf-8")
    opened = open_page(page, f"#round={record['turns'][between]}")
    assert opened.errors == []
    assert opened.round == record["turns"][between]
    assert opened.numbers("defender")["life"] == str(record["stats"][0]["values"][0][between])
    assert "life" not in opened.numbers("invader")  # the defender's number: not in the invader's panel
    described = opened.page.evaluate("document.getElementById('describe').textContent")
    assert described.startswith(f"board of turn {record['turns'][owner]} ")
    opened.page.evaluate(f"ReplayViewer.show({owner})")
    assert not opened.page.evaluate("document.getElementById('describe').textContent").startswith("board of")
    opened.page.keyboard.press("End")
    assert opened.round == record["turns"][-1] and opened.errors == []


def test_a_gz_target_is_written_compressed(match_logs, tmp_path) -> None:
    target, size = write_html_replay(match_logs["invaders"], tmp_path / "page.html.gz")
    data = target.read_bytes()
    assert size == len(data) and data[:2] == b"\x1f\x8b"
    plain, _ = write_html_replay(match_logs["invaders"], tmp_path / "page.html")
    assert gzip.decompress(data) == plain.read_bytes()


def _long_row(turn: int) -> str:
    """A line of a 100,000-turn match as the session writes it: four towers and a few invaders, the invader
    spawning every other turn, the life dropping from 100 to 99 at turn 50,000 (formatted, not json.dumps'd:
    100,000 of them)."""
    towers = ",".join(f'[{95 + k},"turret",1,1,{(turn + k) % 3},0]' for k in range(4))
    invaders = ",".join(f"[{(turn + 7 * k) % 95},10,12,0,0,0]" for k in range(turn % 4))
    late = int(turn >= 50_000)
    spawn = '{"hp":0,"defense":0,"stunRes":0}' if turn % 2 else "null"
    return (f'{{"t":{turn},"ig":{turn % 23},"dg":{turn * 7 % 101},"life":{100 - late},"thru":{late},"inc":10,'
            f'"bmax":0,"hpm":1,"tsls":0,"ia":{spawn},"da":null,"sp":{"true" if turn % 2 else "false"},'
            f'"tw":[{towers}],"iv":[{invaders}],"ir":"{"applied" if turn % 2 else "none"}","dr":"none"}}\n')


def test_a_100000_turn_invaders_page_is_under_2_mb_and_shows_every_turns_numbers(tmp_path, open_page) -> None:
    """Issue 34: a 100,000-turn replay under 2 MB (its writing time is benchmarks/replay_long.py's), every turn's
    numbers shown, a thinned turn's too; the life going from 100 to 99 is drawn on an axis from 0."""
    log = tmp_path / "long"
    log.mkdir()
    (log / "match.json").write_text(json.dumps({"game": "invaders", "players": [
        {"seat": "defender", "name": "defender - d"}, {"seat": "invader", "name": "invader - i"}]}))
    (log / "log.jsonl").write_text("".join(_long_row(turn) for turn in range(1, 100_001)))
    target, size = write_html_replay(log, tmp_path / "long.html")
    assert size < 2_000_000
    record = unpacked(json.loads(page_record(target)))
    assert record["turns"] == list(range(1, 100_001))
    index = record["frame_index"]
    assert 100 < len(index) < 100_000
    between = next(i for i in range(60_000, 100_000) if i not in set(index))  # a turn drawn with an earlier board
    turn = record["turns"][between]
    opened = open_page(target, f"#round={turn}")
    assert opened.errors == [] and opened.round == turn
    assert opened.numbers("defender") == {"life": "99", "gold": str((turn * 7) % 101), "towers": "4"}
    assert opened.numbers("invader") == {"gold": str(turn % 23), "invaders": str(turn % 4)}
    assert opened.page.evaluate("document.getElementById('describe').textContent").startswith("board of turn ")
    axis = opened.page.evaluate("""[...document.querySelectorAll('.chart[data-stat="life"] .y-axis span')]
                                   .map(span => span.textContent)""")
    assert axis == ["100", "0"]
