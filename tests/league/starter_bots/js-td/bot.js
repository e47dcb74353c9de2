// A Tower Defence bot: an energy building in row 3 whenever it can pay for one.
const fs = require("fs");
const state = JSON.parse(fs.readFileSync("state.json", "utf8"));
const me = state.players.find((player) => player.playerType === "A"); // itself
fs.writeFileSync("command.txt", me.energy >= 20 ? "0,3,2" : "");
