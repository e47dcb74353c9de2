"""Invaders rules (spec sections 2-9): pure, deterministic, no I/O. A turn is `start_turn` (phases A-G),
then the AIs answer, then `finish_turn` (phases I-J)."""

from runner.games.invaders.rules.actions import parse_defender_action, parse_invader_action
from runner.games.invaders.rules.state import Invader, State, Tower
from runner.games.invaders.rules.trace import compare_rows, render_row, same_value
from runner.games.invaders.rules.turn import APPLIED, NO_ACTION, Actions, Penalty, finish_turn, is_over, start_turn
from runner.games.invaders.rules.view import render_view

__all__ = [
    "APPLIED",
    "NO_ACTION",
    "Actions",
    "Invader",
    "Penalty",
    "State",
    "Tower",
    "compare_rows",
    "finish_turn",
    "is_over",
    "parse_defender_action",
    "parse_invader_action",
    "render_row",
    "render_view",
    "same_value",
    "start_turn",
]
