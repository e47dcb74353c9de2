/* The Invaders board in C: the state of spec 3, phases A-G (start_turn), the checked actions, and the three
 * texts a live turn renders (the spec 7 state JSON, the delta request body, the log line and its record).
 *
 * Why: the session's own Python cost was ~80 us a turn, most of it the interpreter touching ~100 towers three
 * times (rules, request, log); a live match needs ~10 us. The pure Python rules (turn.py, state.py) stay the
 * reference: this module mirrors them statement for statement, and tests/games/invaders/test_invaders_board.py
 * compares both byte for byte. Parsing and checking answers stays in Python (actions.py, turn.py), so the
 * error words have one source: this board only applies actions that were checked there, whose numbers are
 * then bounded by the gold and the boost cap (64-bit integers cannot overflow in any game that ends).
 *
 * Numbers follow the Python rules: hp_multiplier and the hoarding multiplier are doubles written as
 * json.dumps writes them (repr; an integral value below 2**53 as an int, as jsnum.js_number does).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#ifndef BOARD_SOURCE_SHA256 /* setup.py defines it: the digest of this file, for the stale-build guard */
#define BOARD_SOURCE_SHA256 "unknown"
#endif

#define CELLS 100
#define LAST_CELL 99
#define INCOME_INTERVAL 10
#define INCOME_INCREASE_INTERVAL 100
#define HP_MULT_INTERVAL 25000
#define HOARD_PENALTY_INTERVAL 10
#define BASE_HP 10
#define BASE_COST 10
#define HP_COST 1
#define DEF_COST 10
#define RES_COST 10
#define GROWTH_RATE 1.1
#define BUILD_COST 10
#define BUILD_TIME 10
#define UPGRADE_COST 10
#define UPGRADE_TIME 10
#define BOMB_COOLDOWN 5
#define INITIAL_LIFE 100

enum { TURRET, BOMB, STUNNER, KINDS };
static const char *const KIND_NAMES[KINDS] = {"turret", "bomb", "stunner"};
static const long long INITIAL_RANGE[KINDS] = {1, 2, 0};
static PyObject *kind_strings[KINDS]; /* interned "turret", "bomb", "stunner" */
static PyObject *invader_class, *tower_class; /* rules.state.Invader and Tower, for read-only copies (bind) */

typedef struct {
    int present;
    long long hp, maxhp, defense, stun_res, stun_time;
} Invader;

typedef struct {
    int present, kind;
    long long level, power, range, cooldown;
    unsigned long long serial; /* which build this is: the delta's "same tower object" */
} Tower;

typedef struct {
    int present;
    unsigned long long serial;
    long long level, cooldown;
} SentTower;

typedef struct {
    PyObject_HEAD
    Invader invaders[CELLS];
    Tower towers[CELLS];
    long long turn, invader_gold, invader_income, invader_boost_max, turns_since_spawn, defender_gold,
        defender_life;
    double hp_multiplier;
    int has_penalty; /* the hoarding penalty of the last start_turn */
    long long penalty_base;
    double penalty_mult;
    unsigned long long next_serial, tower_version; /* tower_version moves on at any change to a tower */
    SentTower sent[CELLS];                         /* the towers as of the last delta */
    unsigned long long record_version, lists_version, slots_version;
    PyObject *record_lists; /* the `tw` rows of the record as of lists_version (made for record() only) */
    PyObject *record_text;  /* bytes: the `tw` text as of record_version */
    PyObject *slots_text;   /* bytes: the towerSlots text as of slots_version */
    char *scratch;          /* where texts are written (see "writing texts") */
    Py_ssize_t scratch_size;
} Board;

static char *scratch(Board *self, Py_ssize_t size) {
    /* the scratch buffer, at least `size` bytes */
    if (size > self->scratch_size) {
        char *bigger = PyMem_Realloc(self->scratch, size);
        if (bigger == NULL) return (char *)PyErr_NoMemory();
        self->scratch = bigger;
        self->scratch_size = size;
    }
    return self->scratch;
}

static int positional(const char *name, Py_ssize_t nargs, Py_ssize_t least, Py_ssize_t most) {
    if (nargs >= least && nargs <= most) return 1;
    PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments (%zd given)", name, most, nargs);
    return 0;
}

/* ---- writing texts ----------------------------------------------------------------------------------
 * Each text is written into the board's scratch buffer, sized first for the worst case, so the writes check
 * nothing: an integer takes at most 20 characters, a float repr at most 24, and CELL_BOUND covers any one
 * cell of any of the texts (keys, six integers, punctuation). */

#define CELL_BOUND 256
#define FIXED_BOUND (1024 + CELLS * 2 * CELL_BOUND)

#define LIT(p, text) (memcpy((p), (text), sizeof(text) - 1), (p) + (sizeof(text) - 1))

static inline char *put_bytes(char *p, const char *text, Py_ssize_t length) {
    memcpy(p, text, length);
    return p + length;
}

