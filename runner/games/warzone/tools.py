"""Warzone's own subcommand, `td-runner warzone-map`: write a seeded random valid map (spec 3), its territories
at the coordinates of a force-directed layout seeded by the same seed (layout.py), or list the shipped maps
(`--list`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from runner.errors import ExitCode, UserError
from runner.games.interface import Tool
from runner.games.warzone.layout import layout
from runner.games.warzone.rules.mapfile import parse_map
from runner.games.warzone.rules.mapgen import check_generator_args, generate_map
from runner.games.warzone.rules.mapwrite import render_conquest, render_domination

RENDERERS = {"domination": render_domination, "conquest": render_conquest}
MAX_SEED = (1 << 64) - 1


def seed(text: str) -> int:
    value = int(text, 0)
    if not 0 <= value <= MAX_SEED:
        raise ValueError(text)
    return value


def add_map_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--list", action="store_true",
                        help="list the shipped maps (the names `match --map NAME` takes) instead of writing one")
    parser.add_argument("--territories", type=int, metavar="N", help="number of territories (2-5000); required")
    parser.add_argument("--continents", type=int, metavar="K", help="number of continents (1-N); required")
    parser.add_argument("--seed", type=seed, default=0, metavar="S",
                        help="generator seed, 0..2^64-1 (default 0): the same arguments give the same map")
    parser.add_argument("--dialect", choices=tuple(RENDERERS), default="domination",
                        help="map file dialect (default domination; conquest names territories by name)")
    parser.add_argument("--name", help="the map's name (default: the output file's stem, else random-N-K-S)")
    parser.add_argument("--output", type=Path, metavar="FILE", help="write the map here (default: standard output)")


def render_generated(territories: int, continents: int, seed: int, dialect: str, name: str) -> str:
    """The map text: a comment saying how to make it again, then the map in `dialect`."""
    if reason := check_generator_args(territories, continents):
        raise UserError(reason)
    warmap = generate_map(territories, continents, seed, name)
    header = (f"; td-runner warzone-map --territories {territories} --continents {continents} --seed {seed} "
              f"--dialect {dialect}\n")
    text = header + RENDERERS[dialect](warmap, layout(warmap, seed))
    reading = parse_map(text, lenient=False)
    if reading.map is None or reading.findings:  # the generator promises strict-valid maps
        raise RuntimeError(f"generated map is not valid: {reading.findings[:3]}")
    return text


def run_map_tool(args: Any, streams: Any) -> int:
    if args.list:
        from runner.games.warzone.maplist import print_shipped_maps

        print_shipped_maps(streams.out)
        return ExitCode.OK
    if args.territories is None or args.continents is None:
        raise UserError("warzone-map: --territories N and --continents K are required (or --list)")
    name = args.name or (args.output.stem if args.output else
                         f"random-{args.territories}-{args.continents}-{args.seed}")
    text = render_generated(args.territories, args.continents, args.seed, args.dialect, name)
    if args.output is None:
        streams.out.write(text)
        return ExitCode.OK
    try:
        args.output.write_text(text, encoding="utf-8")
    except OSError as problem:
        raise UserError(f"{args.output}: cannot write: {problem.strerror or problem}") from None
    print(f"wrote {args.output}: {args.territories} territories, {args.continents} continents, "
          f"{args.dialect} dialect, seed {args.seed}", file=streams.out)
    return ExitCode.OK


MAP_TOOL = Tool(
    name="warzone-map",
    help="write a random valid Warzone map (seeded; Domination or Conquest dialect), or --list the shipped ones",
    add_arguments=add_map_arguments,
    run=run_map_tool,
)
