"""The final ranking of all seats (spec 2.9), best first, equal values sharing a group."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from runner.games.warzone.rules.state import GameState


def _group(seats: Iterable[str], key: Callable[[str], object]) -> list[tuple[str, ...]]:
    """Seats sorted by `key` descending, grouped where the key is equal (seat order inside a group)."""
    groups: list[tuple[str, ...]] = []
    last: object = None
    for seat in sorted(seats, key=key, reverse=True):
        if groups and key(seat) == last:
            groups[-1] += (seat,)
        else:
            groups.append((seat,))
        last = key(seat)
    return groups


def rank_seats(state: GameState) -> tuple[tuple[str, ...], ...]:
    """Alive players by territories, then armies on the board plus pool; then eliminated players, later
    elimination better (spec 2.9)."""
    alive = [seat for seat, player in state.players.items() if player.alive]
    gone = [seat for seat, player in state.players.items() if not player.alive]
    ranked = _group(alive, lambda seat: (len(state.owned_by(seat)), state.armies_of(seat) + state.players[seat].pool))
    ranked += _group(gone, lambda seat: state.players[seat].eliminated_turn or 0)
    return tuple(ranked)
