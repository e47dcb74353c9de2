"""The mutable state of a match: owners and armies per territory, players' pools and hands, the deck.

The Session owns one GameState and the rule functions change it in place, one turn at a time.
"""

from __future__ import annotations

import attrs

from runner.games.warzone.rules.rng import SplitMix64

#: spec 2.8: the five card types, in the fixed order the draw procedure walks.
CARD_TYPES = ("bomb", "reinforcement", "blockade", "airlift", "diplomacy")
NEUTRAL = "neutral"


def empty_hand() -> dict[str, int]:
    return dict.fromkeys(CARD_TYPES, 0)


@attrs.define
class PlayerState:
    """One seat: its reinforcement pool, its hand (a count per type) and when it was eliminated."""

    seat: str
    pool: int = 0
    hand: dict[str, int] = attrs.Factory(empty_hand)
    eliminated_turn: int | None = None

    @property
    def alive(self) -> bool:
        return self.eliminated_turn is None

    @property
    def card_count(self) -> int:
        return sum(self.hand.values())


@attrs.define
class GameState:
    """Everything that changes during a match. `owner`/`armies` are indexed by territory id (index 0 unused)."""

    turn: int
    play_order: tuple[str, ...]
    owner: list[str]
    armies: list[int]
    players: dict[str, PlayerState]  # in seat order
    deck: dict[str, int]
    cards_rng: SplitMix64
    battle_rng: SplitMix64
    end_reason: str | None = None
    winner: str | None = None

    @property
    def is_over(self) -> bool:
        return self.end_reason is not None

    def alive_seats(self) -> tuple[str, ...]:
        """Alive seats in seat order."""
        return tuple(seat for seat, player in self.players.items() if player.alive)

    def owned_by(self, seat: str) -> list[int]:
        """The ids of the territories `seat` owns now, ascending."""
        return [tid for tid in range(1, len(self.owner)) if self.owner[tid] == seat]

    def armies_of(self, seat: str) -> int:
        return sum(self.armies[tid] for tid in range(1, len(self.owner)) if self.owner[tid] == seat)
