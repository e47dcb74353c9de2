"""Play one match from Python: bot folders in, a match log and a `MatchSummary` out.

The CLI (`td-runner match`), tournaments and the in-process API all start matches here, so every one of
them checks bots, options and limits the same way before round 0. Nothing here prints.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from runner.bots.definition import load_bot
from runner.bots.isolation import check_isolation
from runner.bots.limits import Limits
from runner.bots.persistent import STARTUP_MS
from runner.errors import UserError
from runner.games import get_game
from runner.games.interface import BotMode, Game
from runner.interrupts import sigterm_as_interrupt
from runner.match import ConsoleInput, MatchObserver, MatchRunner, MatchSettings, MatchSummary, Player, uses_persistent

CONSOLE_PLAYER = "console"
_NUMBERS = {2: "two", 3: "three", 4: "four"}


@attrs.frozen
class MatchPlan:
    """A match with everything checked and nothing started: the game, its players, config and limits."""

    game: Game
    players: tuple[Player, ...]
    options: dict[str, Any]
    config: Any
    seed: int = 0
    limits: Limits = Limits()
    startup_ms: int = STARTUP_MS


def check_player_count(game: Game, count: int) -> None:
    counts = game.player_counts
    if count not in counts:
        wanted = _NUMBERS.get(counts[0], str(counts[0])) if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
        raise UserError(f"give {wanted} players (bot folders or 'console') for {game.name}, got {count}")


def load_player(game: Game, seat: str, folder: str | Path, languages: Mapping[str, Sequence[str]] | None = None) -> Player:
    """One seat's player: a bot folder checked as `match` checks it, or 'console' (a human)."""
    if str(folder) == CONSOLE_PLAYER:
        if game.console_prompt is None:
            raise UserError(f"{game.name} has no console players; give a bot folder for seat {seat}")
        return Player(seat, f"{seat} - Console", None)
    bot = load_bot(Path(folder), {**game.languages, **(languages or {})})
    if bot.persistent and BotMode.PERSISTENT not in game.bot_modes:
        raise UserError(f"{bot.player_dir / 'bot.json'}: persistent is true, but {game.name} bots run once per turn")
    if bot.request is not None and (bot.request not in game.request_formats or not uses_persistent(game, bot)):
        offered = ", ".join(game.request_formats) or "none"
        raise UserError(f"{bot.player_dir / 'bot.json'}: request {bot.request!r} is not a request format of "
                        f"{game.name}'s persistent bots (formats: {offered})")
    return Player(seat, f"{seat} - {folder_name(bot.nick_name)}", bot)


def folder_name(nick: str) -> str:
    """A nickName as part of a log folder's name: '/' and NUL (which no file name may hold) become '_', and
    a name too long for the file system is cut (200 bytes of UTF-8). The official layout names each player's
    folder `<seat> - <nickName>`; a nickName such as `A/B` used to make every match fail to write its log."""
    name = nick.replace("/", "_").replace("\0", "_")
    encoded = name.encode("utf-8")
    return name if len(encoded) <= 200 else encoded[:200].decode("utf-8", errors="ignore")


def plan_match(
    game: Game | str,
    folders: Sequence[str | Path],
    *,
    options: Mapping[str, Any] | None = None,
    config_file: Path | None = None,
    seed: int = 0,
    limits: Limits | None = None,
    startup_ms: int | None = None,
    languages: Mapping[str, Sequence[str]] | None = None,
    sources: Sequence[str] | None = None,
) -> MatchPlan:
    """Check everything a match needs before round 0; UserError (one line) on any problem.

    `options` are the game's option values by `Option.dest`; missing ones take the option's default.
    `sources` name where each folder came from (`game-runner-config.json: player-a`), for error messages.
    """
    game = get_game(game) if isinstance(game, str) else game
    check_player_count(game, len(folders))
    players = []
    for index, (seat, folder) in enumerate(zip(game.seats(len(folders)), folders)):
        try:
            players.append(load_player(game, seat, folder, languages))
        except UserError as exc:
            if sources is None:
                raise
            raise UserError(f"{sources[index]}: {exc}") from None
    values = {option.dest: option.default for option in game.options}
    values.update({key: value for key, value in (options or {}).items() if value is not None})
    config = game.configure(config_file, values)
    limits = limits or Limits(timeout_ms=game.timeout_ms)
    check_isolation(limits)  # e.g. --sandbox without bubblewrap: say so before round 0
    if startup_ms is not None and startup_ms <= 0:
        raise UserError(f"--startup-ms must be positive, got {startup_ms}")
    return MatchPlan(game, tuple(players), values, config, seed, limits, startup_ms or STARTUP_MS)


def start_match(
    plan: MatchPlan,
    folder: Path,
    observer: MatchObserver | None = None,
    console_input: ConsoleInput | None = None,
) -> MatchRunner:
    """The runner of a planned match, its session created and its log folder `folder` claimed."""
    game = plan.game
    options = dict(plan.options)
    # the players' names, for games that show them to the bots (Warzone's state.json)
    options["names"] = {p.seat: p.bot.nick_name if p.bot else "Console" for p in plan.players}
    session = game.new_session(plan.config, tuple(p.seat for p in plan.players), plan.seed, options)
    config_json = game.config_json(plan.config)
    extra_files: dict[str, str | bytes] = {"game-config.json": json.dumps(config_json, indent=2) + "\n"}
    extra_files.update(game.match_files(plan.config, options))
    settings = MatchSettings(
        players=plan.players,
        folder=folder,
        seed=plan.seed,
        limits=plan.limits,
        options={key: value for key, value in options.items() if _is_json(value)},
        game_config=config_json,
        extra_files=extra_files,
        startup_ms=plan.startup_ms,
    )
    return MatchRunner(game, session, settings, observer, console_input)


def play_match(
    game: Game | str,
    folders: Sequence[str | Path],
    folder: Path,
    *,
    observer: MatchObserver | None = None,
    **plan_options: Any,
) -> MatchSummary:
    """Plan, start and play one match between bot folders; the log goes to `folder` (which must not exist)."""
    plan = plan_match(game, folders, **plan_options)
    if Path(folder).exists():
        raise UserError(f"match folder {folder} already exists")
    runner = start_match(plan, Path(folder), observer)
    with sigterm_as_interrupt():
        return runner.run()


def _is_json(value: object) -> bool:
    if isinstance(value, dict):
        return all(isinstance(key, str) and _is_json(item) for key, item in value.items())
    return isinstance(value, (str, int, float, bool, type(None)))
