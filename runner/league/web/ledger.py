"""Tallies that grow with the league, folded in match by match instead of recounted per page.

A served league renders its pages once per change, and a change is one finished match: recounting every
seat for the crosstable (0.26 s at 6,400 matches, growing with the league) on each of them would keep the
server busy. The ledger remembers the last match it read and folds only the seats of newer ones (match ids
only grow, and a recorded match never changes), so each change costs the new match's seats."""

from __future__ import annotations

import sqlite3
import threading

#: (games with a place, wins, draws, losses, faults) of a version in a role, as the standings count them.
Tally = tuple[int, int, int, int, int]

_SEATS = ("SELECT s.match_id, s.version_id, s.role, s.place, s.result, "
          "s.timeouts + s.crashes + s.failed_to_start + s.invalid + s.disqualified AS faults, m.draw, v.player_id "
          "FROM seats s JOIN matches m ON m.id = s.match_id JOIN versions v ON v.id = s.version_id "
          "WHERE s.match_id > ? ORDER BY s.match_id, s.position")


class Ledger:
    """Per (version, role) tallies and the player-against-player crosstable, thread-safe."""

    def __init__(self) -> None:
        self.last_match = 0
        self._tallies: dict[tuple[int, str], list[int]] = {}
        self._cross: dict[tuple[int, int], list[int]] = {}
        self._lock = threading.Lock()

    def fold(self, db: sqlite3.Connection) -> None:
        """Take in the seats of every match recorded since the last fold."""
        with self._lock:
            match, seats = None, []
            for row in db.execute(_SEATS, (self.last_match,)):
                if row["match_id"] != match:
                    self._pairs(seats)
                    match, seats = row["match_id"], []
                    self.last_match = match
                seats.append(row)
                tally = self._tallies.setdefault((row["version_id"], row["role"]), [0, 0, 0, 0, 0])
                tally[0] += row["place"] is not None
                tally[1] += row["result"] == "win"
                tally[2] += row["result"] == "draw"
                tally[3] += row["result"] == "loss"
                tally[4] += row["faults"]
            self._pairs(seats)

    def _pairs(self, seats: list[sqlite3.Row]) -> None:
        """One match's crosstable cells: each ordered pair of placed seats (the row's W-D-L by place)."""
        for a in seats:
            for b in seats:
                if a is b or a["place"] is None or b["place"] is None:
                    continue
                cell = self._cross.setdefault((a["player_id"], b["player_id"]), [0, 0, 0])
                if a["draw"] or a["place"] == b["place"]:
                    cell[1] += 1
                else:
                    cell[0 if a["place"] < b["place"] else 2] += 1

    def tally(self, version: int, role: str | None = None) -> Tally:
        """A version's tally in `role`, or over all its roles (None)."""
        with self._lock:
            if role is not None:
                return tuple(self._tallies.get((version, role), (0, 0, 0, 0, 0)))  # type: ignore[return-value]
            found = [t for (v, _), t in self._tallies.items() if v == version]
            return tuple(sum(column) for column in zip(*found)) if found else (0, 0, 0, 0, 0)  # type: ignore

    def crosstable(self) -> dict[tuple[int, int], tuple[int, int, int]]:
        """(row player id, column player id) -> the row player's (wins, draws, losses)."""
        with self._lock:
            return {pair: (cell[0], cell[1], cell[2]) for pair, cell in self._cross.items()}