static const char DIGIT_PAIRS[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static inline char *put_int(char *p, long long value) {
    /* two digits at a time, from the right, into a scratch tail, then copied */
    char digits[24], *end = digits + sizeof(digits), *at = end;
    unsigned long long magnitude = value < 0 ? 0ULL - (unsigned long long)value : (unsigned long long)value;
    if (magnitude < 10) { /* most numbers of a turn: cooldowns, levels, small cells */
        if (value < 0) *p++ = '-';
        *p++ = (char)('0' + magnitude);
        return p;
    }
    while (magnitude >= 100) {
        unsigned pair = (unsigned)(magnitude % 100) * 2;
        magnitude /= 100;
        at -= 2;
        at[0] = DIGIT_PAIRS[pair];
        at[1] = DIGIT_PAIRS[pair + 1];
    }
    if (magnitude >= 10) {
        at -= 2;
        at[0] = DIGIT_PAIRS[magnitude * 2];
        at[1] = DIGIT_PAIRS[magnitude * 2 + 1];
    } else {
        *--at = (char)('0' + magnitude);
    }
    if (value < 0) *p++ = '-';
    memcpy(p, at, end - at);
    return p + (end - at);
}

static inline char *put_kind(char *p, int kind) {
    const char *name = KIND_NAMES[kind];
    return put_bytes(p, name, (Py_ssize_t)strlen(name));
}

/* jsnum.js_number then json.dumps: an integral double below 2**53 as an int, else float repr. */
static int is_js_int(double value) { return isfinite(value) && floor(value) == value && fabs(value) < 9007199254740992.0; }

static char *put_number(char *p, double value) { /* NULL on a memory error */
    if (is_js_int(value)) return put_int(p, (long long)value);
    if (isnan(value)) return LIT(p, "NaN");
    if (isinf(value)) return value > 0 ? LIT(p, "Infinity") : LIT(p, "-Infinity");
    char *text = PyOS_double_to_string(value, 'r', 0, Py_DTSF_ADD_DOT_0, NULL);
    if (text == NULL) return NULL;
    p = put_bytes(p, text, (Py_ssize_t)strlen(text)); /* at most 24 characters */
    PyMem_Free(text);
    return p;
}

static PyObject *number_object(double value) {
    if (is_js_int(value)) return PyLong_FromLongLong((long long)value);
    return PyFloat_FromDouble(value);
}

static PyObject *ascii_text(const char *start, const char *end) {
    /* everything written here is ASCII (json.dumps's texts included, checked by the caller) */
    PyObject *text = PyUnicode_New(end - start, 127);
    if (text != NULL) memcpy(PyUnicode_1BYTE_DATA(text), start, end - start);
    return text;
}

/* ---- the rules (turn.py) ------------------------------------------------------------------------------ */

static void damage(Board *self, int cell, long long power) {
    /* spec 4 A: damage is max(power - defense, 1); a dead invader leaves its cell at once */
    Invader *invader = &self->invaders[cell];
    long long loss = power - invader->defense;
    invader->hp -= loss > 1 ? loss : 1;
    if (invader->hp <= 0) invader->present = 0;
}

static void run_towers(Board *self) {
    /* spec 4 A: towers act from cell 99 down to 0; a tower on cooldown only counts down */
    for (int pos = LAST_CELL; pos >= 0; pos--) {
        Tower *tower = &self->towers[pos];
        if (!tower->present) continue;
        if (tower->cooldown) {
            tower->cooldown -= 1;
            self->tower_version++;
            continue;
        }
        long long reach = tower->range;
        long long low = pos > reach ? pos - reach : 0; /* spec 3.1: cells outside 0..99 are empty */
        long long high = pos + reach > LAST_CELL ? LAST_CELL : pos + reach;
        if (tower->kind == TURRET) {
            for (long long cell = high; cell >= low; cell--) { /* farthest-along invader first */
                if (self->invaders[cell].present) {
                    damage(self, (int)cell, tower->power);
                    break;
                }
            }
        } else if (tower->kind == STUNNER) {
            for (long long cell = high; cell >= low; cell--) {
                Invader *invader = &self->invaders[cell];
                if (invader->present && invader->stun_time == 0) {
                    long long resisted = tower->power - invader->stun_res;
                    invader->stun_time = resisted > 0 ? resisted : 0;
                    tower->cooldown = tower->power + 1; /* even when fully resisted */
                    self->tower_version++;
                    break;
                }
            }
        } else if (self->invaders[pos].present) { /* bomb: only its own cell triggers it */
            for (long long cell = low; cell <= high; cell++)
                if (self->invaders[cell].present) damage(self, (int)cell, tower->power);
            tower->cooldown = BOMB_COOLDOWN;
            self->tower_version++;
        }
    }
}

static void move_invaders(Board *self) {
    /* spec 4 B: farthest first, so a queue behind a moving leader advances together */
    for (int cell = LAST_CELL; cell >= 0; cell--) {
        Invader *invader = &self->invaders[cell];
        if (!invader->present) continue;
        if (invader->stun_time > 0) {
            invader->stun_time -= 1;
        } else if (cell == LAST_CELL) {
            invader->present = 0;
            self->defender_life -= 1;
        } else if (!self->invaders[cell + 1].present) {
            self->invaders[cell + 1] = *invader;
            invader->present = 0;
        }
    }
}

static int charge_hoarding(Board *self) {
    /* spec 4 C: every 10 turns without a spawn past the first 10, lose trunc(base * mult) gold */
    self->has_penalty = 0;
    self->turns_since_spawn += 1;
    if (self->turns_since_spawn % HOARD_PENALTY_INTERVAL) return 0;
    long long base = self->turns_since_spawn / HOARD_PENALTY_INTERVAL - 1;
    if (base <= 0) return 0;
    if (self->invader_income < 10) {
        PyErr_SetString(PyExc_ValueError, "math domain error"); /* as math.sqrt in the Python rules */
        return -1;
    }
    double mult = sqrt((double)(self->invader_income - 10));
    if (mult < 1) mult = 1;
    self->invader_gold -= (long long)((double)base * mult);
    if (self->invader_gold < 0) self->invader_gold = 0;
    self->has_penalty = 1;
    self->penalty_base = base;
    self->penalty_mult = mult;
    return 0;
}

static void grow_economy(Board *self) {
    /* spec 4 D-G: the clock, income every 10 turns, growth every 100, the HP multiplier every 25000 */
    long long turn = ++self->turn;
    if (turn % INCOME_INTERVAL) return;
    self->invader_gold += self->invader_income;
    self->defender_gold += 1;
    if (turn % INCOME_INCREASE_INTERVAL == 0) {
        long long digits = 0; /* trunc(log10(T)): the digit count minus one */
        for (long long rest = turn; rest >= 10; rest /= 10) digits++;
        self->invader_income += digits - 1;
        self->invader_boost_max += digits;
    }
    if (turn % HP_MULT_INTERVAL == 0) self->hp_multiplier *= GROWTH_RATE;
}

static PyObject *penalty_tuple(Board *self) {
    if (!self->has_penalty) Py_RETURN_NONE;
    /* max(sqrt(x), 1) in Python is the int 1 when the root is below 1 */
    PyObject *mult = self->penalty_mult == 1.0 && self->invader_income - 10 < 1 ? PyLong_FromLong(1)
                                                                              : PyFloat_FromDouble(self->penalty_mult);
    if (mult == NULL) return NULL;
    return Py_BuildValue("(LN)", self->penalty_base, mult);
}

static PyObject *Board_start_turn(Board *self, PyObject *unused) {
    run_towers(self);
    move_invaders(self);
    if (charge_hoarding(self) < 0) return NULL;
    grow_economy(self);
    return penalty_tuple(self);
}

static int to_int32(double number, long long *out) {
    /* JavaScript `x | 0` (ToInt32): truncate, wrap modulo 2**32 */
    if (!isfinite(number)) {
        *out = 0;
        return 0;
    }
    double wrapped = fmod(trunc(number), 4294967296.0);
    if (wrapped < 0) wrapped += 4294967296.0;
    unsigned long long bits = (unsigned long long)wrapped;
    *out = bits >= 2147483648ULL ? (long long)bits - 4294967296LL : (long long)bits;
    return 0;
}

static PyObject *Board_spawn(Board *self, PyObject *const *args, Py_ssize_t nargs) {
    /* spec 4 I: a spawn check_spawn passed; only defense and stun resistance escape the HP multiplier */
    long long hp, defense, stun_res, points;
    if (!positional("spawn", nargs, 3, 3)) return NULL;
    hp = PyLong_AsLongLong(args[0]);
    defense = PyLong_AsLongLong(args[1]);
    stun_res = PyLong_AsLongLong(args[2]);
    if (PyErr_Occurred()) return NULL;
    if (hp < 0 || defense < 0 || stun_res < 0 || self->invaders[0].present) {
        PyErr_SetString(PyExc_ValueError, "spawn: not a checked spawn");
        return NULL;
    }
    to_int32((double)(BASE_HP + hp) * self->hp_multiplier, &points);
    Invader *invader = &self->invaders[0];
    invader->present = 1;
    invader->hp = invader->maxhp = points;
    invader->defense = defense;
    invader->stun_res = stun_res;
    invader->stun_time = 0;
    self->invader_gold -= BASE_COST + HP_COST * hp + DEF_COST * defense + RES_COST * stun_res;
    self->turns_since_spawn = 0;
    Py_RETURN_NONE;
}

static int cell_arg(PyObject *value, int *pos) {
    long number = PyLong_AsLong(value);
    if (number == -1 && PyErr_Occurred()) return -1;
    if (number < 0 || number > LAST_CELL) {
        PyErr_SetString(PyExc_ValueError, "pos must be in 0..99");
        return -1;
    }
    *pos = (int)number;
    return 0;
}

static int kind_of(PyObject *name) {
    for (int kind = 0; kind < KINDS; kind++)
        if (PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, KIND_NAMES[kind]) == 0) return kind;
    return -1;
}

