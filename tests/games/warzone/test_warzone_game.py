"""Warzone through the core's interface: Game facts, configure, whole matches, and the log tools."""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import pytest
from warzone_helpers import MAPS, run_match, starter_orders, write_log

from runner.errors import UserError
from runner.games.interface import AnswerLines, BotMode, FolderLog
from runner.games import game_of_log
from runner.games.warzone import GAME

PACKAGE = MAPS.parent
CHOOSE = starter_orders()


def idle(state: dict) -> list[str]:
    return []


def configured(map_name: str = "tiny-gates.map", **options):
    return GAME.configure(None, {"map": str(MAPS / map_name), **options})


def test_static_facts() -> None:
    assert GAME.name == "warzone" and GAME.player_counts == (2, 3, 4, 5, 6)
    # per turn by default; persistent by opt-in, through the core's frames (issue 35)
    assert GAME.bot_modes == frozenset({BotMode.PER_TURN, BotMode.PERSISTENT}) and GAME.timeout_ms == 2000
    assert GAME.default_mode is BotMode.PER_TURN and GAME.persistent_frames
    assert (GAME.answer_file.name, GAME.answer_file.cap_bytes, GAME.answer_file.lines) == (
        "orders.txt", 65537, AnswerLines.ALL)  # 64 KiB count; one byte more tells "larger"
    assert isinstance(GAME.log, FolderLog) and GAME.log.answer == "orders.txt"
    assert GAME.log.turn_folder.format(turn=7) == "Turn 007"
    assert {option.dest for option in GAME.options} >= {"map", "max_turns"}
    assert GAME.seats(6) == tuple("ABCDEF") and GAME.seats(2) == ("A", "B")
    with pytest.raises(UserError):
        GAME.seats(7)
    assert GAME.accept_line("deploy 1 1", 1) is None
    assert set(GAME.end_reasons) == {"conquest", "max_turns"} and GAME.console_prompt is None
    assert GAME.new_session(configured(max_turns=7), ("A", "B"), 1, {}).turn_limit == 7


def test_configure_without_a_map_plays_the_default_map() -> None:
    assert GAME.configure(None, {}).warmap.name == "td-harbour"
    with pytest.raises(UserError, match="map nowhere.map: no such file"):
        GAME.configure(None, {"map": "nowhere.map"})


def test_configure_bad_map_names_file_line_and_code(tmp_path: Path) -> None:
    bad = tmp_path / "bad.map"
    bad.write_text("[continents]\nX 1\n[countries]\n1 a 2 0 0\n[borders]\n1\n")
    with pytest.raises(UserError, match=r"bad\.map:4: E_UNKNOWN_CONTINENT"):
        GAME.configure(None, {"map": str(bad)})
    with pytest.raises(UserError, match="E_ASYMMETRIC_BORDER"):
        configured("tiny-oneway.map")
    assert configured("tiny-oneway.map", map_validation="lenient").warmap.edge_count == 3
    with pytest.raises(UserError, match="cannot read"):
        GAME.configure(None, {"map": str(tmp_path / "missing.map")})


def test_configure_from_file_with_relative_map(tmp_path: Path) -> None:
    shutil.copy(MAPS / "tiny-ring.map", tmp_path / "ring.map")
    config_file = tmp_path / "game-config.json"
    config_file.write_text(json.dumps({"game": "warzone", "map": "ring.map", "max_turns": 9, "blockade_multiplier": 2}))
    config = GAME.configure(config_file, {"max_turns": 4})
    assert (config.config.rules.max_turns, config.config.rules.blockade_multiplier) == (4, 2)
    assert GAME.config_json(config)["max_turns"] == 4
    config_file.write_text(json.dumps({"map": "ring.map", "max_turn": 9}))
    with pytest.raises(UserError, match="max_turns"):
        GAME.configure(config_file, {})


def test_map_too_small_for_the_seats() -> None:
    with pytest.raises(UserError, match="E_MAP_TOO_SMALL"):
        GAME.new_session(configured("tiny-ring.map"), tuple("ABCDE"), 1, {})


def test_match_files_and_details() -> None:
    config = configured()
    assert GAME.match_files(config, {}) == {"map.map": (MAPS / "tiny-gates.map").read_bytes()}
    session, _ = run_match(GAME, configured(max_turns=3), ("A", "B"), 5, {"A": idle, "B": idle})
    outcome = session.outcome()
    assert outcome.reason == "max_turns" and outcome.details["draw"] is True and session.state.winner is None
    assert len(outcome.details["map_sha256"]) == 64


