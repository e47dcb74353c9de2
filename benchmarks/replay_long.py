"""The HTML replay of a 100,000-turn Invaders match: write time, size (plain and gzipped), browser load time.

    python benchmarks/replay_long.py [--log FOLDER] [--keep DIR] [--repeat 3] [--baseline CHECKOUT] [--json]

The match (unless --log names one): the Python starter bot defending (a wall of turrets it keeps upgrading)
against an invader that spawns the cheapest invader whenever cell 0 is free, written into a scratch folder by
this script. The defender never falls, so the game runs to the 100,000-turn cap with a path full of invaders:
the heaviest boards Invaders makes, ~190 MB of log (~40 s to play on the 2-core machine).

Printed, medians of --repeat runs (the two kinds alternating): the replay's writing (`write_html_replay`, wall
and CPU seconds) to `.html` and to `.html.gz` (as a league keeps it), the page's size plain and gzipped, how many turns keep a
board, and the page's load in headless Chromium (file://, from navigation to the first turn drawn; then three
jumps across the match). Issue 32's targets: loads in under 3 s, under 2 MB compressed; issue 34: written in
under 3 s and under 2 MB (plain: tests/replay/test_long_replays.py checks the size, on a made-up log). The machine is shared: the load average is printed beside the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from runner.replay.pack import unpacked  # noqa: E402

TURNS = 100_000
WEAK_INVADER = '''import json, sys
for line in sys.stdin:
    state = json.loads(line)["state"]
    free = state["invaderSlots"][0] is None and state["invaderGold"] >= 10
    print(json.dumps({"hp": 0, "defense": 0, "stunRes": 0} if free else None), flush=True)
'''


def play(scratch: Path) -> Path:
    """The 100,000-turn match's log folder, played into `scratch`."""
    invader = scratch / "weak-invader"
    invader.mkdir()
    (invader / "bot.py").write_text(WEAK_INVADER)
    (invader / "bot.json").write_text(json.dumps({
        "author": "benchmark", "email": "benchmark@td-runner.invalid", "nickName": "WeakInvader",
        "botLocation": "/", "botFileName": "bot.py", "botLanguage": "python3", "persistent": True}))
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "runner", "match", "--game", "invaders", "--quiet", "--output", str(scratch),
                    "--name", "long", "--max-turns", str(TURNS), str(ROOT / "starter-bots" / "invaders" / "python3"),
                    str(invader)], check=True, cwd=scratch, env={**os.environ, "PYTHONPATH": str(ROOT)})
    print(f"played the match in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return scratch / "long"


#: One write, timed inside a fresh Python whose `runner` is the checkout given: (wall s, CPU s, bytes).
_TIMED = """import json, sys, time
from runner.replay.html import write_html_replay
wall, cpu = time.perf_counter(), time.process_time()
_, size = write_html_replay(sys.argv[1], sys.argv[2])
print(json.dumps([time.perf_counter() - wall, time.process_time() - cpu, size]))
"""


def timed_write(log: Path, target: Path, checkout: Path = ROOT) -> tuple[float, float, int]:
    """The page of `log` written to `target` by the checkout's runner (a fresh process for every run, this
    checkout's and the baseline's alike)."""
    done = subprocess.run([sys.executable, "-c", _TIMED, str(log), str(target)], check=True, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(checkout)}, cwd=checkout)
    wall, cpu, size = json.loads(done.stdout)
    return wall, cpu, size


def browser_load(page: Path, repeat: int) -> tuple[list[float], list[float]]:
    """(load seconds, seconds of three jumps) per run, each in a fresh tab."""
    from playwright.sync_api import sync_playwright

    executable = os.environ.get("TD_RUNNER_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    loads, jumps = [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        for _ in range(repeat):
            tab = browser.new_page(viewport={"width": 1280, "height": 860})
            errors: list[str] = []
            tab.on("pageerror", lambda error: errors.append(str(error)))
            started = time.perf_counter()
            tab.goto(page.resolve().as_uri())
            tab.wait_for_function("() => document.body.dataset.round !== ''", timeout=120_000)
            loads.append(time.perf_counter() - started)
            started = time.perf_counter()
            tab.keyboard.press("End")
            tab.evaluate("ReplayViewer.show(Math.floor(ReplayViewer.record.turns.length / 2))")
            tab.keyboard.press("Home")
            jumps.append(time.perf_counter() - started)
            if errors:
                raise SystemExit(f"page errors: {errors}")
            tab.close()
        browser.close()
    return loads, jumps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--log", type=Path, help="an Invaders log folder to use instead of playing the match")
    parser.add_argument("--keep", type=Path, help="keep the pages (and the played log) in this folder")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--baseline", type=Path, help="another checkout (e.g. `git archive` of an older commit): "
                        "its writing of the same log is timed too, alternating with this one's")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="td-replay-long-"))
    try:
        out = args.keep or scratch
        out.mkdir(parents=True, exist_ok=True)
        log = args.log or play(out)
        plain, packed, base = [], [], []
        for _ in range(args.repeat):  # alternating, so a busy moment of the shared machine hits each alike
            plain.append(timed_write(log, out / "long.html"))
            packed.append(timed_write(log, out / "long.html.gz"))
            if args.baseline:
                base.append(timed_write(log, out / "baseline.html", args.baseline))
        record_text = (out / "long.html").read_text(encoding="utf-8")
        boards = record_text.count('"frame_index"') and unpacked(json.loads(
            record_text.split('id="record">', 1)[1].split("</script>", 1)[0])).get("frame_index")
        loads, jumps = browser_load(out / "long.html", args.repeat)
        figures = {
            "turns": TURNS, "log_mb": round(sum(f.stat().st_size for f in log.iterdir() if f.is_file()) / 1e6, 1),
            "write_html_s": round(statistics.median(w for w, _, _ in plain), 2),
            "write_html_cpu_s": round(statistics.median(c for _, c, _ in plain), 2),
            "write_html_gz_s": round(statistics.median(w for w, _, _ in packed), 2),
            "write_html_gz_cpu_s": round(statistics.median(c for _, c, _ in packed), 2),
            "page_mb": round(plain[0][2] / 1e6, 2), "page_gz_mb": round(packed[0][2] / 1e6, 2),
            "boards": len(boards) if boards else TURNS,
            "load_s": round(statistics.median(loads), 2), "three_jumps_s": round(statistics.median(jumps), 2),
            "load_average": round(os.getloadavg()[0], 1),
        }
        if base:
            figures.update({"baseline_write_html_s": round(statistics.median(w for w, _, _ in base), 2),
                            "baseline_write_html_cpu_s": round(statistics.median(c for _, c, _ in base), 2),
                            "baseline_page_mb": round(base[0][2] / 1e6, 2)})
        if args.json:
            print(json.dumps(figures))
        else:
            for key, value in figures.items():
                print(f"{key:>20}: {value}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