static PyObject *Board_build(Board *self, PyObject *const *args, Py_ssize_t nargs) {
    int pos, kind;
    if (!positional("build", nargs, 2, 2) || cell_arg(args[0], &pos) < 0) return NULL;
    kind = kind_of(args[1]);
    if (kind < 0 || self->towers[pos].present) {
        PyErr_SetString(PyExc_ValueError, "build: not a checked build");
        return NULL;
    }
    Tower *tower = &self->towers[pos];
    tower->present = 1;
    tower->kind = kind;
    tower->level = 0;
    tower->power = 1;
    tower->range = INITIAL_RANGE[kind];
    tower->cooldown = BUILD_TIME;
    tower->serial = ++self->next_serial;
    self->tower_version++;
    self->defender_gold -= BUILD_COST;
    Py_RETURN_NONE;
}

static PyObject *Board_upgrade(Board *self, PyObject *const *args, Py_ssize_t nargs) {
    int pos;
    if (!positional("upgrade", nargs, 2, 2) || cell_arg(args[0], &pos) < 0) return NULL;
    int power = PyUnicode_Check(args[1]) && PyUnicode_CompareWithASCIIString(args[1], "power") == 0;
    int range = PyUnicode_Check(args[1]) && PyUnicode_CompareWithASCIIString(args[1], "range") == 0;
    Tower *tower = &self->towers[pos];
    if (!tower->present || !(power || range)) {
        PyErr_SetString(PyExc_ValueError, "upgrade: not a checked upgrade");
        return NULL;
    }
    tower->level += 1;
    if (power)
        tower->power += 1;
    else
        tower->range += 1;
    tower->cooldown = UPGRADE_TIME; /* spec 13 #5: overwrites any cooldown */
    self->tower_version++;
    self->defender_gold -= UPGRADE_COST;
    Py_RETURN_NONE;
}

