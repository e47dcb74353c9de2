"""The in-process match: a game's `Session` driven from Python, with observations and actions as a bot sees them.

Everything here goes through the game interface (runner/games/interface.py): `get_game`, `Session`, `Answer`.
An observation is the JSON a file-protocol bot reads (its `state.json`, or a persistent bot's request line),
parsed; an action becomes exactly the `Answer` the core would have read from a bot that wrote it, so a bot
trained here plays identically as a bot folder (runner/api/wrapper.py). No pettingzoo or gymnasium here.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Mapping, Sequence
from numbers import Integral
from pathlib import Path
from typing import Any

import attrs

from runner.bots.command_file import command_from_text
from runner.errors import UserError
from runner.games import GAMES, get_game
from runner.games.interface import Absent, Answer, AnswerLines, BotMode, Fault, Game, Session, TurnInput

#: The file whose JSON is the observation, when the game writes one (Tower Defence, Lanes, Warzone); games
#: without files (Invaders) send the state as the persistent request line, and that line is the observation.
OBSERVATION_FILE = "state.json"
MASK_KEY = "action_mask"


class ApiError(UserError, ValueError):
    """Every bad input to runner.api: one line saying what was wrong and what is expected.

    A ValueError for Python callers, and a UserError so the CLI prints it as one line if it ever reaches it.
    """


def numpy() -> Any:
    """numpy, which the action masks need; it comes with the `api` extra (gymnasium depends on it)."""
    try:
        import numpy as np
    except ImportError:
        raise ApiError("runner.api needs numpy: pip install 'td-runner[api]'") from None
    return np


@attrs.frozen
class GameSetup:
    """A game with its config and options, checked once; every episode of an env or evaluation shares it."""

    game: Game
    config: Any
    options: Mapping[str, Any]
    seats: tuple[str, ...]
    actions: Any  # the game's discrete action space (see `find_action_space`), or None: actions are text
    #: action number -> its Answer, for discrete per-turn games, where the Answer depends on nothing else
    #: (Answers are frozen, so one serves every seat, turn and episode)
    answers: dict[int, Answer] = attrs.field(factory=dict, eq=False, repr=False)


def make_setup(
    game: str | Game,
    config: str | Path | None = None,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> GameSetup:
    """Check the game name, the player count, the option names and the config; ApiError (one line) on any."""
    if isinstance(game, str):
        try:
            game = get_game(game)
        except UserError as exc:
            raise ApiError(str(exc)) from None
    elif not hasattr(game, "new_session"):
        raise ApiError(f"game must be a game name ({', '.join(GAMES)}), got {type(game).__name__} {game!r}")
    count = game.player_counts[0] if players is None else players
    if isinstance(count, bool) or not isinstance(count, int) or count not in game.player_counts:
        allowed = ", ".join(map(str, game.player_counts))
        raise ApiError(f"{game.name} is played by {allowed} players, not {count!r}")
    known = {option.dest: option for option in game.options}
    values = {dest: option.default for dest, option in known.items()}
    for key, value in (options or {}).items():
        if key not in known:
            close = difflib.get_close_matches(key, list(known), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            names = ", ".join(known) or "none"
            raise ApiError(f"{game.name} has no option {key!r}{hint}; its options are: {names}")
        if value is not None:
            values[key] = _option_value(game, known[key], value)
    if config is not None and not isinstance(config, (str, Path)):
        raise ApiError(f"config must be the path of a game config file, got {type(config).__name__}")
    try:
        configured = game.configure(Path(config) if config is not None else None, values)
    except UserError as exc:
        raise ApiError(str(exc)) from None
    except (TypeError, ValueError) as exc:  # an option value of the wrong type, e.g. max_rounds="ten"
        raise ApiError(f"{game.name}: bad option value: {exc}") from None
    return GameSetup(game, configured, values, game.seats(count), find_action_space(game, configured))


def _option_value(game: Game, option: Any, value: Any) -> Any:
    """An option's value checked as `td-runner match` checks its flag: through the option's own converter."""
    try:
        converted = option.type(str(value)) if option.type is not None else value
    except UserError as exc:
        raise ApiError(str(exc)) from None
    except (TypeError, ValueError) as exc:
        raise ApiError(f"{game.name} option {option.dest}={value!r}: {exc}") from None
    if option.choices is not None and converted not in option.choices:
        raise ApiError(f"{game.name} option {option.dest}={value!r} is not one of {', '.join(option.choices)}")
    return converted


def find_action_space(game: Game, config: Any) -> Any:
    """The game's discrete action space for `config` (`Game.action_space`), or None when its actions are
    command text. The space has `size`, `encode(text)`, `decode(number)` and `mask(view)`."""
    return game.action_space(config)


def observation_of(turn_input: TurnInput, actions: Any = None) -> dict[str, Any]:
    """A seat's observation: the parsed state.json (or request line), plus `action_mask` for discrete games."""
    text = turn_input.files.get(OBSERVATION_FILE)
    if text is None:
        text = turn_input.line
    if text is None:
        raise ApiError(f"this game gives its bots neither {OBSERVATION_FILE} nor a request line")
    observation = json.loads(text)
    if not isinstance(observation, dict):
        observation = {"value": observation}
    if actions is not None:
        observation[MASK_KEY] = numpy().array(actions.mask(observation), dtype=numpy().int8)
    return observation


