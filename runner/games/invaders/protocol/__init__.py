"""Invaders bot protocol (spec 7, 18): request and answer lines, and the text drawings. Pure."""

from runner.games.invaders.protocol.lines import ParsedAnswer, parse_answer, render_request, render_state_json
from runner.games.invaders.protocol.text import render_board, render_path, render_summary

__all__ = ["ParsedAnswer", "parse_answer", "render_board", "render_path", "render_request", "render_state_json", "render_summary"]