static PyObject *Board_destroy(Board *self, PyObject *arg) {
    int pos;
    if (cell_arg(arg, &pos) < 0) return NULL;
    Tower *tower = &self->towers[pos];
    if (!tower->present) {
        PyErr_SetString(PyExc_ValueError, "destroy: not a checked destroy");
        return NULL;
    }
    tower->present = 0;
    self->tower_version++;
    self->defender_gold += (BUILD_COST + UPGRADE_COST * tower->level) / 2; /* half of what was spent */
    Py_RETURN_NONE;
}

/* ---- texts ------------------------------------------------------------------------------------------- */

static PyObject *cache_text(PyObject **slot, const char *start, const char *end) {
    PyObject *text = PyBytes_FromStringAndSize(start, end - start);
    if (text != NULL) Py_XSETREF(*slot, text);
    return text;
}

static PyObject *tower_slots_text(Board *self) {
    /* the towerSlots array of spec 7 (bytes), kept while no tower changed */
    if (self->slots_text != NULL && self->slots_version == self->tower_version) return self->slots_text;
    char *start = scratch(self, FIXED_BOUND), *p = start;
    if (start == NULL) return NULL;
    *p++ = '[';
    for (int pos = 0; pos < CELLS; pos++) {
        const Tower *t = &self->towers[pos];
        if (pos) *p++ = ',';
        if (!t->present) {
            p = LIT(p, "null");
            continue;
        }
        p = put_int(LIT(p, "{\"level\":"), t->level);
        p = put_int(LIT(p, ",\"pos\":"), pos);
        p = put_int(LIT(p, ",\"power\":"), t->power);
        p = put_int(LIT(p, ",\"range\":"), t->range);
        p = put_int(LIT(p, ",\"cooldown\":"), t->cooldown);
        p = LIT(put_kind(LIT(p, ",\"type\":\""), t->kind), "\"}");
    }
    *p++ = ']';
    PyObject *text = cache_text(&self->slots_text, start, p);
    if (text != NULL) self->slots_version = self->tower_version;
    return text;
}

/* what goes before each of the spec 7 scalars (protocol/lines.py SCALARS order): the state JSON's keys, or
 * the delta's commas */
static const char *const STATE_PREFIXES[8] = {"{\"turnNumber\":", ",\"invaderGold\":", ",\"invaderIncome\":",
                                              ",\"invaderBoostMax\":", ",\"invaderHPMultiplier\":",
                                              ",\"turnsSinceLastSpawn\":", ",\"defenderGold\":",
                                              ",\"defenderLife\":"};
static const char *const DELTA_PREFIXES[8] = {"", ",", ",", ",", ",", ",", ",", ","};

static char *put_scalars(Board *self, char *p, const char *const prefixes[8]) {
    /* the eight spec 7 scalars, each after its prefix; NULL on an error */
    const long long before[4] = {self->turn, self->invader_gold, self->invader_income, self->invader_boost_max};
    const long long after[3] = {self->turns_since_spawn, self->defender_gold, self->defender_life};
    for (int n = 0; n < 4; n++) p = put_int(put_bytes(p, prefixes[n], (Py_ssize_t)strlen(prefixes[n])), before[n]);
    if ((p = put_number(put_bytes(p, prefixes[4], (Py_ssize_t)strlen(prefixes[4])), self->hp_multiplier)) == NULL)
        return NULL;
    for (int n = 0; n < 3; n++)
        p = put_int(put_bytes(p, prefixes[5 + n], (Py_ssize_t)strlen(prefixes[5 + n])), after[n]);
    return p;
}

static PyObject *Board_state_json(Board *self, PyObject *unused) {
    /* protocol/lines.py render_state_json: the spec 7 view as compact JSON */
    PyObject *slots = tower_slots_text(self);
    if (slots == NULL) return NULL;
    char *start = scratch(self, FIXED_BOUND + PyBytes_GET_SIZE(slots)), *p = start;
    if (start == NULL) return NULL;
    if ((p = put_scalars(self, p, STATE_PREFIXES)) == NULL) return NULL;
    p = LIT(p, ",\"invaderSlots\":[");
    for (int pos = 0; pos < CELLS; pos++) {
        const Invader *i = &self->invaders[pos];
        if (pos) *p++ = ',';
        if (!i->present) {
            p = LIT(p, "null");
            continue;
        }
        p = put_int(LIT(p, "{\"pos\":"), pos);
        p = put_int(LIT(p, ",\"hp\":"), i->hp);
        p = put_int(LIT(p, ",\"maxhp\":"), i->maxhp);
        p = put_int(LIT(p, ",\"defense\":"), i->defense);
        p = put_int(LIT(p, ",\"stunRes\":"), i->stun_res);
        p = LIT(put_int(LIT(p, ",\"stunTime\":"), i->stun_time), "}");
    }
    p = put_bytes(LIT(p, "],\"towerSlots\":"), PyBytes_AS_STRING(slots), PyBytes_GET_SIZE(slots));
    *p++ = '}';
    return ascii_text(start, p);
}

