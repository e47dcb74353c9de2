"""Replays of match logs: the self-contained HTML viewer (and, in runner/commands/replay.py, the terminal one).

`html.py` turns a log into one HTML file through the game's `html_replay(path)` hook (`default.py`'s, without
a board drawing, unless the game draws its own), which returns
the compact record (see `record.py` for its shape) and the game's board-drawing JavaScript; a game builds the
record by reading its log into `source.py`'s shape, and `assemble.py` adds the rest. The generic
viewer (player, controls, scrub bar, charts, layout) is `viewer.html`, `viewer.js` and `viewer.css` here,
inlined into every page: the page loads nothing from anywhere.
"""
