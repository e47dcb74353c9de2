"""The log tools every game gets from the core: `verify`, `diff`, the terminal `replay` and `validate`.

They read the logs the match loop writes (runner/match.py): the game's own part (turn folders, or a log.jsonl
of its rows) and the core's record (runner/matchlog/record.py: per turn and seat the answer as read, its
fault, absence, detail and time). `record.open_record` makes one `MatchRecord` of any game's log; the tools
replay its answers through a new `Session` and compare. A game gets them through `GameDefaults` and keeps only
what is its own: reading logs from outside (official Tower Defence logs, spec trace files), its file kinds,
and what its verify must forgive (`Game.log_forgives`, JSON keys of timing).
"""