static char *put_invaders(Board *self, char *p, int bracketed) {
    /* every invader's six numbers: flat (the delta's `iv`) or one array each (the record's `iv`) */
    int first = 1;
    for (int pos = 0; pos < CELLS; pos++) {
        const Invader *i = &self->invaders[pos];
        if (!i->present) continue;
        if (!first) *p++ = ',';
        first = 0;
        if (bracketed) *p++ = '[';
        p = put_int(p, pos);
        p = put_int(LIT(p, ","), i->hp);
        p = put_int(LIT(p, ","), i->maxhp);
        p = put_int(LIT(p, ","), i->defense);
        p = put_int(LIT(p, ","), i->stun_res);
        p = put_int(LIT(p, ","), i->stun_time);
        if (bracketed) *p++ = ']';
    }
    return p;
}

static PyObject *Board_delta(Board *self, PyObject *unused) {
    /* protocol/lines.py render_delta: the body of a delta request, moving the memory of towers sent on */
    char *start = scratch(self, FIXED_BOUND), *p = start;
    if (start == NULL || (p = put_scalars(self, LIT(p, "\"delta\":["), DELTA_PREFIXES)) == NULL) return NULL;
    p = LIT(put_invaders(self, LIT(p, "],\"iv\":["), 0), "],\"tw\":[");
    int first = 1;
    for (int pos = 0; pos < CELLS; pos++) {
        const Tower *t = &self->towers[pos];
        SentTower *sent = &self->sent[pos];
        if (!t->present) {
            if (sent->present) {
                if (!first) *p++ = ',';
                p = LIT(put_int(LIT(p, "["), pos), "]");
                first = 0;
                sent->present = 0;
            }
        } else if (!sent->present || sent->serial != t->serial || sent->level != t->level ||
                   sent->cooldown != t->cooldown) {
            sent->present = 1;
            sent->serial = t->serial;
            sent->level = t->level;
            sent->cooldown = t->cooldown;
            if (!first) *p++ = ',';
            p = put_int(LIT(p, "["), pos);
            p = put_int(LIT(p, ","), t->level);
            p = put_int(LIT(p, ","), t->power);
            p = put_int(LIT(p, ","), t->range);
            p = put_int(LIT(p, ","), t->cooldown);
            p = LIT(put_kind(LIT(p, ",\""), t->kind), "\"]");
            first = 0;
        }
    }
    *p++ = ']';
    return ascii_text(start, p);
}

/* A record's lists hold numbers and strings only, so they cannot be part of a reference cycle: they are left
 * out of the garbage collector's lists (as CPython does for such tuples and dicts), which otherwise spends
 * more time visiting them in its young-generation passes than it takes to build them. */
static PyObject *untracked(PyObject *list) {
    if (list != NULL) PyObject_GC_UnTrack(list);
    return list;
}

static PyObject *int_list(const long long *values, int count) {
    PyObject *list = PyList_New(count);
    for (int n = 0; n < count && list != NULL; n++) {
        PyObject *number = PyLong_FromLongLong(values[n]);
        if (number == NULL) Py_CLEAR(list);
        else PyList_SET_ITEM(list, n, number);
    }
    return untracked(list);
}

static int record_towers(Board *self) {
    /* the record's `tw` text, kept while no tower changed */
    if (self->record_text != NULL && self->record_version == self->tower_version) return 0;
    char *start = scratch(self, FIXED_BOUND), *p = start;
    if (start == NULL) return -1;
    *p++ = '[';
    for (int pos = 0; pos < CELLS; pos++) {
        const Tower *t = &self->towers[pos];
        if (!t->present) continue;
        if (p > start + 1) *p++ = ',';
        p = LIT(put_kind(LIT(put_int(LIT(p, "["), pos), ",\""), t->kind), "\",");
        p = put_int(p, t->power);
        p = put_int(LIT(p, ","), t->range);
        p = put_int(LIT(p, ","), t->cooldown);
        p = LIT(put_int(LIT(p, ","), t->level), "]");
    }
    *p++ = ']';
    if (cache_text(&self->record_text, start, p) == NULL) return -1;
    self->record_version = self->tower_version;
    return 0;
}

static int record_tower_lists(Board *self) {
    /* the record's `tw` rows as lists, kept while no tower changed */
    if (self->record_lists != NULL && self->lists_version == self->tower_version) return 0;
    PyObject *lists = PyList_New(0);
    if (lists == NULL) return -1;
    for (int pos = 0; pos < CELLS; pos++) {
        const Tower *t = &self->towers[pos];
        if (!t->present) continue;
        const long long values[6] = {pos, 0, t->power, t->range, t->cooldown, t->level};
        PyObject *row = int_list(values, 6);
        if (row != NULL) { /* the type in place of the 0 */
            PyObject *zero = PyList_GET_ITEM(row, 1);
            PyList_SET_ITEM(row, 1, Py_NewRef(kind_strings[t->kind]));
            Py_DECREF(zero);
        }
        if (row == NULL || PyList_Append(lists, row) < 0) {
            Py_XDECREF(row);
            Py_DECREF(lists);
            return -1;
        }
        Py_DECREF(row);
    }
    Py_XSETREF(self->record_lists, untracked(lists));
    self->lists_version = self->tower_version;
    return 0;
}

