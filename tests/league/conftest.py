"""The league tests' helpers live in league_helpers.py (imported by module name: tests/ has no packages)."""
