"""`td-runner diff` speed on a 401-round log (issue 5: "must be fast on 400-round logs").

    python benchmarks/diff.py [MATCH_DIR] [--repeat 5] [--json]

Default MATCH_DIR: gg-mirror-g11 (401 rounds) unpacked from tests/games/tower_defence/data/conformance. The log is copied twice
into a temporary folder and three cases are timed in-process, each the median of `--repeat` passes after one
warm-up pass (files in the OS cache):
  copies          two byte-identical copies, default mode (the byte fast path)
  copies-strict   the same with --strict (BotOutput.txt read as well)
  rerun           the second copy given fresh missile ids and another buildingPrices/buildingsStats key
                  order, as a second official run of the same match would have: every JsonMap.json with a
                  missile differs in bytes, so the normalising path runs (still expected: identical)
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import sys
import tarfile
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from runner.games.tower_defence import GAME  # noqa: E402

TRACE = ROOT / "tests" / "games" / "tower_defence" / "data" / "conformance" / "gg-mirror-g11.tar.gz"
_ID = re.compile(r'"id":"[^"]*"')
_PRICES = '"buildingPrices":{"ENERGY":20,"ATTACK":30,"TESLA":100,"DEFENSE":30}'


def as_rerun(log: Path) -> int:
    """Rewrite `log` in place the way a second official run would differ; return the files changed."""
    changed = 0
    for path in log.glob("Round */* - */JsonMap.json"):
        text = path.read_text(encoding="utf-8")
        new = _ID.sub(lambda _: f'"id":"{uuid.uuid4()}"', text)
        new = new.replace(_PRICES, '"buildingPrices":{"TESLA":100,"DEFENSE":30,"ATTACK":30,"ENERGY":20}')
        if new != text:
            path.write_text(new, encoding="utf-8", newline="")
            changed += 1
    return changed


def time_case(a: Path, b: Path, strict: bool, repeat: int) -> tuple[float, bool, int]:
    GAME.diff(a, b, {"strict": strict})  # warm-up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        check = GAME.diff(a, b, {"strict": strict})
        times.append(time.perf_counter() - start)
    return statistics.median(times), check.same, check.data["turns_a"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("match", nargs="?", type=Path, help="a match folder (default: gg-mirror-g11)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        temp_path = Path(temp)
        if args.match is None:
            with tarfile.open(TRACE) as archive:
                archive.extractall(temp_path / "src", filter="data")
            (source,) = (temp_path / "src").iterdir()
        else:
            source = args.match
        a = shutil.copytree(source, temp_path / "a")
        b = shutil.copytree(source, temp_path / "b")
        results = {}
        for name, strict in (("copies", False), ("copies-strict", True)):
            results[name] = time_case(a, b, strict, args.repeat)
        rewritten = as_rerun(b)
        results["rerun"] = time_case(a, b, False, args.repeat)
    if args.json:
        summary = {name: {"median_s": t, "identical": same, "rounds": n} for name, (t, same, n) in results.items()}
        print(json.dumps(summary))
        return 0
    print(f"{source.name}: median of {args.repeat} (rerun case: {rewritten} JsonMap.json files rewritten)")
    for name, (seconds, same, rounds) in results.items():
        print(f"  {name:14s} {seconds * 1000:8.1f} ms  {rounds} rounds played  {'identical' if same else 'DIFFERENT'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