static PyObject *invader_lists(Board *self) {
    PyObject *lists = PyList_New(0);
    for (int pos = 0; pos < CELLS && lists != NULL; pos++) {
        const Invader *i = &self->invaders[pos];
        if (!i->present) continue;
        const long long values[6] = {pos, i->hp, i->maxhp, i->defense, i->stun_res, i->stun_time};
        PyObject *row = int_list(values, 6);
        if (row == NULL || PyList_Append(lists, row) < 0) Py_CLEAR(lists);
        Py_XDECREF(row);
    }
    return untracked(lists);
}

/* the record's keys, interned once (PyDict_SetItemString would make each one every turn) */
enum { K_T, K_IG, K_DG, K_LIFE, K_THRU, K_INC, K_BMAX, K_HPM, K_TSLS, K_IA, K_DA, K_SP, K_PEN, K_END, K_TW, K_IV,
       K_IR, K_DR, KEYS };
static const char *const KEY_NAMES[KEYS] = {"t", "ig", "dg", "life", "thru", "inc", "bmax", "hpm", "tsls", "ia",
                                            "da", "sp", "pen", "end", "tw", "iv", "ir", "dr"};
static PyObject *keys[KEYS];
static PyObject *templates[4]; /* the record's keys in order, values None; [2 * pen + end] */

static int make_templates(void) {
    for (int variant = 0; variant < 4; variant++) {
        PyObject *record = PyDict_New();
        if (record == NULL) return -1;
        for (int key = 0; key < KEYS; key++) {
            if ((key == K_PEN && !(variant & 2)) || (key == K_END && !(variant & 1))) continue;
            if (PyDict_SetItem(record, keys[key], Py_None) < 0) {
                Py_DECREF(record);
                return -1;
            }
        }
        templates[variant] = record;
    }
    return 0;
}

static int put_ll(PyObject *dict, int key, long long value) {
    PyObject *number = PyLong_FromLongLong(value);
    if (number == NULL) return -1;
    int result = PyDict_SetItem(dict, keys[key], number);
    Py_DECREF(number);
    return result;
}

static int put(PyObject *dict, int key, PyObject *value) { /* steals `value` */
    if (value == NULL) return -1;
    int result = PyDict_SetItem(dict, keys[key], value);
    Py_DECREF(value);
    return result;
}

static int json_arg(PyObject *value, const char **text, Py_ssize_t *length) {
    /* json.dumps's text (ASCII): anything else would break the line's encoding */
    if (!PyUnicode_Check(value) || !PyUnicode_IS_ASCII(value)) {
        PyErr_SetString(PyExc_ValueError, "record: the JSON texts must be json.dumps's (ASCII)");
        return -1;
    }
    *text = (const char *)PyUnicode_1BYTE_DATA(value);
    *length = PyUnicode_GET_LENGTH(value);
    return 0;
}

/* The played turn's log line: protocol/record.py RecordRenderer.render without faults and dq (the caller adds
 * those: the line then loses its closing brace). args: (invader, defender, invader_json, defender_json,
 * spawned, ir, dr, ir_json, dr_json), the *_json being json.dumps's text of the values before them. */
static PyObject *turn_line(Board *self, PyObject *const *args, int spawned) {
    const char *texts[4];
    Py_ssize_t lengths[4], total = 0;
    const int json_args[4] = {2, 3, 7, 8};
    for (int n = 0; n < 4; n++) {
        if (json_arg(args[json_args[n]], &texts[n], &lengths[n]) < 0) return NULL;
        total += lengths[n];
    }
    if (record_towers(self) < 0) return NULL;
    char *start = scratch(self, FIXED_BOUND + PyBytes_GET_SIZE(self->record_text) + total), *p = start;
    if (start == NULL) return NULL;
    p = put_int(LIT(p, "{\"t\":"), self->turn);
    p = put_int(LIT(p, ",\"ig\":"), self->invader_gold);
    p = put_int(LIT(p, ",\"dg\":"), self->defender_gold);
    p = put_int(LIT(p, ",\"life\":"), self->defender_life);
    p = put_int(LIT(p, ",\"thru\":"), INITIAL_LIFE - self->defender_life);
    p = put_int(LIT(p, ",\"inc\":"), self->invader_income);
    p = put_int(LIT(p, ",\"bmax\":"), self->invader_boost_max);
    p = put_number(LIT(p, ",\"hpm\":"), self->hp_multiplier);
    if (p == NULL) return NULL;
    p = put_int(LIT(p, ",\"tsls\":"), self->turns_since_spawn);
    p = put_bytes(LIT(p, ",\"ia\":"), texts[0], lengths[0]);
    p = put_bytes(LIT(p, ",\"da\":"), texts[1], lengths[1]);
    p = spawned ? LIT(p, ",\"sp\":true") : LIT(p, ",\"sp\":false");
    if (self->has_penalty) {
        p = put_number(LIT(put_int(LIT(p, ",\"pen\":["), self->penalty_base), ","), self->penalty_mult);
        if (p == NULL) return NULL;
        p = LIT(p, "]");
    }
    if (self->defender_life <= 0) p = LIT(p, ",\"end\":true");
    p = put_bytes(LIT(p, ",\"tw\":"), PyBytes_AS_STRING(self->record_text), PyBytes_GET_SIZE(self->record_text));
    p = LIT(put_invaders(self, LIT(p, ",\"iv\":["), 1), "],\"ir\":");
    p = put_bytes(p, texts[2], lengths[2]);
    p = put_bytes(LIT(p, ",\"dr\":"), texts[3], lengths[3]);
    *p++ = '}';
    return ascii_text(start, p);
}

