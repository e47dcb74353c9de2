// Lanes board for the HTML replay: both lanes (lane 1 is P1's, defended by its towers and attacked by P2's
// soldiers; lane 2 the other way round), row 20 (the deploy row) at the top, the goal row 0 at the bottom;
// the soldiers that entered each lane this turn at the top, and the turn's 100 timesteps in a chart.
// Frame: {t: [[type, col, row, hp, ...] per lane], d: [[col, count, ...] per lane], s: [[8 numbers] per step]}.
window.ReplayBoard = {
  aspect: function () { return 0.62; },
  draw: function (ctx, width, height, record, index, colors) {
    var b = record.board, f = record.frames[index], W = b.width, H = b.rows;
    var lanesWidth = width * 0.56, top = 30, bottom = 18;
    var cell = Math.min((lanesWidth - 40) / (2 * W + 1.5), (height - top - bottom) / H);
    var gap = cell * 1.5, ox = (lanesWidth - (2 * W * cell + gap)) / 2;
    function tint(color, alpha) {
      var n = parseInt(color.slice(1), 16);
      return "rgba(" + (n >> 16) + "," + ((n >> 8) & 255) + "," + (n & 255) + "," + alpha + ")";
    }
    for (var lane = 0; lane < 2; lane++) {
      var lx = ox + lane * (W * cell + gap), attacker = 1 - lane;
      ctx.fillStyle = colors[lane];
      ctx.font = "600 12px system-ui, sans-serif";
      ctx.textAlign = "center";
      ctx.fillText("lane " + (lane + 1) + " (" + record.seats[lane].seat + " defends)", lx + W * cell / 2, 14);
      for (var row = 0; row < H; row++) {
        for (var col = 0; col < W; col++) {
          var y = top + (H - 1 - row) * cell;
          ctx.fillStyle = row === H - 1 ? tint(colors[attacker], 0.12) : row === 0 ? "#e9ecef" : ((row + col) % 2 ? "#fafafa" : "#f1f3f5");
          ctx.fillRect(lx + col * cell, y, cell, cell);
        }
      }
      var towers = f.t[lane];
      ctx.textBaseline = "middle";
      for (var i = 0; i < towers.length; i += 4) {
        var type = towers[i], tx = lx + towers[i + 1] * cell, ty = top + (H - 1 - towers[i + 2]) * cell;
        var share = Math.max(0, Math.min(1, towers[i + 3] / (b.max_hp[type] || 1)));
        ctx.fillStyle = tint(colors[lane], 0.35 + 0.65 * share);
        ctx.fillRect(tx + 1, ty + 1, cell - 2, cell - 2);
        ctx.fillStyle = "#fff";
        ctx.font = "700 " + Math.round(cell * 0.62) + "px system-ui, sans-serif";
        ctx.fillText(b.letters[type].toUpperCase(), tx + cell / 2, ty + cell / 2 + 1);
      }
      var deployed = f.d[lane];
      for (var k = 0; k < deployed.length; k += 2) {
        var dx = lx + deployed[k] * cell + cell / 2, dy = top + cell / 2;
        ctx.fillStyle = colors[attacker];
        ctx.beginPath();
        ctx.arc(dx, dy, cell * 0.45, 0, Math.PI * 2);
        ctx.fill();
        ctx.fillStyle = "#fff";
        ctx.font = "700 " + Math.round(cell * 0.5) + "px system-ui, sans-serif";
        ctx.fillText(String(deployed[k + 1]), dx, dy + 1);
      }
      ctx.textBaseline = "alphabetic";
      ctx.fillStyle = "#868e96";
      ctx.font = "11px system-ui, sans-serif";
      ctx.fillText("goal", lx + W * cell / 2, top + H * cell + 13);
    }
    // the turn's timesteps: soldiers on each lane (attacker's colour) and each lane's tower HP (dashed)
    var steps = f.s, cx = lanesWidth + 10, cw = width - cx - 14, cy = top + 6, ch = height - top - 40;
    ctx.strokeStyle = "#dee2e6";
    ctx.strokeRect(cx, cy, cw, ch);
    ctx.fillStyle = "#495057";
    ctx.font = "600 12px system-ui, sans-serif";
    ctx.textAlign = "left";
    ctx.fillText("the turn's " + (b.timesteps || steps.length) + " timesteps", cx, 14);
    if (!steps.length) return;
    var series = [[0, 1, false], [1, 0, false], [2, 0, true], [3, 1, true]];
    series.forEach(function (s) {
      var hi = 1;
      steps.forEach(function (step) { hi = Math.max(hi, step[s[0]]); });
      ctx.strokeStyle = colors[s[1]];
      ctx.lineWidth = 2;
      ctx.setLineDash(s[2] ? [5, 4] : []);
      ctx.beginPath();
      steps.forEach(function (step, t) {
        var x = cx + t / Math.max(1, steps.length - 1) * cw, y = cy + ch - step[s[0]] / hi * (ch - 4);
        if (t) ctx.lineTo(x, y); else ctx.moveTo(x, y);
      });
      ctx.stroke();
    });
    ctx.setLineDash([]);
    ctx.fillStyle = "#868e96";
    ctx.font = "11px system-ui, sans-serif";
    ctx.fillText("solid: soldiers on a lane; dashed: its towers' HP", cx, cy + ch + 14);
  },
  describe: function (record, index) {
    var f = record.frames[index], b = record.board, names = b.units.map(function (u, i) { return b.letters[i].toUpperCase() + " " + u; });
    var last = f.s.length ? f.s[f.s.length - 1] : null;
    return "towers: " + names.slice(0, 4).join(", ") + "; discs: soldiers deployed this turn" +
      (last ? "; after the battle HP " + last[4] + " - " + last[5] : "");
  }
};
