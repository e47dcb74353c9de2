"""The Lanes HTML replay's timesteps: the record's soldiers and towers at every sub-step are the engine's,
stepped here lane by lane without the recorder; hand-computed walks; the page size of a busy match."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from runner.replay.pack import unpacked
from runner.games.interface import Answer
from runner.games import get_game
from runner.games.lanes.html_record import KILLED, ON_LANE, SCORED, battle
from runner.logtools.record import open_record
from runner.games.lanes.protocol.commands import read_orders
from runner.games.lanes.rules.battle import Lane
from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.rules.legality import apply_orders
from runner.games.lanes.rules.state import PLAYERS, new_game
from runner.replay.html import write_html_replay

from tests.games.lanes.lanes_logs import write_folder_log

BIG = LanesConfig(start_hp=10**6, start_money=10**6)
TOWERS = ("missile", "rocket", "frost", "blockade")
SOLDIERS = ("shield", "rifle", "bomb", "horse")


def decode(lane: dict[str, list[int]], board: dict[str, Any], step: int) -> dict[str, list[list[int]]]:
    """What the board draws at `step` (html_board.js `units`): soldiers [type, col, row, hp, leaving] in
    soldier order, towers [type, col, row, hp, destroyed] in build order. Written from the format's
    description in html_record.py, apart from the JavaScript."""
    soldiers, runs = [], iter(zip(lane["R"][::2], lane["R"][1::2]))
    for index in range(len(lane["S"]) // 5):
        kind, col, first, last, fate = lane["S"][5 * index:5 * index + 5]
        rows, row = [], board["rows"] - 1
        while len(rows) < last - first + 1:
            move, times = next(runs)
            for _ in range(times):
                row -= move
                rows.append(row)
        if first <= step <= last:
            hp = board["max_hp"][kind]
            for i in range(0, len(lane["P"]), 3):
                if lane["P"][i] == index and lane["P"][i + 1] <= step:
                    hp = lane["P"][i + 2]
            soldiers.append([kind, col, rows[step - first], hp, fate if step == last else ON_LANE])
    towers = []
    for index in range(len(lane["T"]) // 4):
        kind, col, row, hp = lane["T"][4 * index:4 * index + 4]
        gone = None
        for i in range(0, len(lane["H"]), 3):
            if lane["H"][i] == index and lane["H"][i + 1] <= step:
                hp = lane["H"][i + 2]
                gone = lane["H"][i + 1] if hp <= 0 else None
        if gone is None or gone == step:
            towers.append([kind, col, row, hp, int(gone == step)])
    return {"soldiers": soldiers, "towers": towers}


def page_record(page: Path) -> str:
    text = page.read_text(encoding="utf-8")
    return text.split('<script type="application/json" id="record">', 1)[1].split("</script>", 1)[0]


def lines(turn: int, body: list[str]) -> Answer:
    return Answer("\n".join([f"TURN {turn}", *body, "END"]) + "\n")


def army(turn: int, me: dict[str, Any], size: int, columns: range) -> list[str]:
    """Keep `size` soldiers (a quarter of each kind) and send them all, spread over timesteps, columns and
    both stances."""
    body, share = [], size // len(SOLDIERS)
    for i, kind in enumerate(SOLDIERS):
        if me["soldiers"][kind] < share:
            body.append(f"RECRUIT {kind} {share - me['soldiers'][kind]}")
        for part in range(4):
            col = columns[(i + part + turn) % len(columns)]
            body.append(f"DEPLOY {kind} {1 + part * 20 + i * 3} {col} {share // 4} {'fire' if part % 2 else 'advance'}")
    return body


def fortress(size: int):
    """Six towers on every row (rebuilt when lost) and an army of `size`."""
    def bot(turn: int, state: str) -> Answer:
        data = json.loads(state)
        me = data["me"]
        taken = {(t["col"], t["row"]) for t in me["towers"]}
        body = [f"BUILD {TOWERS[(row * 7 + col) % 4]} {col} {row}" for row in range(20) for col in range(7)
                if col != (row * 3) % 7 and (col, row) not in taken]
        return lines(turn, body + army(turn, me, size, range(7)))
    return bot


def skirmisher(turn: int, state: str) -> Answer:
    """A frost, a missile and a blockade, rebuilt when lost (most of its lane open: the fortress's soldiers
    score), and forty soldiers."""
    me = json.loads(state)["me"]
    taken = {(t["col"], t["row"]) for t in me["towers"]}
    body = [f"BUILD {kind} {col} {row}" for kind, col, row in (("frost", 3, 6), ("missile", 2, 10), ("blockade", 3, 14))
            if (col, row) not in taken]
    return lines(turn, body + army(turn, me, 40, range(2, 5)))


@pytest.fixture(scope="module")
def busy_log(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lanes") / "busy"
    write_folder_log(root, LanesConfig(start_hp=10**6, start_money=10**6, max_turns=3),
                     {"P1": fortress(80), "P2": skirmisher})
    return root


def test_every_timestep_is_the_engines_stepped_here_lane_by_lane(busy_log: Path) -> None:
    """Each turn's lanes are stepped here with no recorder, from the logged commands.txt; after every
    timestep the record's soldiers on the lane, and its towers, are the lane's, and what it shows leaving
    (killed, scored, destroyed) is that timestep's cleanup tally."""
    game = get_game("lanes")
    record = game.html_replay(busy_log)[0]
    board = record["board"]
    session = game.log_session(logged := open_record(game, busy_log))
    config, frames = session.config, {}
    for played in logged.turns:  # each turn's state before it, from the core's replay of the log
        frames[played.turn] = (session.state,)
        session.play_turn(played.answers)
    seen = {"killed": 0, "scored": 0, "destroyed": 0, "stunned": 0}
    for index, turn in enumerate(record["turns"]):
        state = frames[turn][0]
        plans = []
        for p, seat in enumerate(("P1", "P2")):
            text = (busy_log / f"Turn {turn:03d}" / f"{seat} - bot{seat}" / "commands.txt").read_text()
            orders, problems = read_orders(text, state, p, config)
            assert not problems, problems
            plans.append(apply_orders(config, state, p, orders))
        for p in PLAYERS:
            lane = Lane(config, plans[p].towers, plans[1 - p].schedule)
            data = record["frames"][index]["b"][p]
            assert decode(data, board, 0) == {"soldiers": [], "towers": [
                [board["units"].index(t.type), t.col, t.row, t.hp, 0] for t in plans[p].towers]}
            for step in range(1, config.timesteps + 1):
                tally = lane.step(step)
                shown = decode(data, board, step)
                staying = [s[:4] for s in shown["soldiers"] if s[4] == ON_LANE]
                assert staying == [[board["units"].index(s.type), s.col, s.row, s.hp] for s in lane.soldiers], (turn, p, step)
                assert [t[:4] for t in shown["towers"] if not t[4]] == [
                    [board["units"].index(t.type), t.col, t.row, t.hp] for t in lane.towers], (turn, p, step)
                leaving = [s[4] for s in shown["soldiers"]]
                assert (leaving.count(KILLED), leaving.count(SCORED), sum(t[4] for t in shown["towers"])) == (
                    tally.killed, tally.scored, tally.towers_lost), (turn, p, step)
                assert len(staying) == record["frames"][index]["s"][step - 1][p]
                seen["killed"] += tally.killed
                seen["scored"] += tally.scored
                seen["destroyed"] += tally.towers_lost
            seen["stunned"] += len(data["Z"]) // 2
    assert all(seen.values()), seen  # the match exercised every kind of change


