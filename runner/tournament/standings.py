"""The standings table, computed from `games.jsonl` alone.

Records are replayed in schedule order (`index`, then match id), never in the order they finished, so the
same games always give the same ratings. Ratings are OpenSkill's Plackett-Luce: each match is one rating
event whose teams are the seats, ranked as the record says (a draw: all equal ranks).

A match stopped by `--match-timeout` (`unfinished`) has no result: it counts in `unfinished` and its bots'
faults, never in games, wins, points, ratings or the crosstable.

Sided games (Invaders) are scored as their spec says: a defender by the mean number of turns it lasted
(higher is better), an invader by the mean turns against it (lower is better); the rating events there are,
per round, all defenders that met one invader ranked by turns, and all invaders that met one defender.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from runner.errors import UserError
from runner.tournament.records import GameRecord

STANDINGS_JSON, STANDINGS_CSV = "standings.json", "standings.csv"


@attrs.define
class Row:
    """One entrant's line (one per role in sided games)."""

    name: str
    hash: str
    role: str | None = None
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0
    mu: float = 0.0
    sigma: float = 0.0
    ordinal: float = 0.0
    timeouts: int = 0
    crashes: int = 0
    invalid: int = 0  # answers refused for their content (the same "faults" as a league's: each kind counted apart)
    cannot_start: int = 0
    disqualified: int = 0
    unfinished: int = 0  # matches stopped at --match-timeout: not in games, W/D/L, points or the rating
    mean_turns: float | None = None
    turns: list[int] = attrs.field(factory=list, repr=False)

    def to_json(self) -> dict[str, Any]:
        data = attrs.asdict(self)
        del data["turns"]
        for key in ("points", "mu", "sigma", "ordinal"):
            data[key] = round(data[key], 4)
        if self.mean_turns is None:
            del data["mean_turns"]
        if self.role is None:
            del data["role"]
        return data


#: (match number in schedule order, mu, sigma): a rating after a rating event (Standings.history)
RatingPoint = tuple[int, float, float]


@attrs.frozen
class Standings:
    game: str
    matches: int
    scheduled: int | None
    rows: tuple[Row, ...]
    crosstable: dict[str, dict[str, dict[str, Any]]]
    #: (bot hash, role) -> its starting rating (match 0), then its rating after each event that rated it,
    #: numbered by the event's last match in schedule order (records sorted by index, 1-based): the rating
    #: charts of the tournament's pages. Not in standings.json.
    history: dict[tuple[str, str | None], tuple[RatingPoint, ...]] = attrs.field(factory=dict, eq=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "matches": self.matches, "scheduled": self.scheduled,
                "rows": [row.to_json() for row in self.rows], "crosstable": self.crosstable}


