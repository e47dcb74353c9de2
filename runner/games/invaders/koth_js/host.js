#!/usr/bin/env node
// Hosts an Invaders AI written for the reference page (spec 18, botLanguage "koth-js"), unchanged.
//
//   node host.js <botFile> <entryExpression>
//
// The bot file is evaluated as a classic script after the page constants of spec 2 are defined; the entry
// expression (e.g. "simpleTurretBuilder()") is evaluated after it and must yield the AI function. Each stdin
// line is one request {"turn": T, "side": ..., "state": {...spec 7 view...}}; the AI is called with the
// plain state object as its argument and as `this` (spec 7), and one stdout line answers with the JSON of
// its result (undefined -> null). The AI keeps its closure state between turns, as in the reference.
// An exception in the AI answers a line that is not JSON, so the runner records a fault for that turn.
//
// A request may also come in the delta form (bot.json "request": "delta", runner/games/invaders/protocol/
// lines.py): the host rebuilds from it the very state object the full request would parse to, fresh each
// turn, so the AI cannot tell the two apart.
'use strict';

const fs = require('fs');
const { StringDecoder } = require('string_decoder');
const util = require('util');
const vm = require('vm');

// spec 2: the reference's page constants, visible to AI code as globals.
const PAGE_CONSTANTS = {
  INCOME_INTERVAL: 10,
  INCOME_INCREASE_INTERVAL: 100,
  HP_MULT_INTERVAL: 25000,
  HOARD_PENALTY_INTERVAL: 10,
  BASE_HP: 10,
  BASE_COST: 10,
  DEF_COST: 10,
  RES_COST: 10,
  INVADER_INITIAL_GOLD: 0,
  INVADER_INITIAL_INCOME: 10,
  INVADER_INITIAL_MAXBOOST: 0,
  INVADER_MAXBOOST_UPGRADE_INCREMENT: 3,
  INVADER_HP_MULTIPLIER_GROWTH_RATE: 1.1,
  BUILD_COST: 10,
  BUILD_TIME: 10,
  UPGRADE_COST: 10,
  UPGRADE_TIME: 10,
  BOMB_COOLDOWN: 5,
  DEFENDER_INITIAL_GOLD: 50,
  DEFENDER_INITIAL_LIFE: 100,
  VALID_TOWER_TYPES: ['turret', 'bomb', 'stunner'],
};

function fail(message) {
  process.stderr.write(`host.js: ${message}\n`);
  process.exit(2);
}

function loadAI(botFile, entry) {
  // Plain global properties: a bot file that re-declares a constant (var or const) still loads.
  for (const [name, value] of Object.entries(PAGE_CONSTANTS)) globalThis[name] = value;
  let source;
  try {
    source = fs.readFileSync(botFile, 'utf8');
  } catch (error) {
    fail(`cannot read ${botFile}: ${error.message}`);
  }
  vm.runInThisContext(source, { filename: botFile });
  const ai = vm.runInThisContext(entry, { filename: 'entry' });
  if (typeof ai !== 'function') fail(`entry ${JSON.stringify(entry)} is not a function (${typeof ai})`);
  return ai;
}

const SLOTS = 100;
const NAP = new Int32Array(new SharedArrayBuffer(4)); // Atomics.wait on it: a 1 ms sleep

// A delta request -> the spec 7 state, keys in the order of the full request; keeps the towers between calls.
function deltaDecoder() {
  const towers = new Array(SLOTS).fill(null); // [pos, level, power, range, cooldown, type] as last sent
  return (request) => {
    for (const change of request.tw) towers[change[0]] = change.length > 1 ? change : null;
    const d = request.delta;
    const iv = request.iv;
    const invaderSlots = new Array(SLOTS).fill(null);
    for (let k = 0; k < iv.length; k += 6) {
      invaderSlots[iv[k]] = {
        pos: iv[k], hp: iv[k + 1], maxhp: iv[k + 2], defense: iv[k + 3], stunRes: iv[k + 4], stunTime: iv[k + 5],
      };
    }
    const towerSlots = towers.map((t) => (t === null ? null
      : { level: t[1], pos: t[0], power: t[2], range: t[3], cooldown: t[4], type: t[5] }));
    return {
      turnNumber: d[0], invaderGold: d[1], invaderIncome: d[2], invaderBoostMax: d[3], invaderHPMultiplier: d[4],
      turnsSinceLastSpawn: d[5], defenderGold: d[6], defenderLife: d[7], invaderSlots, towerSlots,
    };
  };
}

