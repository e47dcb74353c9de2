"""One-line English for each event of spec 4.2 (terminal, TurnReport.events, replay)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Event = Mapping[str, Any]

_ORDER_TEXT: dict[str, Callable[[Event], str]] = {
    "deployed": lambda e: f"deploys {e['armies']} on {e['territory']}",
    "moved": lambda e: f"moves {e['armies']} (of {e['ordered']}) from {e['from']} to {e['to']}",
    "attack": lambda e: (
        f"attacks {e['to']} ({e['defender']}, {e['defenders']}) from {e['from']} with {e['attackers']}: "
        f"kills {e['defenders_killed']}, loses {e['attackers_killed']}, "
        + (f"conquers it with {e['attackers_left']}" if e["conquered"]
           else f"{e['attackers_left']} return, {e['defenders_left']} defend")),
    "bombed": lambda e: f"bombs {e['territory']} ({e['owner']}): {e['before']} -> {e['after']}",
    "blockaded": lambda e: f"blockades {e['territory']}: {e['before']} -> {e['after']}, now neutral",
    "airlifted": lambda e: f"airlifts {e['armies']} (of {e['ordered']}) from {e['from']} to {e['to']}",
    "truce": lambda e: f"makes a truce with {e['with']}",
    "reinforced": lambda e: f"plays a reinforcement card: +{e['armies']}",
    "skipped": lambda e: f"'{e['order']}' skipped: {e['reason']} {e['message']}",
    "dropped": lambda e: f"'{e['order']}' dropped (eliminated)",
}

_GAME_TEXT: dict[str, Callable[[Event], str]] = {
    "eliminated": lambda e: f"{e['player']} is eliminated",
    "card": lambda e: f"{e['player']} draws a card",
    "game_over": lambda e: f"game over ({e['reason']}): " + (f"{e['winner']} wins" if e["winner"] else "no winner"),
}


def render_event(event: Event) -> str:
    """`#5 A line 3: attacks 3 (B, 26) from 1 with 40: ...`."""
    if "event" in event:
        return f"#{event['seq']} {_GAME_TEXT[event['event']](event)}"
    return f"#{event['seq']} {event['player']} line {event['line']}: {_ORDER_TEXT[event['result']](event)}"
