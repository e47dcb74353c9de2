// The reference's sample invader, simpleInvaderArmy (docs/rules/invaders.md, koth-js), written for the
// reference page's API from the spec's description of its behaviour. Entry expression: simpleInvaderArmy()
//
// Whenever it can pay for an invader with every boost point on hit points (10 + invaderBoostMax gold) it asks
// for one. It does not check cell 0, so while that cell is taken its request is refused.
function simpleInvaderArmy() {
  return function (game) {
    if (game.invaderGold < BASE_COST + game.invaderBoostMax) return undefined;
    return { action: 'spawn', hp: game.invaderBoostMax };
  };
}
