// Tower Defence starter bot (Node.js, no npm packages).
//
// Every round the runner writes `state.json` into this folder, starts `node bot.js` with the folder as
// its working directory, and reads the first line of `command.txt`:
//
//     x,y,buildingType     0 defence, 1 attack, 2 energy, 3 deconstruct, 4 tesla, 5 iron curtain
//     (empty file)         do nothing this round
//
// You always see yourself as player "A" on the left: your half is x = 0..7, the enemy's x = 8..15.
// A command the engine rejects wastes the round, so every move below is checked first (canBuild,
// canUseIronCurtain). Put your own strategy in chooseMove.
"use strict";

const fs = require("fs");

const DEFENSE = 0, ATTACK = 1, ENERGY = 2, TESLA = 4, IRON_CURTAIN = 5;
const TYPE_NAMES = { DEFENSE, ATTACK, ENERGY, TESLA };
const MAX_TESLAS = 2; // engine rule; not part of the state file

const ENERGY_BUILDINGS_WANTED = 8;
const CURTAIN_MISSILE_THRESHOLD = 4;
const TESLA_RESERVE = 150; // energy to keep on top of the tower's price so it can fire

// The parts of state.json this bot uses, in the bot's own (always "A") view.
class Game {
  constructor(state) {
    const details = state.gameDetails;
    this.width = details.mapWidth;
    this.height = details.mapHeight;
    this.half = Math.floor(this.width / 2);
    this.prices = {};
    for (const [name, price] of Object.entries(details.buildingPrices)) this.prices[TYPE_NAMES[name]] = price;
    this.curtainPrice = details.ironCurtainStats.price;
    // Pick players by label, never by index: the array order is not "me first".
    this.me = state.players.find((p) => p.playerType === "A");
    this.enemy = state.players.find((p) => p.playerType === "B");
    this.buildings = []; // {x, y, owner, type}
    this.occupied = new Set();
    this.enemyMissiles = 0;
    for (const row of state.gameMap) {
      for (const cell of row) {
        for (const b of cell.buildings) {
          this.buildings.push({ x: b.x, y: b.y, owner: b.playerType, type: TYPE_NAMES[b.buildingType] });
          this.occupied.add(`${b.x},${b.y}`);
        }
        this.enemyMissiles += cell.missiles.filter((m) => m.playerType === "B").length;
      }
    }
  }

  // How many buildings of `type` `owner` has (in row `y` if given); unfinished ones count.
  count(owner, type, y) {
    return this.buildings.filter((b) => b.owner === owner && b.type === type && (y === undefined || b.y === y)).length;
  }

  // Enemy buildings in rows y-1..y+1: what a tesla in row y can reach.
  enemiesNearRow(y) {
    return this.buildings.filter((b) => b.owner === "B" && Math.abs(b.y - y) <= 1).length;
  }

  isFree(x, y) {
    return !this.occupied.has(`${x},${y}`);
  }

  // True if the engine would accept building `type` at (x, y) this round.
  canBuild(x, y, type) {
    if (x < 0 || x >= this.half || y < 0 || y >= this.height) return false; // only our own half
    if (!this.isFree(x, y)) return false;
    if (type === TESLA && this.count("A", TESLA) >= MAX_TESLAS) return false;
    return this.me.energy >= this.prices[type];
  }

  canUseIronCurtain() {
    return this.me.ironCurtainAvailable && this.me.energy >= this.curtainPrice && this.me.activeIronCurtainLifetime < 1;
  }

  // The first x in `columns` whose cell in row `y` is empty, or null.
  firstFree(y, columns) {
    for (const x of columns) if (this.isFree(x, y)) return x;
    return null;
  }
}

function range(from, to, step = 1) {
  const out = [];
  for (let i = from; step > 0 ? i < to : i > to; i += step) out.push(i);
  return out;
}

// Return [x, y, type] or null. A simple plan: shield, defend, grow the economy, then attack.
function chooseMove(game) {
  const frontToBack = range(game.half - 1, -1, -1);
  const backToFront = range(0, game.half);
  const rows = range(0, game.height);

  // 1. Many enemy missiles in flight: raise the iron curtain (blocks them at the middle for 6 rounds).
  if (game.enemyMissiles >= CURTAIN_MISSILE_THRESHOLD && game.canUseIronCurtain()) return [0, 0, IRON_CURTAIN];

  // 2. Put a defence wall at the front of every row where the enemy has an attack building.
  const threatened = rows.filter((y) => game.count("B", ATTACK, y) > 0 && game.count("A", DEFENSE, y) === 0);
  threatened.sort((a, b) => game.count("B", ATTACK, b) - game.count("B", ATTACK, a) || a - b); // most attackers first
  for (const y of threatened) {
    const x = game.firstFree(y, frontToBack);
    if (x !== null) {
      // Wait for the energy rather than spend it elsewhere: this row is under fire.
      return game.canBuild(x, y, DEFENSE) ? [x, y, DEFENSE] : null;
    }
  }

  // 3. Energy buildings pay for themselves after 7 rounds: build them early, at the back.
  if (game.count("A", ENERGY) < ENERGY_BUILDINGS_WANTED) {
    for (const x of backToFront) for (const y of rows) if (game.canBuild(x, y, ENERGY)) return [x, y, ENERGY];
  }

  // 4. Rich? A tesla tower near the front hits up to 9 enemy buildings in a 3-row band.
  if (game.me.energy >= game.prices[TESLA] + TESLA_RESERVE) {
    const x = game.half - 2;
    const byTargets = [...rows].sort((a, b) => game.enemiesNearRow(b) - game.enemiesNearRow(a) || a - b);
    for (const y of byTargets) if (game.canBuild(x, y, TESLA)) return [x, y, TESLA];
  }

  // 5. Attack the row where the enemy has the fewest defences, from the back of our half.
  const byDefences = [...rows].sort((a, b) => game.count("B", DEFENSE, a) - game.count("B", DEFENSE, b) || a - b);
  for (const y of byDefences) {
    const x = game.firstFree(y, backToFront);
    if (x !== null) return game.canBuild(x, y, ATTACK) ? [x, y, ATTACK] : null;
  }
  return null;
}

function main() {
  const game = new Game(JSON.parse(fs.readFileSync("state.json", "utf8")));
  const move = chooseMove(game);
  fs.writeFileSync("command.txt", move === null ? "" : move.join(","));
}

main();
