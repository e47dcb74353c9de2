// Lanes board for the HTML replay: both lanes (lane 1 is P1's, defended by its towers and attacked by P2's
// soldiers; lane 2 the other way round), row 20 (the deploy row) at the top, the goal row 0 at the bottom,
// each lane's row and column numbers, and the turn's timesteps in a chart with its axes and key. A frame is a turn; its sub-steps are the battle (html_record.py has
// the encoding): 0 the lanes as the battle starts, t timestep t after its actions (what dies or scores in
// it is still drawn, as a ghost), the last one the turn's end.
// Frame: {s: [[8 numbers] per timestep], b: [{T, H, S, R, P, Z} per lane]}.
(function () {
  var ON_LANE = 0, SCORED = 1;
  var decoded = { record: null, index: -1, lanes: null };

  // the value at `step` of something that starts at `start` and changes as `changes` ([[step, value]...]) say
  function valueAt(start, changes, step) {
    var value = start;
    for (var k = 0; k < changes.length && changes[k][0] <= step; k++) value = changes[k][1];
    return value;
  }

  function decodeLane(lane, board) {
    var towers = [], soldiers = [], i, k;
    for (i = 0; i < lane.T.length; i += 4) {
      towers.push({ type: lane.T[i], col: lane.T[i + 1], row: lane.T[i + 2], hp: lane.T[i + 3], changes: [], gone: Infinity });
    }
    for (i = 0; i < lane.H.length; i += 3) {
      var tower = towers[lane.H[i]];
      tower.changes.push([lane.H[i + 1], lane.H[i + 2]]);
      if (lane.H[i + 2] <= 0) tower.gone = Math.min(tower.gone, lane.H[i + 1]);
    }
    var r = 0;
    for (i = 0; i < lane.S.length; i += 5) {
      var soldier = { type: lane.S[i], col: lane.S[i + 1], first: lane.S[i + 2], last: lane.S[i + 3],
                      fate: lane.S[i + 4], rows: [], changes: [], stuns: {} };
      var row = board.rows - 1, need = soldier.last - soldier.first + 1;
      while (soldier.rows.length < need && r < lane.R.length) {
        var move = lane.R[r], times = lane.R[r + 1];
        r += 2;
        for (k = 0; k < times; k++) { row -= move; soldier.rows.push(row); }
      }
      soldiers.push(soldier);
    }
    for (i = 0; i < lane.P.length; i += 3) soldiers[lane.P[i]].changes.push([lane.P[i + 1], lane.P[i + 2]]);
    for (i = 0; i < lane.Z.length; i += 2) soldiers[lane.Z[i]].stuns[lane.Z[i + 1]] = true;
    return { towers: towers, soldiers: soldiers };
  }

  function lanesOf(record, index) {
    if (decoded.record !== record || decoded.index !== index) {
      var frame = record.frames[index];
      decoded = { record: record, index: index,
                  lanes: (frame.b || []).map(function (lane) { return decodeLane(lane, record.board); }) };
    }
    return decoded.lanes;
  }

  function lastStep(record, index) { return (record.frames[index].s || []).length; }

  // a lane's soldiers at `step`, in soldier order: leaving is their fate when they score or die in it, else 0
  function soldiersAt(lane, board, step) {
    var found = [];
    lane.soldiers.forEach(function (soldier) {
      if (step < soldier.first || step > soldier.last) return;
      found.push({ type: soldier.type, col: soldier.col, row: soldier.rows[step - soldier.first],
                   hp: valueAt(board.max_hp[soldier.type], soldier.changes, step),
                   leaving: step === soldier.last ? soldier.fate : ON_LANE, stunned: !!soldier.stuns[step] });
    });
    return found;
  }

  // a lane's towers at `step`, in build order; destroyed: at HP <= 0 in it (removed at its cleanup)
  function towersAt(lane, step) {
    var found = [];
    lane.towers.forEach(function (tower) {
      if (tower.gone >= step) {
        found.push({ type: tower.type, col: tower.col, row: tower.row, hp: valueAt(tower.hp, tower.changes, step),
                     destroyed: tower.gone === step,
                     hit: tower.changes.some(function (change) { return change[0] === step; }) });
      }
    });
    return found;
  }

  // per cell of a lane at `step`: soldiers on it (count, HP, full HP, a type, stunned), dying and scoring
  function cellsAt(lane, board, step) {
    var cells = {};
    soldiersAt(lane, board, step).forEach(function (soldier) {
      var key = soldier.row * board.width + soldier.col;
      var cell = cells[key] || (cells[key] = { col: soldier.col, row: soldier.row, alive: 0, hp: 0, full: 0,
                                               type: soldier.type, stunned: 0, killed: 0, scored: 0 });
      if (soldier.leaving !== ON_LANE) {
        if (soldier.leaving === SCORED) cell.scored++; else cell.killed++;
        return;
      }
      cell.alive++;
      cell.hp += Math.max(0, soldier.hp);
      cell.full += board.max_hp[soldier.type];
      if (soldier.stunned) cell.stunned++;
    });
    return cells;
  }

  function tint(color, alpha) {
    var n = parseInt(color.slice(1), 16);
    return "rgba(" + (n >> 16) + "," + ((n >> 8) & 255) + "," + (n & 255) + "," + alpha + ")";
  }

  function cross(ctx, x, y, size, color) {
    ctx.strokeStyle = color;
    ctx.lineWidth = Math.max(1.2, size / 5);
    ctx.beginPath();
    ctx.moveTo(x - size, y - size); ctx.lineTo(x + size, y + size);
    ctx.moveTo(x + size, y - size); ctx.lineTo(x - size, y + size);
    ctx.stroke();
  }

  function drawTowers(ctx, lane, b, step, at, cell, color) {
    towersAt(lane, step).forEach(function (tower) {
      var p = at(tower.col, tower.row);
      if (tower.destroyed) {
        ctx.fillStyle = "#ced4da";
        ctx.fillRect(p.x + 1, p.y + 1, cell - 2, cell - 2);
        cross(ctx, p.x + cell / 2, p.y + cell / 2, cell * 0.3, "#495057");
        return;
      }
      var share = Math.max(0, Math.min(1, tower.hp / (b.max_hp[tower.type] || 1)));
      ctx.fillStyle = tint(color, 0.3 + 0.7 * share);
      ctx.fillRect(p.x + 1, p.y + 1, cell - 2, cell - 2);
      if (tower.hit) {  // hit in this timestep
        ctx.strokeStyle = "#e03131";
        ctx.lineWidth = 2;
        ctx.strokeRect(p.x + 2, p.y + 2, cell - 4, cell - 4);
      }
      ctx.fillStyle = "#fff";
      ctx.font = "700 " + Math.round(cell * 0.6) + "px system-ui, sans-serif";
      ctx.fillText(b.letters[tower.type].toUpperCase(), p.x + cell / 2, p.y + cell / 2 + 1);
    });
  }

  function drawSoldiers(ctx, cells, b, at, cell, color) {
    Object.keys(cells).forEach(function (key) {
      var c = cells[key], p = at(c.col, c.row), x = p.x + cell / 2, y = p.y + cell / 2;
      if (c.scored) {
        ctx.strokeStyle = "#f08c00";
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.arc(x, y, cell * 0.46, 0, Math.PI * 2);
        ctx.stroke();
      }
      if (c.alive) {
        ctx.fillStyle = color;
        ctx.beginPath();
        ctx.arc(x, y - cell * 0.04, cell * 0.38, 0, Math.PI * 2);
        ctx.fill();
        if (c.stunned) {
          ctx.strokeStyle = "#74c0fc";
          ctx.lineWidth = 2.5;
          ctx.stroke();
        }
        ctx.fillStyle = "#fff";
        var label = c.alive > 1 ? String(c.alive) : b.letters[c.type].toLowerCase();
        ctx.font = "700 " + Math.round(cell * (label.length > 2 ? 0.36 : 0.48)) + "px system-ui, sans-serif";
        ctx.fillText(label, x, y - cell * 0.03);
        var share = c.full ? c.hp / c.full : 0;  // the cell's HP bar
        ctx.fillStyle = "#dee2e6";
        ctx.fillRect(p.x + cell * 0.15, p.y + cell * 0.84, cell * 0.7, Math.max(2, cell * 0.1));
        ctx.fillStyle = share > 0.5 ? "#2f9e44" : share > 0.25 ? "#f08c00" : "#e03131";
        ctx.fillRect(p.x + cell * 0.15, p.y + cell * 0.84, cell * 0.7 * share, Math.max(2, cell * 0.1));
      }
      if (c.killed) {  // killed in this timestep: a cross, in the corner when others stand there
        if (c.alive) cross(ctx, p.x + cell * 0.84, p.y + cell * 0.16, cell * 0.12, "#c92a2a");
        else cross(ctx, x, y, cell * 0.22, "rgba(201,42,42,0.75)");
      }
    });
  }

  // the turn's timesteps: soldiers on each lane (solid, left axis) and each lane's towers' HP (dashed, right
  // axis), both axes from 0, the timesteps along the bottom, a key of the four lines under it
  function drawChart(ctx, steps, step, b, record, box, colors) {
    var px0 = box.x + 30, px1 = box.x + box.w - 34, py0 = box.y + 8, py1 = box.y + box.h - 92;
    var seats = record.seats.map(function (s) { return s.seat; });
    var lines = [[0, 1, false, "lane 1: " + seats[1] + "'s soldiers"], [1, 0, false, "lane 2: " + seats[0] + "'s soldiers"],
                 [2, 0, true, "lane 1: " + seats[0] + "'s towers' HP"], [3, 1, true, "lane 2: " + seats[1] + "'s towers' HP"]];
    var soldiers = 1, hp = 1;
    steps.forEach(function (row) {
      soldiers = Math.max(soldiers, row[0], row[1]);
      hp = Math.max(hp, row[2], row[3]);
    });
    ctx.fillStyle = "#495057";
    ctx.font = "600 12px system-ui, sans-serif";
    ctx.textAlign = "left";
    ctx.textBaseline = "alphabetic";
    ctx.fillText("the turn's " + (b.timesteps || steps.length) + " timesteps", box.x, 14);
    ctx.strokeStyle = "#adb5bd";
    ctx.lineWidth = 1;
    ctx.strokeRect(px0, py0, px1 - px0, py1 - py0);
    ctx.font = "10px system-ui, sans-serif";
    ctx.fillStyle = "#6b6b70";
    ctx.textBaseline = "middle";
    ctx.textAlign = "right";
    ctx.fillText(String(soldiers), px0 - 3, py0);
    ctx.fillText("0", px0 - 3, py1);
    ctx.textAlign = "left";
    ctx.fillText(String(hp), px1 + 3, py0);
    ctx.fillText("0", px1 + 3, py1);
    ctx.textBaseline = "top";
    ctx.textAlign = "center";
    var last = Math.max(1, steps.length || b.timesteps || 1);
    ctx.fillText("1", px0, py1 + 3);
    ctx.fillText(String(last), px1, py1 + 3);
    ctx.fillText("timestep", (px0 + px1) / 2, py1 + 3);
    function xOf(t) { return px0 + (last > 1 ? t / (last - 1) : 0) * (px1 - px0); }
    lines.forEach(function (line, k) {
      var top = line[0] < 2 ? soldiers : hp;
      ctx.strokeStyle = colors[line[1]];
      ctx.lineWidth = 2;
      ctx.setLineDash(line[2] ? [5, 4] : []);
      ctx.beginPath();
      steps.forEach(function (row, t) {
        var y = py1 - row[line[0]] / top * (py1 - py0);
        if (t) ctx.lineTo(xOf(t), y); else ctx.moveTo(xOf(t), y);
      });
      ctx.stroke();
      var ky = py1 + 24 + k * 15;  // the key
      ctx.beginPath();
      ctx.moveTo(box.x, ky);
      ctx.lineTo(box.x + 22, ky);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = "#495057";
      ctx.textAlign = "left";
      ctx.textBaseline = "middle";
      ctx.fillText(line[3] + (line[2] ? " (right axis)" : " (left axis)"), box.x + 28, ky, box.w - 30);
    });
    ctx.setLineDash([]);
    if (step >= 1 && step <= steps.length) {  // the timestep shown
      ctx.strokeStyle = "rgba(0,0,0,0.55)";
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(xOf(step - 1), py0);
      ctx.lineTo(xOf(step - 1), py1);
      ctx.stroke();
    }
    ctx.textBaseline = "alphabetic";
  }

  window.ReplayBoard = {
    aspect: function () { return 0.62; },
    steps: lastStep,
    // what is drawn at a sub-step, per lane: soldiers [type, col, row, hp, leaving] and towers [type, col,
    // row, hp, destroyed] (the replay's tests compare it with the engine)
    units: function (record, index, step) {
      return lanesOf(record, index).map(function (lane) {
        return {
          soldiers: soldiersAt(lane, record.board, step).map(function (s) { return [s.type, s.col, s.row, s.hp, s.leaving]; }),
          towers: towersAt(lane, step).map(function (t) { return [t.type, t.col, t.row, t.hp, t.destroyed ? 1 : 0]; })
        };
      });
    },
    draw: function (ctx, width, height, record, index, colors, step) {
      var b = record.board, f = record.frames[index], W = b.width, H = b.rows;
      if (step === undefined || step === null) step = lastStep(record, index);
      // each lane: its title, its column numbers above it, its row numbers left of it (the `col` and `row` of
      // BUILD and DEPLOY), the goal row 0 at the bottom
      var lanesWidth = width * 0.56, top = 34, bottom = 18, label = 20;
      var cell = Math.min((lanesWidth - 2 * label - 8) / (2 * W + 0.5), (height - top - bottom) / H);
      var gap = label + cell * 0.5, ox = (lanesWidth - (2 * W * cell + gap + label)) / 2 + label;
      var small = Math.max(8, Math.min(11, Math.round(cell * 0.55))) + "px system-ui, sans-serif";
      var lanes = lanesOf(record, index);
      for (var lane = 0; lane < 2; lane++) {
        var lx = ox + lane * (W * cell + gap), attacker = 1 - lane;
        var at = function (col, row) { return { x: lx + col * cell, y: top + (H - 1 - row) * cell }; };
        ctx.fillStyle = colors[lane];
        ctx.font = "600 12px system-ui, sans-serif";
        ctx.textAlign = "center";
        ctx.textBaseline = "alphabetic";
        ctx.fillText("lane " + (lane + 1) + " (" + record.seats[lane].seat + " defends)", lx + W * cell / 2, 13,
                     W * cell + label);
        for (var row = 0; row < H; row++) {
          for (var col = 0; col < W; col++) {
            ctx.fillStyle = row === H - 1 ? tint(colors[attacker], 0.12) : row === 0 ? "#e9ecef" : ((row + col) % 2 ? "#fafafa" : "#f1f3f5");
            ctx.fillRect(lx + col * cell, top + (H - 1 - row) * cell, cell, cell);
          }
        }
        ctx.fillStyle = "#6b6b70";
        ctx.font = small;
        ctx.textBaseline = "middle";
        ctx.textAlign = "center";
        for (col = 0; col < W; col++) ctx.fillText(String(col), lx + col * cell + cell / 2, top - 7);
        ctx.textAlign = "right";
        for (row = 0; row < H; row++) ctx.fillText(String(row), lx - 3, top + (H - 1 - row) * cell + cell / 2);
        ctx.textAlign = "center";
        if (lanes[lane]) {
          drawTowers(ctx, lanes[lane], b, step, at, cell, colors[lane]);
          drawSoldiers(ctx, cellsAt(lanes[lane], b, step), b, at, cell, colors[attacker]);
        }
        ctx.textBaseline = "alphabetic";
        ctx.fillStyle = "#868e96";
        ctx.font = "11px system-ui, sans-serif";
        ctx.fillText("goal", lx + W * cell / 2, top + H * cell + 13);
      }
      drawChart(ctx, f.s || [], step, b, record, { x: lanesWidth + 10, y: top, w: width - lanesWidth - 14,
                                                     h: height - top }, colors);
    },
    describe: function (record, index, step) {
      var f = record.frames[index], b = record.board, last = lastStep(record, index);
      if (step === undefined || step === null) step = last;
      var towers = b.units.map(function (u, i) { return b.letters[i].toUpperCase() + " " + u; }).slice(0, 4).join(", ");
      var key = "towers " + towers + "; discs: soldiers (a letter: one, a number: that many in the cell), " +
        "bar: their HP, blue ring: stunned, x: killed, orange ring: scored";
      if (!last) return key;
      if (step === 0) return "before timestep 1: this turn's towers built, no soldier yet; " + key;
      var row = f.s[step - 1];
      return "after timestep " + step + ": soldiers on the lanes " + row[0] + " and " + row[1] + ", towers' HP " +
        row[2] + " and " + row[3] + ", HP " + row[4] + " - " + row[5] + "; " + key;
    }
  };
})();
