"""`td-runner warzone-map --list`: the maps shipped with the package, by the names `--map NAME` takes."""

from __future__ import annotations

from typing import TextIO

import attrs

from runner.games.warzone.loading import read_map, shipped_maps
from runner.games.warzone.protocol.config import DEFAULT_MAP


@attrs.frozen
class ShippedMap:
    """One shipped map as the list shows it; `strict_errors` are the codes that make a strict match refuse it
    (a lenient one, `--map-validation lenient`, plays it: the test maps of one-way borders and split
    continents)."""

    name: str
    territories: int
    continents: int
    dialect: str
    strict_errors: tuple[str, ...]


def describe_shipped_maps() -> list[ShippedMap]:
    """Each shipped map, read strictly for its errors and leniently for its size."""
    described = []
    for name, path in shipped_maps().items():
        _, strict = read_map(path, lenient=False)
        _, lenient = read_map(path, lenient=True)
        warmap = strict.map or lenient.map
        errors = tuple(dict.fromkeys(f.code for f in strict.findings if f.error))
        described.append(ShippedMap(name, len(warmap.territories) if warmap else 0,
                                    len(warmap.continents) if warmap else 0, warmap.dialect if warmap else "-",
                                    errors))
    return described


def print_shipped_maps(out: TextIO) -> None:
    rows = [("name", "territories", "continents", "dialect", "notes")]
    for each in describe_shipped_maps():
        notes = ["default"] if each.name == DEFAULT_MAP else []
        if each.strict_errors:
            notes.append(f"strict refuses it ({', '.join(each.strict_errors)}); --map-validation lenient plays it")
        rows.append((each.name, str(each.territories), str(each.continents), each.dialect, "; ".join(notes)))
    widths = [max(len(row[column]) for row in rows) for column in range(4)]
    for name, territories, continents, dialect, notes in rows:
        line = (f"{name:<{widths[0]}}  {territories:>{widths[1]}}  {continents:>{widths[2]}}  "
                f"{dialect:<{widths[3]}}  {notes}")
        print(line.rstrip(), file=out)
