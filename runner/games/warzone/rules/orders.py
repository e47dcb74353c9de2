"""Order records (spec 2.5), the rejection record (spec 4.5), and the canonical text of an order."""

from __future__ import annotations

import attrs

#: The card each card order uses (spec 2.5); orders absent here use none.
CARD_OF = {"bomb": "bomb", "blockade": "blockade", "airlift": "airlift", "negotiate": "diplomacy",
           "reinforce": "reinforcement"}
#: The arguments each order kind carries, in its canonical text's order.
ARGUMENTS = {
    "deploy": ("count", "target"),
    "advance": ("count", "source", "target"),
    "airlift": ("count", "source", "target"),
    "bomb": ("target",),
    "blockade": ("target",),
    "negotiate": ("seat",),
    "reinforce": (),
}


@attrs.frozen
class Order:
    """One parsed order line. Territories are resolved ids; `seat` is the negotiate partner."""

    kind: str
    line: int
    text: str
    count: int = 0
    source: int = 0
    target: int = 0
    seat: str = ""


@attrs.frozen
class Rejection:
    """An issue-time rejection (spec 4.5): 1-based line, the line's first 200 characters, code, message."""

    line: int
    text: str
    code: str
    message: str


@attrs.frozen
class OrderSheet:
    """One player's parsed orders file: the orders that parsed, and the lines that did not."""

    orders: tuple[Order, ...] = ()
    rejected: tuple[Rejection, ...] = ()


def render_order(order: Order) -> str:
    """The canonical text of an order (`advance 40 1 3`): ids, never names, synonyms normalised."""
    return " ".join([order.kind, *(str(getattr(order, name)) for name in ARGUMENTS[order.kind])])
