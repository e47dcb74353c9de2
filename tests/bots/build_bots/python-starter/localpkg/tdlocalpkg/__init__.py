"""A stand-in for a bot's third-party package: picks an energy building on the first free cell of its half."""

__version__ = "1.0"

ENERGY = 2


def choose(state: dict) -> str:
    """`x,y,2` for the first cell of player A's half (x < width / 2) without a building."""
    half = state["gameDetails"]["mapWidth"] // 2
    for row in state["gameMap"]:
        for cell in row:
            if cell["x"] < half and not cell["buildings"]:
                return f"{cell['x']},{cell['y']},{ENERGY}"
    return f"0,0,{ENERGY}"  # a full half: the rules reject it, but the bot still answers