def orders(state, record: dict[str, Any]) -> list:
    """The turn's orders as the session reads them: each file's lines, None for a refused one."""
    found = []
    for p in PLAYERS:
        parsed, problems = read_orders("\n".join(record["commands"][p]) + "\n", state, p, BIG)
        found.append(None if record["rejected"][p] or problems else parsed)
    return found


def test_a_lone_rifle_walks_one_row_a_timestep_and_scores_at_21() -> None:
    state = new_game(BIG)
    record = {"rejected": [[], []], "commands": [["TURN 1", "RECRUIT rifle 1", "DEPLOY rifle 1 3 1 advance", "END"],
                                                 ["TURN 1", "END"]]}
    lanes = battle(BIG, state, orders(state, record), list(BIG.units))
    rifle = list(BIG.units).index("rifle")
    assert lanes[0] == {"T": [], "H": [], "S": [], "R": [], "P": [], "Z": []}
    assert lanes[1] == {"T": [], "H": [], "S": [rifle, 3, 1, 21, SCORED], "R": [1, 20, 0, 1], "P": [], "Z": []}


def test_a_missile_hits_a_rifle_at_9_and_kills_it_at_10() -> None:
    """Missile (2 damage, range 2) at column 2, row 10: the rifle (3 HP) walking column 3 comes in range on
    row 12 at timestep 9 (towers fire first: HP 1, then it steps to row 11) and dies there at 10."""
    state = new_game(BIG)
    record = {"rejected": [[], []], "commands": [["TURN 1", "RECRUIT rifle 1", "DEPLOY rifle 1 3 1 advance", "END"],
                                                 ["TURN 1", "BUILD missile 2 10", "END"]]}
    lane = battle(BIG, state, orders(state, record), list(BIG.units))[1]
    units = list(BIG.units)
    assert lane["T"] == [units.index("missile"), 2, 10, 10] and lane["H"] == []
    assert lane["S"] == [units.index("rifle"), 3, 1, 10, KILLED]
    assert lane["R"] == [1, 9, 0, 1]  # rows 19..11 over timesteps 1..9, then still on row 11
    assert lane["P"] == [0, 9, 1, 0, 10, -1]


def test_a_rejected_file_plays_nothing_and_a_log_with_no_turn_shows_its_towers() -> None:
    state = new_game(BIG)
    record = {"rejected": [["E03 first command must be 'TURN 1'"], []],
              "commands": [["TURN 1", "END"], ["TURN 1", "BUILD frost 0 0", "END"]]}
    lanes = battle(BIG, state, orders(state, record), list(BIG.units))
    assert lanes[0]["T"] == [] and lanes[1]["T"] == [list(BIG.units).index("frost"), 0, 0, 10]
    assert [lane["S"] for lane in lanes] == [[], []]


def test_a_busy_match_page_stays_a_few_mb_for_100_turns(tmp_path: Path) -> None:
    """Two fortresses (120 towers a lane) and 512 soldiers a side every turn: about 60 KB a turn, so 100
    turns make about 6 MB, whole (the viewer thins only past 9 MB). 8 turns here, for the time."""
    root = tmp_path / "busy"
    write_folder_log(root, LanesConfig(start_hp=10**6, start_money=10**6, max_turns=8),
                     {"P1": fortress(512), "P2": fortress(512)})
    target, size = write_html_replay(root, tmp_path / "busy.html")
    record = unpacked(json.loads(page_record(target)))
    assert record["step_word"] == "Timestep" and record["note"] == ""  # not thinned
    assert {kind for seat in record["rulings"] for kind, _ in seat} == {"ok"}
    assert [sum(len(lane["S"]) // 5 for lane in frame["b"]) for frame in record["frames"]] == [1024] * 8
    assert size < 8 * 90_000
