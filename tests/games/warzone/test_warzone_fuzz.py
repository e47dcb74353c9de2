"""Properties (hypothesis) of whole matches on generated maps with random order files, 2-6 players, and the
same-seed-same-log promise through the real CLI (spec 4.7, 8 P6)."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from warzone_helpers import MAPS, STARTER

from runner.cli import main
from runner.games.interface import Answer, Fault
from runner.games.warzone.rules.income import income_of
from runner.games.warzone.rules.mapgen import generate_map
from runner.games.warzone.rules.settings import Rules
from runner.games.warzone.rules.state import CARD_TYPES, NEUTRAL
from runner.games.warzone.session import WarzoneSession

SEATS = "ABCDEF"


def order_line(territories: int) -> st.SearchStrategy[str]:
    """Lines that are mostly well formed (so they reach the rules), some not."""
    tid = st.integers(0, territories + 2).map(str)
    count = st.integers(1, 40).map(str)
    return st.one_of(
        st.tuples(st.just("deploy"), count, tid),
        st.tuples(st.sampled_from(["advance", "attack", "move", "airlift"]), count, tid, tid),
        st.tuples(st.sampled_from(["bomb", "blockade"]), tid),
        st.tuples(st.just("negotiate"), st.sampled_from(["A", "b", "F", "G", "neutral"])),
        st.just(("reinforce",)),
        st.text(max_size=12).map(lambda text: (text,)),
    ).map(" ".join)


#: A line aimed at the board as it is when the turn starts: (kind, count, i, j) becomes e.g.
#: `advance COUNT FROM TO` with FROM the i-th territory of the seat and TO the j-th neighbour of FROM.
AIMED = st.tuples(st.sampled_from(["deploy", "deploy", "advance", "advance", "airlift", "bomb", "blockade"]),
                  st.integers(1, 60), st.integers(0, 99), st.integers(0, 99))


def aim(line, state, warmap, seat: str) -> str:
    if isinstance(line, str):
        return line
    kind, count, i, j = line
    owned = state.owned_by(seat)
    if not owned:
        return kind
    source = owned[i % len(owned)]
    near = warmap.neighbours_of(source)
    target = {"airlift": owned[j % len(owned)], "blockade": source}.get(kind, near[j % len(near)])
    return {"deploy": f"deploy {count % 8 + 1} {source}", "bomb": f"bomb {target}", "blockade": f"blockade {source}"}.get(
        kind, f"{kind} {count} {source} {target}")


@st.composite
def matches(draw):
    seats = SEATS[:draw(st.integers(2, 6))]
    territories = draw(st.integers(len(seats), len(seats) + 3) | st.integers(len(seats), 40))  # small: conquests
    warmap = generate_map(territories, draw(st.integers(1, min(5, territories))), draw(st.integers(0, 2**64 - 1)),
                          "fuzz")
    rules = Rules(max_turns=draw(st.integers(1, 8)), initial_pool=draw(st.integers(0, 30)),
                  initial_armies=draw(st.integers(0, 4)),
                  undeployed=draw(st.sampled_from(["keep", "lose"])),
                  move_order=draw(st.sampled_from(["rotate", "fixed"])),
                  attack_kill_pct=draw(st.integers(0, 100)), defend_kill_pct=draw(st.integers(0, 100)))
    files = st.lists(order_line(territories) | AIMED | AIMED, max_size=12)
    turns = draw(st.lists(st.fixed_dictionaries({seat: st.tuples(files, st.sampled_from([None, None, Fault.TIMEOUT]))
                                                 for seat in seats}), min_size=1, max_size=4))
    return warmap, seats, rules, draw(st.integers(0, 2**64 - 1)), turns


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches())
def test_random_matches_keep_the_invariants(match) -> None:
    warmap, seats, rules, seed, turns = match
    session = WarzoneSession(warmap, rules, seats, seed)
    state = session.state
    played = 0
    while session.outcome() is None:
        answers = {seat: Answer("\n".join(aim(line, state, warmap, seat) for line in lines), fault)
                   for seat, (lines, fault) in turns[played % len(turns)].items()}
        alive = state.alive_seats()
        before = {seat: state.players[seat].pool for seat in seats}
        session.inputs()  # rendering the views never fails either
        report = session.play_turn(answers)
        played += 1
        assert played <= rules.max_turns  # the game ends by max_turns at the latest
        # every territory has exactly one owner, a seat or neutral, and armies are never negative
        assert len(state.owner) == len(state.armies) == len(warmap.territories) + 1
        assert all(owner in (*seats, NEUTRAL) for owner in state.owner[1:])
        assert all(armies >= 0 for armies in state.armies[1:])
        assert sum(p.card_count for p in state.players.values()) + sum(state.deck.values()) == \
            rules.deck_per_type * len(CARD_TYPES)
        # the pool balances: before + reinforcement cards - deploys (0 with `lose`), + next turn's income
        events = report.record["events"]
        for seat in alive:
            gained = sum(e["armies"] for e in events if e.get("player") == seat and e.get("result") == "reinforced")
            spent = sum(e["armies"] for e in events if e.get("player") == seat and e.get("result") == "deployed")
            expected = before[seat] + gained - spent
            assert expected >= 0
            if rules.undeployed == "lose" and not (state.end_reason == "conquest"):
                expected = 0
            if not state.is_over and state.players[seat].alive:
                expected += income_of(state, warmap, rules, seat).total
            assert state.players[seat].pool == expected, (seat, events)
    assert played <= rules.max_turns
    if state.end_reason == "max_turns":
        assert played == rules.max_turns and len(state.alive_seats()) >= 2
    else:
        assert state.end_reason == "conquest" and len(state.alive_seats()) <= 1


def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def without_timing(data):
    """JSON data with the timing fields (`seconds`, `wall_seconds`, ...) removed, recursively."""
    if isinstance(data, dict):
        return {k: without_timing(v) for k, v in data.items() if "seconds" not in k and not k.endswith("_ms")}
    if isinstance(data, list):
        return [without_timing(v) for v in data]
    return data


def test_same_seed_same_log_through_the_cli(tmp_path: Path) -> None:
    bots = [str(shutil.copytree(STARTER.parent, tmp_path / "bots" / name)) for name in ("a", "b", "c")]
    for name in ("one", "two"):
        code, _, err = run_cli("match", "--game", "warzone", "--map", str(MAPS / "td-harbour.map"), *bots,
                               "--output", str(tmp_path), "--name", name, "--quiet", "--seed", "31",
                               "--max-turns", "4")
        assert code == 0, err
    one, two = tmp_path / "one", tmp_path / "two"
    code, out, err = run_cli("diff", str(one), str(two))
    assert code == 0, out + err
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(two) for p in two.rglob("*") if p.is_file())
    for relative in files:
        a, b = (one / relative).read_bytes(), (two / relative).read_bytes()
        if relative.suffix == ".json":
            assert without_timing(json.loads(a)) == without_timing(json.loads(b)), relative
        elif relative.suffix == ".jsonl":  # the core's record.jsonl keeps each answer's time, as match.json does
            assert [without_timing(json.loads(line)) for line in a.splitlines()] == \
                [without_timing(json.loads(line)) for line in b.splitlines()], relative
        elif relative.name != "BotOutput.txt":
            assert a == b, relative
    assert run_cli("verify", str(one))[0] == 0
