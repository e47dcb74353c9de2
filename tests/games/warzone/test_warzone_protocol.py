"""The file protocol (spec 4) and the config (spec 6): orders.txt parsing (P1-P3), state files (4.2, 4.3, P5)."""

from __future__ import annotations

import json

import attrs
import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from warzone_helpers import DATA, MAPS, load_map

from runner.games.interface import Absent, Answer
from runner.games.warzone.protocol.config import DEFAULT_MAP, KEYS, ConfigError, parse_config, render_config
from runner.games.warzone.protocol.orders_text import index_names, parse_orders
from runner.games.warzone.rules.orders import render_order
from runner.games.warzone.rules.settings import Rules
from runner.games.warzone.session import WarzoneSession

SCHEMA_DIR = DATA.parents[3] / "schema" / "warzone"
GATES = load_map("tiny-gates.map")
GATE_NAMES = index_names(GATES)
SEATS = ("A", "B")


def schema(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text()))


def parse_one(line: str):
    sheet = parse_orders(line, GATE_NAMES, SEATS)
    return sheet.orders[0] if sheet.orders else sheet.rejected[0].code


@pytest.mark.parametrize(("line", "expected"), [
    ('deploy 3 "north gate"', 2), ("deploy 3 7", "E_UNKNOWN_TERRITORY"), ('deploy 3 "7"', 3),
    ("DEPLOY 3 East", "E_UNKNOWN_TERRITORY"), ('deploy 3 "East Gate', "E_SYNTAX"), ("deploy 0 1", "E_BAD_NUMBER"),
    ("deploy 3 1 extra", "E_SYNTAX"), ("fortify 3 1", "E_UNKNOWN_ORDER"), ("deploy 3 \"Grand Central\"", 1),
    ("deploy -3 1", "E_BAD_NUMBER"), ("deploy 1000001 1", "E_BAD_NUMBER"), ("deploy 1000000 1", 1),
    ("deploy 3 99999999999999999999", "E_UNKNOWN_TERRITORY"), ('deploy 3 x"y', "E_SYNTAX"),
])
def test_p1_territory_resolution(line: str, expected) -> None:
    got = parse_one(line)
    assert (got.target if not isinstance(got, str) else got) == expected


def test_synonyms_and_canonical_text() -> None:
    sheet = parse_orders("MOVE 4 1 2\nattack 2 \"south gate\" 1\ndiplomacy b\nReinforce\nairlift 1 1 3",
                         GATE_NAMES, SEATS)
    assert [render_order(o) for o in sheet.orders] == [
        "advance 4 1 2", "advance 2 5 1", "negotiate B", "reinforce", "airlift 1 1 3"]


def test_ambiguous_name() -> None:
    ambiguous = index_names(attrs.evolve(GATES, territories=tuple(
        attrs.evolve(t, name="gate") if t.id == 2 else attrs.evolve(t, name="Gate") if t.id == 4 else t
        for t in GATES.territories)))
    assert parse_orders("bomb GATE", ambiguous, SEATS).rejected[0].code == "E_AMBIGUOUS_NAME"
    assert parse_orders("bomb Gate", ambiguous, SEATS).orders[0].target == 4


def test_p2_comments_blank_lines_crlf_and_bom() -> None:
    plain = parse_orders("deploy 3 1\nbad line\n", GATE_NAMES, SEATS)
    dressed = parse_orders("\ufeff# c\r\n\r\n  deploy 3 1  \r\n\tbad line\r\n", GATE_NAMES, SEATS)
    assert [(o.kind, o.target) for o in plain.orders] == [(o.kind, o.target) for o in dressed.orders]
    assert plain.rejected[0].line == 2 and dressed.rejected[0].line == 4
    assert dressed.rejected[0].text == "bad line"


def test_p3_too_many_orders() -> None:
    sheet = parse_orders("deploy 1 1\n" * 600, GATE_NAMES, SEATS, max_orders=500)
    assert len(sheet.orders) == 500
    assert [(r.code, r.line) for r in sheet.rejected] == [("E_TOO_MANY_ORDERS", 501)]


