// td-runner's generic replay viewer: player, controls, scrub bar with markers, charts, per-player panels.
// The game's board script (window.ReplayBoard) draws the board; the record is the JSON in #record.
// A board with `steps(record, index)` gives each frame sub-steps 0..steps (Lanes: a turn's timesteps): a
// second bar steps through them, and "play through" plays them; without it the viewer is frames only.
(function () {
  "use strict";
  // a packed column (runner/replay/pack.py): {d: [first, step, [step, times], ...]} or {t: table, i: [index,
  // [index, times], ...]}; a plain list is as it is
  function unpack(column) {
    if (Array.isArray(column)) return column;
    var out = [], k, j, entry, times;
    if (column.d) {
      var value = column.d[0];
      out.push(value);
      for (k = 1; k < column.d.length; k++) {
        entry = column.d[k];
        times = Array.isArray(entry) ? entry[1] : 1;
        for (j = 0; j < times; j++) { value += Array.isArray(entry) ? entry[0] : entry; out.push(value); }
      }
      return out;
    }
    for (k = 0; k < column.i.length; k++) {
      entry = column.i[k];
      times = Array.isArray(entry) ? entry[1] : 1;
      var item = column.t[Array.isArray(entry) ? entry[0] : entry];
      for (j = 0; j < times; j++) out.push(item);
    }
    return out;
  }
  function unpacked(record) {
    if (!record.packed) return record;
    record.turns = unpack(record.turns);
    record.stats.forEach(function (stat) { stat.values = stat.values.map(unpack); });
    ["commands", "rulings", "outputs"].forEach(function (key) { record[key] = record[key].map(unpack); });
    if (record.frame_index) record.frame_index = unpack(record.frame_index);
    return record;
  }
  var R = unpacked(JSON.parse(document.getElementById("record").textContent));
  var Board = window.ReplayBoard || null;
  var PALETTE = ["#1c7ed6", "#d6336c", "#2f9e44", "#e8590c", "#7048e8", "#0c8599"];
  var SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16];
  var BASE_MS = 600; // one frame at 1x
  var MAX_MARKERS = 600; // drawn on the scrub bar (the rest share their pixels)
  var count = R.turns.length;
  // a long match draws the board at some turns only (record.py `frame_index`): a turn between them shows the
  // last board before it; the board script is given the frame's index, the panels the turn's
  var frameAt = R.frame_index || null;
  var word = R.turn_word || "Turn";
  var colors = R.seats.map(function (_, p) { return PALETTE[p % PALETTE.length]; });
  var STEP_SPEEDUP = 10; // a sub-step lasts a tenth of a frame's time
  var hasSteps = !!(Board && Board.steps) && R.frames.some(function (_, k) { return Board.steps(R, k) > 0; });
  var stepWord = R.step_word || "Step";
  var state = { index: 0, step: 0, playing: false, speed: 2, timer: null };

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  // --- static parts -------------------------------------------------------------------------------------
  $("title").textContent = (R.title || R.game) + ": " + R.seats.map(function (s) { return s.name; }).join(" vs ");
  $("result").textContent = R.result || "";
  $("note").textContent = R.note || "";
  SPEEDS.forEach(function (speed, i) {
    var option = el("option", null, speed + "x (" + (i + 1) + ")");
    option.value = String(i);
    $("speed").appendChild(option);
  });
  $("speed").value = String(state.speed);
  $("scrub").max = String(Math.max(0, count - 1));
  if (hasSteps) {
    $("substeps").hidden = false;
    $("step-words").textContent = stepWord.toLowerCase() + "s";
    $("step").setAttribute("aria-label", stepWord.toLowerCase());
  }

  // a seat's own numbers: the stats it has a value for at some turn (the Invaders invader has no life)
  function owns(stat, p) {
    return stat.values[p].some(function (v) { return v !== null && v !== undefined; });
  }
  var panels = R.seats.map(function (seat, p) {
    var box = el("div", "player");
    box.style.borderLeftColor = colors[p];
    box.appendChild(el("h2", null, seat.name));
    var numbers = el("div", "numbers");
    var values = R.stats.map(function (stat) {
      if (!owns(stat, p)) return null;
      var item = el("span");
      item.appendChild(el("span", "label", stat.name));
      var value = el("b");
      value.dataset.stat = stat.name;
      item.appendChild(value);
      numbers.appendChild(item);
      return value;
    });
    box.appendChild(numbers);
    box.appendChild(el("div", "label-line", "command"));
    var command = el("pre", "command");
    box.appendChild(command);
    var rulingLine = el("div", "label-line", "ruling ");
    var ruling = el("span", "ruling");
    var rulingText = el("span", "ruling-text");
    rulingLine.appendChild(ruling);
    rulingLine.appendChild(rulingText);
    box.appendChild(rulingLine);
    box.appendChild(el("div", "label-line", "bot output"));
    var output = el("pre", "output");
    box.appendChild(output);
    box.dataset.seat = seat.seat;
    $("players").appendChild(box);
    return { values: values, command: command, ruling: ruling, rulingText: rulingText, output: output };
  });

  // markers: turn -> frame index (the last frame at or before it)
  function frameOf(turn) {
    var lo = 0, hi = count - 1, found = 0;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (R.turns[mid] <= turn) { found = mid; lo = mid + 1; } else { hi = mid - 1; }
    }
    return found;
  }
  // the frame that draws turn index `index`: the last one at or before it
  function frameFor(index) {
    if (!frameAt) return index;
    var lo = 0, hi = frameAt.length - 1, found = 0;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (frameAt[mid] <= index) { found = mid; lo = mid + 1; } else { hi = mid - 1; }
    }
    return found;
  }
  function ownFrame(index) { return !frameAt || frameAt[frameFor(index)] === index; }
  var markerIndexes = [];
  (function drawMarkers() {
    var layer = $("markers");
    var kinds = {};
    var used = {};
    R.markers.forEach(function (marker) {
      kinds[marker[1]] = (kinds[marker[1]] || 0) + 1;
      var index = frameOf(marker[0]);
      markerIndexes.push(index);
      var slot = count > 1 ? Math.round(index / (count - 1) * MAX_MARKERS) : 0;
      var key = slot + marker[1];
      if (used[key]) { used[key].title += "\n" + word + " " + marker[0] + ": " + marker[2]; return; }
      var tick = el("div", "marker k-" + marker[1]);
      tick.style.left = (count > 1 ? index / (count - 1) * 100 : 0) + "%";
      tick.title = word + " " + marker[0] + ": " + marker[2];
      tick.addEventListener("click", function () { stop(); show(index); });
      layer.appendChild(tick);
      used[key] = tick;
    });
    markerIndexes.sort(function (a, b) { return a - b; });
    var legend = $("legend");
    Object.keys(kinds).sort().forEach(function (kind) {
      var item = el("span");
      item.appendChild(el("span", "swatch k-" + kind));
      item.appendChild(document.createTextNode(kind + " " + kinds[kind]));
      legend.appendChild(item);
    });
  })();

  // charts: one per stat, one line per seat that has it (a long match drawn as each column of the plot's lowest
  // and highest value), its values on the y axis from 0 (a life going from 100 to 99 is a small step, not a
  // wipe-out), the first and last turn on the x axis, a key of the seats, a cursor at the shown turn
  var SVG = "http://www.w3.org/2000/svg", PLOT_W = 1000, PLOT_H = 100, COLUMNS = 400;
  function svg(tag, attributes) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attributes || {}).forEach(function (key) { node.setAttribute(key, attributes[key]); });
    return node;
  }
  function axisValue(v) { return String(Math.round(v * 100) / 100); }
  function xOf(i) { return count > 1 ? i / (count - 1) * PLOT_W : PLOT_W / 2; }
  var charts = R.stats.map(function (stat) {
    var seats = [];
    var lo = Infinity, hi = -Infinity;
    stat.values.forEach(function (series, p) {
      var numeric = false;
      series.forEach(function (v) {
        if (typeof v === "number") { numeric = true; if (v < lo) lo = v; if (v > hi) hi = v; }
      });
      if (numeric) seats.push(p);
    });
    if (!seats.length) return null;
    if (lo > 0) lo = 0;
    var top = hi === lo ? lo + 1 : hi;
    var box = el("div", "chart");
    box.dataset.stat = stat.name;
    box.appendChild(el("div", "name", stat.name));
    var row = el("div", "plot-grid");  // y axis | plot, then (nothing) | x axis
    var axis = el("div", "y-axis");
    axis.appendChild(el("span", "y-max", axisValue(top)));
    axis.appendChild(el("span", "y-min", axisValue(lo)));
    row.appendChild(axis);
    var plot = svg("svg", { "class": "plot", viewBox: "0 0 " + PLOT_W + " " + PLOT_H, preserveAspectRatio: "none" });
    function y(v) { return PLOT_H - 2 - (v - lo) / (top - lo) * (PLOT_H - 4); }
    seats.forEach(function (p) {
      var series = stat.values[p], points = [], size = Math.max(1, Math.ceil(count / COLUMNS));
      for (var start = 0; start < count; start += size) {
        var low = Infinity, high = -Infinity, end = Math.min(count, start + size);
        for (var i = start; i < end; i++) {
          var v = series[i];
          if (typeof v === "number") { if (v < low) low = v; if (v > high) high = v; }
        }
        if (low === Infinity) continue;
        var x = xOf(start + (end - 1 - start) / 2);
        points.push(x.toFixed(1) + "," + y(high).toFixed(2));
        if (low !== high) points.push(x.toFixed(1) + "," + y(low).toFixed(2));
      }
      plot.appendChild(svg("polyline", { points: points.join(" "), fill: "none", stroke: colors[p],
                                         "stroke-width": "1.6", "vector-effect": "non-scaling-stroke" }));
    });
    var cursor = svg("line", { y1: 0, y2: PLOT_H, stroke: "rgba(0,0,0,0.55)", "stroke-width": "1",
                               "vector-effect": "non-scaling-stroke" });
    plot.appendChild(cursor);
    row.appendChild(plot);
    row.appendChild(el("span"));
    var xAxis = el("div", "x-axis");
    xAxis.appendChild(el("span", "x-min", R.turns[0]));
    xAxis.appendChild(el("span", "x-name", word.toLowerCase()));
    xAxis.appendChild(el("span", "x-max", R.turns[count - 1]));
    row.appendChild(xAxis);
    box.appendChild(row);
    var key = el("div", "key");
    seats.forEach(function (p) {
      var item = el("span", "key-item");
      var swatch = el("span", "swatch");
      swatch.style.background = colors[p];
      item.appendChild(swatch);
      item.appendChild(document.createTextNode(R.seats[p].seat));
      item.title = R.seats[p].name;
      key.appendChild(item);
    });
    box.appendChild(key);
    $("charts").appendChild(box);
    return { cursor: cursor };
  }).filter(Boolean);

  function drawChart(chart) {
    var x = xOf(state.index).toFixed(1);
    chart.cursor.setAttribute("x1", x);
    chart.cursor.setAttribute("x2", x);
  }

  // what the board's drawing wrote (its coordinates, names, numbers): [text, x, y, width] in CSS pixels, for
  // the page's tests and for a reader's tools; the canvas itself holds only pixels
  var boardText = [];
  function recording(ctx) {
    var fillText = ctx.fillText;
    boardText = [];
    ctx.fillText = function (text, x, y) {  // (the boards draw in CSS pixels: `sized` scales for the screen)
      var width = ctx.measureText(String(text)).width, align = ctx.textAlign, left = x;
      if (arguments.length > 3 && arguments[3] < width) width = arguments[3];  // fillText's maxWidth
      if (align === "center") left = x - width / 2; else if (align === "right" || align === "end") left = x - width;
      boardText.push([String(text), left, y, width]);
      return fillText.apply(ctx, arguments);
    };
    return function () { ctx.fillText = fillText; };
  }

  function sized(canvas, cssWidth, cssHeight) {
    var ratio = window.devicePixelRatio || 1;
    var w = Math.max(1, Math.round(cssWidth * ratio)), h = Math.max(1, Math.round(cssHeight * ratio));
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
    var ctx = canvas.getContext("2d");
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    return ctx;
  }

  function drawBoard() {
    var canvas = $("board");
    var width = canvas.clientWidth || 640;
    var aspect = Board && Board.aspect ? Board.aspect(R) : 0.5;
    var height = Math.round(width * aspect);
    canvas.style.height = height + "px";
    var ctx = sized(canvas, width, height);
    ctx.clearRect(0, 0, width, height);
    if (!Board) {
      ctx.fillText("no board drawing for this game", 10, 20);
      return;
    }
    var frame = frameFor(state.index), own = ownFrame(state.index);
    var done = recording(ctx);
    try { Board.draw(ctx, width, height, R, frame, colors, own ? state.step : undefined); } finally { done(); }
    var words = Board.describe ? Board.describe(R, frame, own ? state.step : undefined) : "";
    if (!own) words = "board of " + word.toLowerCase() + " " + R.turns[frameAt[frame]] + " (drawn at some " +
      word.toLowerCase() + "s only): " + words;
    $("describe").textContent = words;
  }

  // the command as numbered lines (the numbers the rulings give: "line 7" is the 7th line of the file as
  // sent, split at \n), the lines a ruling names marked
  function showCommand(box, command, ruling) {
    box.textContent = "";
    if (command === "") { box.appendChild(el("span", "nothing", "(nothing)")); return; }
    var named = {}, found, pattern = /\blines? (\d+)/g;
    while ((found = pattern.exec(ruling)) !== null) named[found[1]] = true;
    var lines = command.split("\n");
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    lines.forEach(function (text, i) {
      var line = el("span", "line" + (named[i + 1] ? " named" : ""));
      line.dataset.line = String(i + 1);
      line.appendChild(el("span", "ln", i + 1));
      line.appendChild(document.createTextNode(text.replace(/\r$/, "") + "\n"));
      box.appendChild(line);
    });
  }

  function format(v) {
    if (v === null || v === undefined) return "-";
    if (typeof v === "number" && !Number.isInteger(v)) return v.toFixed(2);
    return String(v);
  }

  // --- showing a frame ----------------------------------------------------------------------------------
  function lastStep(index) {
    return hasSteps && ownFrame(index) ? Math.max(0, Board.steps(R, frameFor(index)) | 0) : 0;
  }

  // frame `index` at sub-step `step` (left out: the frame's end, its last sub-step)
  function show(index, step) {
    index = Math.max(0, Math.min(count - 1, index | 0));
    state.index = index;
    var last = lastStep(index);
    state.step = step === undefined || step === null ? last : Math.max(0, Math.min(last, step | 0));
    var turn = R.turns[index];
    document.body.dataset.round = String(turn);
    $("position").textContent = word + " " + turn + " / " + R.turns[count - 1] +
      (count !== R.turns[count - 1] - R.turns[0] + 1 ? "  (frame " + (index + 1) + " of " + count + ")" : "");
    $("scrub").value = String(index);
    if (hasSteps) {
      document.body.dataset.step = String(state.step);
      $("step").max = String(last);
      $("step").value = String(state.step);
      $("step").disabled = last === 0;
      $("step-position").textContent = last ? stepWord + " " + state.step + " / " + last : "";
    }
    R.seats.forEach(function (_, p) {
      var panel = panels[p];
      R.stats.forEach(function (stat, s) {
        if (panel.values[s]) panel.values[s].textContent = format(stat.values[p][index]);
      });
      var ruling = R.rulings[p][index] || ["none", ""];
      showCommand(panel.command, R.commands[p][index], ruling[1] || "");
      panel.ruling.className = "ruling r-" + ruling[0];
      panel.ruling.textContent = ruling[0];
      panel.rulingText.textContent = ruling[1] || "";
      var output = R.outputs[p][index];
      panel.output.textContent = R.outputs_withheld ? "(not shown here: a bot's output is its player's own)"
        : output === "" ? "(none)" : output;
    });
    drawBoard();
    charts.forEach(drawChart);
    if (history.replaceState && location.protocol !== "about:") {
      var hash = "#round=" + turn + (state.step !== last ? "&step=" + state.step : "");
      try { history.replaceState(null, "", hash); } catch (e) { /* a sandboxed frame */ }
    }
  }

  // one sub-step forward or back, across frames (the next frame's first, the previous one's last); false
  // at either end of the match
  function showStep(delta) {
    var index = state.index, step = state.step + delta;
    if (step > lastStep(index)) {
      if (index >= count - 1) return false;
      index += 1;
      step = 0;
    } else if (step < 0) {
      if (index <= 0) return false;
      index -= 1;
      step = lastStep(index);
    }
    show(index, step);
    return true;
  }
  function stepping() { return hasSteps && $("step-play").checked; }
  function interval() { return BASE_MS / SPEEDS[state.speed] / (stepping() ? STEP_SPEEDUP : 1); }
  function tick() {
    if (stepping()) {
      if (!showStep(1)) { stop(); return; }
    } else {
      if (state.index >= count - 1) { stop(); return; }
      show(state.index + 1);
    }
    state.timer = setTimeout(tick, interval());
  }
  function play() {
    if (state.playing) return;
    if (stepping()) {
      if (state.step >= lastStep(state.index)) show(state.index, 0); // play this frame's steps from the start
    } else if (state.index >= count - 1) {
      show(0);
    }
    state.playing = true;
    $("play").textContent = "||";
    state.timer = setTimeout(tick, interval());
  }
  function stop() {
    state.playing = false;
    clearTimeout(state.timer);
    $("play").textContent = "\u25B6";
  }
  function toggle() { if (state.playing) stop(); else play(); }
  function setSpeed(i) { state.speed = i; $("speed").value = String(i); }
  function nextMarker(direction) {
    var target = null;
    for (var k = 0; k < markerIndexes.length; k++) {
      var i = direction > 0 ? markerIndexes[k] : markerIndexes[markerIndexes.length - 1 - k];
      if (direction > 0 ? i > state.index : i < state.index) { target = i; break; }
    }
    if (target !== null) show(target);
  }

  $("first").addEventListener("click", function () { stop(); show(0); });
  $("last").addEventListener("click", function () { stop(); show(count - 1); });
  $("prev").addEventListener("click", function () { stop(); show(state.index - 1); });
  $("next").addEventListener("click", function () { stop(); show(state.index + 1); });
  $("play").addEventListener("click", toggle);
  $("speed").addEventListener("change", function () { setSpeed(+$("speed").value); });
  $("scrub").addEventListener("input", function () { show(+$("scrub").value); });
  $("step").addEventListener("input", function () { stop(); show(state.index, +$("step").value); });
  $("step-prev").addEventListener("click", function () { stop(); showStep(-1); });
  $("step-next").addEventListener("click", function () { stop(); showStep(1); });
  document.addEventListener("keydown", function (event) {
    if (event.target && event.target.tagName === "SELECT") return;
    var key = event.key;
    if (hasSteps && (key === "," || key === "." || key === "t" || key === "T")) {
      if (key === "t" || key === "T") $("step-play").checked = !$("step-play").checked;
      else { stop(); showStep(key === "." ? 1 : -1); }
      event.preventDefault();
      return;
    }
    if (key === " " || key === "Spacebar") toggle();
    else if (key === "ArrowRight") { stop(); show(state.index + 1); }
    else if (key === "ArrowLeft") { stop(); show(state.index - 1); }
    else if (key === "Home") { stop(); show(0); }
    else if (key === "End") { stop(); show(count - 1); }
    else if (key >= "1" && key <= "7") setSpeed(+key - 1);
    else if (key === "n" || key === "N") { stop(); nextMarker(1); }
    else if (key === "p" || key === "P") { stop(); nextMarker(-1); }
    else return;
    event.preventDefault();
  });

  // {index, step} of "#round=N" or "#round=N&step=S" (step null: the frame's end), or null
  function fromHash() {
    var hash = location.hash || "";
    var found = /round=(-?\d+)/.exec(hash);
    if (!found) return null;
    var step = /[#&]step=(\d+)/.exec(hash);
    return { index: frameOf(parseInt(found[1], 10)), step: step && hasSteps ? parseInt(step[1], 10) : null };
  }
  window.addEventListener("hashchange", function () {
    var at = fromHash();
    if (at === null) return;
    var step = at.step === null ? lastStep(at.index) : Math.min(at.step, lastStep(at.index));
    if (at.index !== state.index || step !== state.step) { stop(); show(at.index, step); }
  });
  window.addEventListener("resize", function () { drawBoard(); });
  window.ReplayViewer = { show: show, record: R, index: function () { return state.index; },
                          step: function () { return state.step; },
                          boardText: function () { return boardText.slice(); } };
  var start = fromHash();
  if (start === null) show(0); else show(start.index, start.step);
})();
