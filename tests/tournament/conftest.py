"""Fixtures of the tournament tests; the helpers live in tournament_helpers.py."""

from tournament_helpers import td_bots  # noqa: F401
