"""The deck (spec 2.8): a count per type, drawn with one `below(total)` from the cards stream."""

from __future__ import annotations

from runner.games.warzone.rules.rng import SplitMix64
from runner.games.warzone.rules.state import CARD_TYPES


def draw_card(deck: dict[str, int], rng: SplitMix64) -> str | None:
    """Take one card from the deck; None (and no draw from the stream) when the deck is empty."""
    total = sum(deck.values())
    if total == 0:
        return None
    r = rng.below(total)
    for kind in CARD_TYPES:  # spec 2.8: subtract each count until r < count
        if r < deck[kind]:
            deck[kind] -= 1
            return kind
        r -= deck[kind]
    raise AssertionError("unreachable: r < total")
