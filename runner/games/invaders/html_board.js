// Invaders board for the HTML replay: the 100-cell path folded into rows (a snake, entry at the top left,
// the defender's base at the end), invaders walking on it with their health, towers beside it, and under
// each tower slot its cell number (the `pos` of a command).
// Frame: [towers (100 characters: T turret, B bomb, S stunner, lower case cooling down, "." empty),
//         invaders flat [pos, hp, maxhp, stunTime, ...]].
window.ReplayBoard = {
  ROWS: 4,
  aspect: function () { return 0.52; },
  draw: function (ctx, width, height, record, index, colors) {
    var length = record.board.length, rows = this.ROWS, perRow = Math.ceil(length / rows);
    var frame = record.frames[index], towers = frame[0], invaders = frame[1];
    var margin = 24, cell = Math.min((width - 2 * margin) / perRow, (height - 2 * margin) / (rows * 2.4));
    var ox = (width - cell * perRow) / 2, band = cell * 2.4, oy = (height - band * rows) / 2 + cell * 0.2;
    function place(pos) {
      var row = Math.floor(pos / perRow), col = pos % perRow;
      if (row % 2 === 1) col = perRow - 1 - col;
      return { x: ox + col * cell, y: oy + row * band };
    }
    var invaderColor = colors[1], defenderColor = colors[0];
    // the path: invader lane (top of each band) and tower slots (below it)
    for (var pos = 0; pos < length; pos++) {
      var at = place(pos);
      ctx.fillStyle = pos % 2 ? "#ece6dc" : "#f4efe6";
      ctx.fillRect(at.x, at.y, cell, cell);
      ctx.fillStyle = "#f6f7f9";
      ctx.fillRect(at.x, at.y + cell, cell, cell);
      ctx.fillStyle = pos % 10 === 0 ? "#495057" : "#868e96";
      ctx.font = (pos % 10 === 0 ? "600 " : "") + Math.max(8, Math.round(cell * 0.3)) + "px system-ui, sans-serif";
      ctx.textAlign = "center";
      ctx.textBaseline = "top";
      ctx.fillText(String(pos), at.x + cell / 2, at.y + cell * 2.03);
      ctx.textBaseline = "alphabetic";
    }
    // turns of the snake
    ctx.strokeStyle = "#d8cfc0";
    ctx.lineWidth = Math.max(1, cell * 0.12);
    for (var r = 0; r + 1 < rows; r++) {
      var end = place((r + 1) * perRow - 1), next = place((r + 1) * perRow);
      var x = r % 2 === 0 ? end.x + cell : end.x;
      ctx.beginPath();
      ctx.moveTo(x, end.y + cell / 2);
      ctx.quadraticCurveTo(x + (r % 2 === 0 ? cell : -cell), (end.y + next.y) / 2 + cell / 2, x, next.y + cell / 2);
      ctx.stroke();
    }
    // the base at the end of the path
    var base = place(length - 1);
    ctx.fillStyle = defenderColor;
    ctx.font = "600 " + Math.max(8, Math.round(cell * 0.28)) + "px system-ui, sans-serif";
    ctx.textAlign = "center";
    ctx.fillText("base", base.x + cell / 2, base.y + cell * 0.6, cell * 0.95);  // in the last cell, under any invader
    // towers
    ctx.textBaseline = "middle";
    for (var t = 0; t < length; t++) {
      var letter = towers.charAt(t);
      if (letter === "." || !letter) continue;
      var spot = place(t), cooling = letter !== letter.toUpperCase(), pad = cell * 0.1;
      ctx.fillStyle = cooling ? "rgba(28,126,214,0.35)" : defenderColor;
      ctx.fillRect(spot.x + pad, spot.y + cell + pad, cell - 2 * pad, cell - 2 * pad);
      ctx.fillStyle = cooling ? defenderColor : "#fff";
      ctx.font = "700 " + Math.round(cell * 0.5) + "px system-ui, sans-serif";
      ctx.fillText(letter.toUpperCase(), spot.x + cell / 2, spot.y + cell * 1.52);
    }
    // invaders: a disc, blue ring when stunned, health bar above
    for (var i = 0; i < invaders.length; i += 4) {
      var where = place(invaders[i]), hp = invaders[i + 1], maxhp = invaders[i + 2] || 1, stun = invaders[i + 3];
      var cx = where.x + cell / 2, cy = where.y + cell / 2;
      ctx.fillStyle = invaderColor;
      ctx.beginPath();
      ctx.arc(cx, cy, cell * 0.34, 0, Math.PI * 2);
      ctx.fill();
      if (stun) {
        ctx.strokeStyle = "#15aabf";
        ctx.lineWidth = Math.max(1, cell * 0.1);
        ctx.stroke();
      }
      var share = Math.max(0, Math.min(1, hp / maxhp));
      ctx.fillStyle = "rgba(0,0,0,0.25)";
      ctx.fillRect(where.x + cell * 0.1, where.y - cell * 0.02, cell * 0.8, cell * 0.1);
      ctx.fillStyle = share > 0.5 ? "#2f9e44" : share > 0.25 ? "#f08c00" : "#e03131";
      ctx.fillRect(where.x + cell * 0.1, where.y - cell * 0.02, cell * 0.8 * share, cell * 0.1);
    }
    ctx.textBaseline = "alphabetic";
  },
  describe: function (record, index) {
    var frame = record.frames[index], towers = frame[0].replace(/\./g, "").length;
    return "towers " + towers + ", invaders on the path " + frame[1].length / 4 +
      " (T turret, B bomb, S stunner; pale: cooling down; a blue ring: stunned)";
  }
};
