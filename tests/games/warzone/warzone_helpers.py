"""Shared helpers of the Warzone tests: the shipped maps, hand-built states (spec 8's setting), playing a turn."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import attrs

from runner.games.warzone.protocol.orders_text import index_names, parse_orders
from runner.games.warzone.rules.board import WarMap
from runner.games.warzone.rules.mapfile import parse_map
from runner.games.warzone.rules.rng import make_streams
from runner.games.warzone.rules.settings import Rules
from runner.games.warzone.rules.state import CARD_TYPES, GameState, PlayerState, empty_hand
from runner.games.warzone.rules.turn import TurnResult, play_turn

MAPS = Path(__file__).resolve().parents[3] / "runner" / "games" / "warzone" / "maps"
DATA = Path(__file__).resolve().parent / "data"


def load_map(name: str, lenient: bool = False) -> WarMap:
    reading = parse_map((MAPS / name).read_bytes(), lenient=lenient, default_name=name.removesuffix(".map"))
    assert reading.map is not None, reading.findings
    return reading.map


def ring_map_text(count: int, continents: int = 1) -> str:
    """A Domination ring of `count` territories split into `continents` consecutive blocks."""
    lines = ["[continents]", *(f"C{c} 1" for c in range(1, continents + 1)), "[countries]"]
    lines += [f"{i} T{i} {(i - 1) * continents // count + 1} 0 0" for i in range(1, count + 1)]
    lines.append("[borders]")
    lines += [f"{i} {i % count + 1} {(i - 2) % count + 1}" for i in range(1, count + 1)]
    return "\n".join(lines) + "\n"


#: spec 8's default setting: fixed order, A owns 1 and 4, B owns 2 and 3.
RING_OWNERS = {1: "A", 2: "B", 3: "B", 4: "A"}


def make_state(
    owners: Mapping[int, str] = RING_OWNERS,
    armies: Mapping[int, int] | None = None,
    pools: Mapping[str, int] | None = None,
    hands: Mapping[str, Mapping[str, int]] | None = None,
    play_order: tuple[str, ...] = ("A", "B"),
    seed: int = 1,
    turn: int = 1,
) -> GameState:
    """A state at the start of `turn` (income already added), built directly rather than by start-up."""
    streams = make_streams(seed)
    size = max(owners)
    players = {}
    for seat in sorted(play_order):
        hand = empty_hand()
        hand.update((hands or {}).get(seat, {}))
        players[seat] = PlayerState(seat, pool=(pools or {}).get(seat, 0), hand=hand)
    return GameState(
        turn=turn,
        play_order=tuple(play_order),
        owner=[""] + [owners[tid] for tid in range(1, size + 1)],
        armies=[0] + [(armies or {}).get(tid, 0) for tid in range(1, size + 1)],
        players=players,
        deck=dict.fromkeys(CARD_TYPES, 10),
        cards_rng=streams.cards,
        battle_rng=streams.battle,
    )


def rules(**changes: object) -> Rules:
    """spec 8's default rules: `move_order` fixed, the rest as spec 6."""
    return attrs.evolve(Rules(move_order="fixed"), **changes)


def play(state: GameState, warmap: WarMap, texts: Mapping[str, str], settings: Rules | None = None) -> TurnResult:
    """Parse each seat's orders text and play one turn."""
    settings = settings or rules()
    names = index_names(warmap)
    seats = tuple(sorted(state.players))
    sheets = {seat: parse_orders(text, names, seats, settings.max_orders) for seat, text in texts.items()}
    return play_turn(state, warmap, settings, sheets)


def results(turn: TurnResult, seat: str | None = None) -> list[str]:
    """The `result` (or `event`) of each event; with `seat`, only that seat's order events."""
    if seat is None:
        return [e.get("result", e.get("event")) for e in turn.events]
    return [e["result"] for e in turn.events if "result" in e and e["player"] == seat]


def codes(turn: TurnResult, seat: str) -> list[str]:
    return [r.code for r in turn.rejected[seat]]
