"""Spec 8 P3, P4 and P7 with real bot processes through the real core (`td-runner match` in-process):
a bot that times out after writing, one that writes nothing, one that writes 1 MiB, one that crashes,
and one that looks for the seed in its environment, arguments and folder."""

from __future__ import annotations

import io
import json
from pathlib import Path

from warzone_helpers import MAPS

from runner.cli import main

#: generous for a shared, loaded machine (a Python bot writing 1 MiB must finish); only the sleeper meets it
TIMEOUT_MS = "1000"
SEED = 918273645546372819  # distinctive, so finding it anywhere is no accident

PRELUDE = """import json, os, sys, time
state = json.load(open("state.json"))
me = state["you"]
mine = [t["id"] for t in state["board"] if t["owner"] == me]
"""

BOTS = {
    # writes a deploy, then outlives the limit on turn 1: spec 8 P4 says the partial file is used
    "sleeper": PRELUDE + 'open("orders.txt", "w").write(f"deploy 2 {mine[0]}\\n")\n'
                         'if state["turn"] == 1:\n    time.sleep(20)\n',
    # writes nothing: status no_file, the pool carries over
    "silent": PRELUDE,
    # an empty orders.txt: a file all the same, status ok (no orders)
    "empty": PRELUDE + 'open("orders.txt", "w").close()\n',
    # orders.txt as a symlink out of its folder: the core refuses to read it, status refused
    "escaper": PRELUDE + 'os.symlink("/etc/hostname", "orders.txt")\n',
    # 1 MiB of orders: the first 64 KiB are read (500 orders, then E_TOO_MANY_ORDERS), status too_large
    "flood": PRELUDE + 'open("orders.txt", "w").write(f"deploy 1 {mine[0]}\\n" * ((1 << 20) // 10))\n',
    # writes an order and then exits 1: status crash, its orders still count like a timed-out bot's
    "crasher": PRELUDE + 'open("orders.txt", "w").write(f"deploy 1 {mine[0]}\\n")\nsys.exit(1)\n',
    # P7: records whether the seed is visible in its environment, arguments or folder
    "snoop": PRELUDE + """seed = str(918273645 * 10**9 + 546372819)  # not written whole, or this file would hold it
seen = [k for k, v in os.environ.items() if seed in v] + [a for a in sys.argv if seed in a]
for name in os.listdir("."):
    if os.path.isfile(name) and seed in open(name, errors="replace").read():
        seen.append(name)
open("seen.txt", "w").write(repr(seen))
""",
}


def make_bot(folder: Path, source: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "bot.py").write_text(source)
    (folder / "bot.json").write_text(json.dumps({
        "author": "test", "email": "test@example.invalid", "nickName": folder.name, "botLocation": "/",
        "botFileName": "bot.py", "botLanguage": "python3"}))
    return folder


def play(tmp_path: Path, names: list[str], map_name: str = "td-harbour.map", turns: int = 2) -> Path:
    bots = [str(make_bot(tmp_path / "bots" / name, BOTS[name])) for name in names]
    out, err = io.StringIO(), io.StringIO()
    code = main(["match", "--game", "warzone", "--map", str(MAPS / map_name), *bots, "--output", str(tmp_path),
                 "--name", "m", "--quiet", "--timeout-ms", TIMEOUT_MS, "--max-turns", str(turns), "--seed", str(SEED)],
                out=out, err=err)
    assert code == 0, err.getvalue()
    return tmp_path / "m"


def state_of(log: Path, turn: int, seat: str) -> dict:
    return json.loads(next((log / f"Turn {turn:03d}").glob(f"{seat} - */state.json")).read_text())


def test_p3_p4_faults_through_the_core(tmp_path: Path) -> None:
    log = play(tmp_path, ["sleeper", "silent", "flood", "crasher"])
    statuses = {seat: state_of(log, 2, seat)["last_turn"]["bot"]["status"] for seat in "ABCD"}
    assert statuses == {"A": "timeout", "B": "no_file", "C": "too_large", "D": "crash"}
    events = json.loads((log / "Turn 001" / "events.json").read_text())
    deployed = {(e["player"], e["armies"]) for e in events["events"] if e.get("result") == "deployed"}
    assert ("A", 2) in deployed and ("D", 1) in deployed  # files written before the kill / the crash count
    pool = state_of(log, 1, "C")["me"]["pool"]  # 53: one army per line until the pool is spent
    assert sum(1 for e in events["events"] if e.get("player") == "C" and e.get("result") == "deployed") == pool
    codes = [r["code"] for r in events["rejected"]["C"]]
    assert codes == ["E_POOL"] * (500 - pool) + ["E_TOO_MANY_ORDERS"]  # lines past the 500th: one rejection
    logged = next((log / "Turn 001").glob("C - */orders.txt")).read_bytes()
    assert len(logged) == 64 * 1024 + 1  # the core read 64 KiB + 1 (to tell "larger"); 64 KiB of it count
    first, second = state_of(log, 1, "B"), state_of(log, 2, "B")
    assert second["me"]["pool"] == first["me"]["pool"] + second["me"]["income"]["total"]  # pool carried over
    assert main(["verify", str(log)], out=io.StringIO(), err=io.StringIO()) == 0


def test_an_empty_file_is_ok_and_a_refused_one_refused_through_the_core(tmp_path: Path) -> None:
    log = play(tmp_path, ["empty", "escaper"])
    statuses = {seat: state_of(log, 2, seat)["last_turn"]["bot"]["status"] for seat in "AB"}
    assert statuses == {"A": "ok", "B": "refused"}
    for seat in "AB":  # neither deployed: both pools carried over
        first, second = state_of(log, 1, seat), state_of(log, 2, seat)
        assert second["me"]["pool"] == first["me"]["pool"] + second["me"]["income"]["total"]
    assert main(["verify", str(log)], out=io.StringIO(), err=io.StringIO()) == 0


def test_p7_the_seed_is_hidden_from_bots(tmp_path: Path) -> None:
    log = play(tmp_path, ["snoop", "silent"], map_name="tiny-ring.map", turns=1)
    assert json.loads((log / "match.json").read_text())["seed"] == SEED
    assert (tmp_path / "bots" / "snoop" / "seen.txt").read_text() == "[]"
    for path in (tmp_path / "bots").rglob("*"):
        if path.is_file():
            assert str(SEED) not in path.read_text(errors="replace"), path
