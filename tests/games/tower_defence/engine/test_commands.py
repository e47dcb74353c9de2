"""Command parsing: Java split/parseInt rules and the decision procedure of spec 4.2."""

from __future__ import annotations

import pytest

from runner.games.tower_defence.engine.commands import Command, parse_command, parse_java_int, split_fields


@pytest.mark.parametrize(
    "text, fields",
    [
        ("", [""]),
        ("1,2,", ["1", "2"]),
        (",", []),
        (",,,", []),
        ("1,,1", ["1", "", "1"]),
        (",1", ["", "1"]),
        ("a b", ["a b"]),
        ("1,2,3,,", ["1", "2", "3"]),
    ],
)
def test_split_follows_java_string_split(text: str, fields: list[str]) -> None:
    assert split_fields(text) == fields


@pytest.mark.parametrize(
    "text, value",
    [
        ("0", 0), ("+1", 1), ("-0", 0), ("007", 7), ("2147483647", 2147483647), ("-2147483648", -2147483648),
        ("\u0663", 3),  # ARABIC-INDIC DIGIT THREE: Character.digit accepts Unicode decimal digits
        (" 1", None), ("1 ", None), ("1.0", None), ("1e2", None), ("0x1", None), ("", None), ("+", None),
        ("--1", None), ("+-1", None), ("99999999999", None), ("2147483648", None), ("1_000", None),
        ("1\n", None),
    ],
)
def test_parse_java_int(text: str, value: int | None) -> None:
    assert parse_java_int(text) == value


# spec 10, V2: command -> errors of that round (without the "Player A: " prefix) and do-nothing penalty
NOT_INTS = "Unable to parse command entries, all parameters should be integers. Received:"


@pytest.mark.parametrize(
    "text, errors, penalty, command",
    [
        ("", (), 0, None),
        ("No Command", (), 0, None),
        ("Exception", (), 1, None),
        ("5", (), 0, None),
        ("1,2", ("Unable to parse command expected 3 parameters, got 2", "Out of map bounds, X:1 Y: 2"), 2, None),
        ("a,2", ("Unable to parse command expected 3 parameters, got 2", NOT_INTS + "a,2"), 2, None),
        ("1,2,3,4", ("Unable to parse command expected 3 parameters, got 4",), 1, Command(1, 2, 3)),
        ("a,b,c", (NOT_INTS + "a,b,c",), 1, None),
        ("1,2,9", ("Out of map bounds, X:1 Y: 2",), 1, None),
        ("1,2,-1", ("Out of map bounds, X:1 Y: 2",), 1, None),
        ("+1,2,9", ("Out of map bounds, X:+1 Y: 2",), 1, None),
        (" 1,2,0", (NOT_INTS + " 1,2,0",), 1, None),
        ("1,2,0 ", (NOT_INTS + "1,2,0 ",), 1, None),
        ("99999999999,0,0", (NOT_INTS + "99999999999,0,0",), 1, None),
        ("+1,+2,+0", (), 0, Command(1, 2, 0)),
        ("1,1,1,", (), 0, Command(1, 1, 1)),
        ("1,,1", (NOT_INTS + "1,,1",), 1, None),
        ("1,2,3,4,5", ("Unable to parse command expected 3 parameters, got 5",), 1, Command(1, 2, 3)),
        ("a,b,c,d", ("Unable to parse command expected 3 parameters, got 4", NOT_INTS + "a,b,c,d"), 2, None),
        ("8,0,0", (), 0, Command(8, 0, 0)),  # bounds are the rules' business, not the parser's
        ("\ufeff1,2,0", (NOT_INTS + "\ufeff1,2,0",), 1, None),  # a BOM makes the first number unparseable
        # the official engine crashes here; we record the 0-field error and count one do-nothing
        (",", ("Unable to parse command expected 3 parameters, got 0",), 1, None),
        (",,,", ("Unable to parse command expected 3 parameters, got 0",), 1, None),
    ],
)
def test_decision_procedure(text: str, errors: tuple[str, ...], penalty: int, command: Command | None) -> None:
    parsed = parse_command(text)
    assert parsed.errors == errors
    assert parsed.penalty == penalty
    assert parsed.command == command
