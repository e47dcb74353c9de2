"""One module per `td-runner` subcommand.

Each module exposes `HELP` (one line), `add_arguments(parser)` and `run(args, streams) -> int`. Modules
raise `UserError` for problems the user can fix; only runner/cli.py turns exceptions into exit codes.
"""
