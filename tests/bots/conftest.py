"""Fixtures for the bot tests; the helpers live in botfolders.py so test modules can import them."""

from botfolders import python_bot  # noqa: F401  (a fixture)
