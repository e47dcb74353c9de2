"""The HTML replay without a browser: records, size limits, thinning, the page's self-containment, the CLI."""

from __future__ import annotations

import io
import json
import re
import shutil
import tarfile
from pathlib import Path

import attrs
import pytest

import runner.games
from runner.cli import main
from runner.errors import UserError
from runner.replay import html
from runner.replay.html import build_record, fit, html_hook, render_page, write_html_replay
from runner.replay.pack import unpacked
from runner.replay.record import RULING_KINDS, MARKER_KINDS, RecordBuilder

from tests.replay.conftest import MATCHES

CONFORMANCE = Path(__file__).parents[1] / "games" / "tower_defence" / "data" / "conformance"
LANES_DATA = Path(__file__).parents[1] / "games" / "lanes" / "data"


@pytest.fixture(scope="module")
def conformance_root(tmp_path_factory) -> Path:
    """The two official logs these tests read, unpacked (not all 17: the suite's fixture takes seconds)."""
    root = tmp_path_factory.mktemp("official")
    for name in ("gg-mirror-g11", "rr-505-vs-606-invalid15"):
        with tarfile.open(CONFORMANCE / f"{name}.tar.gz") as archive:
            archive.extractall(root, filter="data")
    return root


def _record_json(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="record">(.*?)</script>', page, re.DOTALL)
    assert found, "no embedded record"
    return unpacked(json.loads(found.group(1)))


def _check_shape(record: dict) -> None:
    frames = len(record["turns"])
    assert frames >= 1 and record["turns"] == sorted(record["turns"])
    index = record.get("frame_index")
    if index is None:
        assert len(record["frames"]) == frames
    else:  # the boards of some turns only (a long match): every turn keeps its numbers
        assert len(record["frames"]) == len(index) < frames and index[0] == 0 and index == sorted(set(index))
        assert index[-1] == frames - 1  # the last turn's board is always there
    seats = len(record["seats"])
    for key in ("commands", "rulings", "outputs"):
        assert len(record[key]) == seats and all(len(column) == frames for column in record[key]), key
    for stat in record["stats"]:
        assert len(stat["values"]) == seats and all(len(column) == frames for column in stat["values"])
    assert {kind for column in record["rulings"] for kind, _ in column} <= set(RULING_KINDS)
    assert {kind for _, kind, _ in record["markers"]} <= set(MARKER_KINDS)


def test_official_401_round_log_stays_under_2_mb_with_every_round(conformance_root: Path, tmp_path: Path) -> None:
    log = conformance_root / "gg-mirror-g11"
    target, size = write_html_replay(log, tmp_path / "gg.html")
    assert size < 2_000_000
    page = target.read_text(encoding="utf-8")
    record = _record_json(page)
    _check_shape(record)
    assert record["turns"] == list(range(402)) and record["note"] == ""
    assert [stat["name"] for stat in record["stats"]] == ["score", "health", "energy"]  # standings()
    assert record["result"].startswith("draw")  # the replayed match's end, as there is no match.json
    kinds = {kind for _, kind, _ in record["markers"]}
    assert {"destroyed", "curtain", "end"} <= kinds


def test_invalid_commands_are_ruled_and_marked(conformance_root: Path) -> None:
    record, _ = build_record(conformance_root / "rr-505-vs-606-invalid15")
    _check_shape(record)
    index = record["turns"].index(13)
    assert record["commands"][1][index] == "10,3,4"
    refused = "Player B: Invalid command received: The position is out of bounds x:[10] y:[3]"  # the rules' words
    assert record["rulings"][1][index] == ["invalid", refused]
    assert record["rulings"][0][index][0] == "none"
    # the core marks every refused answer alike: the player's name, then the ruling
    assert [13, "invalid", f"B - RandomBot: {refused}"] in record["markers"]


def test_page_is_self_contained(match_logs, tmp_path: Path) -> None:
    target, _ = write_html_replay(match_logs["tower-defence"], tmp_path / "td.html")
    page = target.read_text(encoding="utf-8")
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert not re.search(r"<(script|img|link|iframe)[^>]*\s(src|href)=", page)
    assert "{{" not in page  # every placeholder filled
    assert page.count("</script>") == 3  # record, board, viewer: nothing inlined closes a script early
    record = _record_json(page)
    _check_shape(record)
    assert record["result"].startswith(("A - ", "B - ", "draw"))


def test_match_events_become_rulings_and_markers() -> None:
    builder = RecordBuilder("g", "G", [("A", "A - x"), ("B", "B - y")], ["score"])
    for turn in (1, 2, 3):
        builder.add(turn, [{"score": turn}, {"score": turn}], ["go", "go"], [("ok", "accepted")] * 2, ["", ""], {})
    record = builder.build({})
    html.add_match_events(record, {"players": [
        {"seat": "B", "name": "B - y", "events": [{"round": 2, "event": "timed out after 2000 ms"}]},
        {"seat": "A", "name": "A - x", "events": [{"round": 3, "event": "exit code 1"},
                                                  {"round": 1, "event": "output truncated at 64 KiB"}]},
    ]})
    assert record["rulings"][1][1] == ["timeout", "accepted; timed out after 2000 ms"]
    assert record["rulings"][0][2] == ["crash", "accepted; exit code 1"]
    assert record["rulings"][0][0] == ["ok", "accepted; output truncated at 64 KiB"]
    assert sorted(record["markers"]) == [[2, "timeout", "B - y: timed out after 2000 ms"],
                                         [3, "crash", "A - x: exit code 1"]]


def test_thinning_keeps_first_last_and_marked_turns_and_says_so() -> None:
    builder = RecordBuilder("g", "G", [("A", "A")], ["n"])
    for turn in range(1000):
        builder.add(turn, [{"n": turn}], [f"{turn}" + "x" * 50], [("ok", "")], [f"{turn}" + "y" * 50],
                    {"pad": "z" * 100})  # every turn's answer its own: nothing to pack
    builder.mark(333, "crash", "boom")
    record = builder.build({}, max_bytes=60_000)
    thinned = fit(record)
    assert len(html.page_json(thinned)) <= 60_000  # the page's record, packed
    _check_shape(thinned)
    assert thinned["turns"][0] == 0 and thinned["turns"][-1] == 999 and 333 in thinned["turns"]
    assert "thinned" in thinned["note"] and "of 1000 turns kept" in thinned["note"]
    assert thinned["stats"][0]["values"][0] == thinned["turns"]  # every column thinned alike
    small = builder.build({})
    assert fit(small) is small  # under the limit: untouched


def test_a_game_without_the_hook_gets_the_cores_default(tmp_path: Path) -> None:
    @attrs.frozen
    class Bare:  # a game not built on GameDefaults
        name: str = "stones"

    (tmp_path / "m").mkdir()
    hook = html_hook(Bare())  # the core's default replay: it reads the record, and says so when there is none
    with pytest.raises(UserError, match=r"m: not a match log written by td-runner \(no record.jsonl"):
        hook(tmp_path / "m")


def test_replay_html_command_and_its_errors(match_logs, tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    target = tmp_path / "page.html"
    assert main(["replay", str(match_logs["tower-defence"]), "--html", str(target)], out=out, err=err) == 0
    assert out.getvalue().startswith(f"wrote {target} (") and target.stat().st_size > 10_000
    assert main(["replay", str(tmp_path / "nothing"), "--html"], out=out, err=err) == 2
    assert err.getvalue().startswith("error: ")
    # `replay --html LOG` (flag first): argparse reads LOG as --html's FILE; the folder is taken as the log
    log = Path(shutil.copytree(match_logs["tower-defence"], tmp_path / "flag-first"))
    out = io.StringIO()
    assert main(["replay", "--html", str(log)], out=out, err=err) == 0
    assert out.getvalue().startswith(f"wrote {log}.html (")
    err = io.StringIO()
    assert main(["replay", "--html"], out=out, err=err) == 2
    assert err.getvalue() == "error: give the match folder to replay: td-runner replay LOG [--html [FILE]]\n"


def test_match_html_writes_the_page_beside_the_log(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(["match", *MATCHES["tower-defence"][:2], "--max-rounds", "2", "--output", str(tmp_path),
                 "--name", "m", "--html"], out=out, err=err)
    assert code == 0, err.getvalue()
    page = tmp_path / "m.html"
    assert f"replay: {page} (" in out.getvalue()
    assert _record_json(page.read_text(encoding="utf-8"))["turns"][-1] == 3
    assert main(["validate", str(tmp_path / "m")], out=io.StringIO(), err=io.StringIO()) == 0


def test_warzone_board_comes_from_the_maps_coordinates(tmp_path: Path) -> None:
    """tiny-ring is a Domination map: `id name continent x y`; the graph keeps its borders."""
    args = ["match", "--game", "warzone", "--map", str(Path(MATCHES["warzone"][3]).with_name("tiny-ring.map")),
            "--max-turns", "4", *MATCHES["warzone"][-3:], "--output", str(tmp_path), "--name", "w", "--quiet"]
    assert main(args, out=io.StringIO(), err=io.StringIO()) == 0
    record, board_js = build_record(tmp_path / "w")
    _check_shape(record)
    assert record["board"]["name"] == "tiny-ring"
    assert [t[1:] for t in record["board"]["territories"]] == [
        ["NW", 1, 10.0, 10.0], ["SW", 1, 10.0, 50.0], ["NE", 2, 50.0, 10.0], ["SE", 2, 50.0, 50.0]]
    assert record["board"]["edges"] == [[1, 2], [1, 3], [2, 4], [3, 4]]
    assert [stat["name"] for stat in record["stats"]][:4] == ["territories", "armies", "pool", "cards"]  # standings()
    owners = record["frames"][0]["o"]
    assert len(owners) == 8 and all(-1 <= owner < 3 for owner in owners[::2])
    assert "window.ReplayBoard" in board_js


def _invaders_row(turn: int) -> dict:
    towers = [[pos, "turret" if pos % 3 else "stunner", 1, 1, turn % 2, 0] for pos in range(0, 100, 2)]
    invaders = [[pos, 10, 12, 0, 0, pos % 2] for pos in range(0, 100, 9)]
    return {"t": turn, "ig": turn % 97, "dg": turn % 89, "life": 100 - turn // 1000, "thru": turn // 1000,
            "inc": 10, "bmax": 0, "hpm": 1, "tsls": 0, "ia": {"hp": 1, "defense": 0, "stunRes": 0},
            "da": {"action": "upgrade", "pos": turn % 100}, "sp": True, "tw": towers, "iv": invaders,
            "ir": "applied", "dr": "not enough gold" if turn % 5000 == 0 else "applied"}


def test_a_20000_turn_invaders_match_stays_under_10_mb(tmp_path: Path) -> None:
    """A full path of towers and a dozen invaders every turn: the heaviest frames Invaders makes."""
    log = tmp_path / "long"
    log.mkdir()
    (log / "match.json").write_text(json.dumps({"game": "invaders", "players": []}), encoding="utf-8")
    with (log / "log.jsonl").open("w", encoding="utf-8") as handle:
        for turn in range(1, 20_001):
            handle.write(json.dumps(_invaders_row(turn), separators=(",", ":")) + "\n")
    target, size = write_html_replay(log, tmp_path / "long.html")
    assert size < 10_000_000
    record = _record_json(target.read_text(encoding="utf-8"))
    _check_shape(record)
    assert len(record["turns"]) == 20_000 and "thinned" not in record["note"]  # fits whole
    assert record["frames"][0][0] == "".join(("T" if pos % 3 else "S") if pos % 2 == 0 else "."
                                             for pos in range(100)).lower()
    assert [5000, "invalid", "defender: not enough gold"] in record["markers"]
    assert sum(kind == "breach" for _, kind, _ in record["markers"]) == 20


def test_lanes_frames_show_each_played_turn(match_logs) -> None:
    record, _ = build_record(match_logs["lanes"])
    _check_shape(record)
    assert record["turns"] == [1, 2, 3, 4, 5, 6]
    assert [stat["name"] for stat in record["stats"]][:4] == ["hp", "money", "towers", "soldiers"]  # standings()
    assert all(len(frame["s"]) == 100 for frame in record["frames"])  # the turn's timesteps
    assert record["commands"][0][0].startswith("TURN 1")
    assert record["rulings"][0][0] == ["ok", ""]  # the core's word: accepted


def test_lanes_e01_in_the_cores_words_is_ruled_a_timeout_or_a_crash(tmp_path: Path) -> None:
    """Lanes' E01 carries the core's words since Answer.detail (`bot did not finish within 5.0 s`): the replay
    must still rule and mark them as time-outs and crashes, and no file as nothing."""
    from runner.games.interface import Absent, Answer, Fault
    from runner.games.lanes.rules.config import LanesConfig
    from tests.games.lanes.lanes_logs import waller, write_folder_log

    faults = {1: Answer("", Fault.TIMEOUT, detail="did not finish within 5.0 s"),
              2: Answer("", Fault.CRASH, detail="was killed by SIGSEGV"),
              3: Answer("", Fault.CRASH, detail="exited with status 1"),
              4: Answer("", absent=Absent.REFUSED, detail="wrote a commands.txt that cannot be read: commands.txt "
                                                          "is a symlink to /tmp/timeout, outside the bot folder"),
              5: Answer("", Fault.TIMEOUT)}  # a log from before the core's words: session.FAULT_MESSAGES
    write_folder_log(tmp_path / "m", LanesConfig(max_turns=5),
                     {"P1": lambda turn, state: faults[turn], "P2": waller})
    record, _ = build_record(tmp_path / "m")
    assert [kind for kind, _ in record["rulings"][0]] == ["timeout", "crash", "crash", "none", "timeout"]
    assert record["rulings"][0][0] == ["timeout", "bot did not finish within 5.0 s"]
    # the record's names (its header), and a fault without the core's words named by the core's Fault
    assert [marker for marker in record["markers"] if marker[2].startswith("P1 - ")] == [
        [1, "timeout", "P1 - botP1: bot did not finish within 5.0 s"],
        [2, "crash", "P1 - botP1: bot was killed by SIGSEGV"],
        [3, "crash", "P1 - botP1: bot exited with status 1"], [5, "timeout", "P1 - botP1: timeout"]]


@pytest.mark.parametrize(("event", "kind"), [
    ("timed out after 2000 ms, process tree killed", "timeout"),
    ("no answer within 1000 ms; the bot keeps running, a late answer is dropped", "timeout"),  # persistent
    ("no start-up and first answer within 10000 ms; the bot keeps running, a late answer is dropped", "timeout"),
    ("exit code 3", "crash"),
    ("killed by SIGSEGV", "crash"),
    ("the bot process ended (exit code 1); it is not restarted", "crash"),
    ("dropped 1 late answer to an earlier turn", ""),
])
def test_bot_events_are_ruled_by_their_words(event: str, kind: str) -> None:
    assert html._event_kind(event) == kind


@pytest.mark.parametrize("game", sorted(runner.games.GAMES))
def test_the_cores_default_replay_reads_every_games_log(game: str, match_logs) -> None:
    """The core's replay with no board view (the page of a game that draws no board) on each registered game's
    log: every recorded turn, each seat's final numbers those of match.json, and no board."""
    from runner.logtools.record import open_record
    from runner.replay.default import default_html_replay

    played = runner.games.get_game(game)
    log = match_logs[game]
    record, board_js = default_html_replay(played, log)
    _check_shape(record)
    opened = open_record(played, log)
    assert board_js == "" and "no board drawing" in record["note"]
    assert record["turns"] == [turn.turn for turn in opened.turns]
    assert record["frames"] == [None] * len(record["turns"])
    final = {player["seat"]: player for player in opened.match["players"]}
    names = [stat["name"] for stat in record["stats"]]
    assert names, "standings() gave no numbers"
    for p, seat in enumerate(record["seats"]):
        assert seat["name"] == opened.names[seat["seat"]]
        shown = {stat["name"]: stat["values"][p][-1] for stat in record["stats"]}
        standing = final[seat["seat"]].get("standings") or final[seat["seat"]]
        assert {name: standing[name] for name in shown if name in standing} == {
            name: value for name, value in shown.items() if name in standing}
        first = opened.turns[0].answers.get(seat["seat"])
        assert record["commands"][p][0] == (first.text if first is not None else "")


@pytest.mark.parametrize("game", ["tower-defence", "warzone", "lanes"])
def test_a_games_board_view_gets_every_recorded_turn_its_frames_and_the_end(game: str, match_logs) -> None:
    """The core's replay with a game's board (runner/replay/default.py BoardView): every recorded turn with
    the answer as recorded and a frame, the end marked at the last turn shown and, where the game draws the
    board as the match ended (`end=`), that board as one more turn in which nobody plays."""
    from runner.logtools.record import open_record

    played = runner.games.get_game(game)
    record, board_js = build_record(match_logs[game])
    _check_shape(record)
    opened = open_record(played, match_logs[game])
    recorded = [turn.turn for turn in opened.turns]
    assert record["turns"][:len(recorded)] == recorded and "window.ReplayBoard" in board_js
    assert all(frame for frame in record["frames"]) and record["note"] == ""
    extra = record["turns"][len(recorded):]
    if extra:  # the final board: one more turn, nobody's answer
        assert extra == [recorded[-1] + 1]
        assert all(seat[-1] == ["out", "the match is over"] for seat in record["rulings"])
    assert [kind for turn, kind, _ in record["markers"] if turn == record["turns"][-1]][-1:] == ["end"]
    for p, seat in enumerate(record["seats"]):
        first = opened.turns[0].answers.get(seat["seat"])
        assert record["commands"][p][0] == (first.text if first is not None else "")


@pytest.mark.parametrize("trace", ["sloppy_vs_wall.jsonl", "wall_vs_trickle.jsonl"])
def test_a_lanes_trace_from_outside_gets_the_cores_replay_with_its_board(trace: str) -> None:
    """A spec 11 trace has no record.jsonl: Lanes reads it into the core's record, so the page has every
    turn's answer as the trace keeps it, the rules' refusals, the lanes of every timestep and the end."""
    lines = [json.loads(line) for line in (LANES_DATA / trace).read_text(encoding="utf-8").splitlines()]
    turns = [line for line in lines if "turn" in line]
    record, board_js = build_record(LANES_DATA / trace)
    _check_shape(record)
    assert record["turns"] == [line["turn"] for line in turns] and "window.ReplayBoard" in board_js
    assert all(len(frame["s"]) == 100 and frame["s"] == turn["steps"] for frame, turn in zip(record["frames"], turns))
    for index, turn in enumerate(turns):
        for p in (0, 1):
            kind, why = record["rulings"][p][index]
            assert (kind == "invalid") == bool(turn["rejected"][p]) and all(r in why for r in turn["rejected"][p])
            if not turn["rejected"][p]:  # (a long file is clipped: runner/replay/record.py COMMAND_CHARS)
                sent = "".join(f"{line}\n" for line in turn["commands"][p])
                assert sent.startswith(record["commands"][p][index].split("\n... (")[0])
    assert record["markers"][-1][1] == "end"
