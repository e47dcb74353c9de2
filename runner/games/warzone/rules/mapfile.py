"""Read a map file in either dialect (spec 3) into a WarMap plus every finding of spec 3.6.

The reader takes the file's bytes (or text), never a path: opening files is the caller's job. Fatal
reading errors stop at the first one; the model checks then report everything, sorted by code then line.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import attrs

from runner.games.warzone.rules.board import Continent, Territory, WarMap, build_map, components

MAX_BYTES = 4 << 20
MAX_TERRITORIES = 5000
MAX_CONTINENTS = 1000
MAX_NAME = 200

#: Every finding code in the order of spec 3.6's table (findings sort by this order, then by line).
CODES = (
    "E_READ", "E_TOO_LARGE", "E_NOT_A_MAP", "E_MIXED_DIALECT", "E_UNKNOWN_SECTION", "E_DUPLICATE_SECTION",
    "E_MISSING_SECTION", "E_SYNTAX", "E_BAD_INDEX", "E_EXTRA_FIELDS", "E_DUPLICATE_CONTINENT",
    "E_DUPLICATE_TERRITORY", "E_DUPLICATE_NAME", "E_UNKNOWN_CONTINENT", "E_UNKNOWN_TERRITORY",
    "E_NO_CONTINENTS", "E_NO_TERRITORIES", "E_SELF_LOOP", "E_ASYMMETRIC_BORDER", "E_EMPTY_CONTINENT",
    "E_MAP_DISCONNECTED", "E_CONTINENT_DISCONNECTED",
)
#: Codes that are warnings (with a repair) in lenient mode; every other code is an error in both modes.
REPAIRABLE = frozenset({"E_EXTRA_FIELDS", "E_DUPLICATE_NAME", "E_SELF_LOOP", "E_ASYMMETRIC_BORDER",
                        "E_EMPTY_CONTINENT", "E_CONTINENT_DISCONNECTED"})

DOMINATION_SECTIONS = ("files", "continents", "countries", "borders")
CONQUEST_SECTIONS = ("map", "continents", "territories")

_INTEGER = re.compile(r"[+-]?[0-9]{1,9}")
_LINE_END = re.compile(r"\r\n|\r|\n")
_BOM = b"\xef\xbb\xbf"


@attrs.frozen
class Finding:
    """One problem in a map file; `error` False means lenient mode repaired it (a warning)."""

    code: str
    line: int | None
    message: str
    error: bool = True

    def render(self, file: str) -> str:
        """`file:line: CODE: message` (spec 6: what `td-runner validate` prints)."""
        where = f"{file}:{self.line}" if self.line is not None else file
        kind = "" if self.error else " (warning)"
        return f"{where}: {self.code}: {self.message}{kind}"


@attrs.frozen
class MapReading:
    """The outcome of reading: `map` is None when any finding is an error."""

    map: WarMap | None
    findings: tuple[Finding, ...]

    @property
    def is_valid(self) -> bool:
        return self.map is not None


class _Fatal(Exception):
    """A reading error that stops the reader (spec 3.6: fatal errors stop at the first one)."""

    def __init__(self, code: str, line: int | None, message: str) -> None:
        super().__init__(message)
        self.finding = Finding(code, line, message)


@attrs.define
class _Raw:
    """What a dialect reader found: continents, territories and directed border entries with lines."""

    continents: list[Continent] = attrs.Factory(list)
    territories: list[Territory] = attrs.Factory(list)
    entries: list[tuple[int, int, int]] = attrs.Factory(list)  # (a, b, line): "a lists b"
    findings: list[Finding] = attrs.Factory(list)  # non-fatal findings met while reading


Lines = list[tuple[int, str]]


def parse_map(data: bytes | str, *, lenient: bool = False, default_name: str = "") -> MapReading:
    """Read and validate a map file's contents; never raises on any input."""
    try:
        text = decode_map(data)
        sections, preamble = _split_sections(text)
        dialect = _dialect(sections)
        raw = _READERS[dialect](sections, lenient)
    except _Fatal as fatal:
        return MapReading(None, (fatal.finding,))
    name = _map_name(preamble) or default_name
    return _check_model(raw, dialect, name, lenient)


