// Warzone board for the HTML replay: the map as a graph at the record's coordinates (the map file's, or
// html_record.py's layout when the file has none usable), each territory a disc in its owner's colour
// (grey: neutral) holding its armies, its continent as the ring, this turn's attacks as arrows (thick:
// conquered). Frame: {o: [owner, armies, ...], a: [from, to, won, ...]}. `drawn` keeps where the last
// draw put each disc (the browser tests check that no two overlap).
window.ReplayBoard = {
  CONTINENTS: ["#868e96", "#c0a36e", "#74b816", "#f783ac", "#4dabf7", "#ffa94d", "#9775fa", "#63e6be"],
  aspect: function (record) {
    var box = this.box(record);
    var ratio = (box.maxY - box.minY) / Math.max(1e-9, box.maxX - box.minX);
    return Math.max(0.45, Math.min(0.75, ratio || 0.6));
  },
  box: function (record) {
    if (record.board._box) return record.board._box;
    var t = record.board.territories, box = { minX: Infinity, maxX: -Infinity, minY: Infinity, maxY: -Infinity };
    t.forEach(function (e) {
      box.minX = Math.min(box.minX, e[3]); box.maxX = Math.max(box.maxX, e[3]);
      box.minY = Math.min(box.minY, e[4]); box.maxY = Math.max(box.maxY, e[4]);
    });
    if (box.maxX === box.minX) { box.maxX += 1; box.minX -= 1; }
    if (box.maxY === box.minY) { box.maxY += 1; box.minY -= 1; }
    var best = Infinity; // the closest pair sets the disc size
    for (var i = 0; i < t.length && t.length < 600; i++) {
      for (var j = i + 1; j < t.length; j++) {
        var dx = (t[i][3] - t[j][3]) / (box.maxX - box.minX), dy = (t[i][4] - t[j][4]) / (box.maxY - box.minY);
        best = Math.min(best, Math.sqrt(dx * dx + dy * dy));
      }
    }
    box.closest = isFinite(best) ? best : 0.05;
    record.board._box = box;
    return box;
  },
  // where each territory's disc goes on a width x height board: {radius, ring (its width), where: id -> [x, y]}
  places: function (record, width, height) {
    var box = this.box(record);
    var margin = 34, w = width - 2 * margin, h = height - 2 * margin - 12;
    var radius = Math.max(6, Math.min(26, 0.42 * box.closest * Math.min(w, h)));
    var where = {};
    record.board.territories.forEach(function (t) {
      where[t[0]] = [margin + (t[3] - box.minX) / (box.maxX - box.minX) * w,
                     margin + (t[4] - box.minY) / (box.maxY - box.minY) * h];
    });
    return { radius: radius, ring: Math.max(2, radius * 0.22), where: where };
  },
  drawn: null,
  draw: function (ctx, width, height, record, index, colors) {
    var board = record.board, frame = record.frames[index];
    var placed = this.places(record, width, height), radius = placed.radius, where = placed.where;
    this.drawn = { width: width, height: height, radius: radius, ring: placed.ring, where: where };
    ctx.fillStyle = "#fbfaf7";
    ctx.fillRect(0, 0, width, height);
    ctx.strokeStyle = "#ced4da";
    ctx.lineWidth = 1.5;
    board.edges.forEach(function (e) {
      var a = where[e[0]], b = where[e[1]];
      ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
    });
    // this turn's attacks
    var a = frame.a;
    for (var k = 0; k < a.length; k += 3) {
      var from = where[a[k]], to = where[a[k + 1]];
      if (!from || !to) continue;
      var owner = frame.o[2 * (a[k] - 1)];
      var dx = to[0] - from[0], dy = to[1] - from[1], len = Math.sqrt(dx * dx + dy * dy) || 1;
      var ux = dx / len, uy = dy / len;
      var sx = from[0] + ux * radius, sy = from[1] + uy * radius, ex = to[0] - ux * radius, ey = to[1] - uy * radius;
      ctx.strokeStyle = ctx.fillStyle = owner >= 0 ? colors[owner] : "#495057";
      ctx.lineWidth = a[k + 2] ? 4 : 2;
      ctx.setLineDash(a[k + 2] ? [] : [6, 4]);
      ctx.beginPath(); ctx.moveTo(sx, sy); ctx.lineTo(ex, ey); ctx.stroke();
      ctx.setLineDash([]);
      ctx.beginPath();
      ctx.moveTo(ex, ey);
      ctx.lineTo(ex - ux * 11 - uy * 6, ey - uy * 11 + ux * 6);
      ctx.lineTo(ex - ux * 11 + uy * 6, ey - uy * 11 - ux * 6);
      ctx.closePath(); ctx.fill();
    }
    var continents = this.CONTINENTS;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    board.territories.forEach(function (t, i) {
      var p = where[t[0]], owner = frame.o[2 * i], armies = frame.o[2 * i + 1];
      ctx.beginPath();
      ctx.arc(p[0], p[1], radius, 0, Math.PI * 2);
      ctx.fillStyle = owner >= 0 ? colors[owner] : "#dee2e6";
      ctx.fill();
      ctx.lineWidth = placed.ring;
      ctx.strokeStyle = continents[(t[2] - 1) % continents.length];
      ctx.stroke();
      ctx.fillStyle = owner >= 0 ? "#fff" : "#212529";
      ctx.font = "700 " + Math.round(radius * 0.8) + "px system-ui, sans-serif";
      ctx.fillText(String(armies), p[0], p[1] + 1);
      if (radius >= 10) {
        ctx.fillStyle = "#495057";
        ctx.font = Math.round(Math.max(9, radius * 0.5)) + "px system-ui, sans-serif";
        var label = t[0] + " " + t[1], half = ctx.measureText(label).width / 2;  // the id orders name, the name
        ctx.fillText(label, Math.max(half + 2, Math.min(width - half - 2, p[0])), p[1] + radius + 9);
      }
    });
    ctx.textBaseline = "alphabetic";
  },
  describe: function (record, index) {
    var board = record.board, attacks = record.frames[index].a.length / 3;
    var continents = board.continents.map(function (c) { return c[0] + " (+" + c[1] + ")"; }).join(", ");
    return "map " + board.name + ": " + board.territories.length + " territories; continents (ring colour) " +
      continents + "; attacks this turn " + attacks + " (solid: conquered)";
  }
};