def test_rejection_text_is_cut_at_200() -> None:
    assert len(parse_orders("x" * 500, GATE_NAMES, SEATS).rejected[0].text) == 200


ORDER_WORDS = st.sampled_from(["deploy", "advance", "move", "attack", "airlift", "bomb", "blockade", "negotiate",
                               "diplomacy", "reinforce", "#", '"', "A", "b", "neutral", "0", "1", "3", "7", "-1",
                               '"7"', '"north gate"', "East", "99999999999", "\t", "\r"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(ORDER_WORDS, max_size=5).map(" ".join), max_size=8).map("\n".join) | st.text(max_size=200))
def test_any_orders_text_never_raises(text: str) -> None:
    sheet = parse_orders(text, GATE_NAMES, SEATS, max_orders=5)
    assert all(order.line >= 1 for order in sheet.orders)
    session = WarzoneSession(GATES, Rules(), SEATS, 3)
    report = session.play_turn({"A": Answer(text), "B": Answer(text)})
    assert json.loads(report.log_files["events.json"])["turn"] == 1


def example_session() -> WarzoneSession:
    """spec 4.2's worked example: tiny-ring, seed 42, after turn 1."""
    session = WarzoneSession(load_map("tiny-ring.map"), Rules(), SEATS, 42,
                             names={"A": "StarterPython", "B": "Reference"})
    session.play_turn({"A": Answer("deploy 40 1\ndeploy 13 4\nadvance 40 1 3\nbomb 3\n"),
                       "B": Answer("deploy 27 2\ndeploy 26 3\n")})
    return session


def test_spec_4_2_worked_example_state_json() -> None:
    files = example_session().inputs()["A"].files
    document = json.loads(files["state.json"])
    assert document["last_turn"]["bot"] == {"status": "ok", "seconds": 0.0}  # Answer.seconds (0.0 here: no bot ran)
    document["last_turn"]["bot"]["seconds"] = 0.041
    assert document == json.loads((DATA / "spec-4.2-state-A-turn2.json").read_text())
    assert list(document) == list(json.loads((DATA / "spec-4.2-state-A-turn2.json").read_text()))
    assert " " not in files["state.json"].replace("StarterPython", "").split('"map"')[0]


def test_spec_4_3_worked_example_state_txt() -> None:
    assert example_session().inputs()["A"].files["state.txt"] == (DATA / "spec-4.3-state-A-turn2.txt").read_text()


def test_p5_state_files_every_turn() -> None:
    validator = schema("state")
    session = WarzoneSession(GATES, Rules(max_turns=4), ("A", "B", "C"), 9)
    maps = set()
    while session.outcome() is None:
        for seat, turn_input in session.inputs().items():
            document = json.loads(turn_input.files["state.json"])
            validator.validate(document)
            maps.add(json.dumps(document["map"]))
            text = turn_input.files["state.txt"].splitlines()
            assert text[-1] == "end"
            board = [line.split()[:3] for line in text if line.startswith("territory ")]
            assert board == [[ "territory", str(s["id"]), s["owner"]] for s in document["board"]]
            assert [int(line.split()[3]) for line in text if line.startswith("territory ")] == [
                s["armies"] for s in document["board"]]
        session.play_turn({seat: Answer("deploy 3 1\nadvance 5 1 2\nbomb 9\nreinforce") for seat in "ABC"})
    assert len(maps) == 1


def test_seed_appears_in_no_bot_file() -> None:
    seed = 987654321123
    session = WarzoneSession(GATES, Rules(), SEATS, seed)
    session.play_turn({})
    for turn_input in session.inputs().values():
        for text in turn_input.files.values():
            assert str(seed) not in text and format(seed, "x") not in text


def test_config_defaults_and_overrides() -> None:
    config = parse_config({"map": "m.map"}, {"max_turns": 7, "map_validation": None})
    assert config.rules == attrs.evolve(Rules(), max_turns=7) and config.map_validation == "strict"
    assert render_config(config)["max_turns"] == 7
    assert parse_config(render_config(config)) == config


