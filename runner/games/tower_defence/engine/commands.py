"""Turn a bot's command line into a Command, with the official parser's exact quirks (spec 4.2)."""

from __future__ import annotations

import re

import attrs

INT_MIN, INT_MAX = -(2**31), 2**31 - 1

# Java Integer.parseInt: one optional sign, then decimal digits (Unicode Nd digits count), nothing else.
_JAVA_INT = re.compile(r"[+-]?\d+")

DEFENSE, ATTACK, ENERGY, DECONSTRUCT, TESLA, IRON_CURTAIN = range(6)


@attrs.frozen
class Command:
    """A well-formed command in the issuer's view coordinates; `kind` is the 0..5 index."""

    x: int
    y: int
    kind: int


@attrs.frozen
class ParsedCommand:
    """What the parser decided: add `penalty` to the do-nothing streak, record `errors`, then run `command`."""

    command: Command | None
    errors: tuple[str, ...] = ()
    penalty: int = 0


def split_fields(text: str) -> list[str]:
    """Split like Java's `String.split(",")`: no comma gives one field; trailing empty fields are dropped."""
    if "," not in text:
        return [text]
    fields = text.split(",")
    while fields and fields[-1] == "":
        fields.pop()
    return fields


def parse_java_int(text: str) -> int | None:
    """Return the value `Integer.parseInt` would give, or None where it would throw."""
    if not _JAVA_INT.fullmatch(text):
        return None
    value = int(text)
    return value if INT_MIN <= value <= INT_MAX else None


def _not_integers(text: str) -> str:
    return f"Unable to parse command entries, all parameters should be integers. Received:{text}"


def _out_of_map(fields: list[str]) -> str:
    # spec 4.2: the official error handler prints the raw fields, not the parsed numbers
    return f"Out of map bounds, X:{fields[0]} Y: {fields[1]}"


# The usual well-formed command, three Java ints and nothing else: one regex instead of split + three.
_THREE_INTS = re.compile(r"([+-]?\d+),([+-]?\d+),([+-]?\d+)")

_DO_NOTHING = ParsedCommand(None)
_EXCEPTION = ParsedCommand(None, penalty=1)


def parse_command(text: str) -> ParsedCommand:
    """Apply the decision procedure of spec 4.2 to one raw command string.

    Never raises. A comma-only string crashes the official engine; here it is a 0-field parse error
    costing one do-nothing (the fix the conformance README asks for).
    """
    simple = _THREE_INTS.fullmatch(text)
    if simple is not None:
        x, y, kind = (int(number) for number in simple.groups())
        if INT_MIN <= x <= INT_MAX and INT_MIN <= y <= INT_MAX and 0 <= kind <= 5:
            return ParsedCommand(Command(x, y, kind))
    fields = split_fields(text)
    count = len(fields)
    if count == 1:
        # "Exception" is what the official tournament runner submits for a dead bot
        return _EXCEPTION if text == "Exception" else _DO_NOTHING
    wrong_count = f"Unable to parse command expected 3 parameters, got {count}"
    if count == 0:
        return ParsedCommand(None, (wrong_count,), penalty=1)
    values = [parse_java_int(field) for field in fields[:3]]
    if count == 2:
        second = _not_integers(text) if None in values else _out_of_map(fields)
        return ParsedCommand(None, (wrong_count, second), penalty=2)
    errors: tuple[str, ...] = (wrong_count,) if count > 3 else ()
    penalty = 1 if count > 3 else 0
    if None in values:
        return ParsedCommand(None, errors + (_not_integers(text),), penalty + 1)
    x, y, kind = values
    if not 0 <= kind <= 5:  # type: ignore[operator]
        return ParsedCommand(None, errors + (_out_of_map(fields),), penalty + 1)
    return ParsedCommand(Command(x, y, kind), errors, penalty)  # type: ignore[arg-type]
