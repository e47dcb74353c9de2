"""What the force-directed layout costs the HTML replay of a Warzone map without coordinates.

    python benchmarks/warzone_layout.py [--sizes 24:4,42:6,100:8,200:12,1000:50,5000:1000] [--repeat 5]

For each size (territories:continents, a generated map, seed 1) it builds the replay's board
(`html_record.board`: read the log's map.map, place the territories) twice, in the same run:
* with coordinates: the map as `td-runner warzone-map` writes it (usable coordinates, so no layout);
* without: the same map with every territory at `0 0`, so the board is laid out (`layout.layout`).
The difference is the layout's cost, paid once per record. Figures are medians of `--repeat` runs; the
machine is shared and noisy: compare the columns of one run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from runner.games.warzone.html_record import board  # noqa: E402
from runner.games.warzone.logs import MAP_FILE  # noqa: E402
from runner.games.warzone.rules.mapfile import parse_map  # noqa: E402
from runner.games.warzone.rules.mapgen import generate_map  # noqa: E402
from runner.games.warzone.rules.mapwrite import render_domination  # noqa: E402
from runner.games.warzone.tools import render_generated  # noqa: E402


def median_seconds(folder: Path, repeat: int) -> float:
    times = []
    warmap = parse_map((folder / MAP_FILE).read_text(), lenient=True).map  # the session's map, made before
    for _ in range(repeat):
        started = time.perf_counter()
        board(folder, warmap)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="24:4,42:6,100:8,200:12,1000:50,5000:1000")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"{'territories':>11} {'continents':>10} {'with coordinates':>17} {'without (layout)':>17}")
    with tempfile.TemporaryDirectory() as scratch:
        for size in args.sizes.split(","):
            territories, continents = map(int, size.split(":"))
            with_folder, without_folder = Path(scratch, f"with-{size}"), Path(scratch, f"without-{size}")
            with_folder.mkdir()
            without_folder.mkdir()
            (with_folder / MAP_FILE).write_text(render_generated(territories, continents, 1, "domination", "b"))
            (without_folder / MAP_FILE).write_text(render_domination(generate_map(territories, continents, 1, "b")))
            with_coordinates = median_seconds(with_folder, args.repeat)
            without = median_seconds(without_folder, args.repeat)
            print(f"{territories:>11} {continents:>10} {with_coordinates * 1000:>14.1f} ms "
                  f"{without * 1000:>14.1f} ms")


if __name__ == "__main__":
    main()