@pytest.mark.parametrize(("data", "words"), [
    ({"map": ""}, "map '' should be the path"), ({"map": 7}, "map 7 should be"),
    ({"map": "m", "max_turn": 3}, "did you mean 'max_turns'"),
    ({"map": "m", "attack_kill_pct": 101}, "attack_kill_pct 101"), ({"map": "m", "max_turns": True}, "max_turns"),
    ({"map": "m", "move_order": "snake"}, "move_order"), ({"map": "m", "map_validation": "loose"}, "loose"),
    ({"map": "m", "blockade_multiplier": 0}, "blockade_multiplier"), ({"map": "m", "game": "lanes"}, "'game'"),
])
def test_config_errors(data: dict, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        parse_config(data)


def test_config_schema_matches_the_code() -> None:
    config_schema = json.loads((SCHEMA_DIR / "game-config.schema.json").read_text())
    assert set(config_schema["properties"]) == {"game", *KEYS}
    rendered = render_config(parse_config({"map": "m.map"}))
    schema("game-config").validate(rendered)
    for key, value in rendered.items():
        if key not in ("game", "map"):
            assert config_schema["properties"][key]["default"] == value, key
    assert config_schema["properties"]["map"]["default"] == DEFAULT_MAP == parse_config({}).map
    assert "required" not in config_schema


def test_p4_statuses_and_partial_files() -> None:
    from runner.games.interface import Fault

    session = WarzoneSession(GATES, Rules(), ("A", "B", "C"), 11)
    pools = {seat: session.state.players[seat].pool for seat in "ABC"}
    owned = session.state.owned_by("A")[0]
    report = session.play_turn({"A": Answer(f"deploy 5 {owned}", Fault.TIMEOUT),
                                "B": Answer("", absent=Absent.NO_FILE), "C": Answer("", Fault.CRASH)})
    assert report.record["bots"] == {"A": {"status": "timeout", "seconds": 0.0},
                                     "B": {"status": "no_file", "seconds": 0.0},
                                     "C": {"status": "crash", "seconds": 0.0}}
    assert session.state.armies[owned] == 5  # the file written before the kill is used
    assert session.state.players["B"].pool == pools["B"] + 3  # the pool carries over
    statuses = {seat: json.loads(i.files["state.json"])["last_turn"]["bot"]["status"]
                for seat, i in session.inputs().items()}
    assert statuses == {"A": "timeout", "B": "no_file", "C": "crash"}


def test_an_empty_orders_file_is_ok_and_a_refused_one_is_refused() -> None:
    """spec 4.2 `last_turn.bot.status`: an empty orders.txt is a file (ok, no orders); one the core would not
    read (a symlink out of the folder, ...) is `refused`; both leave the pool to carry over."""
    session = WarzoneSession(GATES, Rules(), ("A", "B", "C"), 11)
    report = session.play_turn({"A": Answer(""), "B": Answer("", absent=Absent.REFUSED),
                                "C": Answer("", absent=Absent.NO_FILE)})
    assert {seat: bot["status"] for seat, bot in report.record["bots"].items()} == {
        "A": "ok", "B": "refused", "C": "no_file"}


def test_shared_fragments_render_the_same_bytes() -> None:
    """The session renders what all seats share once per turn; the files equal whole renderings."""
    from warzone_helpers import run_match, starter_orders

    from runner.games.warzone import GAME
    from runner.games.warzone.protocol.state_txt import render_state_txt as whole_txt

    config = GAME.configure(None, {"map": str(MAPS / "td-harbour.map"), "max_turns": 6})
    session, turns = run_match(GAME, config, tuple("ABCDEF"), 3, dict.fromkeys("ABCDEF", starter_orders()))
    assert len(turns) >= 2
    session = GAME.new_session(config, tuple("ABCDEF"), 3, {})
    for _, _, answers, _ in turns:
        for seat, given in session.inputs().items():
            document = session.document(seat)
            assert given.files["state.json"] == json.dumps(document, ensure_ascii=False, separators=(",", ":"))
            assert given.files["state.txt"] == whole_txt(document)
        session.play_turn(answers)