def decode_map(data: bytes | str) -> str:
    """Bytes to text (spec 3.1): BOM means UTF-8; else UTF-8 when valid, else ISO-8859-1."""
    if isinstance(data, str):
        if len(data) > MAX_BYTES and len(data.encode("utf-8", "surrogatepass")) > MAX_BYTES:
            raise _Fatal("E_TOO_LARGE", None, f"the file is larger than {MAX_BYTES} bytes")
        return data.removeprefix("\ufeff")
    if len(data) > MAX_BYTES:
        raise _Fatal("E_TOO_LARGE", None, f"the file is larger than {MAX_BYTES} bytes")
    if data.startswith(_BOM):
        try:
            return data[len(_BOM):].decode("utf-8")
        except UnicodeDecodeError as problem:
            raise _Fatal("E_READ", None, f"invalid UTF-8 after the byte-order mark at byte {problem.start + 3}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("iso-8859-1")


def _split_sections(text: str) -> tuple[dict[str, tuple[int, Lines]], Lines]:
    """Section name -> (header line, content lines); plus the lines before the first header (spec 3.1)."""
    sections: dict[str, tuple[int, Lines]] = {}
    preamble: Lines = []
    current: Lines = preamble
    for number, physical in enumerate(_LINE_END.split(text), start=1):
        line = physical.strip()
        if not line or line.startswith(";"):
            continue
        if line.startswith("[") and line.endswith("]") and len(line) >= 2:
            name = line[1:-1].strip().lower()
            if name in sections:
                raise _Fatal("E_DUPLICATE_SECTION", number,
                             f"section [{name}] appears twice (first at line {sections[name][0]})")
            current = []
            sections[name] = (number, current)
        else:
            current.append((number, line))
    return sections, preamble


def _dialect(sections: dict[str, tuple[int, Lines]]) -> str:
    """Which dialect the headers say (spec 3.2)."""
    domination = {"files", "countries", "borders"} & sections.keys()
    conquest = {"map", "territories"} & sections.keys()
    if domination and conquest:
        raise _Fatal("E_MIXED_DIALECT", None,
                     f"Domination sections ({', '.join(sorted(domination))}) mixed with Conquest sections "
                     f"({', '.join(sorted(conquest))})")
    if domination:
        return "domination"
    if conquest:
        return "conquest"
    lines = sections.get("continents", (0, []))[1]
    if not lines:
        raise _Fatal("E_NOT_A_MAP", None, "no map section ([continents], [countries], [territories], ...)")
    return "conquest" if "=" in lines[0][1] else "domination"


def _require_sections(sections: dict[str, tuple[int, Lines]], allowed: tuple[str, ...],
                      required: tuple[str, ...], dialect: str) -> None:
    """E_UNKNOWN_SECTION, then E_MISSING_SECTION (spec 3.3, 3.4)."""
    for name, (line, _) in sorted(sections.items(), key=lambda item: item[1][0]):
        if name not in allowed:
            raise _Fatal("E_UNKNOWN_SECTION", line,
                         f"section [{name}] is not one of {', '.join(allowed)} ({dialect} dialect)")
    for name in required:
        if name not in sections:
            raise _Fatal("E_MISSING_SECTION", None, f"section [{name}] is missing ({dialect} dialect)")


def _require_content(sections: dict[str, tuple[int, Lines]], continents: str, territories: str) -> None:
    """E_NO_CONTINENTS / E_NO_TERRITORIES for empty required sections."""
    if not sections[continents][1]:
        raise _Fatal("E_NO_CONTINENTS", sections[continents][0], f"section [{continents}] is empty")
    if not sections[territories][1]:
        raise _Fatal("E_NO_TERRITORIES", sections[territories][0], f"section [{territories}] is empty")


def _integer(token: str, line: int, what: str) -> int:
    if not _INTEGER.fullmatch(token):
        raise _Fatal("E_SYNTAX", line, f"{what} {token!r} is not an integer (at most 9 digits)")
    return int(token)


def _check_name(name: str, line: int) -> None:
    if len(name) > MAX_NAME:
        raise _Fatal("E_TOO_LARGE", line, f"name longer than {MAX_NAME} characters")


def _check_counts(raw: _Raw, line: int) -> None:
    if len(raw.continents) > MAX_CONTINENTS:
        raise _Fatal("E_TOO_LARGE", line, f"more than {MAX_CONTINENTS} continents")
    if len(raw.territories) > MAX_TERRITORIES:
        raise _Fatal("E_TOO_LARGE", line, f"more than {MAX_TERRITORIES} territories")


def _extra_fields(raw: _Raw, line: int, tokens: list[str], keep: int, what: str, lenient: bool) -> None:
    """spec 3.3: tokens after COLOUR / after Y are E_EXTRA_FIELDS (lenient: ignored)."""
    raw.findings.append(Finding("E_EXTRA_FIELDS", line,
                                f"{what} line has {len(tokens)} fields, at most {keep} expected: "
                                f"{' '.join(tokens[keep:])!r} {'ignored' if lenient else 'not allowed'}",
                                error=not lenient))


def _duplicate_names(raw: _Raw, items: list, what: str, lenient: bool) -> None:
    """spec 3.6 E_DUPLICATE_NAME (Domination): names equal ignoring case."""
    seen: dict[str, int] = {}
    for item in items:
        key = item.name.casefold()
        if key in seen:
            raw.findings.append(Finding("E_DUPLICATE_NAME", item.line,
                                        f"{what} name {item.name!r} equals {what} {seen[key]}'s ignoring case",
                                        error=not lenient))
        else:
            seen[key] = item.id


def _read_domination(sections: dict[str, tuple[int, Lines]], lenient: bool) -> _Raw:
    """spec 3.3: tokens split on white space, territories referred to by INDEX."""
    _require_sections(sections, DOMINATION_SECTIONS, ("continents", "countries", "borders"), "Domination")
    _require_content(sections, "continents", "countries")
    raw = _Raw()
    for line, text in sections["continents"][1]:
        tokens = text.split()
        if len(tokens) < 2:
            raise _Fatal("E_SYNTAX", line, "continent line needs NAME BONUS [COLOUR]")
        if len(tokens) > 3:
            _extra_fields(raw, line, tokens, 3, "continent", lenient)
        _check_name(tokens[0], line)
        bonus = _integer(tokens[1], line, "bonus")
        raw.continents.append(Continent(len(raw.continents) + 1, tokens[0], bonus, line))
        _check_counts(raw, line)
    for line, text in sections["countries"][1]:
        tokens = text.split()
        if len(tokens) < 3 or len(tokens) == 4:
            raise _Fatal("E_SYNTAX", line, "country line needs INDEX NAME CONTINENT [X Y]")
        if len(tokens) > 5:
            _extra_fields(raw, line, tokens, 5, "country", lenient)
        index = _integer(tokens[0], line, "index")
        continent = _integer(tokens[2], line, "continent")
        for token in tokens[3:5]:
            _integer(token, line, "coordinate")
        _check_name(tokens[1], line)
        expected = len(raw.territories) + 1
        if index != expected:
            raise _Fatal("E_BAD_INDEX", line, f"country index {index}, expected {expected} (indexes count 1, 2, ...)")
        if not 1 <= continent <= len(raw.continents):
            raise _Fatal("E_UNKNOWN_CONTINENT", line,
                         f"country {index} ({tokens[1]}) is in continent {continent}; continents are "
                         f"1..{len(raw.continents)}")
        raw.territories.append(Territory(index, tokens[1], continent, line))
        _check_counts(raw, line)
    count = len(raw.territories)
    for line, text in sections["borders"][1]:
        numbers = [_integer(token, line, "territory index") for token in text.split()]
        for number in numbers:
            if not 1 <= number <= count:
                raise _Fatal("E_UNKNOWN_TERRITORY", line, f"territory {number} does not exist (1..{count})")
        raw.entries.extend((numbers[0], other, line) for other in numbers[1:])
    _duplicate_names(raw, raw.continents, "continent", lenient)
    _duplicate_names(raw, raw.territories, "territory", lenient)
    return raw


def _read_conquest(sections: dict[str, tuple[int, Lines]], lenient: bool) -> _Raw:
    """spec 3.4: `NAME=BONUS` continents; comma-separated territory lines naming neighbours, any case."""
    _require_sections(sections, CONQUEST_SECTIONS, ("continents", "territories"), "Conquest")
    _require_content(sections, "continents", "territories")
    raw = _Raw()
    continent_ids: dict[str, int] = {}
    for line, text in sections["continents"][1]:
        name, equals, bonus = text.rpartition("=")
        name = name.strip()
        if not equals or not name:
            raise _Fatal("E_SYNTAX", line, "continent line needs NAME=BONUS")
        value = _integer(bonus.strip(), line, "bonus")
        _check_name(name, line)
        if name.casefold() in continent_ids:
            raise _Fatal("E_DUPLICATE_CONTINENT", line,
                         f"continent {name!r} is already defined (continent {continent_ids[name.casefold()]})")
        raw.continents.append(Continent(len(raw.continents) + 1, name, value, line))
        continent_ids[name.casefold()] = len(raw.continents)
        _check_counts(raw, line)
    territory_ids: dict[str, int] = {}
    listed: list[tuple[int, int, list[str]]] = []
    for line, text in sections["territories"][1]:
        fields = [field.strip() for field in text.split(",")]
        while fields and not fields[-1]:
            fields.pop()  # spec 3.4: a trailing comma leaves empty fields at the end
        if len(fields) < 4 or not all(fields):
            raise _Fatal("E_SYNTAX", line, "territory line needs NAME,X,Y,CONTINENT[,NEIGHBOUR...] "
                                           "without empty fields")
        name, x, y, continent = fields[:4]
        _integer(x, line, "coordinate")
        _integer(y, line, "coordinate")
        _check_name(name, line)
        if name.casefold() in territory_ids:
            raise _Fatal("E_DUPLICATE_TERRITORY", line,
                         f"territory {name!r} is already defined (territory {territory_ids[name.casefold()]})")
        if continent.casefold() not in continent_ids:
            raise _Fatal("E_UNKNOWN_CONTINENT", line, f"territory {name!r} is in undefined continent {continent!r}")
        tid = len(raw.territories) + 1
        raw.territories.append(Territory(tid, name, continent_ids[continent.casefold()], line))
        territory_ids[name.casefold()] = tid
        listed.append((tid, line, fields[4:]))
        _check_counts(raw, line)
    for tid, line, neighbours in listed:
        for neighbour in neighbours:
            if neighbour.casefold() not in territory_ids:
                raise _Fatal("E_UNKNOWN_TERRITORY", line, f"neighbour {neighbour!r} is not a defined territory")
            raw.entries.append((tid, territory_ids[neighbour.casefold()], line))
    return raw


_READERS: dict[str, Callable[[dict[str, tuple[int, Lines]], bool], _Raw]] = {
    "domination": _read_domination,
    "conquest": _read_conquest,
}


def _map_name(preamble: Lines) -> str:
    """Domination's `name NAME` line before the first section, if any."""
    for _, text in preamble:
        keyword, _, rest = text.partition(" ")
        if keyword.lower() == "name" and rest.strip():
            return rest.strip()
    return ""


def _check_model(raw: _Raw, dialect: str, name: str, lenient: bool) -> MapReading:
    """The graph checks of spec 3.6 with lenient repairs; all findings, sorted by code order then line."""
    findings = list(raw.findings)
    entries: dict[tuple[int, int], int] = {}
    for a, b, line in raw.entries:
        if a == b:
            findings.append(Finding("E_SELF_LOOP", line, f"territory {_label(raw, a)} lists itself"
                                    + ("; entry dropped" if lenient else ""), error=not lenient))
        else:
            entries.setdefault((a, b), line)
    for (a, b), line in entries.items():
        if (b, a) not in entries:
            findings.append(Finding("E_ASYMMETRIC_BORDER", line,
                                    f"{_label(raw, a)} lists {_label(raw, b)} but {_label(raw, b)} does not list "
                                    f"{_label(raw, a)}" + ("; reverse border added" if lenient else ""),
                                    error=not lenient))
    adjacent: dict[int, set[int]] = {t.id: set() for t in raw.territories}
    for a, b in entries:
        adjacent[a].add(b)
        adjacent[b].add(a)
    used = {t.continent for t in raw.territories}
    for continent in raw.continents:
        if continent.id not in used:
            findings.append(Finding("E_EMPTY_CONTINENT", continent.line,
                                    f"continent {continent.id} ({continent.name}) has no territory"
                                    + ("; continent dropped" if lenient else ""), error=not lenient))
    parts = components(adjacent, adjacent)
    if len(parts) > 1:
        findings.append(Finding("E_MAP_DISCONNECTED", raw.territories[parts[1][0] - 1].line,
                                f"the map falls into {len(parts)} parts; {_label(raw, parts[1][0])} cannot be "
                                f"reached from {_label(raw, parts[0][0])}"))
    for continent in raw.continents:
        members = [t.id for t in raw.territories if t.continent == continent.id]
        inside = {tid: [other for other in adjacent[tid] if other in members] for tid in members}
        pieces = components(members, inside)
        if len(pieces) > 1:
            findings.append(Finding("E_CONTINENT_DISCONNECTED", continent.line,
                                    f"continent {continent.id} ({continent.name}) falls into {len(pieces)} parts: "
                                    + " / ".join(",".join(map(str, sorted(piece))) for piece in pieces),
                                    error=not lenient))
    findings.sort(key=lambda f: (CODES.index(f.code), f.line if f.line is not None else 0))
    if any(f.error for f in findings):
        return MapReading(None, tuple(findings))
    continents, territories = _drop_empty_continents(raw.continents, raw.territories, used)
    warmap = build_map(name, dialect, continents, territories, entries)
    return MapReading(warmap, tuple(findings))


def _drop_empty_continents(continents: list[Continent], territories: list[Territory],
                           used: set[int]) -> tuple[list[Continent], list[Territory]]:
    """Lenient E_EMPTY_CONTINENT repair: drop them and renumber the rest 1..C, keeping their order."""
    renumber: dict[int, int] = {}
    kept = []
    for continent in continents:
        if continent.id in used:
            renumber[continent.id] = len(kept) + 1
            kept.append(attrs.evolve(continent, id=len(kept) + 1))
    return kept, [attrs.evolve(t, continent=renumber[t.continent]) for t in territories]


def _label(raw: _Raw, tid: int) -> str:
    return f"{tid} ({raw.territories[tid - 1].name})"