def is_persistent_only(game: Game) -> bool:
    """Whether the game's bots always stay alive and answer on stdout (Invaders), so answers are lines."""
    return game.bot_modes == frozenset({BotMode.PERSISTENT})


def command_text(setup: GameSetup, seat: str, action: Any) -> str:
    """An agent's action as the text a bot would write: an action number (discrete games) or command text."""
    actions = setup.actions
    if isinstance(action, str):
        return action
    np = numpy() if actions is not None else None
    if actions is not None and not isinstance(action, bool) and isinstance(action, (int, np.integer)):
        try:
            return actions.decode(int(action))
        except ValueError as exc:
            raise ApiError(f"seat {seat}: {exc}") from None
    wanted = "an action number or command text" if actions is not None else "command text (a str)"
    raise ApiError(f"seat {seat}: the action must be {wanted} for {setup.game.name}, "
                   f"got {type(action).__name__} {action!r}")


def answer_of(game: Game, text: str, turn: int) -> Answer:
    """The Answer the core reads from a bot that writes `text` (runner/api/wrapper.py writes it so).

    Per-turn games: no text is no answer file (`Absent.NO_FILE`); otherwise the file, cut at the game's cap,
    and only its first line where the game reads one (spec 4.1 via `command_from_text`). Persistent-only games:
    the first line is the bot's stdout line, which the game's `accept_line` turns into the answer (a line it
    refuses means no answer within the time limit, as the real bot would get).
    """
    if is_persistent_only(game):
        line = text.split("\n", 1)[0].removesuffix("\r")
        accepted = game.accept_line(line, turn)
        return Answer("", Fault.TIMEOUT) if accepted is None else Answer(accepted)
    if text == "":
        return _NO_FILE
    answer_file = game.answer_file
    data = text.encode("utf-8")
    if len(data) > answer_file.cap_bytes:
        text = data[: answer_file.cap_bytes].decode("utf-8", errors="ignore")
    if answer_file.lines is AnswerLines.FIRST:
        text = command_from_text(text)
    return Answer(text)


_NO_FILE = Answer("", absent=Absent.NO_FILE)  # what the core reads from a bot that wrote no answer file


def reward_of(outcome: Any, seat: str) -> float:
    """+1 for the winner, 0 for a draw or a tie at the top, -1 otherwise (shaping belongs in wrappers)."""
    if outcome.winner == seat:
        return 1.0
    if outcome.winner is None and outcome.ranking and seat in outcome.ranking[0]:
        return 0.0
    return -1.0


def outcome_json(outcome: Any) -> dict[str, Any]:
    """The result as match.json words it: end reason, winner, ranking, and the game's details."""
    return {
        "reason": outcome.reason,
        "winner": outcome.winner,
        "ranking": [list(group) for group in outcome.ranking],
        "draw": outcome.draw,
        **json.loads(json.dumps(dict(outcome.details), default=str)),
    }


def check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ApiError(f"seed must be a non-negative integer, got {seed!r}")
    return seed


