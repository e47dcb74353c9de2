"""The delta request (bot.json "request": "delta"): the koth-js host rebuilds from it, every turn, the very
state the full request parses to (same keys, same order, same values). A seeded random game builds, upgrades
and destroys every tower type and spawns boosted invaders, so every kind of tower change is sent."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

import runner.games.invaders as invaders_package
from runner.errors import UserError
from runner.games.interface import Answer
from runner.games.invaders import GAME
from runner.games.invaders.protocol.lines import DELTA
from runner.play import load_player

NODE = shutil.which("node")
HOST = Path(invaders_package.__file__).parent / "koth_js" / "host.js"
TURNS = 1500

#: Reads pairs of lines (delta, full) and prints how many turns were compared and the first that differed.
COMPARE = """
const { deltaDecoder } = require(process.argv[1]);
const decode = deltaDecoder();
const lines = require('fs').readFileSync(0, 'utf8').split('\\n').filter(Boolean);
let compared = 0, first = null;
for (let k = 0; k < lines.length; k += 2) {
  const delta = JSON.parse(lines[k]), full = JSON.parse(lines[k + 1]);
  const rebuilt = JSON.stringify(decode(delta)), expected = JSON.stringify(full.state);
  compared += 1;
  if (rebuilt !== expected && first === null) first = { turn: full.turn, rebuilt, expected };
}
process.stdout.write(JSON.stringify({ compared, first }));
"""


def random_game(seed: int) -> list[tuple[str, str]]:
    """(delta line of the defender, full line of the invader) for every turn of a seeded random game."""
    rng = random.Random(seed)
    session = GAME.new_session(GAME.configure(None, {"max_turns": TURNS}), GAME.seats(2), 0, {})
    session.use_request_format("defender", DELTA)
    pairs = []
    while session.outcome() is None:
        inputs = session.inputs()
        pairs.append((inputs["defender"].line, inputs["invader"].line))
        pos = rng.randrange(100)
        defender = rng.choice([
            None,
            {"action": "build", "pos": pos, "type": rng.choice(["turret", "bomb", "stunner"])},
            {"action": "upgrade", "pos": pos, "stat": rng.choice(["power", "range"])},
            {"action": "destroy", "pos": pos},
        ])
        invader = rng.choice([None, {"hp": rng.randrange(3), "defense": rng.randrange(2), "stunRes": rng.randrange(2)}])
        session.play_turn({"defender": Answer(json.dumps(defender)), "invader": Answer(json.dumps(invader))})
    return pairs


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("seed", [1, 2])
def test_the_host_rebuilds_the_full_state_from_every_delta(seed: int) -> None:
    pairs = random_game(seed)
    changes = [json.loads(delta)["tw"] for delta, _ in pairs]
    sent = [change for turn in changes for change in turn]
    assert {change[5] for change in sent if len(change) > 1} == {"turret", "bomb", "stunner"}
    assert any(len(change) == 1 for change in sent), "no tower was removed: [pos] changes are not covered"
    assert any(len(change) > 1 and change[1] > 0 for change in sent), "no upgrade: levels are not covered"
    text = "".join(f"{delta}\n{full}\n" for delta, full in pairs)
    result = subprocess.run([NODE, "-e", COMPARE, str(HOST)], input=text, capture_output=True, text=True,
                            check=True, timeout=120)
    report = json.loads(result.stdout)
    assert report["compared"] == len(pairs) > 1000
    assert report["first"] is None, report["first"]


def test_a_delta_is_smaller_and_inputs_twice_a_turn_give_the_same_lines() -> None:
    session = GAME.new_session(GAME.configure(None, {}), GAME.seats(2), 0, {})
    session.use_request_format("invader", DELTA)
    for _ in range(40):
        first, again = session.inputs(), session.inputs()
        assert first == again
        session.play_turn({"defender": Answer('{"action":"build","pos":%d,"type":"turret"}' % session.turn),
                           "invader": Answer("null")})
    lines = session.inputs()
    assert len(lines["invader"].line) * 5 < len(lines["defender"].line)
    with pytest.raises(ValueError, match="before the first request"):
        session.use_request_format("defender", DELTA)


def test_a_request_format_the_game_does_not_offer_is_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.py").write_text("print('null')\n")
    (folder / "bot.json").write_text(json.dumps({
        "author": "a", "email": "a@b.c", "nickName": "N", "botLocation": "/", "botFileName": "bot.py",
        "botLanguage": "python3", "request": "compact",
    }))
    with pytest.raises(UserError, match=r"bot.json: request 'compact' is not a request format of invaders.*delta"):
        load_player(GAME, "defender", folder)
