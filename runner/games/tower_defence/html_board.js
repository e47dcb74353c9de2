// Tower Defence board for the HTML replay: both halves, buildings by type and owner (health bar, construction
// countdown), missiles, iron curtains; x (0 at the left) along the top and y (0 at the top) down the left, the
// coordinates a command `x,y,type` names. Frame: {b: [x, y, type, health, constructionLeft, ...],
// m: [x, y, owner, ...], c: [curtainA, curtainB]}; a building's owner is the half it stands in.
window.ReplayBoard = {
  LABELS: 0.8, // cells kept for the coordinates, above and left of the board
  aspect: function (record) { return (record.board.height + 1.2 + this.LABELS) / (record.board.width + this.LABELS); },
  draw: function (ctx, width, height, record, index, colors) {
    var W = record.board.width, H = record.board.height, half = W / 2;
    var frame = record.frames[index];
    var L = this.LABELS, top = height / (H + 1.2 + L) * 1.2;
    var cell = Math.min(width / (W + L), (height - top) / (H + L));
    var ox = (width - cell * (W + L)) / 2 + cell * L, oy = top + cell * L;
    var letters = { DEFENSE: "D", ATTACK: "A", ENERGY: "E", TESLA: "T" };
    var maxHealth = { DEFENSE: 20, ATTACK: 5, ENERGY: 5, TESLA: 5 };
    function tint(color, alpha) {
      var n = parseInt(color.slice(1), 16);
      return "rgba(" + (n >> 16) + "," + ((n >> 8) & 255) + "," + (n & 255) + "," + alpha + ")";
    }
    // halves and grid
    for (var x = 0; x < W; x++) {
      for (var y = 0; y < H; y++) {
        ctx.fillStyle = tint(colors[x < half ? 0 : 1], (x + y) % 2 ? 0.07 : 0.12);
        ctx.fillRect(ox + x * cell, oy + y * cell, cell, cell);
      }
    }
    ctx.strokeStyle = "rgba(0,0,0,0.12)";
    ctx.lineWidth = 1;
    ctx.strokeRect(ox, oy, cell * W, cell * H);
    ctx.fillStyle = "#6b6b70";  // the coordinates
    ctx.font = Math.max(9, Math.round(cell * 0.34)) + "px system-ui, sans-serif";
    ctx.textBaseline = "middle";
    ctx.textAlign = "center";
    for (var cx = 0; cx < W; cx++) ctx.fillText(String(cx), ox + cx * cell + cell / 2, oy - cell * L / 2);
    ctx.textAlign = "right";
    for (var cy = 0; cy < H; cy++) ctx.fillText(String(cy), ox - cell * 0.15, oy + cy * cell + cell / 2);
    ctx.font = "600 " + Math.round(Math.min(top * 0.42, 18)) + "px system-ui, sans-serif";
    ctx.textBaseline = "middle";
    record.seats.forEach(function (seat, p) {
      ctx.fillStyle = colors[p];
      ctx.textAlign = p === 0 ? "left" : "right";
      ctx.fillText(seat.name + (frame.c[p] ? "  (iron curtain)" : ""), p === 0 ? ox + 2 : ox + cell * W - 2, top / 2,
                   cell * W / 2 - 6);
    });
    // buildings
    var b = frame.b;
    ctx.textAlign = "center";
    for (var i = 0; i < b.length; i += 5) {
      var bx = b[i], by = b[i + 1], type = record.board.types[b[i + 2]], health = b[i + 3], left = b[i + 4];
      var owner = bx < half ? 0 : 1, px = ox + bx * cell, py = oy + by * cell, pad = cell * 0.1;
      ctx.fillStyle = left > 0 ? tint(colors[owner], 0.3) : colors[owner];
      ctx.fillRect(px + pad, py + pad, cell - 2 * pad, cell - 2 * pad);
      ctx.fillStyle = left > 0 ? colors[owner] : "#fff";
      ctx.font = "700 " + Math.round(cell * 0.42) + "px system-ui, sans-serif";
      ctx.fillText(letters[type] || "?", px + cell / 2, py + cell * 0.45);
      if (left > 0) {
        ctx.font = Math.round(cell * 0.24) + "px system-ui, sans-serif";
        ctx.fillText(String(left), px + cell * 0.78, py + cell * 0.25);
      }
      var share = Math.max(0, Math.min(1, health / (maxHealth[type] || health || 1)));
      ctx.fillStyle = "rgba(0,0,0,0.25)";
      ctx.fillRect(px + pad, py + cell - pad - cell * 0.1, cell - 2 * pad, cell * 0.08);
      ctx.fillStyle = share > 0.5 ? "#2f9e44" : share > 0.25 ? "#f08c00" : "#e03131";
      ctx.fillRect(px + pad, py + cell - pad - cell * 0.1, (cell - 2 * pad) * share, cell * 0.08);
    }
    // missiles: a dart pointing the way it flies
    var m = frame.m;
    var seen = {};
    for (var j = 0; j < m.length; j += 3) {
      var key = m[j] + "," + m[j + 1] + "," + m[j + 2];
      var k = seen[key] = (seen[key] || 0) + 1;
      var dir = m[j + 2] === 0 ? 1 : -1;
      var cx = ox + m[j] * cell + cell / 2 + dir * cell * 0.18, cy = oy + m[j + 1] * cell + cell * (0.2 + 0.12 * ((k - 1) % 6));
      ctx.fillStyle = colors[m[j + 2]];
      ctx.strokeStyle = "#fff";
      ctx.beginPath();
      ctx.moveTo(cx + dir * cell * 0.16, cy);
      ctx.lineTo(cx - dir * cell * 0.1, cy - cell * 0.07);
      ctx.lineTo(cx - dir * cell * 0.1, cy + cell * 0.07);
      ctx.closePath();
      ctx.fill();
      ctx.stroke();
    }
    // iron curtains: a golden wall on the front line of the half it shields
    [0, 1].forEach(function (p) {
      if (!frame.c[p]) return;
      var wx = ox + (p === 0 ? half : half) * cell + (p === 0 ? -cell * 0.12 : cell * 0.04);
      ctx.fillStyle = "rgba(242,194,0,0.85)";
      ctx.fillRect(wx, oy, cell * 0.08, cell * H);
    });
    ctx.strokeStyle = "rgba(0,0,0,0.35)";
    ctx.beginPath();
    ctx.moveTo(ox + half * cell, oy);
    ctx.lineTo(ox + half * cell, oy + cell * H);
    ctx.stroke();
  },
  describe: function (record, index) {
    var f = record.frames[index], n = [0, 0], half = record.board.width / 2;
    for (var i = 0; i < f.b.length; i += 5) n[f.b[i] < half ? 0 : 1] += 1;
    return "buildings " + n[0] + " - " + n[1] + ", missiles in flight " + f.m.length / 3 +
      " (D defence, A attack, E energy, T tesla; pale with a number: under construction)";
  }
};
