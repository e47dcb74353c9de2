"""One run of `td-runner watch`: seat the bot at its tables, play every seed, read each match back.

A table is the bot (always the first seat) and `players - 1` opponents. With two players every opponent is a
table of its own, the 1-vs-1 matches watch always played. With more seats the opponents are taken in order
and cycled until every one of them has sat at a table: opponents a, b, c at 3 players make the tables (a, b)
and (c, a); one opponent at 4 players makes (a, a, a). Each match is read back into a `MatchResult`: the
game's verdict, the bot's place in the ranking, its first score, faults and invalid commands, and the HTML
replay written beside the log.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from runner.errors import UserError
from runner.games.interface import Game, Outcome


@attrs.frozen
class Table:
    """The opponents of one seating, and the names the summary and the log folders give it."""

    label: str  # "reference" (two players), "reference x3", "a, b" (more)
    folder: str  # the log folder's stem: "reference", "reference-x3", "a+b"
    opponents: tuple[Path, ...]


@attrs.frozen
class WatchPlan:
    game: Game
    bot: Path
    tables: tuple[Table, ...]
    players: int
    seeds: int
    output: Path
    options: dict[str, Any]
    timeout_ms: int | None
    debounce: float
    runs: int | None


@attrs.frozen
class MatchResult:
    opponent: str  # the table's label
    seed: int
    log: Path
    outcome: str  # "won", "drew", "lost": the game's verdict (a Warzone turn limit is a draw for everyone)
    score: float | None
    score_name: str | None
    faults: int
    invalid: int
    first_invalid: str | None
    replay: Path | None
    players: int = 2
    place: int | None = None  # 1 + the seats ranked above the bot; None without a ranking
    tied: bool = False  # the bot shares its place


def _runs(names: Sequence[str]) -> list[tuple[str, int]]:
    """Consecutive equal names as (name, count): a, a, b -> (a, 2), (b, 1)."""
    return [(name, len(list(group))) for name, group in itertools.groupby(names)]


def seat_tables(opponents: Sequence[Path], players: int) -> tuple[Table, ...]:
    """The tables of a run (see the module's docstring); labels made unique by the table's number."""
    per_table = players - 1
    count = -(-len(opponents) // per_table)
    cycled = list(itertools.islice(itertools.cycle(opponents), count * per_table))
    tables, seen = [], set()
    for number in range(count):
        seated = tuple(cycled[number * per_table:(number + 1) * per_table])
        runs = _runs([opponent.name for opponent in seated])
        label = ", ".join(name if n == 1 else f"{name} x{n}" for name, n in runs)
        folder = "+".join(name if n == 1 else f"{name}-x{n}" for name, n in runs)
        if label in seen:  # two opponent folders of the same name: the logs must not collide
            label, folder = f"{label} #{number + 1}", f"{folder}-{number + 1}"
        seen.add(label)
        tables.append(Table(label, folder, seated))
    return tuple(tables)


def place_of(outcome: Outcome | None, seat: str) -> tuple[int | None, bool]:
    """The seat's place in the ranking (ties share the better place) and whether it is shared."""
    place = 1
    for group in outcome.ranking if outcome is not None else ():
        if seat in group:
            return place, len(group) > 1
        place += len(group)
    return None, False


def _outcome(summary, seat: str) -> str:
    winner = summary.winner
    if winner == seat:
        return "won"
    if winner is None and (summary.outcome is None or summary.outcome.draw or seat in summary.outcome.ranking[0]):
        return "drew"
    return "lost"


def _first_invalid(log: Path, seat_index: int) -> tuple[int, str | None, Path | None]:
    """Invalid answers of the bot, the first one as text, and the HTML replay written (None if it failed)."""
    from runner.replay.html import build_record, default_target, render_page

    try:
        record, board_js = build_record(log)
    except UserError:
        return 0, None, None
    target = default_target(log)
    target.write_text(render_page(record, board_js), encoding="utf-8")
    word = record.get("turn_word", "turn").lower()
    found = [(record["turns"][i], record["commands"][seat_index][i], text)
             for i, (kind, text) in enumerate(record["rulings"][seat_index]) if kind == "invalid"]
    if not found:
        return 0, None, target
    turn, command, text = found[0]
    shown = command.strip().replace("\n", " | ")
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return len(found), f"{word} {turn}: {shown!r} -> {text}", target


def build_bot(bot: Path):
    """Build the bot as `td-runner build` would (runner/bots/build.py): its BuildResult, or None when it has
    nothing to build. UserError when bot.json cannot be read or a path of it leads outside the folder."""
    from runner.bots.build import plan_build, run_build
    from runner.bots.definition import read_bot_json

    plan = plan_build(bot, read_bot_json(bot))
    return None if plan is None else run_build(plan)


def play_run(plan: WatchPlan, number: int) -> list[MatchResult]:
    """Every table on every seed, logs under `--output/run-NNN/<table>-seed<S>`."""
    from runner.bots.limits import Limits
    from runner.play import play_match

    folder = plan.output / f"run-{number:03d}"
    results = []
    limits = Limits(timeout_ms=plan.timeout_ms) if plan.timeout_ms else None
    seat = plan.game.seats(plan.players)[0]
    for table in plan.tables:
        for seed in range(plan.seeds):
            log = folder / f"{table.folder}-seed{seed}"
            summary = play_match(plan.game, [plan.bot, *table.opponents], log, options=plan.options, seed=seed,
                                 limits=limits)
            if summary.interrupted:
                raise KeyboardInterrupt
            mine = summary.standings.get(seat, {})
            score_name = next(iter(mine), None)
            tally = summary.tallies[seat]
            invalid, first, replay = _first_invalid(log, 0)
            place, tied = place_of(summary.outcome, seat)
            results.append(MatchResult(
                table.label, seed, log, _outcome(summary, seat),
                mine.get(score_name) if score_name else None, score_name,
                tally.timeouts + tally.crashes, max(invalid, tally.invalid_commands), first, replay,
                plan.players, place, tied))
    return results
