"""Word a Tower Defence `diff` report: the text lines and the `--json` object of `td-runner diff`."""

from __future__ import annotations

import json

from runner.games.tower_defence.logs.compare import MISSING, Difference
from runner.games.tower_defence.logs.diff import DiffReport, FileDifference

DEFAULT_MODE = (
    "ignoring missile ids, buildingPrices/buildingsStats key order, A/B-order-dependent list order and BotOutput.txt"
)
STRICT_MODE = "byte for byte, BotOutput.txt included"
_VALUE_WIDTH = 100
_ROUNDS_LISTED = 20


def _show(value: object) -> str:
    text = "<missing>" if value is MISSING else json.dumps(value, separators=(",", ":"))
    return text if len(text) <= _VALUE_WIDTH else text[: _VALUE_WIDTH - 3] + "..."


def _where(item: FileDifference) -> str:
    parts = [f"Round {item.round:03d}"]
    if item.player is not None:
        parts.append(f"player {item.player}")
    parts.append(item.file if item.file is not None else ("player folder" if item.player else "round folder"))
    return ", ".join(parts)


def render_text(report: DiffReport, strict: bool, names: tuple[str, str] = ("LOG_A", "LOG_B")) -> list[str]:
    """Human report; field values are shown as `LOG_A value | LOG_B value` (JSON-encoded, shortened)."""
    mode = STRICT_MODE if strict else DEFAULT_MODE
    lines = [f"note: {note}" for note in report.notes]
    if report.identical:
        lines.append(f"identical: {report.rounds_compared} rounds compared ({mode})")
        return lines
    lines.append(f"different ({mode})")
    lines.append(f"LOG_A = {names[0]}")
    lines.append(f"LOG_B = {names[1]}")
    lines.append(f"first divergent round: {report.differing_rounds[0]}")
    for item in report.first_round:
        if item.missing is not None:
            lines.append(f"  {_where(item)}: missing in LOG_{item.missing}")
            continue
        lines.append(f"  {_where(item)}:")
        for field in item.fields:
            lines.append(f"    {field.path}: {_show(field.expected)} | {_show(field.actual)}")
    numbers = ", ".join(str(n) for n in report.differing_rounds[:_ROUNDS_LISTED])
    if len(report.differing_rounds) > _ROUNDS_LISTED:
        numbers += ", ..."
    lines.append(f"differing rounds: {len(report.differing_rounds)} of {report.rounds_compared} ({numbers})")
    return lines


def _json_value(value: object) -> object:
    return None if value is MISSING else value


def _json_field(field: Difference) -> dict:
    result = {"path": field.path, "a": _json_value(field.expected), "b": _json_value(field.actual)}
    if field.expected is MISSING or field.actual is MISSING:
        result["missing"] = "A" if field.expected is MISSING else "B"
    return result


def render_json(report: DiffReport, strict: bool) -> dict:
    """The `--json` object; `first_difference` flattens the first field (or missing file) of the first round."""
    first = None
    if report.first_round:
        item = report.first_round[0]
        first = {"round": item.round, "player": item.player, "file": item.file, "path": None, "a": None, "b": None}
        if item.missing is not None:
            first["missing"] = item.missing
        elif item.fields:
            first.update(_json_field(item.fields[0]))
    return {
        "identical": report.identical,
        "strict": strict,
        "rounds_compared": report.rounds_compared,
        "differing_rounds": len(report.differing_rounds),
        "differing_round_numbers": list(report.differing_rounds),
        "first_difference": first,
        "first_round_differences": [
            {
                "round": item.round,
                "player": item.player,
                "file": item.file,
                "missing": item.missing,
                "fields": [_json_field(field) for field in item.fields],
            }
            for item in report.first_round
        ],
        "notes": list(report.notes),
    }
