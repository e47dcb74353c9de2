// A defender in the reference page's style: a factory returning a closure. It walls the far end of the path
// with four turrets (99..96), puts a stunner in front of the wall, then spends on upgrades from the back
// (power, and range on every other level). Entry expression: backlineBuilder()
function backlineBuilder() {
  var next = 99;
  var upgradeAt = 99;
  var stunnerBuilt = false;
  return function (game) {
    if (this.defenderGold < BUILD_COST) return undefined;
    if (next >= 96) {
      return { action: 'build', type: 'turret', pos: next-- };
    }
    if (!stunnerBuilt) {
      stunnerBuilt = true;
      return { action: 'build', type: 'stunner', pos: 95 };
    }
    var pos = upgradeAt;
    upgradeAt = upgradeAt > 96 ? upgradeAt - 1 : 99;
    console.log('upgrading', pos);  // must reach stderr, not the protocol
    return { action: 'upgrade', pos: pos, stat: game.towerSlots[pos] && game.towerSlots[pos].level % 2 ? 'range' : 'power' };
  };
}