/* The same turn's record as a dict, keys in the line's order (json.dumps of it gives the line). */
static PyObject *turn_record(Board *self, PyObject *const *args, int spawned) {
    if (record_tower_lists(self) < 0) return NULL;
    int over = self->defender_life <= 0;
    /* a copy of the template has every key in place, in order: no resizing, values replaced */
    PyObject *record = PyDict_Copy(templates[2 * (self->has_penalty != 0) + over]);
    if (record == NULL) return NULL;
    int failed = put_ll(record, K_T, self->turn) || put_ll(record, K_IG, self->invader_gold) ||
                 put_ll(record, K_DG, self->defender_gold) || put_ll(record, K_LIFE, self->defender_life) ||
                 put_ll(record, K_THRU, INITIAL_LIFE - self->defender_life) ||
                 put_ll(record, K_INC, self->invader_income) || put_ll(record, K_BMAX, self->invader_boost_max) ||
                 put(record, K_HPM, number_object(self->hp_multiplier)) ||
                 put_ll(record, K_TSLS, self->turns_since_spawn) || PyDict_SetItem(record, keys[K_IA], args[0]) ||
                 PyDict_SetItem(record, keys[K_DA], args[1]) ||
                 PyDict_SetItem(record, keys[K_SP], spawned ? Py_True : Py_False);
    if (!failed && self->has_penalty)
        failed = put(record, K_PEN, Py_BuildValue("[LN]", self->penalty_base, number_object(self->penalty_mult)));
    if (!failed && over) failed = PyDict_SetItem(record, keys[K_END], Py_True);
    if (!failed)
        failed = PyDict_SetItem(record, keys[K_TW], self->record_lists) || put(record, K_IV, invader_lists(self)) ||
                 PyDict_SetItem(record, keys[K_IR], args[5]) || PyDict_SetItem(record, keys[K_DR], args[6]);
    if (failed) Py_CLEAR(record);
    return record;
}

/* record_line(invader, defender, invader_json, defender_json, spawned, ir, dr, ir_json, dr_json) -> line:
 * what the match writes; the dict only when something asks for it (record) */
static PyObject *Board_record_line(Board *self, PyObject *const *args, Py_ssize_t nargs) {
    if (!positional("record_line", nargs, 9, 9)) return NULL;
    int spawned = PyObject_IsTrue(args[4]);
    return spawned < 0 ? NULL : turn_line(self, args, spawned);
}

/* record(the same arguments) -> (dict, line) */
static PyObject *Board_record(Board *self, PyObject *const *args, Py_ssize_t nargs) {
    if (!positional("record", nargs, 9, 9)) return NULL;
    int spawned = PyObject_IsTrue(args[4]);
    if (spawned < 0) return NULL;
    PyObject *record = turn_record(self, args, spawned);
    if (record == NULL) return NULL;
    PyObject *line = turn_line(self, args, spawned);
    if (line == NULL) {
        Py_DECREF(record);
        return NULL;
    }
    return Py_BuildValue("(NN)", record, line);
}

/* ---- read access for the Python checks and views: rows of copies ---------------------------------------- */

typedef struct {
    PyObject_HEAD
    Board *board;
    int towers; /* 0: the invader row, 1: the tower row */
} Row;

static PyTypeObject RowType;

static PyObject *Row_item(Row *self, Py_ssize_t index) {
    if (index < 0 || index >= CELLS) {
        PyErr_SetString(PyExc_IndexError, "row index out of range");
        return NULL;
    }
    if (invader_class == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_board.bind(Invader, Tower) was not called");
        return NULL;
    }
    if (self->towers) {
        const Tower *t = &self->board->towers[index];
        if (!t->present) Py_RETURN_NONE;
        return PyObject_CallFunction(tower_class, "nOLLLL", index, kind_strings[t->kind], t->level, t->power,
                                     t->range, t->cooldown);
    }
    const Invader *i = &self->board->invaders[index];
    if (!i->present) Py_RETURN_NONE;
    return PyObject_CallFunction(invader_class, "nLLLLL", index, i->hp, i->maxhp, i->defense, i->stun_res,
                                 i->stun_time);
}

static Py_ssize_t Row_length(Row *self) { return CELLS; }

static void Row_dealloc(Row *self) {
    Py_XDECREF(self->board);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PySequenceMethods Row_sequence = {
    .sq_length = (lenfunc)Row_length,
    .sq_item = (ssizeargfunc)Row_item,
};

static PyTypeObject RowType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "runner.games.invaders.rules._board.Row",
    .tp_doc = "A read-only row of the board: 100 cells, each a copy (Invader or Tower) or None.",
    .tp_basicsize = sizeof(Row),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)Row_dealloc,
    .tp_as_sequence = &Row_sequence,
};

static PyObject *make_row(Board *board, int towers) {
    Row *row = PyObject_New(Row, &RowType);
    if (row == NULL) return NULL;
    Py_INCREF(board);
    row->board = board;
    row->towers = towers;
    return (PyObject *)row;
}

static PyObject *Board_get_invaders(Board *self, void *unused) { return make_row(self, 0); }
static PyObject *Board_get_towers(Board *self, void *unused) { return make_row(self, 1); }
static PyObject *Board_get_through(Board *self, void *unused) {
    return PyLong_FromLongLong(INITIAL_LIFE - self->defender_life);
}

/* ---- the type ------------------------------------------------------------------------------------------- */

