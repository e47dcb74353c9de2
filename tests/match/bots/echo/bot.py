# Builds an energy building on the first free cell of its own half, reading state.json; prints its choice.
import json

with open("state.json") as handle:
    state = json.load(handle)
me = next(p for p in state["players"] if p["playerType"] == "A")
free = [(c["x"], c["y"]) for row in state["gameMap"] for c in row if c["x"] < 8 and not c["buildings"]]
command = f"{free[0][0]},{free[0][1]},2" if me["energy"] >= 20 and free else ""
print("round", state["gameDetails"]["round"], "->", command)
with open("command.txt", "w") as handle:
    handle.write(command)
