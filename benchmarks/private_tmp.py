"""What a bot's own /tmp costs a turn: runner.bots.run_turn of an instant bot (`/bin/true` through the
`custom` language) in the PID-namespace mode with its own /tmp (a mount namespace, a tmpfs, and the bot's
folder bound back when it lies under /tmp) against the same mode without (the launch before issue 34),
taking turns; medians after a warm-up.

    python benchmarks/private_tmp.py [--turns N] [--json]

Both folders are measured: one under /tmp (two `mount` execs: the tmpfs and the folder bound back) and one
elsewhere (one: the tmpfs). Needs `unshare --mount` here (root, or user namespaces).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

# sys.path[0] is this folder, where benchmarks/runner.py would shadow the `runner` package
sys.path[0] = str(Path(__file__).resolve().parent.parent)
sys.path.append(str(Path(__file__).resolve().parent))

from bot_turn import interleaved_medians, write_bot_json  # noqa: E402
from runner.bots import isolation  # noqa: E402
from runner.bots.definition import load_bot  # noqa: E402
from runner.bots.limits import Limits  # noqa: E402
from runner.bots.process import run_turn  # noqa: E402

LIMITS = Limits(timeout_ms=20_000, pid_namespace=True)
FILES = {"state.json": "{}"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not isolation.private_tmp():
        sys.exit("no mount namespace for a bot here: nothing to compare")
    with_mount = isolation._namespace_prefix()
    assert with_mount is not None
    without = tuple(part for part in with_mount if part != "--mount")
    original = isolation._namespace_prefix

    def launched(prefix: tuple[str, ...], bot):
        def turn() -> None:
            isolation._namespace_prefix = lambda: prefix  # type: ignore[assignment]
            try:
                outcome = run_turn(bot, FILES, LIMITS)
            finally:
                isolation._namespace_prefix = original  # type: ignore[assignment]
            assert outcome.exit_code == 0, outcome
        return turn

    results = {}
    with tempfile.TemporaryDirectory() as under_tmp, tempfile.TemporaryDirectory(dir=Path.home()) as elsewhere:
        for place, root in (("under /tmp", under_tmp), ("elsewhere", elsewhere)):
            bot = load_bot(write_bot_json(Path(root) / "bot", "bench", ["/bin/true"]))
            medians = interleaved_medians({"own /tmp": launched(with_mount, bot),
                                           "shared /tmp": launched(without, bot)}, args.turns)
            results[place] = medians
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for place, medians in results.items():
        print(f"bot folder {place}: own /tmp {medians['own /tmp']:.1f} ms a turn, shared /tmp "
              f"{medians['shared /tmp']:.1f} ms (median of {args.turns}, alternating)")


if __name__ == "__main__":
    main()