static int Board_init(Board *self, PyObject *args, PyObject *kwargs) {
    if ((kwargs != NULL && PyDict_GET_SIZE(kwargs)) || PyTuple_GET_SIZE(args)) {
        PyErr_SetString(PyExc_TypeError, "Board() takes no arguments");
        return -1;
    }
    memset(self->invaders, 0, sizeof(self->invaders));
    memset(self->towers, 0, sizeof(self->towers));
    memset(self->sent, 0, sizeof(self->sent));
    self->turn = 0;
    self->invader_gold = 0;
    self->invader_income = 10;
    self->invader_boost_max = 0;
    self->hp_multiplier = 1.0;
    self->turns_since_spawn = 0;
    self->defender_gold = 50;
    self->defender_life = INITIAL_LIFE;
    self->has_penalty = 0;
    self->next_serial = 0;
    self->tower_version++;
    return 0;
}

static void Board_dealloc(Board *self) {
    Py_XDECREF(self->record_lists);
    Py_XDECREF(self->record_text);
    Py_XDECREF(self->slots_text);
    PyMem_Free(self->scratch);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMemberDef Board_members[] = {
    {"turn", T_LONGLONG, offsetof(Board, turn), 0, NULL},
    {"invader_gold", T_LONGLONG, offsetof(Board, invader_gold), 0, NULL},
    {"invader_income", T_LONGLONG, offsetof(Board, invader_income), 0, NULL},
    {"invader_boost_max", T_LONGLONG, offsetof(Board, invader_boost_max), 0, NULL},
    {"hp_multiplier", T_DOUBLE, offsetof(Board, hp_multiplier), 0, NULL},
    {"turns_since_spawn", T_LONGLONG, offsetof(Board, turns_since_spawn), 0, NULL},
    {"defender_gold", T_LONGLONG, offsetof(Board, defender_gold), 0, NULL},
    {"defender_life", T_LONGLONG, offsetof(Board, defender_life), 0, NULL},
    {NULL},
};

static PyGetSetDef Board_getset[] = {
    {"invaders", (getter)Board_get_invaders, NULL, "the invader row (copies)", NULL},
    {"towers", (getter)Board_get_towers, NULL, "the tower row (copies)", NULL},
    {"invaders_through", (getter)Board_get_through, NULL, "invaders that walked off the end", NULL},
    {NULL},
};

static PyMethodDef Board_methods[] = {
    {"start_turn", (PyCFunction)Board_start_turn, METH_NOARGS,
     "Phases A-G of the next turn (turn.start_turn); the penalty as (base, mult) or None."},
    {"spawn", (PyCFunction)(void (*)(void))Board_spawn, METH_FASTCALL, "spawn(hp, defense, stun_res): checked."},
    {"build", (PyCFunction)(void (*)(void))Board_build, METH_FASTCALL, "build(pos, type): checked."},
    {"upgrade", (PyCFunction)(void (*)(void))Board_upgrade, METH_FASTCALL, "upgrade(pos, stat): checked."},
    {"destroy", (PyCFunction)Board_destroy, METH_O, "destroy(pos): checked."},
    {"state_json", (PyCFunction)Board_state_json, METH_NOARGS, "render_state_json's text."},
    {"delta", (PyCFunction)Board_delta, METH_NOARGS, "render_delta's body; moves the towers sent on."},
    {"record", (PyCFunction)(void (*)(void))Board_record, METH_FASTCALL, "(record, line) of a played turn."},
    {"record_line", (PyCFunction)(void (*)(void))Board_record_line, METH_FASTCALL, "The line of a played turn."},
    {NULL},
};

static PyTypeObject BoardType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "runner.games.invaders.rules._board.Board",
    .tp_doc = "The Invaders state (spec 3) with phases A-G, checked actions and the turn's texts in C.",
    .tp_basicsize = sizeof(Board),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Board_init,
    .tp_dealloc = (destructor)Board_dealloc,
    .tp_members = Board_members,
    .tp_getset = Board_getset,
    .tp_methods = Board_methods,
};

static PyObject *bind(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (!positional("bind", nargs, 2, 2)) return NULL;
    Py_INCREF(args[0]);
    Py_INCREF(args[1]);
    Py_XSETREF(invader_class, args[0]);
    Py_XSETREF(tower_class, args[1]);
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"bind", (PyCFunction)(void (*)(void))bind, METH_FASTCALL,
     "bind(Invader, Tower): the classes of the copies the rows return."},
    {NULL},
};

static struct PyModuleDef board_module = {
    PyModuleDef_HEAD_INIT, "_board", "The Invaders board and a turn's hot path in C (see _board.c).", -1,
    module_methods,
};

PyMODINIT_FUNC PyInit__board(void) {
    if (PyType_Ready(&BoardType) < 0 || PyType_Ready(&RowType) < 0) return NULL;
    for (int kind = 0; kind < KINDS; kind++)
        if (kind_strings[kind] == NULL && (kind_strings[kind] = PyUnicode_InternFromString(KIND_NAMES[kind])) == NULL)
            return NULL;
    for (int key = 0; key < KEYS; key++)
        if (keys[key] == NULL && (keys[key] = PyUnicode_InternFromString(KEY_NAMES[key])) == NULL) return NULL;
    if (templates[0] == NULL && make_templates() < 0) return NULL;
    PyObject *module = PyModule_Create(&board_module);
    if (module == NULL) return NULL;
    Py_INCREF(&BoardType);
    if (PyModule_AddObject(module, "Board", (PyObject *)&BoardType) < 0 ||
        PyModule_AddStringConstant(module, "SOURCE_SHA256", BOARD_SOURCE_SHA256) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
