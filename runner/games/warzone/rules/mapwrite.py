"""Render a WarMap as a map file in either dialect (spec 3.3, 3.4): the inverse of `parse_map`.

Used to write generated maps and to fuzz the reader (parse -> render -> parse gives the same map).
"""

from __future__ import annotations

from collections.abc import Sequence

from runner.games.warzone.rules.board import WarMap

#: x, y per territory in id order; None writes `0 0` for every territory (a map without coordinates)
Places = Sequence[tuple[int, int]] | None


def _place(places: Places, tid: int) -> tuple[int, int]:
    return (0, 0) if places is None else places[tid - 1]


def render_domination(warmap: WarMap, places: Places = None) -> str:
    """Domination text; names must be single tokens (Domination names have no spaces)."""
    lines = [f"name {warmap.name}"] if warmap.name else []
    lines += ["", "[continents]", *(f"{c.name} {c.bonus} grey" for c in warmap.continents), "", "[countries]"]
    lines += [f"{t.id} {t.name} {t.continent} {' '.join(map(str, _place(places, t.id)))}" for t in warmap.territories]
    lines += ["", "[borders]"]
    lines += [" ".join(map(str, (t.id, *warmap.neighbours_of(t.id)))) for t in warmap.territories]
    return "\n".join(lines) + "\n"


def render_conquest(warmap: WarMap, places: Places = None) -> str:
    """Conquest text; names must not contain `,` and continent names not `=` before the bonus."""
    lines = ["[Map]", f"name={warmap.name}", "", "[Continents]", *(f"{c.name}={c.bonus}" for c in warmap.continents)]
    lines += ["", "[Territories]"]
    for t in warmap.territories:
        neighbours = [warmap.territory(n).name for n in warmap.neighbours_of(t.id)]
        x, y = _place(places, t.id)
        lines.append(",".join([t.name, str(x), str(y), warmap.continents[t.continent - 1].name, *neighbours]))
    return "\n".join(lines) + "\n"
