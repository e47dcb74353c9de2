"""Parse `orders.txt` (spec 4.4) into an OrderSheet; every bad line becomes a Rejection (spec 4.5).

Syntax only, plus resolving names and seats: whether an order is legal is the rules' issue step. Never
raises, whatever the text.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from runner.games.warzone.rules.board import WarMap
from runner.games.warzone.rules.orders import ARGUMENTS, Order, OrderSheet, Rejection

MAX_COUNT = 1_000_000
TEXT_LIMIT = 200

#: Order keywords and their synonyms (spec 4.4), lower case.
KEYWORDS = {
    "deploy": "deploy", "advance": "advance", "move": "advance", "attack": "advance", "airlift": "airlift",
    "bomb": "bomb", "blockade": "blockade", "negotiate": "negotiate", "diplomacy": "negotiate",
    "reinforce": "reinforce",
}
_USAGE = {
    "deploy": "deploy COUNT TERRITORY",
    "advance": "advance COUNT FROM TO",
    "airlift": "airlift COUNT FROM TO",
    "bomb": "bomb TERRITORY",
    "blockade": "blockade TERRITORY",
    "negotiate": "negotiate SEAT",
    "reinforce": "reinforce",
}


@attrs.frozen
class NameIndex:
    """Territory names of one map for spec 4.4's matching: exact first, then unique ignoring case."""

    count: int
    exact: dict[str, tuple[int, ...]]
    folded: dict[str, tuple[int, ...]]


def index_names(warmap: WarMap) -> NameIndex:
    """Build the name index once per map."""
    exact: dict[str, tuple[int, ...]] = {}
    folded: dict[str, tuple[int, ...]] = {}
    for territory in warmap.territories:
        exact[territory.name] = exact.get(territory.name, ()) + (territory.id,)
        key = territory.name.casefold()
        folded[key] = folded.get(key, ()) + (territory.id,)
    return NameIndex(len(warmap.territories), exact, folded)


@attrs.frozen
class _Token:
    text: str
    quoted: bool


class _Bad(Exception):
    """One line's rejection, raised inside this module only."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse_orders(text: str, names: NameIndex, seats: Sequence[str], max_orders: int = 500) -> OrderSheet:
    """All order lines of one file; line numbers count every physical line (spec 8 P2)."""
    orders: list[Order] = []
    rejected: list[Rejection] = []
    counted = 0
    for number, physical in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        line = physical.removesuffix("\r").strip(" \t\r")
        if not line or line.startswith("#"):
            continue
        counted += 1
        shown = line[:TEXT_LIMIT]
        if counted > max_orders:  # spec 2.5 step 1: one rejection for all the lines past the limit
            rejected.append(Rejection(number, shown, "E_TOO_MANY_ORDERS",
                                      f"only the first {max_orders} order lines are read"))
            break
        try:
            orders.append(parse_order_line(line, number, names, seats))
        except _Bad as bad:
            rejected.append(Rejection(number, shown, bad.code, bad.message))
    return OrderSheet(tuple(orders), tuple(rejected))


def parse_order_line(line: str, number: int, names: NameIndex, seats: Sequence[str]) -> Order:
    """One stripped, non-comment line -> Order; raises _Bad with the rejection code."""
    tokens = _tokenize(line)
    keyword = tokens[0].text.lower()
    kind = KEYWORDS.get(keyword) if not tokens[0].quoted else None
    if kind is None:
        raise _Bad("E_UNKNOWN_ORDER", f"unknown order {tokens[0].text[:40]!r} (orders: {', '.join(KEYWORDS)})")
    wanted = ARGUMENTS[kind]
    if len(tokens) - 1 != len(wanted):
        raise _Bad("E_SYNTAX", f"{keyword} takes {len(wanted)} argument(s): {_USAGE[kind]}")
    values: dict[str, int | str] = {}
    for name, token in zip(wanted, tokens[1:]):
        if name == "count":
            values[name] = _count(token)
        elif name == "seat":
            values[name] = _seat(token, seats)
        else:
            values[name] = _territory(token, names)
    return Order(kind, number, line[:TEXT_LIMIT], **values)


def _tokenize(line: str) -> list[_Token]:
    """Split on spaces and tabs; `"..."` is one token (no escapes). The line is not empty."""
    tokens: list[_Token] = []
    i, size = 0, len(line)
    while i < size:
        if line[i] in " \t":
            i += 1
            continue
        if line[i] == '"':
            end = line.find('"', i + 1)
            if end < 0:
                raise _Bad("E_SYNTAX", "unterminated quote")
            tokens.append(_Token(line[i + 1:end], True))
            i = end + 1
        else:
            start = i
            while i < size and line[i] not in ' \t"':
                i += 1
            tokens.append(_Token(line[start:i], False))
        if i < size and line[i] not in " \t":
            raise _Bad("E_SYNTAX", "a quote must be separated from the text around it by a space")
    return tokens


def _count(token: _Token) -> int:
    text = token.text
    if token.quoted or not (text.isascii() and text.isdigit()) or len(text) > 7 or not 1 <= int(text) <= MAX_COUNT:
        raise _Bad("E_BAD_NUMBER", f"count {text[:40]!r} is not a whole number from 1 to {MAX_COUNT}")
    return int(text)


def _territory(token: _Token, names: NameIndex) -> int:
    """spec 4.4: a bare number is always an id; a name matches exactly, else uniquely ignoring case."""
    text = token.text
    if not token.quoted and text.isascii() and text.isdigit():
        if len(text) <= 9 and 1 <= int(text) <= names.count:
            return int(text)
        raise _Bad("E_UNKNOWN_TERRITORY", f"no territory has id {text[:40]} (ids are 1..{names.count})")
    found = names.exact.get(text) or names.folded.get(text.casefold(), ())
    if len(found) == 1:
        return found[0]
    if found:
        raise _Bad("E_AMBIGUOUS_NAME", f"name {text[:40]!r} matches territories {', '.join(map(str, found))}: "
                                       "use an id")
    raise _Bad("E_UNKNOWN_TERRITORY", f"no territory is called {text[:40]!r}")


def _seat(token: _Token, seats: Sequence[str]) -> str:
    seat = token.text.upper()
    if seat not in seats:
        raise _Bad("E_UNKNOWN_PLAYER", f"{token.text[:40]!r} is not a seat of this match ({', '.join(seats)})")
    return seat
