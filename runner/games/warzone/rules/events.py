"""The turn's event list (spec 4.2): JSON-able dicts with keys in the spec's order, numbered as emitted."""

from __future__ import annotations

from typing import Any

import attrs

from runner.games.warzone.rules.orders import Order, render_order


@attrs.define
class EventLog:
    """Events of one turn, in execution order; `seq` counts from 1."""

    events: list[dict[str, Any]] = attrs.Factory(list)

    def order_event(self, seat: str, order: Order, result: str, **extra: Any) -> dict[str, Any]:
        """An event of an order: `{seq, player, line, order, result, ...extra}`."""
        event = {"seq": len(self.events) + 1, "player": seat, "line": order.line, "order": render_order(order),
                 "result": result, **extra}
        self.events.append(event)
        return event

    def skipped(self, seat: str, order: Order, reason: str, message: str) -> dict[str, Any]:
        return self.order_event(seat, order, "skipped", reason=reason, message=message)

    def game_event(self, event: str, **extra: Any) -> dict[str, Any]:
        """A non-order event: `{seq, event, ...extra}` (eliminated, card, game_over)."""
        record = {"seq": len(self.events) + 1, "event": event, **extra}
        self.events.append(record)
        return record
