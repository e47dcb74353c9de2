"""Shared helpers of the Warzone tests: the shipped maps, hand-built states (spec 8's setting), playing a turn."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import attrs

from runner.games.warzone.protocol.orders_text import index_names, parse_orders
from runner.games.warzone.rules.board import WarMap
from runner.games.warzone.rules.mapfile import parse_map
from runner.games.warzone.rules.rng import make_streams
from runner.games.warzone.rules.settings import Rules
from runner.games.warzone.rules.state import CARD_TYPES, GameState, PlayerState, empty_hand
from runner.games.warzone.rules.turn import TurnResult, play_turn

MAPS = Path(__file__).resolve().parents[3] / "runner" / "games" / "warzone" / "maps"
DATA = Path(__file__).resolve().parent / "data"


def load_map(name: str, lenient: bool = False) -> WarMap:
    reading = parse_map((MAPS / name).read_bytes(), lenient=lenient, default_name=name.removesuffix(".map"))
    assert reading.map is not None, reading.findings
    return reading.map


def ring_map_text(count: int, continents: int = 1) -> str:
    """A Domination ring of `count` territories split into `continents` consecutive blocks."""
    lines = ["[continents]", *(f"C{c} 1" for c in range(1, continents + 1)), "[countries]"]
    lines += [f"{i} T{i} {(i - 1) * continents // count + 1} 0 0" for i in range(1, count + 1)]
    lines.append("[borders]")
    lines += [f"{i} {i % count + 1} {(i - 2) % count + 1}" for i in range(1, count + 1)]
    return "\n".join(lines) + "\n"


#: spec 8's default setting: fixed order, A owns 1 and 4, B owns 2 and 3.
RING_OWNERS = {1: "A", 2: "B", 3: "B", 4: "A"}


def make_state(
    owners: Mapping[int, str] = RING_OWNERS,
    armies: Mapping[int, int] | None = None,
    pools: Mapping[str, int] | None = None,
    hands: Mapping[str, Mapping[str, int]] | None = None,
    play_order: tuple[str, ...] = ("A", "B"),
    seed: int = 1,
    turn: int = 1,
) -> GameState:
    """A state at the start of `turn` (income already added), built directly rather than by start-up."""
    streams = make_streams(seed)
    size = max(owners)
    players = {}
    for seat in sorted(play_order):
        hand = empty_hand()
        hand.update((hands or {}).get(seat, {}))
        players[seat] = PlayerState(seat, pool=(pools or {}).get(seat, 0), hand=hand)
    return GameState(
        turn=turn,
        play_order=tuple(play_order),
        owner=[""] + [owners[tid] for tid in range(1, size + 1)],
        armies=[0] + [(armies or {}).get(tid, 0) for tid in range(1, size + 1)],
        players=players,
        deck=dict.fromkeys(CARD_TYPES, 10),
        cards_rng=streams.cards,
        battle_rng=streams.battle,
    )


def rules(**changes: object) -> Rules:
    """spec 8's default rules: `move_order` fixed, the rest as spec 6."""
    return attrs.evolve(Rules(move_order="fixed"), **changes)


def play(state: GameState, warmap: WarMap, texts: Mapping[str, str], settings: Rules | None = None) -> TurnResult:
    """Parse each seat's orders text and play one turn."""
    settings = settings or rules()
    names = index_names(warmap)
    seats = tuple(sorted(state.players))
    sheets = {seat: parse_orders(text, names, seats, settings.max_orders) for seat, text in texts.items()}
    return play_turn(state, warmap, settings, sheets)


def results(turn: TurnResult, seat: str | None = None) -> list[str]:
    """The `result` (or `event`) of each event; with `seat`, only that seat's order events."""
    if seat is None:
        return [e.get("result", e.get("event")) for e in turn.events]
    return [e["result"] for e in turn.events if "result" in e and e["player"] == seat]


def codes(turn: TurnResult, seat: str) -> list[str]:
    return [r.code for r in turn.rejected[seat]]


STARTER = Path(__file__).resolve().parents[3] / "starter-bots" / "warzone" / "python3" / "bot.py"


