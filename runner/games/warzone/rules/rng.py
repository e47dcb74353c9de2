"""SplitMix64 and the three match streams (spec 5): the only randomness of a Warzone match.

The generator is exact integer arithmetic, so any language reproduces the same draws from the same seed.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

import attrs

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15

T = TypeVar("T")


@attrs.define
class SplitMix64:
    """One SplitMix64 generator; `state` is its whole state (spec 5.1)."""

    state: int = attrs.field(converter=lambda value: value & MASK64)

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in 0..n-1 (spec 5.2: multiply the high 32 bits, no rejection loop)."""
        if not 1 <= n < 1 << 32:
            raise ValueError(f"below({n}): n must be in 1..2^32-1")
        return ((self.next() >> 32) * n) >> 32

    def chance(self, pct: int) -> bool:
        """True with probability pct/100 (spec 5.2: pct 0 never, pct 100 always, one draw either way)."""
        return self.below(100) < pct

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates from the end, in place (spec 5.4): len-1 draws."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


@attrs.define
class Streams:
    """The match's three independent streams (spec 5.3), so that e.g. battles never shift card draws."""

    setup: SplitMix64
    cards: SplitMix64
    battle: SplitMix64


def make_streams(seed: int) -> Streams:
    """Derive setup, cards and battle, in that order, from the match seed (spec 5.3)."""
    master = SplitMix64(seed)
    return Streams(setup=SplitMix64(master.next()), cards=SplitMix64(master.next()), battle=SplitMix64(master.next()))
