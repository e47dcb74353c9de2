"""Start-up (spec 2.2): play order, territory deal, pools, deck and initial hands, all from the seed."""

from __future__ import annotations

from collections.abc import Sequence

from runner.games.warzone.rules.board import WarMap
from runner.games.warzone.rules.cards import draw_card
from runner.games.warzone.rules.rng import make_streams
from runner.games.warzone.rules.settings import Rules
from runner.games.warzone.rules.state import CARD_TYPES, GameState, PlayerState


def check_setup(warmap: WarMap, seats: Sequence[str]) -> str | None:
    """Why a match on this map with these seats cannot start (spec 2.2 step 1), or None."""
    if len(warmap.territories) < len(seats):
        return (f"E_MAP_TOO_SMALL: map {warmap.name or '(unnamed)'} has {len(warmap.territories)} territories, "
                f"fewer than the {len(seats)} players")
    return None


def start_game(warmap: WarMap, rules: Rules, seats: Sequence[str], seed: int) -> GameState:
    """The state before turn 1's reinforcement. The caller has checked `check_setup`."""
    streams = make_streams(seed)
    play_order = list(seats)
    streams.setup.shuffle(play_order)  # spec 5.5: N-1 draws
    deal = list(warmap.territory_ids)
    streams.setup.shuffle(deal)  # spec 5.5: T-1 draws
    owner = [""] * (len(deal) + 1)
    for k, tid in enumerate(deal):
        owner[tid] = play_order[k % len(play_order)]
    state = GameState(
        turn=0,
        play_order=tuple(play_order),
        owner=owner,
        armies=[0] + [rules.initial_armies] * len(deal),
        players={seat: PlayerState(seat, pool=rules.initial_pool) for seat in seats},
        deck=dict.fromkeys(CARD_TYPES, rules.deck_per_type),
        cards_rng=streams.cards,
        battle_rng=streams.battle,
    )
    for seat in play_order:  # spec 2.2 step 5: each player draws all their cards before the next
        for _ in range(rules.initial_cards):
            kind = draw_card(state.deck, state.cards_rng)
            if kind is not None:
                state.players[seat].hand[kind] += 1
    return state