@pytest.mark.parametrize("map_name", ["tiny-ring.map", "tiny-gates.map"])
def test_p8_starter_bots_finish(map_name: str) -> None:
    config = configured(map_name)
    # spec 8 P8: two starter bots, 20 seeds; plus a few seeds with more seats
    for seats, seeds in ((("A", "B"), 20), (("A", "B", "C") if map_name == "tiny-ring.map" else tuple("ABCDE"), 4)):
        for seed in range(seeds):
            session, turns = run_match(GAME, config, seats, seed, dict.fromkeys(seats, CHOOSE))
            outcome = session.outcome()
            assert outcome.reason in ("conquest", "max_turns")
            assert sorted(seat for group in outcome.ranking for seat in group) == list(seats)
            assert all(not report.rejected for *_, report in turns), turns[-1][3].rejected


def test_starter_bots_on_the_archipelago_map() -> None:
    config = configured("td-archipelago.map")
    assert (len(config.warmap.territories), len(config.warmap.continents), config.reading.findings) == (42, 6, ())
    session, turns = run_match(GAME, config, ("A", "B"), 1, {"A": CHOOSE, "B": CHOOSE})
    assert session.outcome().reason in ("conquest", "max_turns")
    assert all(not report.rejected for *_, report in turns)


def test_eliminated_seats_leave_active_seats() -> None:
    session, turns = run_match(GAME, configured(), tuple("ABCDE"), 3, dict.fromkeys("ABCDE", CHOOSE))
    gone = [seat for seat, row in session.standings().items() if "eliminated_turn" in row]
    assert gone and not set(gone) & set(session.active_seats())
    for turn, inputs, answers, report in turns:
        eliminated_before = {s for s, r in session.standings().items() if r.get("eliminated_turn", turn) < turn}
        assert not eliminated_before & set(inputs)


def test_text_view_and_snapshot() -> None:
    session, _ = run_match(GAME, configured(max_turns=2), ("A", "B"), 1, {"A": CHOOSE, "B": idle})
    view = session.text_view()
    assert view.startswith("Warzone turn 3/2") and "Grand Central" in view
    snapshot = session.snapshot()
    json.dumps(snapshot)
    assert snapshot["end_reason"] == "max_turns"
    assert "result.txt" in session.final_files({"A": "x", "B": "y"})


def test_p6_determinism_verify_and_diff(tmp_path: Path) -> None:
    config = configured()
    bots = {"A": CHOOSE, "B": CHOOSE, "C": CHOOSE}
    first = write_log(tmp_path / "one", GAME, config, ("A", "B", "C"), 77, bots)
    second = write_log(tmp_path / "two", GAME, config, ("A", "B", "C"), 77, bots)
    assert game_of_log(first).name == "warzone"  # its record.jsonl names it
    check = GAME.diff(first, second, {"strict": False})
    assert check.same, check.lines
    check = GAME.verify(first, {})
    assert check.same, check.lines
    assert "identical" in check.lines[-1]
    orders = next((first / "Turn 002").glob("A - */orders.txt"))
    orders.write_text("deploy 1 1\n" + orders.read_text())
    check = GAME.verify(first, {})
    # the answer the game was given is the core's record; the folder's orders.txt must be its copy
    assert not check.same and check.lines[1].startswith("  turn 2, seat A, Turn 002/A - BotA/orders.txt: line 1: ")
    assert not GAME.diff(first, second, {"strict": True}).same


def test_verify_notices_an_edited_state(tmp_path: Path) -> None:
    log = write_log(tmp_path / "log", GAME, configured(max_turns=4), ("A", "B"), 8, {"A": CHOOSE, "B": CHOOSE})
    state_file = next((log / "Turn 003").glob("B - */state.json"))
    state = json.loads(state_file.read_text())
    state["board"][0]["armies"] += 1
    state_file.write_text(json.dumps(state))
    check = GAME.verify(log, {})
    assert not check.same and check.lines[1].startswith("  turn 3, seat B, Turn 003/B - BotB/state.json: $.board[0].armies")


def test_different_seeds_differ(tmp_path: Path) -> None:
    bots = {"A": CHOOSE, "B": CHOOSE}
    first = write_log(tmp_path / "a", GAME, configured(), ("A", "B"), 1, bots)
    second = write_log(tmp_path / "b", GAME, configured(), ("A", "B"), 2, bots)
    assert not GAME.diff(first, second, {}).same


