"""Shaped like the official Entelect 2018 Python starter (bot.json, StarterBot.py, requirements.txt), but its
third-party package is tdlocalpkg (localpkg/), which td-runner's own Python does not have."""

import json
import sys

import tdlocalpkg

with open("state.json", encoding="utf-8") as handle:
    state = json.load(handle)
command = tdlocalpkg.choose(state)
print(f"tdlocalpkg {tdlocalpkg.__version__} from {sys.prefix}: {command}")
with open("command.txt", "w", encoding="utf-8") as handle:
    handle.write(command)