function answerOf(ai, request, decode) {
  try {
    const game = request.delta === undefined ? request.state : decode(request);
    const text = JSON.stringify(ai.call(game, game));
    return text === undefined ? 'null' : text;
  } catch (error) {
    process.stderr.write(`AI exception on turn ${request.turn}: ${error && error.stack ? error.stack : error}\n`);
    return `!exception: ${String(error && error.message ? error.message : error).replace(/[\r\n]+/g, ' ')}`;
  }
}

// One request line -> its answer line (without the newline).
function answerLine(ai, line, decode) {
  let request;
  try {
    request = JSON.parse(line);
  } catch (error) {
    return `!bad request: ${error.message}`;
  }
  return answerOf(ai, request, decode);
}

// Write all of `text` to a file descriptor, waiting out a full pipe; the runner gone (EPIPE) ends the host.
function writeAll(fd, text) {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += fs.writeSync(fd, bytes, offset, bytes.length - offset);
    } catch (error) {
      if (error.code === 'EPIPE') process.exit(0);
      if (error.code !== 'EAGAIN') throw error;
      Atomics.wait(NAP, 0, 0, 1);
    }
  }
}

// The turn loop: blocking reads of stdin and writes of stdout, no event loop between a request and its answer.
// Through node's event loop and readline, each request waited for an epoll wake-up and a stream's callbacks:
// about 40% of a live Invaders turn (benchmarks/invaders.py). Decision (README "koth-js"): a reference AI is a
// synchronous function of the state, so nothing is lost; timers or promises an AI schedules only run once
// stdin ends. A stdin left non-blocking by whoever started the host (EAGAIN) is polled every millisecond.
function serve(ai, decode) {
  const chunk = Buffer.alloc(1 << 16);
  const text = new StringDecoder('utf8'); // a character split between two reads is joined
  let pending = '';
  for (;;) {
    let count;
    try {
      count = fs.readSync(0, chunk, 0, chunk.length, null);
    } catch (error) {
      if (error.code === 'EAGAIN') {
        Atomics.wait(NAP, 0, 0, 1);
        continue;
      }
      if (error.code === 'EOF') break;
      throw error;
    }
    if (count === 0) break;
    pending += text.write(chunk.subarray(0, count));
    let end = pending.indexOf('\n');
    if (end < 0) continue;
    let answers = '';
    let from = 0;
    while (end >= 0) {
      answers += answerLine(ai, pending.slice(from, end).replace(/\r$/, ''), decode) + '\n';
      from = end + 1;
      end = pending.indexOf('\n', from);
    }
    pending = pending.slice(from);
    writeAll(1, answers);
  }
  pending += text.end();
  if (pending !== '') writeAll(1, answerLine(ai, pending, decode) + '\n'); // a last line without its newline
}

function main(argv) {
  if (argv.length !== 2) fail('usage: node host.js <botFile> <entryExpression>');
  // The protocol owns stdout: whatever the AI logs goes to stderr (the runner keeps it in the log).
  for (const level of ['log', 'info', 'debug', 'warn']) {
    console[level] = (...args) => process.stderr.write(util.format(...args) + '\n');
  }
  const ai = loadAI(argv[0], argv[1]);
  serve(ai, deltaDecoder());
}

if (require.main === module) main(process.argv.slice(2));
module.exports = { deltaDecoder };
