"""The map generator (`td-runner warzone-map`) and the shipped maps (spec 3)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from warzone_helpers import MAPS

from runner.cli import game_tools, main
from runner.games.warzone import GAME
from runner.games.warzone.rules.board import components
from runner.games.warzone.rules.mapfile import parse_map
from runner.games.warzone.rules.mapgen import generate_map
from runner.games.warzone.rules.mapwrite import render_conquest, render_domination

#: maps shipped to fail strict validation on purpose (spec appendix A)
STRICT_INVALID = {"tiny-oneway.map", "tiny-split.map"}


def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_the_tool_is_registered() -> None:
    assert [tool.name for tool in GAME.tools] == ["warzone-map"]
    assert "warzone-map" in [tool.name for tool in game_tools()]  # what `td-runner --help` lists


@pytest.mark.parametrize("dialect", ["domination", "conquest"])
def test_generated_map_to_stdout_is_strict_valid(dialect: str) -> None:
    code, out, err = run_cli("warzone-map", "--territories", "30", "--continents", "4", "--seed", "9",
                             "--dialect", dialect)
    assert (code, err) == (0, "")
    reading = parse_map(out, lenient=False)
    assert reading.findings == () and reading.map is not None
    assert (len(reading.map.territories), len(reading.map.continents), reading.map.dialect) == (30, 4, dialect)
    assert out.startswith("; td-runner warzone-map --territories 30 --continents 4 --seed 9")


def test_same_seed_same_bytes_other_seed_other_map(tmp_path: Path) -> None:
    first, second, other = (tmp_path / name for name in ("a.map", "b.map", "c.map"))
    for path, seed in ((first, "7"), (second, "7"), (other, "8")):
        code, out, err = run_cli("warzone-map", "--territories", "50", "--continents", "5", "--seed", seed,
                                 "--output", str(path), "--name", "same")
        assert code == 0 and err == "" and out.startswith(f"wrote {path}: 50 territories, 5 continents")
    assert first.read_bytes() == second.read_bytes() != other.read_bytes()


def test_generated_map_plays_through_validate(tmp_path: Path) -> None:
    path = tmp_path / "mine.map"
    assert run_cli("warzone-map", "--territories", "12", "--continents", "3", "--output", str(path))[0] == 0
    assert "name mine" in path.read_text()
    assert run_cli("validate", str(path))[0] == 0


@pytest.mark.parametrize(("args", "words"), [
    (("--territories", "1", "--continents", "1"), "--territories must be between 2 and 5000, not 1"),
    (("--territories", "5001", "--continents", "1"), "--territories must be between 2 and 5000"),
    (("--territories", "5", "--continents", "6"), "--continents must be between 1 and 5, not 6"),
    (("--territories", "5", "--continents", "0"), "--continents must be between 1 and 5, not 0"),
    (("--territories", "5", "--continents", "1", "--seed", "-1"), "invalid seed value: '-1'"),
    (("--territories", "5", "--continents", "1", "--dialect", "risk"), "invalid choice: 'risk'"),
    (("--territories", "many", "--continents", "1"), "invalid int value: 'many'"),
    (("--continents", "1",), "--territories N and --continents K are required (or --list)"),
])
def test_bad_arguments_are_one_line(args: tuple[str, ...], words: str) -> None:
    code, out, err = run_cli("warzone-map", *args)
    assert code == 2 and out == "" and words in err and err.count("\n") == 1


def test_unwritable_output_is_one_line(tmp_path: Path) -> None:
    code, _, err = run_cli("warzone-map", "--territories", "5", "--continents", "1",
                           "--output", str(tmp_path / "missing" / "x.map"))
    assert code == 2 and err.startswith("error: ") and "x.map: cannot write" in err and err.count("\n") == 1


def shape(warmap):
    return ([(c.name, c.bonus) for c in warmap.continents], [(t.name, t.continent) for t in warmap.territories],
            warmap.neighbours)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(2, 150), st.integers(1, 12))
def test_generator_maps_are_strict_valid_in_both_dialects(seed: int, territories: int, continents: int) -> None:
    continents = min(continents, territories)
    warmap = generate_map(territories, continents, seed, "g")
    assert len(components(warmap.territory_ids, dict(enumerate(warmap.neighbours)))) == 1
    assert all(c.bonus >= 1 for c in warmap.continents)
    for render in (render_domination, render_conquest):
        reading = parse_map(render(warmap), lenient=False)
        assert reading.findings == () and reading.map is not None
        assert shape(reading.map) == shape(warmap)
    assert shape(generate_map(territories, continents, seed, "g")) == shape(warmap)


@pytest.mark.parametrize("path", sorted(MAPS.glob("*.map")), ids=lambda p: p.name)
def test_shipped_maps(path: Path) -> None:
    reading = parse_map(path.read_bytes(), lenient=False)
    assert (reading.map is not None) == (path.name not in STRICT_INVALID), reading.findings
    if path.name not in STRICT_INVALID:
        assert reading.findings == ()
        assert parse_map(path.read_bytes(), lenient=True).map is not None


def test_shipped_maps_cover_sizes_and_both_dialects() -> None:
    sizes = {}
    for path in MAPS.glob("*.map"):
        reading = parse_map(path.read_bytes(), lenient=True)
        sizes[path.name] = (len(reading.map.territories), reading.map.dialect)
    dialects = {dialect for _, dialect in sizes.values()}
    counts = sorted(count for count, _ in sizes.values())
    assert dialects == {"domination", "conquest"} and counts[0] <= 5 and counts[-1] >= 200
    assert sizes["td-harbour.map"] == (14, "conquest") and sizes["td-continents-200.map"] == (200, "domination")
