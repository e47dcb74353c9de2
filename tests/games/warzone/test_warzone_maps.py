"""Map reading and validation: spec 8 M1-M11, the minimal inputs of 3.7, every code of 3.6."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from warzone_helpers import MAPS, load_map, ring_map_text

from runner.games.warzone.rules.mapfile import CODES, REPAIRABLE, MapReading, parse_map


def read(text: str | bytes, lenient: bool = False) -> MapReading:
    return parse_map(text.encode("utf-8") if isinstance(text, str) else text, lenient=lenient)


def found(reading: MapReading) -> list[tuple[str, int | None]]:
    return [(f.code, f.line) for f in reading.findings]


def test_m1_tiny_ring() -> None:
    warmap = load_map("tiny-ring.map")
    assert (len(warmap.continents), len(warmap.territories), warmap.edge_count) == (2, 4, 4)
    assert warmap.neighbours_of(1) == (2, 3)
    assert warmap.territory(4).continent == 2
    assert warmap.name == "tiny-ring" and warmap.dialect == "domination"


def test_m2_tiny_gates() -> None:
    assert b"\r\n" in (MAPS / "tiny-gates.map").read_bytes()
    warmap = load_map("tiny-gates.map")
    assert warmap.dialect == "conquest"
    assert (len(warmap.continents), len(warmap.territories), warmap.edge_count) == (2, 5, 7)
    assert [t.name for t in warmap.territories] == ["Grand Central", "North Gate", "7", "East Gate", "South Gate"]
    assert warmap.neighbours_of(3) == (1, 2, 4)
    rim = warmap.continents[warmap.territory(3).continent - 1]
    assert (rim.name, rim.bonus) == ("Rim", 2)


def test_m3_tiny_oneway() -> None:
    data = (MAPS / "tiny-oneway.map").read_bytes()
    strict, lenient = parse_map(data), parse_map(data, lenient=True)
    assert [f.code for f in strict.findings] == ["E_ASYMMETRIC_BORDER"] and strict.map is None
    assert "1 (Alpha) lists 2 (Beta)" in strict.findings[0].message
    assert lenient.map is not None and lenient.map.edge_count == 3
    assert [(f.code, f.error) for f in lenient.findings] == [("E_ASYMMETRIC_BORDER", False)]


def test_m4_tiny_split() -> None:
    data = (MAPS / "tiny-split.map").read_bytes()
    assert [f.code for f in parse_map(data).findings] == ["E_CONTINENT_DISCONNECTED"]
    lenient = parse_map(data, lenient=True)
    assert lenient.map is not None and [f.code for f in lenient.findings] == ["E_CONTINENT_DISCONNECTED"]
    assert lenient.map.continents[0].bonus == 3


MINIMAL = [  # spec 3.7
    ("", "E_NOT_A_MAP", None),
    ("[continents]\nX 1\n[countries]\n1 a 2 0 0\n[borders]\n1\n", "E_UNKNOWN_CONTINENT", 4),
    ("[continents]\nX 1\n[countries]\n1 a 1 0 0\n2 b 1 0 0\n[borders]\n1 2 9\n2 1\n", "E_UNKNOWN_TERRITORY", 7),
    ("[continents]\nX 1\n[countries]\n1 a 1 0 0\n2 b 1 0 0\n[borders]\n1 2\n", "E_ASYMMETRIC_BORDER", 7),
    ("[continents]\nX 1\nY 1\n[countries]\n1 a 1 0 0\n2 b 1 0 0\n3 c 2 0 0\n[borders]\n1 2\n2 1\n",
     "E_MAP_DISCONNECTED", None),
    ("[Continents]\nX=1\n[Territories]\na,0,0,X,b\nb,0,0,Y,a\n", "E_UNKNOWN_CONTINENT", 5),
    ("[Continents]\nX=1\n[Territories]\na,0,0,X,b\nb,0,0,X,a\nA,0,0,X,b\n", "E_DUPLICATE_TERRITORY", 6),
    ("[continents]\nX 1\n[countries]\n1 a 1 0 0\n3 b 1 0 0\n[borders]\n1 3\n3 1\n", "E_BAD_INDEX", 5),
    ("[continents]\nX 1\n[continents]\n", "E_DUPLICATE_SECTION", 3),
    ("[continents]\nX 1\n[countries]\n1 a 1\n[territories]\n", "E_MIXED_DIALECT", None),
    ("[Continents]\nX=one\n[Territories]\na,0,0,X\n", "E_SYNTAX", 2),
]


@pytest.mark.parametrize(("text", "code", "line"), MINIMAL, ids=[f"{m[1]}-{i}" for i, m in enumerate(MINIMAL)])
def test_m6_minimal_failing_inputs(text: str, code: str, line: int | None) -> None:
    reading = read(text)
    assert [f.code for f in reading.findings] == [code] and reading.map is None
    if line is not None:
        assert reading.findings[0].line == line


def test_m6_lenient_asymmetric_is_one_edge() -> None:
    reading = read(MINIMAL[3][0], lenient=True)
    assert reading.map is not None and reading.map.edge_count == 1


def test_m6_disconnected_fails_in_lenient_too() -> None:
    assert read(MINIMAL[4][0], lenient=True).map is None


def test_m7_borders_before_countries_read_the_same() -> None:
    ordered = "[continents]\nX 1\n[countries]\n1 a 1\n2 b 1\n[borders]\n1 2\n2 1\n"
    reordered = "[borders]\n1 2\n2 1\n[continents]\nX 1\n[countries]\n1 a 1\n2 b 1\n"
    first, second = read(ordered).map, read(reordered).map
    assert first is not None and second is not None
    assert (first.territories[0].name, first.neighbours) == (second.territories[0].name, second.neighbours)


def test_m8_latin1_and_utf8_names() -> None:
    body = "[continents]\nX 1\n[countries]\n1 Qu{}bec 1\n2 b 1\n[borders]\n1 2\n2 1\n"
    latin = read(body.format("\u00fb").encode("iso-8859-1"))
    utf8 = read(body.format("\u00fb").encode("utf-8"))
    bom = read(b"\xef\xbb\xbf" + body.format("\u00fb").encode("utf-8"))
    assert latin.map.territories[0].name == utf8.map.territories[0].name == bom.map.territories[0].name == "Qu\u00fbbec"


def test_bom_with_invalid_utf8_is_e_read() -> None:
    assert [f.code for f in read(b"\xef\xbb\xbf[continents]\nX\xfb 1\n").findings] == ["E_READ"]


def test_m9_self_loop() -> None:
    text = "[continents]\nX 1\n[countries]\n1 a 1\n2 b 1\n[borders]\n1 1 2\n2 1\n"
    assert found(read(text)) == [("E_SELF_LOOP", 7)]
    lenient = read(text, lenient=True)
    assert lenient.map is not None and lenient.map.neighbours_of(1) == (2,)
    assert [f.error for f in lenient.findings] == [False]


def test_m10_empty_continent_dropped_in_lenient() -> None:
    text = "[Continents]\nEmpty=5\nX=1\n[Territories]\na,0,0,X,b\nb,0,0,X,a\n"
    assert found(read(text)) == [("E_EMPTY_CONTINENT", 2)]
    lenient = read(text, lenient=True).map
    assert lenient is not None and [(c.id, c.name) for c in lenient.continents] == [(1, "X")]
    assert [t.continent for t in lenient.territories] == [1, 1]


def test_m11_ten_one_way_borders_into_one_territory() -> None:
    lines = ["[continents]", "X 1", "[countries]"] + [f"{i} t{i} 1" for i in range(1, 12)] + ["[borders]"]
    lines += [f"{i} 11" for i in range(1, 11)]
    reading = read("\n".join(lines), lenient=True)
    assert reading.map is not None
    assert [f.code for f in reading.findings] == ["E_ASYMMETRIC_BORDER"] * 10
    assert reading.map.neighbours_of(11) == tuple(range(1, 11))


DOM = "[continents]\nX 1\n[countries]\n1 a 1\n2 b 1\n[borders]\n1 2\n2 1\n"
CON = "[Continents]\nX=1\n[Territories]\na,0,0,X,b\nb,0,0,X,a\n"

EVERY_CODE = {  # spec 8 M5: one hand-made input per code, giving exactly that code in strict mode
    "E_READ": b"\xef\xbb\xbf\xff",
    "E_TOO_LARGE": DOM.replace("1 a 1", "1 " + "a" * 201 + " 1"),
    "E_NOT_A_MAP": "[other]\nx\n",
    "E_MIXED_DIALECT": "[map]\n[countries]\n",
    "E_UNKNOWN_SECTION": DOM + "[extra]\n",
    "E_DUPLICATE_SECTION": DOM + "[borders]\n",
    "E_MISSING_SECTION": "[continents]\nX 1\n[countries]\n1 a 1\n",
    "E_SYNTAX": DOM.replace("1 a 1", "1 a 1 0"),
    "E_BAD_INDEX": DOM.replace("2 b 1", "4 b 1"),
    "E_EXTRA_FIELDS": DOM.replace("X 1", "X 1 red extra"),
    "E_DUPLICATE_CONTINENT": CON.replace("X=1", "X=1\nx=2"),
    "E_DUPLICATE_TERRITORY": CON + "B,0,0,X,a\n",
    "E_DUPLICATE_NAME": DOM.replace("2 b 1", "2 A 1"),
    "E_UNKNOWN_CONTINENT": DOM.replace("2 b 1", "2 b 2"),
    "E_UNKNOWN_TERRITORY": CON.replace("b,0,0,X,a", "b,0,0,X,a,c"),
    "E_NO_CONTINENTS": "[continents]\n[countries]\n1 a 1\n[borders]\n",
    "E_NO_TERRITORIES": CON.split("a,0")[0],
    "E_SELF_LOOP": DOM.replace("2 1\n", "2 1 2\n"),
    "E_ASYMMETRIC_BORDER": DOM.replace("2 1\n", ""),
    "E_EMPTY_CONTINENT": DOM.replace("X 1", "X 1\nY 2"),
    "E_MAP_DISCONNECTED": DOM.replace("X 1", "X 1\nY 1").replace("2 b 1", "2 b 2").replace("[borders]\n1 2\n2 1\n",
                                                                                        "[borders]\n"),
    "E_CONTINENT_DISCONNECTED": "[continents]\nX 1\nY 1\n[countries]\n1 a 1\n2 b 2\n3 c 1\n"
                                "[borders]\n1 2\n2 1 3\n3 2\n",
}


def test_every_code_has_a_case() -> None:
    assert set(EVERY_CODE) == set(CODES)


@pytest.mark.parametrize("code", CODES)
def test_m5_every_code(code: str) -> None:
    reading = read(EVERY_CODE[code])
    assert [f.code for f in reading.findings] == [code]
    assert reading.map is None
    lenient = read(EVERY_CODE[code], lenient=True)
    assert lenient.is_valid == (code in REPAIRABLE)
    assert [f.code for f in lenient.findings] == [code]


def test_too_many_bytes() -> None:
    assert [f.code for f in read(b";" * (4 << 20) + b"\n" + DOM.encode()).findings] == ["E_TOO_LARGE"]


def test_findings_sorted_by_code_then_line() -> None:
    text = "[continents]\nX 1\nY 1\nE 3\n[countries]\n1 a 1\n2 b 2\n3 c 1\n[borders]\n1 2 1\n3 2\n"
    assert [f.code for f in read(text).findings] == [
        "E_SELF_LOOP", "E_ASYMMETRIC_BORDER", "E_ASYMMETRIC_BORDER", "E_EMPTY_CONTINENT", "E_CONTINENT_DISCONNECTED"]


def test_render_finding() -> None:
    assert read(MINIMAL[1][0]).findings[0].render("m.map").startswith("m.map:4: E_UNKNOWN_CONTINENT: ")
    assert read("").findings[0].render("m.map").startswith("m.map: E_NOT_A_MAP: ")


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300).map(lambda t: t.encode("utf-8")))
def test_any_bytes_never_raise(data: bytes) -> None:
    reading = parse_map(data, lenient=True)
    assert reading.is_valid or any(f.error for f in reading.findings)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 40), st.integers(1, 5))
def test_generated_rings_are_valid(count: int, continents: int) -> None:
    reading = parse_map(ring_map_text(count, min(continents, count)))
    assert reading.map is not None and reading.findings == ()
    assert reading.map.edge_count == (count if count > 2 else 1)


def shape(warmap):
    return ([(c.name, c.bonus) for c in warmap.continents], [(t.name, t.continent) for t in warmap.territories],
            warmap.neighbours)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(1, 60), st.integers(1, 8), st.integers(0, 40))
def test_random_maps_round_trip_in_both_dialects(seed: int, territories: int, continents: int, extra: int) -> None:
    from warzone_helpers import random_map

    from runner.games.warzone.rules.mapwrite import render_conquest, render_domination

    warmap = random_map(seed, territories, continents, extra)
    for render in (render_domination, render_conquest):
        reading = parse_map(render(warmap).encode("utf-8"))
        assert reading.findings == () and reading.map is not None, reading.findings
        assert shape(reading.map) == shape(warmap)
