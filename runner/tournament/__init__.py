"""Tournaments: many matches between bot folders, played on all cores or a Dask cluster, rated with OpenSkill.

The pieces, each a small module, in the order a tournament uses them:

* `entrants`: bot folders in, `Entrant`s out (name, content hash, or why the bot cannot start), snapshots;
* `schedule`: which matches to play (round-robin, gauntlet, Warzone tables, Invaders sides) and their ids;
* `task`: one match from a `MatchTask` (a picklable record) to a `MatchResult`, in any process or machine;
* `local` and `dask_backend`: run the tasks, K at once, here or on a cluster;
* `records`: `games.jsonl`, the only state a tournament keeps (resume reads it);
* `standings`: the table, computed from `games.jsonl` alone, in a fixed order;
* `run`: the whole tournament, as `td-runner tournament` drives it.

Nothing here prints except through the `Reporter` the caller passes in.
"""