def test_replay(tmp_path: Path) -> None:
    log = write_log(tmp_path / "log", GAME, configured(max_turns=3), ("A", "B"), 4, {"A": CHOOSE, "B": CHOOSE})
    replay = GAME.replay(log)
    assert replay.turns == (1, 2, 3, 4) and replay.seats == ("A", "B")
    public = replay.render(2)  # the core's replay (runner/logtools): the spectator's view, events, answers
    assert public[:2] == ["turn 2", "Warzone turn 2/3 on tiny-gates"] and "events:" in public
    assert any(line.startswith("A: ") and line.endswith("-> accepted") for line in public)
    assert "--- A bot output ---" not in public and "--- A bot output ---" in replay.render(2, "A")


def test_validate_maps(tmp_path: Path) -> None:
    [report] = GAME.validate(MAPS / "tiny-oneway.map", None, {"lenient": False})
    assert report.kind == "warzone-map" and not report.is_valid
    assert [str(p) for p in report.problems] == [
        "line 12: E_ASYMMETRIC_BORDER: 1 (Alpha) lists 2 (Beta) but 2 (Beta) does not list 1 (Alpha)"]
    assert GAME.validate(MAPS / "tiny-oneway.map", None, {"lenient": True})[0].is_valid
    assert GAME.validate(MAPS / "tiny-ring.map", None, {})[0].is_valid
    empty = tmp_path / "empty.map"
    empty.write_bytes(b"")
    assert [str(p) for p in GAME.validate(empty, None, {})[0].problems] == [
        "E_NOT_A_MAP: no map section ([continents], [countries], [territories], ...)"]
    bad_bytes = tmp_path / "bom.txt"
    bad_bytes.write_bytes(b"\xef\xbb\xbf\xff")
    assert GAME.validate(bad_bytes, "warzone-map", {})[0].unreadable.startswith("E_READ")
    assert GAME.validate(tmp_path / "missing.map", None, {})[0].unreadable is not None
    assert GAME.validate(tmp_path / "other.txt", None, {}) is None


def test_validate_json_files_and_logs(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    state.write_text((Path(__file__).parent / "data" / "spec-4.2-state-A-turn2.json").read_text())
    assert GAME.validate(state, None, {})[0].is_valid
    state.write_text(json.dumps({"protocol": "td-runner/warzone/1", "turn": 0}))
    assert not GAME.validate(state, None, {})[0].is_valid
    config = tmp_path / "game-config.json"
    config.write_text(json.dumps({"game": "warzone", "map": "x.map", "attack_kill_pct": 120}))
    [report] = GAME.validate(config, None, {})
    assert report.kind == "warzone-config" and "attack_kill_pct" in str(report.problems[0])
    assert GAME.config_problems({"game": "warzone", "map": "m.map"}) == []
    config.write_text(json.dumps({"game": "tower-defence"}))
    assert GAME.validate(config, None, {}) is None
    log = write_log(tmp_path / "log", GAME, configured(max_turns=3), ("A", "B"), 4, {"A": CHOOSE, "B": CHOOSE})
    assert GAME.validate(log, None, {})[0].is_valid
    next((log / "Turn 002").glob("A - */orders.txt")).write_text("deploy 1 1\n")
    assert not GAME.validate(log, None, {})[0].is_valid


PURE = ("os", "subprocess", "time", "random", "pathlib", "io", "shutil", "socket", "threading", "datetime")


@pytest.mark.parametrize("folder", ["rules", "protocol"])
def test_rules_and_protocol_are_pure(folder: str) -> None:
    for source in (PACKAGE / folder).glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for name in names:
                assert name.split(".")[0] not in PURE, f"{source.name} imports {name}"


def test_no_other_game_is_imported() -> None:
    """Warzone may use the core's helpers (errors, schemas, the replay record), never another game."""
    for source in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("runner.games."):
                assert node.module.startswith(("runner.games.warzone", "runner.games.interface")), \
                    f"{source}: {node.module}"


def test_an_answer_of_exactly_64_kib_is_ok_and_one_byte_more_is_too_large() -> None:
    """Spec 4.1: the first 64 KiB count; only a larger file is `too_large` (the core reads 64 KiB + 1)."""
    from runner.games.interface import Answer
    from runner.games.warzone.session import ORDERS_CAP_BYTES, bot_report, counted_orders

    exact = "# " + "x" * (ORDERS_CAP_BYTES - 3) + "\n"
    assert len(exact.encode()) == ORDERS_CAP_BYTES
    assert bot_report(Answer(exact)).status == "ok" and counted_orders(exact) == exact
    larger = exact + "d"
    assert bot_report(Answer(larger)).status == "too_large" and counted_orders(larger) == exact
    cut = "# " + "x" * (ORDERS_CAP_BYTES - 3) + "é"  # the cap splits the two bytes of é
    assert counted_orders(cut) == cut[:-1]
