// The reference's sample defender, simpleTurretBuilder (docs/rules/invaders.md, koth-js), written for the
// reference page's API from the spec's description of its behaviour. Entry expression: simpleTurretBuilder()
//
// A cursor starts at cell 10. For its first 100 requests it asks to build a turret at the cursor whenever it
// has the gold, then moves the cursor on by one (wrapping at 100) whether or not the build was accepted:
// turrets at 10..99, then 0..9. After the 100th build request the cursor goes back to 0 and every later
// request upgrades the power of the tower at the cursor, cycling over 0..99. It never looks at the invaders.
function simpleTurretBuilder() {
  var cursor = 10;
  var requested = 0;
  return function (game) {
    if (game.defenderGold < BUILD_COST) return undefined;
    var pos = cursor;
    cursor = (cursor + 1) % 100;
    if (requested < 100) {
      requested += 1;
      if (requested === 100) cursor = 0;
      return { action: 'build', pos: pos, type: 'turret' };
    }
    return { action: 'upgrade', pos: pos, stat: 'power' };
  };
}