def compute_standings(game: str, records: Sequence[GameRecord], *, sides: tuple[str, str] | None = None,
                      turn_cap: int | None = None, scheduled: int | None = None) -> Standings:
    """The table from `records` (any order); `sides` names a sided game's roles, `turn_cap` its forfeit score."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise UserError("tournament standings need the openskill package: pip install 'td-runner[tournament]'") from None

    ordered = sorted(records, key=lambda record: (record.index, record.match))
    model = PlackettLuce()
    rows: dict[tuple[str, str | None], Row] = {}
    ratings: dict[tuple[str, str | None], Any] = {}
    cross: dict[str, dict[str, dict[str, Any]]] = {}

    def row_of(name: str, bot_hash: str, role: str | None) -> Row:
        key = (bot_hash, role)
        if key not in rows:
            rows[key] = Row(name, bot_hash, role)
            ratings[key] = model.rating(name=name)
        rows[key].name = name
        return rows[key]

    events: list[tuple[Any, list[tuple[tuple[str, str | None], int]]]] = []
    numbers: list[int] = []  # each event's match number (schedule order)
    last_of_round: dict[int, int] = {}
    for number, record in enumerate(ordered, 1):
        last_of_round[record.round] = number
        roles = {seat.seat: (seat.seat if sides else None) for seat in record.seats}
        for seat in record.seats:
            row = row_of(seat.bot, seat.hash, roles[seat.seat])
            row.timeouts += seat.timeouts
            row.crashes += seat.crashes
            row.invalid += seat.invalid
            row.cannot_start += not seat.started
            row.disqualified += seat.disqualified
            row.unfinished += record.unfinished is not None
        if record.unfinished is not None:
            continue
        places = verdicts(record)
        turns = sided_scores(record, sides, turn_cap) if sides else {}
        for seat in record.seats:
            row = row_of(seat.bot, seat.hash, roles[seat.seat])
            row.games += 1
            verdict = places[seat.seat]
            row.wins += verdict == "win"
            row.draws += verdict == "draw"
            row.losses += verdict == "loss"
            row.points += points_share(record, seat.seat)
            if sides:
                row.turns.append(turns[seat.seat])
            for other in record.seats:
                if other.seat != seat.seat:
                    cell = cross.setdefault(seat.bot, {}).setdefault(other.bot, {"wins": 0, "draws": 0, "losses": 0})
                    cell[_versus(record, seat.seat, other.seat)] += 1
                    if sides:
                        cell.setdefault("turns", []).append(turns[seat.seat])
        if not sides:
            ranks = {seat: position for position, group in enumerate(record.ranking, 1) for seat in group}
            events.append(((), [((seat.hash, None), 1 if record.draw else ranks[seat.seat]) for seat in record.seats]))
            numbers.append(number)
    if sides:
        events = _sided_events([record for record in ordered if record.unfinished is None], sides, turn_cap)
        numbers = [last_of_round[key[0]] for key, _ in events]  # an event rates a round's matches together
    history = {key: [(0, rating.mu, rating.sigma)] for key, rating in ratings.items()}
    for (_, teams), number in zip(events, numbers):
        keys = [key for key, _ in teams]
        rated = model.rate([[ratings[key]] for key in keys], ranks=[rank for _, rank in teams])
        for key, (rating,) in zip(keys, rated):
            ratings[key] = rating
            history[key].append((number, rating.mu, rating.sigma))
    for key, row in rows.items():
        rating = ratings[key]
        row.mu, row.sigma, row.ordinal = rating.mu, rating.sigma, rating.ordinal()
        if sides:
            row.mean_turns = round(sum(row.turns) / len(row.turns), 2) if row.turns else None
            row.points = row.mean_turns or 0.0
    for cells in cross.values():
        for cell in cells.values():
            if "turns" in cell:
                cell["mean_turns"] = round(sum(cell["turns"]) / len(cell["turns"]), 2)
                del cell["turns"]
    if sides:
        first = sides[0]
        table = sorted(rows.values(), key=lambda row: (row.role != first, -(row.mean_turns or 0)
                       if row.role == first else (row.mean_turns or 0), -row.ordinal, row.name))
    else:
        table = sorted(rows.values(), key=lambda row: (-row.ordinal, -row.points, row.name))
    return Standings(game, len(ordered), scheduled, tuple(table),
                     {name: dict(sorted(cells.items())) for name, cells in sorted(cross.items())},
                     {key: tuple(points) for key, points in history.items()})


def verdicts(record: GameRecord) -> dict[str, str]:
    """win / draw / loss per seat: a win is the top alone; sharing the top, or a drawn match, is a draw."""
    verdict = {}
    for seat in record.seats:
        if record.draw:
            verdict[seat.seat] = "draw"
        elif seat.seat in record.ranking[0]:
            verdict[seat.seat] = "win" if len(record.ranking[0]) == 1 else "draw"
        else:
            verdict[seat.seat] = "loss"
    return verdict


def points_share(record: GameRecord, seat: str) -> float:
    """The share of the other seats this seat beat (a tie counts half): 1, 0.5, 0 in a two-seat match."""
    others = len(record.seats) - 1
    if record.draw or others == 0:
        return 0.5 if others else 0.0
    position = next(index for index, group in enumerate(record.ranking) if seat in group)
    below = sum(len(group) for group in record.ranking[position + 1:])
    tied = len(record.ranking[position]) - 1
    return (below + 0.5 * tied) / others


def _versus(record: GameRecord, seat: str, other: str) -> str:
    if record.draw:
        return "draws"
    position = {s: index for index, group in enumerate(record.ranking) for s in group}
    if position[seat] == position[other]:
        return "draws"
    return "wins" if position[seat] < position[other] else "losses"


def sided_scores(record: GameRecord, sides: tuple[str, str], turn_cap: int | None) -> dict[str, int]:
    """Both sides' score of one sided match (invaders spec 18): the turns it lasted; a forfeit scores as a
    disqualification: 0 when the first side could not start, else the turn cap."""
    score = record.details.get("score")
    if not isinstance(score, int):
        first = record.seat(sides[0])
        score = 0 if not first.started else (turn_cap or record.rounds)
    return {seat.seat: score for seat in record.seats}


def _sided_events(records: Sequence[GameRecord], sides: tuple[str, str], turn_cap: int | None) -> list:
    """Rating events of a sided game: per round and opponent, the bots that met it ranked by their score."""
    groups: dict[tuple[int, str, str], list[tuple[tuple[str, str | None], int]]] = {}
    for record in records:
        score = sided_scores(record, sides, turn_cap)[sides[0]]
        first, second = record.seat(sides[0]), record.seat(sides[1])
        # the first side is ranked by turns, more is better; the second by turns against it, fewer is better
        groups.setdefault((record.round, sides[1], second.hash), []).append(((first.hash, sides[0]), -score))
        groups.setdefault((record.round, sides[0], first.hash), []).append(((second.hash, sides[1]), score))
    events = []
    for key in sorted(groups):
        entries = groups[key]
        if len(entries) < 2:
            continue
        values = sorted({value for _, value in entries})
        events.append((key, [(bot, values.index(value) + 1) for bot, value in entries]))
    return events


def render_csv(standings: Standings) -> str:
    buffer = io.StringIO()
    rows = [row.to_json() for row in standings.rows]
    columns = list(rows[0]) if rows else ["name"]
    writer = csv.DictWriter(buffer, columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def write_standings(folder: Path, standings: Standings) -> None:
    """standings.json and standings.csv, each written aside and renamed into place."""
    for name, text in ((STANDINGS_JSON, json.dumps(standings.to_json(), indent=2) + "\n"),
                       (STANDINGS_CSV, render_csv(standings))):
        partial = folder / f".{name}.partial"
        partial.write_text(text, encoding="utf-8")
        partial.replace(folder / name)


def read_standings(folder: Path) -> dict[str, Any]:
    path = folder / STANDINGS_JSON
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path}: no such file (is {folder} a tournament folder?)") from None
    except (OSError, ValueError) as exc:
        raise UserError(f"{path}: cannot read: {exc}") from None
