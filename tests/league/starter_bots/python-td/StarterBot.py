"""A Tower Defence bot that needs a package td-runner's Python lacks (termcolor, from requirements.txt)."""
import json

from termcolor import colored

with open("state.json") as handle:
    state = json.load(handle)
me = next(player for player in state["players"] if player["playerType"] == "A")  # itself
print(colored(f"round {state['gameDetails']['round']}: energy {me['energy']}", "green"))
with open("command.txt", "w") as handle:
    handle.write("0,1,2" if me["energy"] >= 20 else "")
