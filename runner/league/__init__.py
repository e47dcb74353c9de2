"""Leagues: `td-runner league`, a competition that keeps running while players resubmit their bots.

store.py (the SQLite file), settings.py (what a league is), submissions.py (players and versions from the
submissions folder), ratings.py and matchmaking.py (pure: who is how strong, who plays next), recorder.py (a
finished match into the database), run.py (the loop), standings.py (the table as data), web/ (the pages).
"""