def copy_observation(observation: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of an observation (JSON data: dicts, lists, scalars) that shares no dict or list with it.

    Observations from a session's `observations()` hook are read-only and share parts with each other; copy
    one before changing it. Several times faster than `copy.deepcopy`; arrays (the action mask, always the
    observation's own) are kept as they are.
    """
    return _copy_dict(observation)


def _copy_dict(value: dict[str, Any]) -> dict[str, Any]:
    out = value.copy()
    for key, item in value.items():
        kind = type(item)
        if kind is list:
            out[key] = _copy_list(item) if item else []
        elif kind is dict:
            out[key] = _copy_dict(item)
    return out


def _copy_list(values: list[Any]) -> list[Any]:
    return [_copy_dict(v) if type(v) is dict else (_copy_list(v) if type(v) is list else v) for v in values]


def mask_array(mask: bytes | bytearray) -> Any:
    """A session's `action_masks()` entry (one byte 0/1 per action) as the int8 array observations carry: a
    writable array of its own, as observation_of's. A bytearray is taken over without a copy (a session
    that returns bytearrays gives new ones each call, which belong to the caller: Tower Defence's
    session.py `action_masks`); bytes are copied."""
    global _np
    if _np is None:
        _np = numpy()
    return _np.frombuffer(mask if type(mask) is bytearray else bytearray(mask), dtype=_np.int8)


_np: Any = None  # numpy, once mask_array has needed it


class Episode:
    """One match in progress: the game's Session plus what turns actions into answers and inputs into views.

    Observations come from the session's optional `observations()` hook when it has one (each seat's
    observation as data, without rendering and parsing files; Tower Defence), plus its `action_masks()` hook
    for discrete games; otherwise from parsing `inputs()`. Both are built at most once per turn.
    """

    def __init__(self, setup: GameSetup, seed: int, names: Mapping[str, str] | None = None) -> None:
        self.setup = setup
        self.seed = check_seed(seed)
        options = dict(setup.options)
        options["names"] = {seat: (names or {}).get(seat, seat) for seat in setup.seats}  # as play_match does
        self.session: Session = setup.game.new_session(setup.config, setup.seats, self.seed, options)
        self.turns = 0
        session = self.session
        self._views = getattr(session, "observations", None)
        #: whether observations share parts between turns (read-only; see `copy_observation`)
        self.shares_observations = self._views is not None
        self._masks = getattr(session, "action_masks", None) if setup.actions is not None else None
        self._answers_cached = setup.actions is not None and not is_persistent_only(setup.game)
        self._seen: dict[str, dict[str, Any]] = {}  # this turn's observations so far
        self._inputs: Mapping[str, TurnInput] | None = None  # this turn's inputs, once asked

    @property
    def over(self) -> bool:
        return self.session.outcome() is not None

    def inputs(self) -> Mapping[str, TurnInput]:
        """The session's inputs of the current turn (rendered once per turn)."""
        if self._inputs is None:
            self._inputs = self.session.inputs()
        return self._inputs

    def observe(self, seats: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The current turn's observations of those of `seats` the session gives one (those it has inputs for).

        From the `observations()` hook they are read-only data that shares parts with other seats' and other
        turns' observations (see runner/api/README.md); each top-level dict and mask is the caller's own.
        """
        seen = self._seen
        missing = [seat for seat in seats if seat not in seen]
        if missing and self._views is not None:
            if not seen:
                views = self._views()
                masks = self._masks() if self._masks is not None else None
                for seat, view in views.items():
                    if masks is not None:
                        view[MASK_KEY] = mask_array(masks[seat])
                    seen[seat] = view
        elif missing:
            inputs = self.inputs()
            for seat in missing:
                if seat in inputs:
                    seen[seat] = observation_of(inputs[seat], self.setup.actions)
        return {seat: seen[seat] for seat in seats if seat in seen}

    def answer(self, seat: str, action: Any) -> Answer:
        setup = self.setup
        kind = type(action)
        cacheable = self._answers_cached and (kind is int or (kind is not bool and isinstance(action, Integral)))
        if cacheable:
            known = setup.answers.get(action)  # numpy integers hash and compare as ints
            if known is not None:
                return known
        answer = answer_of(setup.game, command_text(setup, seat, action), self.session.turn)
        if cacheable:
            setup.answers[int(action)] = answer  # only valid numbers get here: command_text refuses the rest
        return answer

    def play(self, answers: Mapping[str, Answer]) -> Any:
        report = self.session.play_turn(answers)
        self.turns += 1
        self._seen = {}
        self._inputs = None
        return report


#: An in-process agent: the observation in, an action out (kaggle-environments' `agent(observation)`).
AgentFunction = Callable[[dict[str, Any]], Any]
