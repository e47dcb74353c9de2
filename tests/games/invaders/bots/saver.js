// An invader in the reference page's style: a plain function using `this`. It waits until it can afford an
// invader with every boost point on defense up to 2 (the rest on hp), and never asks while cell 0 is taken.
// Entry expression: saverInvader
function saverInvader(game) {
  if (this.invaderSlots[0]) return null;
  var defense = Math.min(2, this.invaderBoostMax);
  var hp = this.invaderBoostMax - defense;
  var cost = BASE_COST + hp + DEF_COST * defense;
  if (this.invaderGold < cost) return undefined;
  return { action: 'spawn', hp: hp, defense: defense, stunRes: 0 };
}

// Throws on a chosen turn, to test that an exception becomes a fault line and the host carries on.
function throwingInvader(game) {
  if (game.turnNumber === 3) throw new Error('boom');
  return game.turnNumber === 4 ? function () {} : {};
}
