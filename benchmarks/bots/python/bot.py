"""The Python twin of bots/java/Bot.java: reads state.json every round and answers one fixed command.

    python bot.py                 per turn: read state.json, write command.txt, exit
    python bot.py --persistent    one process: per stdin line (the round) read state.json, print C;<round>;<command>
"""

import sys

COMMAND = "0,0,2"


def decide() -> str:
    with open("state.json", encoding="utf-8") as handle:
        return COMMAND if handle.read() else ""


if sys.argv[1:] == ["--persistent"]:
    for line in sys.stdin:
        print(f"C;{int(line)};{decide()}", flush=True)
else:
    with open("command.txt", "w", encoding="utf-8") as handle:
        handle.write(decide())