def starter_orders():
    """The Python starter bot's `choose_orders`, imported from its file."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("warzone_starter_bot", STARTER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.choose_orders


def run_match(game, config, seats, seed, bots, names=None):
    """Play a whole match the way the core does (no processes): returns the session and each turn's data."""
    import json as _json

    from runner.games.interface import Answer

    session = game.new_session(config, seats, seed, {})
    turns = []
    while session.outcome() is None:
        inputs = session.inputs()
        answers = {seat: Answer("\n".join(bots[seat](_json.loads(inputs[seat].files["state.json"]))))
                   for seat in session.active_seats()}
        report = session.play_turn(answers)
        turns.append((session.turn - 1, inputs, answers, report))
    return session, turns


def write_log(folder: Path, game, config, seats, seed, bots, names=None) -> Path:
    """A FolderLog-layout log of a whole match, as the core writes it (spec 4.7)."""
    import json as _json

    names = names or {seat: f"Bot{seat}" for seat in seats}
    session, turns = run_match(game, config, seats, seed, bots)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game-config.json").write_text(_json.dumps(game.config_json(config)))
    for name, data in game.match_files(config, {}).items():
        (folder / name).write_bytes(data)
    layout = game.log
    for turn, inputs, answers, report in turns:
        turn_dir = folder / layout.turn_folder.format(turn=turn)
        for seat, turn_input in inputs.items():
            seat_dir = turn_dir / f"{seat} - {names[seat]}"
            seat_dir.mkdir(parents=True)
            for name, text in turn_input.files.items():
                (seat_dir / layout.file_names.get(name, name)).write_text(text, encoding="utf-8")
            (seat_dir / layout.answer).write_text(answers[seat].text, encoding="utf-8")
            (seat_dir / layout.output).write_text("")
        for name, text in report.log_files.items():
            (turn_dir / name).write_text(text, encoding="utf-8")
    final_dir = folder / layout.turn_folder.format(turn=session.turn)
    for seat, turn_input in session.inputs().items():
        seat_dir = final_dir / f"{seat} - {names[seat]}"
        seat_dir.mkdir(parents=True)
        for name, text in turn_input.files.items():
            (seat_dir / layout.file_names.get(name, name)).write_text(text, encoding="utf-8")
    final_dir.mkdir(parents=True, exist_ok=True)
    for name, text in session.final_files({s: f"{s} - {names[s]}" for s in seats}).items():  # as the core: player names
        (final_dir / name).write_text(text, encoding="utf-8")
    from runner.matchlog.record import RECORD_FILE, header_line, turn_line  # the core's record, as it writes it

    record = [header_line(game.name, tuple(seats), {s: f"{s} - {names[s]}" for s in seats}, seed, {}, {})]
    record += [turn_line(turn, answers, inputs, report) for turn, inputs, answers, report in turns]
    (folder / RECORD_FILE).write_text("".join(line + "\n" for line in record), encoding="utf-8")
    outcome = session.outcome()
    match = {"game": game.name, "seed": seed, "options": {}, "game_config": game.config_json(config),
             "players": [{"seat": seat, "name": names[seat], **session.standings()[seat]} for seat in seats],
             "ranking": [list(group) for group in outcome.ranking], "winner": outcome.winner,
             "end_reason": outcome.reason, "turns": len(turns), "wall_seconds": 0.5, **outcome.details}
    (folder / "match.json").write_text(_json.dumps(match))
    return folder


def random_map(seed: int, territories: int, continents: int, extra_edges: int, name: str = "random"):
    """A seeded random valid map: each continent a random tree (so connected), the continents joined in a
    chain, plus random extra borders. Names are single tokens so both dialects can hold them."""
    from runner.games.warzone.rules.board import Continent, Territory, build_map
    from runner.games.warzone.rules.rng import SplitMix64

    rng = SplitMix64(seed)
    continents = max(1, min(continents, territories))
    home = [1 + (k * continents) // territories for k in range(territories)]  # contiguous, none empty
    edges = set()
    for cid in range(1, continents + 1):
        members = [k + 1 for k in range(territories) if home[k] == cid]
        for index in range(1, len(members)):
            edges.add((members[rng.below(index)], members[index]))
        if cid > 1:
            previous = [k + 1 for k in range(territories) if home[k] == cid - 1]
            edges.add((previous[rng.below(len(previous))], members[rng.below(len(members))]))
    for _ in range(extra_edges):
        a, b = rng.below(territories) + 1, rng.below(territories) + 1
        if a != b:
            edges.add((a, b))
    return build_map(
        name, "domination",
        [Continent(c, f"Land{c}", rng.below(7) - 1) for c in range(1, continents + 1)],
        [Territory(k + 1, f"T{k + 1}_{rng.below(1000)}", home[k]) for k in range(territories)],
        edges,
    )
