"""The one-screen summary `td-runner watch` prints after a run, compared with the previous run.

One line per table: won-drew-lost, the first score, faults and invalid commands, each with its change. With
more than two players a Warzone turn limit is a draw for every seat, so the verdict says little: the line
adds the bot's mean place, and a line under it gives the place per seed (`seed 0: 1st of 4 (was 3rd)`).
Places are compared as "was" rather than signed deltas, since a smaller place is the better one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from runner.commands.watch_run import MatchResult
from runner.words import ordinal, plural

__all__ = ["ordinal", "plural", "render_build", "render_summary"]

#: Seeds per line of places, so that the summary stays one screen wide.
PLACES_PER_LINE = 4


def render_build(number: int, why: str, result: Any) -> list[str]:
    """The build's line before a run's matches; a failed build is the run's whole result: its problem and the
    last lines of its output (runner/bots/build.py's BuildResult)."""
    if result.ok:
        return [f"  built ({result.plan.recipe}: {result.plan.command}, {result.seconds:.1f} s)"]
    lines = [f"run {number} ({why}): build failed ({result.plan.recipe}): {result.problem}"]
    if result.tail:
        lines.append(f"  last {plural(len(result.tail), 'line')} of its output:")
        lines.extend(f"  | {line}" for line in result.tail)
    return lines


def _tally(results: list[MatchResult]) -> dict[str, dict[str, Any]]:
    by: dict[str, dict[str, Any]] = {}
    for r in results:
        entry = by.setdefault(r.opponent, {"won": 0, "drew": 0, "lost": 0, "scores": [], "faults": 0,
                                           "invalid": 0, "score_name": r.score_name, "players": r.players,
                                           "places": {}})
        entry[r.outcome] += 1
        if isinstance(r.score, (int, float)):
            entry["scores"].append(r.score)
        entry["faults"] += r.faults
        entry["invalid"] += r.invalid
        entry["places"][r.seed] = (r.place, r.tied)
    for entry in by.values():
        entry["score"] = sum(entry["scores"]) / len(entry["scores"]) if entry["scores"] else None
        places = [place for place, _ in entry["places"].values() if place is not None]
        entry["place"] = sum(places) / len(places) if places else None
    return by


def _change(now: float | int | None, before: float | int | None) -> str:
    if before is None or now is None:
        return ""
    delta = now - before
    if delta == 0:
        return " (=)"
    return f" ({'+' if delta > 0 else ''}{delta:g})"


def _was(now: str, before: str | None) -> str:
    """A place compared with the previous run's: ' (=)', ' (was 3rd)', or nothing without one."""
    if before is None:
        return ""
    return " (=)" if now == before else f" (was {before})"


def _table_line(label: str, entry: dict[str, Any], old: dict[str, Any] | None) -> str:
    record = f"{entry['won']}-{entry['drew']}-{entry['lost']}"
    was = f" (was {old['won']}-{old['drew']}-{old['lost']})" if old else ""
    place = ""
    if entry["players"] > 2 and entry["place"] is not None:
        mean = f"{entry['place']:.3g}"
        before = f"{old['place']:.3g}" if old and old["place"] is not None else None
        place = f"  mean place {mean}{_was(mean, before)}"
    score = ""
    if entry["score"] is not None:
        score = f"  {entry['score_name']} {entry['score']:g}{_change(entry['score'], old and old['score'])}"
    return (f"  vs {label}: won-drew-lost {record}{was}{place}{score}  faults {entry['faults']}"
            f"{_change(entry['faults'], old and old['faults'])}  invalid {entry['invalid']}"
            f"{_change(entry['invalid'], old and old['invalid'])}")


def _place_lines(entry: dict[str, Any], old: dict[str, Any] | None) -> list[str]:
    """The bot's place on every seed, PLACES_PER_LINE to a line, each against the previous run's."""
    shown = []
    for seed, (place, tied) in sorted(entry["places"].items()):
        before = old["places"].get(seed) if old else None
        now = ordinal(place, tied)
        shown.append(f"seed {seed}: {now} of {entry['players']}{_was(now, before and ordinal(*before))}")
    return ["    " + "  ".join(shown[i:i + PLACES_PER_LINE]) for i in range(0, len(shown), PLACES_PER_LINE)]


def _replay_line(results: list[MatchResult]) -> str | None:
    """The replay to open: the first match not won (two players) or the worst place (more)."""
    replayed = [r for r in results if r.replay]
    if not replayed:
        return None
    if replayed[0].players == 2:
        shown = next((r for r in replayed if r.outcome != "won"), replayed[0])
        return f"  replay: {shown.replay} ({shown.outcome} vs {shown.opponent}, seed {shown.seed})"
    shown = max(replayed, key=lambda r: r.place or r.players + 1)  # max keeps the first of equals
    return (f"  replay: {shown.replay} ({ordinal(shown.place, shown.tied)} of {shown.players}, {shown.outcome} "
            f"vs {shown.opponent}, seed {shown.seed})")


def render_summary(number: int, why: str, seconds: float, results: list[MatchResult],
                   previous: list[MatchResult] | None, folder: Path) -> list[str]:
    """The one-screen summary of a run, compared with the previous run when there was one."""
    now, before = _tally(results), _tally(previous or [])
    lines = [f"run {number} ({why}): {plural(len(results), 'match')} in {seconds:.1f} s; logs in {folder}"]
    for label, entry in now.items():
        old = before.get(label)
        lines.append(_table_line(label, entry, old))
        if entry["players"] > 2:
            lines.extend(_place_lines(entry, old))
    first = next((r for r in results if r.first_invalid), None)
    if first is not None:
        lines.append(f"  first invalid command: vs {first.opponent} seed {first.seed}, {first.first_invalid}")
    else:
        lines.append("  no invalid command")
    replay = _replay_line(results)
    if replay is not None:
        lines.append(replay)
    return lines
