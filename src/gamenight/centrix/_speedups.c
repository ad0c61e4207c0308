/* The compiled core of Centrix: move generation, play application and the bots' inner loops.
 *
 * A line-for-line port of gamenight/centrix/movegen.py (pawn_moves, bump_problem,
 * legal_plays, has_legal_play), of CentrixState._make and pop (apply, its undo record),
 * of gamenight/bots/centrix_eval.py (scores, and Greedy's value of every play), of
 * fast_play's climbing move, of whole rollouts (the loop of native.play_out, behind
 * CentrixState.play_randomly and bots.centrix.play_round), of ISMCTS's tree nodes and
 * selection loop (bots.centrix's _Node and _select) and of a view's deal (state.deal_unseen): the Python code is the reference, this
 * is its fast path, and tests/centrix/test_native.py checks that both give the same plays,
 * successors, values and choices on random positions of every variant.
 * Optional: gamenight.centrix.native falls back to the Python engine when this module is
 * not built (no compiler) or GAMENIGHT_PURE=1 is set.
 *
 * A play is an integer (see encode below) until a caller asks for the Play value; the Play
 * values are built here from the engine's shared Card, Rotation and Move objects, exactly
 * as tuple.__new__(Play, ...) builds them in movegen.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <structmember.h>

#define NUM_RINGS 6
#define NUM_SLOTS 12
#define NUM_SQUARES 72
#define OFF 72
#define TOP 73
#define EMPTY (-1)
#define TOP_GROUP 6
#define PAWNS 3          /* each seat's (D18: other counts take the Python path) */
#define HAND_SIZE 3      /* state.HAND_SIZE: a refill draws up to it */
#define PLAYS_PER_TURN 3 /* state.PLAYS_PER_TURN */
#define NUM_CARDS 20
#define CARD_ANY 18
#define CARD_SPIN 19
#define MAX_GROUP 64
/* The most plays any hand can have: 18 numbered cards × 7 rotation settings and the spin
 * wild's 34 and the any wild's 1, each with its rotation-only play and at most 37 moves
 * (3 pawns × 8, 12 entries, 1 onto the top): 6,118. */
#define MAX_PLAYS 8192
#define NO_SQUARE 127
#define TABLE_SIZE (NUM_RINGS * NUM_SLOTS * NUM_SLOTS)

enum { PROTECT = 0, KNOCK_OFF = 1, FLOOR = 2 };

static const int SPIN_AMOUNTS[11] = {-5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6};

/* Set once by configure(): the Play type and the shared values its fields take. */
static PyTypeObject *play_type = NULL;
static PyObject *card_values = NULL;     /* tuple of the 20 Card members */
static PyObject *rotation_values = NULL; /* tuple [(ring - 1) * 23 + amount + 11] */
static PyObject *move_values = NULL;     /* tuple [from * 74 + to] */

typedef struct {
    signed char cells[NUM_SQUARES];
    unsigned char rows[NUM_RINGS][NUM_SLOTS];
    int offsets[NUM_RINGS];
} Board;

typedef struct {
    int n[TOP_GROUP + 1];
    unsigned short mv[TOP_GROUP + 1][MAX_GROUP]; /* from << 7 | to */
} Groups;

static int mod12(int x) { return ((x % NUM_SLOTS) + NUM_SLOTS) % NUM_SLOTS; }

/* ------------------------------------------------------------------ reading the state */

/* An int's value, read directly where it is a one-digit int (every cell, offset, card and
 * count the core reads from the state's lists is: PyLong_AsLong's checks and call were an
 * eighth of stepped random play's instructions), through PyLong_AsLong otherwise. */
static inline int small_int(PyObject *v, long *out) {
#if PY_VERSION_HEX >= 0x030C0000
    if ((PyLong_CheckExact(v) || PyLong_Check(v)) && PyUnstable_Long_IsCompact((PyLongObject *)v)) {
        *out = (long)PyUnstable_Long_CompactValue((PyLongObject *)v);
        return 0;
    }
#else
    if (PyLong_CheckExact(v) || PyLong_Check(v)) { /* the first a compare: cells are ints */
        Py_ssize_t size = Py_SIZE(v); /* the digits' count, signed as the value */
        if (size >= -1 && size <= 1) {
            *out = (long)size * (long)((PyLongObject *)v)->ob_digit[0];
            return 0;
        }
    }
#endif
    *out = PyLong_AsLong(v);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

/* An int argument that fits a C int, as PyArg_ParseTuple's "i" reads it. */
static int int_arg(PyObject *v, int *out) {
    long value;
    if (!PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError, "an int is required, not %.200s", Py_TYPE(v)->tp_name);
        return -1;
    }
    if (small_int(v, &value) < 0) return -1;
    if (value < INT_MIN || value > INT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "an int argument is beyond a C int");
        return -1;
    }
    *out = (int)value;
    return 0;
}

/* A list argument: PyArg_ParseTuple's "O!" with &PyList_Type. */
static int list_arg(PyObject *v) {
    if (PyList_Check(v)) return 0;
    PyErr_Format(PyExc_TypeError, "a list is required, not %.200s", Py_TYPE(v)->tp_name);
    return -1;
}

static int count_args(Py_ssize_t nargs, Py_ssize_t expected, const char *name) {
    if (nargs == expected) return 0;
    PyErr_Format(PyExc_TypeError, "%s takes %zd arguments (%zd given)", name, expected, nargs);
    return -1;
}

/* (seat, plays_done, turn), and `last` after them unless it is NULL (the tuple takes that
 * reference, or drops it on failure): what play application hands back. Built directly, as
 * Py_BuildValue's format parsing was a tenth of apply_play's instructions. */
static PyObject *counts_tuple(long seat, long plays_done, long turn, PyObject *last) {
    PyObject *out = PyTuple_New(last == NULL ? 3 : 4);
    long values[3] = {seat, plays_done, turn};
    for (int i = 0; out != NULL && i < 3; i++) {
        PyObject *v = PyLong_FromLong(values[i]);
        if (v == NULL)
            Py_CLEAR(out);
        else
            PyTuple_SET_ITEM(out, i, v);
    }
    if (last == NULL) return out;
    if (out == NULL) {
        Py_DECREF(last);
        return NULL;
    }
    PyTuple_SET_ITEM(out, 3, last);
    return out;
}

/* The board last read from a state's lists or made on them, with the list items it stands
 * for: stepped play reads one position's board twice (its legal plays, then the play) and
 * the play makes the next, so a read that finds the same items takes the board as it is.
 * Only boards whose every cell and offset is the interpreter's shared small int of its
 * value are kept (so an item the same object is the same value, and no kept pointer can
 * outlive its object); the colour table is held, so the rows stay the table's. */
#define SMALL_LOW (-1)
#define SMALL_HIGH NUM_SLOTS
static PyObject *small_ints[SMALL_HIGH - SMALL_LOW + 1]; /* PyLong_FromLong(-1 ... 12) */
static struct {
    PyObject *table; /* a reference, or NULL while nothing is kept */
    PyObject *cells[NUM_SQUARES], *offsets[NUM_RINGS];
    Board b;
} kept;

static int is_small(PyObject *item, int value) {
    return value >= SMALL_LOW && value <= SMALL_HIGH && item == small_ints[value - SMALL_LOW];
}

/* Keep `b` as the board the lists `cells` and `offsets` now hold (they must hold it). */
static void keep_board(PyObject *cells, PyObject *offsets, PyObject *table, const Board *b) {
    if (PyList_GET_SIZE(cells) != NUM_SQUARES || PyList_GET_SIZE(offsets) != NUM_RINGS)
        goto forget; /* only code run by a collection since the read could have done that */
    PyObject **items = ((PyListObject *)cells)->ob_item, **rings = ((PyListObject *)offsets)->ob_item;
    for (int sq = 0; sq < NUM_SQUARES; sq++)
        if (!is_small(items[sq], b->cells[sq])) goto forget;
    for (int r = 0; r < NUM_RINGS; r++)
        if (!is_small(rings[r], b->offsets[r])) goto forget;
    memcpy(kept.cells, items, sizeof kept.cells);
    memcpy(kept.offsets, rings, sizeof kept.offsets);
    kept.b = *b;
    Py_INCREF(table);
    Py_XSETREF(kept.table, table);
    return;
forget:
    Py_CLEAR(kept.table);
}

static int read_board_items(PyObject *cells, PyObject *offsets, PyObject *table, Board *b) {
    if (!PyList_Check(cells) || PyList_GET_SIZE(cells) != NUM_SQUARES) {
        PyErr_SetString(PyExc_TypeError, "cells must be a list of 72 ints");
        return -1;
    }
    if (!PyList_Check(offsets) || PyList_GET_SIZE(offsets) != NUM_RINGS) {
        PyErr_SetString(PyExc_TypeError, "offsets must be a list of 6 ints");
        return -1;
    }
    if (!PyBytes_Check(table) || PyBytes_GET_SIZE(table) != TABLE_SIZE) {
        PyErr_SetString(PyExc_TypeError, "the colour table must be 864 bytes");
        return -1;
    }
    const unsigned char *t = (const unsigned char *)PyBytes_AS_STRING(table);
    for (int i = 0; i < NUM_SQUARES; i++) {
        long v;
        if (small_int(PyList_GET_ITEM(cells, i), &v) < 0) return -1;
        b->cells[i] = (signed char)v;
    }
    for (int r = 0; r < NUM_RINGS; r++) {
        long o;
        if (small_int(PyList_GET_ITEM(offsets, r), &o) < 0) return -1;
        if (o < 0 || o >= NUM_SLOTS) {
            PyErr_SetString(PyExc_ValueError, "an offset is 0-11");
            return -1;
        }
        b->offsets[r] = (int)o;
        memcpy(b->rows[r], t + (r * NUM_SLOTS + o) * NUM_SLOTS, NUM_SLOTS);
    }
    return 0;
}

static int read_board(PyObject *cells, PyObject *offsets, PyObject *table, Board *b) {
    if (kept.table != NULL && kept.table == table && PyList_Check(cells) &&
        PyList_GET_SIZE(cells) == NUM_SQUARES && PyList_Check(offsets) &&
        PyList_GET_SIZE(offsets) == NUM_RINGS &&
        !memcmp(((PyListObject *)cells)->ob_item, kept.cells, sizeof kept.cells) &&
        !memcmp(((PyListObject *)offsets)->ob_item, kept.offsets, sizeof kept.offsets)) {
        *b = kept.b;
        return 0;
    }
    if (read_board_items(cells, offsets, table, b) < 0) return -1;
    keep_board(cells, offsets, table, b);
    return 0;
}

/* The distinct cards of a hand as a bit set (sorted(set(hand)) is then bit order). */
static int read_hand(PyObject *hand, unsigned *cards, int *size) {
    if (!PyList_Check(hand)) {
        PyErr_SetString(PyExc_TypeError, "a hand is a list of cards");
        return -1;
    }
    *cards = 0;
    *size = (int)PyList_GET_SIZE(hand);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(hand); i++) {
        long c;
        if (small_int(PyList_GET_ITEM(hand, i), &c) < 0) return -1;
        if (c < 0 || c >= NUM_CARDS) {
            PyErr_SetString(PyExc_ValueError, "a card is 0-19");
            return -1;
        }
        *cards |= 1u << c;
    }
    return 0;
}

static int own_pawns(const Board *b, int seat, int *mine) {
    int n = 0; /* memchr: the board is scanned for every seat's every check (D8) */
    const signed char *at = b->cells, *end = b->cells + NUM_SQUARES;
    while (n < PAWNS && (at = memchr(at, (unsigned char)seat, (size_t)(end - at))) != NULL)
        mine[n++] = (int)(at++ - b->cells);
    return n;
}

/* ------------------------------------------------------------------ move generation */

/* movegen.bump_problem(...) is None */
static int bump_ok(const signed char *cells, int target, int origin, int bottom) {
    int r = target / NUM_SLOTS, s = target % NUM_SLOTS;
    if (r == 0) return 0;
    for (;;) {
        int nr = r - 2;
        if (bottom == FLOOR) {
            if (r == 0) return 0;
            if (nr < 0) nr = 0;
        } else if (nr < 0) {
            return bottom == KNOCK_OFF;
        }
        int sq = nr * NUM_SLOTS + s;
        if (cells[sq] == EMPTY || sq == origin) return 1;
        r = nr;
    }
}

static void add(Groups *g, int group, int frm, int to) {
    g->mv[group][g->n[group]++] = (unsigned short)(frm << 7 | to);
}

/* movegen.pawn_moves: the same moves, appended to the same groups in the same order. */
static void pawn_moves(const signed char *cells, unsigned char rows[NUM_RINGS][NUM_SLOTS],
                       const int *mine, int nmine, int has_off, int bottom, Groups *g) {
    memset(g->n, 0, sizeof g->n);
    for (int i = 0; i < nmine; i++) {
        int frm = mine[i], r = frm / NUM_SLOTS, s = frm % NUM_SLOTS;
        if (r == NUM_RINGS - 1) {
            add(g, TOP_GROUP, frm, TOP);
        } else {
            int up = frm + NUM_SLOTS;
            if (cells[up] == EMPTY) {
                add(g, rows[r + 1][s], frm, up);
            } else {
                if (bump_ok(cells, up, frm, bottom)) add(g, rows[r + 1][s], frm, up);
                int t = up + NUM_SLOTS;
                while (t < NUM_SQUARES && cells[t] != EMPTY) t += NUM_SLOTS;
                if (t >= NUM_SQUARES)
                    add(g, TOP_GROUP, frm, TOP);
                else
                    add(g, rows[t / NUM_SLOTS][s], frm, t);
            }
        }
        if (r) {
            int down = frm - NUM_SLOTS;
            if (cells[down] == EMPTY) {
                add(g, rows[r - 1][s], frm, down);
            } else {
                if (bump_ok(cells, down, frm, bottom)) add(g, rows[r - 1][s], frm, down);
                int t = down - NUM_SLOTS;
                while (t >= 0 && cells[t] != EMPTY) t -= NUM_SLOTS;
                if (t >= 0) add(g, rows[t / NUM_SLOTS][s], frm, t);
            }
        }
        const unsigned char *row = rows[r];
        int base = r * NUM_SLOTS, first_landing = -1;
        for (int k = 0; k < 2; k++) {
            int d = k == 0 ? 1 : NUM_SLOTS - 1;
            int j = (s + d) % NUM_SLOTS, landing;
            if (cells[base + j] == EMPTY) {
                landing = j;
            } else {
                if (bump_ok(cells, base + j, frm, bottom)) add(g, row[j], frm, base + j);
                landing = -1;
                int m = (j + d) % NUM_SLOTS;
                while (m != s) {
                    if (cells[base + m] == EMPTY) {
                        landing = m;
                        break;
                    }
                    m = (m + d) % NUM_SLOTS;
                }
            }
            if (landing >= 0 && landing != first_landing) {
                add(g, row[landing], frm, base + landing);
                first_landing = landing;
            }
        }
    }
    if (has_off) {
        int onto_top = 0;
        for (int s = 0; s < NUM_SLOTS; s++) {
            int t = s;
            while (t < NUM_SQUARES && cells[t] != EMPTY) t += NUM_SLOTS;
            if (t < NUM_SQUARES)
                add(g, rows[t / NUM_SLOTS][s], OFF, t);
            else if (!onto_top) {
                add(g, TOP_GROUP, OFF, TOP);
                onto_top = 1;
            }
        }
    }
}

/* movegen.rotated: the board with ring index r turned k slots clockwise. */
static void rotated(const Board *b, const unsigned char *table, int r, int k, const int *mine,
                    int nmine, Board *out, int *moved) {
    int base = r * NUM_SLOTS;
    memcpy(out->cells, b->cells, sizeof b->cells);
    memcpy(out->rows, b->rows, sizeof b->rows);
    memcpy(out->cells + base + k, b->cells + base, NUM_SLOTS - k); /* slot i to i + k */
    memcpy(out->cells + base, b->cells + base + NUM_SLOTS - k, k);
    memcpy(out->rows[r], table + (r * NUM_SLOTS + (b->offsets[r] + k) % NUM_SLOTS) * NUM_SLOTS,
           NUM_SLOTS);
    for (int i = 0; i < nmine; i++) {
        int sq = mine[i];
        moved[i] = (base <= sq && sq < base + NUM_SLOTS) ? base + (sq - base + k) % NUM_SLOTS : sq;
    }
    for (int i = 1; i < nmine; i++) /* sorted(moved): at most three */
        for (int j = i; j > 0 && moved[j - 1] > moved[j]; j--) {
            int tmp = moved[j];
            moved[j] = moved[j - 1];
            moved[j - 1] = tmp;
        }
}

/* A play as an integer: card | ring << 5 | (amount + 11) << 8 | from << 13 | to << 20,
 * ring 0 (and amount field 0) for no rotation, from and to 127 for no move. */
static long encode(int card, int ring, int amount, int mv) {
    long code = card | ring << 5 | (ring ? (amount + 11) << 8 : 0);
    if (mv < 0) return code | (long)NO_SQUARE << 13 | (long)NO_SQUARE << 20;
    return code | (long)(mv >> 7) << 13 | (long)(mv & 127) << 20;
}

typedef struct {
    long codes[MAX_PLAYS];
    int n;
} Plays;

static void emit(Plays *p, long code) {
    if (p->n < MAX_PLAYS) p->codes[p->n++] = code;
}

static void emit_group(Plays *p, int card, int ring, int amount, const Groups *g, int group) {
    for (int i = 0; i < g->n[group]; i++) emit(p, encode(card, ring, amount, g->mv[group][i]));
}

/* gamenight.envs.centrix_codec's action ids of a play's decisions (play_codes). */
enum { ACT_ROTATION = 20, ACT_FROM = 87, ACT_FROM_OFF = 159, ACT_NO_MOVE = 160, ACT_TO = 161 };
enum { ACT_TOP = 233, NUM_ACT = 234, PREFIX_IDS = ACT_NO_MOVE + 1 };

/* The action id of a play's rotation decision: none, else by ring and spin. */
static int rotation_id(int ring, int amount) {
    if (ring == 0) return ACT_ROTATION;
    int spin = mod12(amount + 5) - 5; /* plays.spin_amount: -5…+6 */
    return ACT_ROTATION + 1 + (ring - 1) * 11 + (spin < 0 ? spin + 5 : spin + 4);
}

/* movegen.legal_plays, as codes in the same order; with only_rotation other than -1, only
 * the plays whose rotation decision is that id (the others' rings are never turned). */
static void generate_only(const Board *b, const unsigned char *table, unsigned cards, int seat,
                          int own, int top_seat, int bottom, int only_rotation, Plays *out) {
    int mine[PAWNS], moved[PAWNS];
    int nmine = own_pawns(b, seat, mine);
    int has_off = nmine + top_seat < PAWNS;
    int rings[PAWNS], nrings = 0;
    for (int i = 0; i < nmine; i++) { /* mine is sorted, so its rings are */
        int r = mine[i] / NUM_SLOTS;
        if (!nrings || rings[nrings - 1] != r) rings[nrings++] = r;
    }
    static Groups configs[NUM_RINGS][NUM_SLOTS];
    static Groups none;
    int done[NUM_RINGS][NUM_SLOTS] = {{0}};
    pawn_moves(b->cells, (unsigned char(*)[NUM_SLOTS])b->rows, mine, nmine, has_off, bottom, &none);
    out->n = 0;
    for (int card = 0; card < NUM_CARDS; card++) {
        if (!(cards & (1u << card))) continue;
        int amounts[11], namounts;
        if (card == CARD_SPIN) {
            namounts = 11;
            memcpy(amounts, SPIN_AMOUNTS, sizeof amounts);
        } else if (card == CARD_ANY) {
            namounts = 0;
        } else {
            int n = card % 3 + 1;
            namounts = 2;
            amounts[0] = -n;
            amounts[1] = n;
        }
        int colour = card < CARD_ANY ? card / 3 : -1;
        for (int ri = -1; ri < nrings; ri++) {
            for (int ai = 0; ai < (ri < 0 ? 1 : namounts); ai++) {
                const Groups *g = &none;
                int ring = ri < 0 ? 0 : rings[ri] + 1, amount = ri < 0 ? 0 : amounts[ai];
                if (only_rotation >= 0 && rotation_id(ring, amount) != only_rotation) continue;
                if (ri >= 0) {
                    int r = rings[ri];
                    int k = mod12(amount);
                    if (!done[r][k]) {
                        Board rb;
                        rotated(b, table, r, k, mine, nmine, &rb, moved);
                        pawn_moves(rb.cells, rb.rows, moved, nmine, has_off, bottom,
                                   &configs[r][k]);
                        done[r][k] = 1;
                    }
                    g = &configs[r][k];
                    emit(out, encode(card, ring, amount, -1));
                }
                if (colour < 0) {
                    for (int group = 0; group <= TOP_GROUP; group++)
                        emit_group(out, card, ring, amount, g, group);
                } else {
                    emit_group(out, card, ring, amount, g, colour);
                    if (colour == own) emit_group(out, card, ring, amount, g, TOP_GROUP);
                }
            }
        }
    }
}

static void generate(const Board *b, const unsigned char *table, unsigned cards, int seat,
                     int own, int top_seat, int bottom, Plays *out) {
    generate_only(b, table, cards, seat, own, top_seat, bottom, -1, out);
}

/* ------------------------------------------------------------------ Play values */

/* Recently built plays by code: a search meets the same plays again and again, and a
 * shared immutable Play costs a reference where a new one costs an object. A play's set of
 * PLAY_WAYS entries (one 64-byte cache line) is chosen by a multiplicative hash of its code
 * and kept in last-used order, the least recently used entry giving way to a new play:
 * over random games of 2-6 players 7 % of lookups miss (half of them plays never met
 * before), where a direct-mapped table of the same size missed 15 %, and each miss costs
 * an object built and one freed. At most 131,072 plays (8 MB of them) are held. */
#define PLAY_SET_BITS 15
#define PLAY_WAYS 4
typedef struct {
    long code;
    PyObject *play; /* the cache's reference; NULL for an empty entry */
} CachedPlay;
#if defined(__GNUC__)
__attribute__((aligned(64)))
#endif
static CachedPlay play_cache[1 << PLAY_SET_BITS][PLAY_WAYS];

static PyObject *build(long code);

static CachedPlay *play_set(long code) {
    return play_cache[((unsigned long long)code * 0x9E3779B97F4A7C15ull) >> (64 - PLAY_SET_BITS)];
}

static PyObject *decode(long code) {
    CachedPlay *set = play_set(code);
    for (int i = 0; i < PLAY_WAYS && set[i].play != NULL; i++)
        if (set[i].code == code) {
            CachedPlay hit = set[i];
            memmove(set + 1, set, sizeof *set * i);
            set[0] = hit;
            return Py_NewRef(hit.play);
        }
    PyObject *play = build(code);
    if (play == NULL) return NULL;
    PyObject *evicted = set[PLAY_WAYS - 1].play;
    memmove(set + 1, set, sizeof *set * (PLAY_WAYS - 1));
    set[0].code = code;
    set[0].play = Py_NewRef(play);
    Py_XDECREF(evicted); /* once the set is whole again: a Play's dealloc runs no Python */
    return play;
}

#if defined(__GNUC__)
#define PREFETCH(address, write) __builtin_prefetch((address), (write))
#else
#define PREFETCH(address, write) ((void)(address))
#endif
#define DECODE_BLOCK 64

/* decode() of each code into the new tuple `out`. The cache's sets and plays are spread over
 * megabytes, so one decode at a time waits for memory twice per play (its set, then the
 * play's reference count): a fifth of stepped random play's time. Asking for a block's
 * sets, then for the plays they hold, before decoding lets those waits overlap. */
static int decode_into(const long *codes, int n, PyObject *out) {
    for (int start = 0; start < n; start += DECODE_BLOCK) {
        int end = n - start < DECODE_BLOCK ? n : start + DECODE_BLOCK;
        for (int i = start; i < end; i++) PREFETCH(play_set(codes[i]), 0);
        for (int i = start; i < end; i++) {
            CachedPlay *set = play_set(codes[i]);
            for (int w = 0; w < PLAY_WAYS && set[w].play != NULL; w++)
                if (set[w].code == codes[i]) {
                    PREFETCH(set[w].play, 1);
                    break;
                }
        }
        for (int i = start; i < end; i++) {
            PyObject *play = decode(codes[i]);
            if (play == NULL) return -1;
            PyTuple_SET_ITEM(out, i, play);
        }
    }
    return 0;
}

static PyObject *build(long code) {
    int card = code & 31, ring = (code >> 5) & 7, amount = (int)((code >> 8) & 31) - 11;
    int frm = (code >> 13) & 127, to = (code >> 20) & 127;
    /* Only what notation can write: parse_play refuses a move from the top, to off the
     * board or to where it started, and a play with neither rotation nor move. */
    int bad_move = frm != NO_SQUARE && (frm >= TOP || to > TOP || to == OFF || frm == to);
    if (card >= NUM_CARDS || ring > NUM_RINGS || (ring && (amount == 0 || amount > 11)) ||
        (frm == NO_SQUARE) != (to == NO_SQUARE) || bad_move || (!ring && frm == NO_SQUARE) ||
        code >> 27) {
        PyErr_Format(PyExc_ValueError, "%ld is not a play code", code);
        return NULL;
    }
    PyObject *play = play_type->tp_alloc(play_type, 3);
    if (play == NULL) return NULL;
    PyObject *c = PyTuple_GET_ITEM(card_values, card);
    PyObject *rot = ring ? PyTuple_GET_ITEM(rotation_values, (ring - 1) * 23 + amount + 11) : Py_None;
    PyObject *mv = frm == NO_SQUARE ? Py_None : PyTuple_GET_ITEM(move_values, frm * 74 + to);
    Py_INCREF(c);
    Py_INCREF(rot);
    Py_INCREF(mv);
    PyTuple_SET_ITEM(play, 0, c);
    PyTuple_SET_ITEM(play, 1, rot);
    PyTuple_SET_ITEM(play, 2, mv);
    /* A Play holds only the configured Card, Rotation and Move values, which never refer
     * to a Play: it cannot be part of a cycle, so the collector need not track it. Tracked,
     * the cache's plays were walked by every full collection and each new one counted
     * towards the next (a third of stepped random play's time went to the collector). */
    PyObject_GC_UnTrack(play);
    return play;
}

static int configured(void) {
    if (play_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "call configure() first");
        return 0;
    }
    return 1;
}

static PyObject *py_configure(PyObject *self, PyObject *args) {
    PyObject *type, *cards, *rotations, *moves;
    if (!PyArg_ParseTuple(args, "O!O!O!O!", &PyType_Type, &type, &PyTuple_Type, &cards,
                          &PyTuple_Type, &rotations, &PyTuple_Type, &moves))
        return NULL;
    if (!PyType_IsSubtype((PyTypeObject *)type, &PyTuple_Type) ||
        PyTuple_GET_SIZE(cards) != NUM_CARDS || PyTuple_GET_SIZE(rotations) != NUM_RINGS * 23 ||
        PyTuple_GET_SIZE(moves) != 74 * 74) {
        PyErr_SetString(PyExc_ValueError, "configure(Play, 20 cards, 138 rotations, 74*74 moves)");
        return NULL;
    }
    Py_INCREF(type);
    Py_INCREF(cards);
    Py_INCREF(rotations);
    Py_INCREF(moves);
    for (int set = 0; set < 1 << PLAY_SET_BITS; set++) /* built from the old values */
        for (int i = 0; i < PLAY_WAYS; i++) Py_CLEAR(play_cache[set][i].play);
    Py_XSETREF(play_type, (PyTypeObject *)type);
    Py_XSETREF(card_values, cards);
    Py_XSETREF(rotation_values, rotations);
    Py_XSETREF(move_values, moves);
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------ entry points */

/* generate() fills this under the GIL without calling into Python; callers copy it out
 * (own_codes) before they build objects, since an allocation can run a collection, a
 * finalizer and so another thread's call. */
static Plays plays_buffer;

static long *own_codes(int *n) {
    *n = plays_buffer.n;
    long *codes = PyMem_Malloc(sizeof(long) * (plays_buffer.n ? plays_buffer.n : 1));
    if (codes == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(codes, plays_buffer.codes, sizeof(long) * plays_buffer.n);
    return codes;
}

static long *generate_from(PyObject *const *args, Py_ssize_t nargs, const char *name, int *n) {
    int seat, own, top_seat, bottom;
    if (count_args(nargs, 8, name) < 0 || int_arg(args[4], &seat) < 0 ||
        int_arg(args[5], &own) < 0 || int_arg(args[6], &top_seat) < 0 ||
        int_arg(args[7], &bottom) < 0)
        return NULL;
    Board b;
    unsigned cards;
    int size;
    if (read_board(args[0], args[1], args[2], &b) < 0 || read_hand(args[3], &cards, &size) < 0)
        return NULL;
    generate(&b, (const unsigned char *)PyBytes_AS_STRING(args[2]), cards, seat, own, top_seat,
             bottom, &plays_buffer);
    return own_codes(n);
}

static PyObject *py_legal_plays(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    int n;
    long *codes;
    if (!configured() || (codes = generate_from(args, nargs, "legal_plays", &n)) == NULL)
        return NULL;
    PyObject *out = PyTuple_New(n);
    if (out != NULL && decode_into(codes, n, out) < 0) Py_CLEAR(out);
    PyMem_Free(codes);
    return out;
}

static PyObject *py_legal_codes(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    int n;
    long *codes = generate_from(args, nargs, "legal_codes", &n);
    if (codes == NULL) return NULL;
    PyObject *out = PyList_New(n);
    for (int i = 0; out != NULL && i < n; i++) {
        PyObject *code = PyLong_FromLong(codes[i]);
        if (code == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, code);
    }
    PyMem_Free(codes);
    return out;
}

static PyObject *py_decode(PyObject *self, PyObject *arg) {
    if (!configured()) return NULL;
    long code = PyLong_AsLong(arg);
    if (code == -1 && PyErr_Occurred()) return NULL;
    if (code < 0) {
        PyErr_Format(PyExc_ValueError, "%ld is not a play code", code);
        return NULL;
    }
    return decode(code);
}

/* movegen.has_legal_play on a board already read */
static int has_legal(const Board *b, unsigned cards, int hand_size, int seat, int own,
                     int top_seat, int finished, int bottom) {
    if (!hand_size || finished) return 0;
    int mine[PAWNS];
    int nmine = own_pawns(b, seat, mine);
    if (nmine && (cards & ~(1u << CARD_ANY))) return 1;
    int has_off = nmine + top_seat < PAWNS;
    if (!nmine && !has_off) return 0;
    Groups g;
    pawn_moves(b->cells, (unsigned char(*)[NUM_SLOTS])b->rows, mine, nmine, has_off, bottom, &g);
    for (int card = 0; card < NUM_CARDS; card++) {
        if (!(cards & (1u << card))) continue;
        if (card >= CARD_ANY) {
            for (int group = 0; group <= TOP_GROUP; group++)
                if (g.n[group]) return 1;
        } else if (g.n[card / 3] || (card / 3 == own && g.n[TOP_GROUP])) {
            return 1;
        }
    }
    return 0;
}

static PyObject *py_has_legal_play(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    int seat, own, top_seat, finished, bottom;
    if (count_args(nargs, 9, "has_legal_play") < 0 || int_arg(args[4], &seat) < 0 ||
        int_arg(args[5], &own) < 0 || int_arg(args[6], &top_seat) < 0 ||
        int_arg(args[7], &finished) < 0 || int_arg(args[8], &bottom) < 0)
        return NULL;
    unsigned cards;
    int size;
    if (read_hand(args[3], &cards, &size) < 0) return NULL;
    if (!size || finished) Py_RETURN_FALSE;
    Board b;
    if (read_board(args[0], args[1], args[2], &b) < 0) return NULL;
    return PyBool_FromLong(has_legal(&b, cards, size, seat, own, top_seat, finished, bottom));
}

static int groups_of(PyObject *args, Groups *g, Board *b, int *seat) {
    PyObject *cells, *offsets, *table;
    int top_seat, bottom;
    if (!PyArg_ParseTuple(args, "OOOiii", &cells, &offsets, &table, seat, &top_seat, &bottom))
        return -1;
    if (read_board(cells, offsets, table, b) < 0) return -1;
    int mine[PAWNS];
    int nmine = own_pawns(b, *seat, mine);
    pawn_moves(b->cells, b->rows, mine, nmine, nmine + top_seat < PAWNS, bottom, g);
    return 0;
}

/* state.moves_by_colour: seven lists of the shared Move values */
static PyObject *py_pawn_moves(PyObject *self, PyObject *args) {
    Groups g;
    Board b;
    int seat;
    if (!configured() || groups_of(args, &g, &b, &seat) < 0) return NULL;
    PyObject *out = PyList_New(TOP_GROUP + 1);
    if (out == NULL) return NULL;
    for (int group = 0; group <= TOP_GROUP; group++) {
        PyObject *list = PyList_New(g.n[group]);
        if (list == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        for (int i = 0; i < g.n[group]; i++) {
            int mv = g.mv[group][i];
            PyObject *move = PyTuple_GET_ITEM(move_values, (mv >> 7) * 74 + (mv & 127));
            Py_INCREF(move);
            PyList_SET_ITEM(list, i, move);
        }
        PyList_SET_ITEM(out, group, list);
    }
    return out;
}

static int climbs(int frm, int to) {
    if (to == TOP || frm == OFF) return 1;
    return to < NUM_SQUARES && to / NUM_SLOTS > frm / NUM_SLOTS;
}

/* centrix_eval.scores, with the same floating-point operations in the same order (so that
 * the bots' ties, and so their choices, are the same). */
static void compute_scores(const Board *b, const int *top, int n, int bottom, double w_top,
                           double w_opportunity, double w_threat, int mover, const int *hand,
                           int hand_n, int own, double *out) {
    for (int i = 0; i < n; i++) out[i] = w_top * (double)top[i];
    int first_bumpable = (bottom == PROTECT ? 2 : 1) * NUM_SLOTS;
    for (int sq = 0; sq < NUM_SQUARES; sq++) {
        int owner = b->cells[sq];
        if (owner == EMPTY) continue;
        int r = sq / NUM_SLOTS, s = sq % NUM_SLOTS;
        out[owner] += (double)(r + 1);
        if (sq < first_bumpable) continue;
        int base = r * NUM_SLOTS;
        int around[4] = {base + (s + 1) % NUM_SLOTS, base + (s + NUM_SLOTS - 1) % NUM_SLOTS,
                         sq - NUM_SLOTS, r < NUM_RINGS - 1 ? sq + NUM_SLOTS : -1};
        for (int i = 0; i < 4; i++) {
            int c = around[i] < 0 ? EMPTY : b->cells[around[i]];
            if (c != EMPTY && c != owner) {
                out[owner] -= w_threat;
                break;
            }
        }
    }
    if (w_opportunity != 0.0 && mover >= 0) {
        long count = 0;
        if (hand_n) {
            int mine[PAWNS];
            int nmine = own_pawns(b, mover, mine);
            Groups g;
            pawn_moves(b->cells, (unsigned char(*)[NUM_SLOTS])b->rows, mine, nmine,
                       nmine + top[mover] < PAWNS, bottom, &g);
            int upward[TOP_GROUP + 1], any = 0;
            for (int group = 0; group <= TOP_GROUP; group++) {
                upward[group] = 0;
                for (int i = 0; i < g.n[group] && !upward[group]; i++)
                    upward[group] = climbs(g.mv[group][i] >> 7, g.mv[group][i] & 127);
                any |= upward[group];
            }
            /* per card in the hand, copies counted again, as the Python loop does */
            for (int i = 0; i < hand_n; i++) {
                int card = hand[i];
                if (card >= CARD_ANY)
                    count += any;
                else
                    count += upward[card / 3] || (card / 3 == own && upward[TOP_GROUP]);
            }
        }
        out[mover] += w_opportunity * (double)count;
    }
}

#define MAX_HAND 16

static int read_cards(PyObject *list, int *cards, int max, int *n) {
    if (!PyList_Check(list)) {
        PyErr_SetString(PyExc_TypeError, "cards come in a list");
        return -1;
    }
    *n = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list) && *n < max; i++) {
        long c;
        if (small_int(PyList_GET_ITEM(list, i), &c) < 0) return -1;
        if (c < 0 || c >= NUM_CARDS) {
            PyErr_SetString(PyExc_ValueError, "a card is 0-19");
            return -1;
        }
        cards[(*n)++] = (int)c;
    }
    return PyList_GET_SIZE(list) > max; /* 1: a hand edited past the core's size */
}

static int read_ints(PyObject *seq, int *out, int n, const char *what) {
    if (!(PyList_Check(seq) || PyTuple_Check(seq)) || PySequence_Fast_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_TypeError, "%s must be a list or tuple of %d ints", what, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        long v;
        if (small_int(PySequence_Fast_GET_ITEM(seq, i), &v) < 0) return -1;
        out[i] = (int)v;
    }
    return 0;
}

static PyObject *py_scores(PyObject *self, PyObject *args) {
    PyObject *cells, *offsets, *table, *top_list, *hand_list;
    int bottom, mover, own;
    double w_top, w_opportunity, w_threat;
    if (!PyArg_ParseTuple(args, "OOOO!idddiOi", &cells, &offsets, &table, &PyList_Type,
                          &top_list, &bottom, &w_top, &w_opportunity, &w_threat, &mover,
                          &hand_list, &own))
        return NULL;
    Board b;
    if (read_board(cells, offsets, table, &b) < 0) return NULL;
    int n = (int)PyList_GET_SIZE(top_list), top[6], hand[MAX_HAND], hand_n;
    if (n < 1 || n > 6 || mover >= n) {
        PyErr_SetString(PyExc_ValueError, "2-6 seats, and a mover among them");
        return NULL;
    }
    for (int sq = 0; sq < NUM_SQUARES; sq++)
        if (b.cells[sq] < EMPTY || b.cells[sq] >= n) {
            PyErr_SetString(PyExc_ValueError, "a cell holds a seat that does not exist");
            return NULL;
        }
    if (read_ints(top_list, top, n, "top") < 0) return NULL;
    int rc = read_cards(hand_list, hand, MAX_HAND, &hand_n);
    if (rc < 0) return NULL;
    if (rc > 0) Py_RETURN_NONE;
    double out[6];
    compute_scores(&b, top, n, bottom, w_top, w_opportunity, w_threat, mover, hand, hand_n, own,
                   out);
    PyObject *result = PyList_New(n);
    if (result == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *f = PyFloat_FromDouble(out[i]);
        if (f == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, i, f);
    }
    return result;
}

/* ------------------------------------------------------------------ Greedy's one ply */

/* The deck has 42 cards; a draw pile edited past this is left to the engine. */
#define MAX_PILE 64
/* Every card a rollout discards was in a hand or the draw pile when it started. */
#define MAX_DISCARDED (6 * MAX_HAND + MAX_PILE)

typedef struct {
    Board b;
    int n, top[6], places[6], own[6], hand_n[6], hands[6][MAX_HAND]; /* hands in list order */
    int draw[MAX_PILE], draw_at, draw_n, discard_n, plays_done, turn;
    int *discarded; /* a rollout's log of the cards discarded, in order; NULL elsewhere */
    int discarded_n;
} Game;

static void discard_card(Game *g, int card) {
    g->discard_n++;
    if (g->discarded != NULL) g->discarded[g->discarded_n++] = card;
}

static unsigned card_set(const int *hand, int n) {
    unsigned cards = 0;
    for (int i = 0; i < n; i++) cards |= 1u << hand[i];
    return cards;
}

static int seat_can_play(const Game *g, int seat, int bottom) {
    return has_legal(&g->b, card_set(g->hands[seat], g->hand_n[seat]), g->hand_n[seat], seat,
                     g->own[seat], g->top[seat], g->places[seat], bottom);
}

/* CentrixState._make on a copy, up to the seat to move next. Returns that seat,
 * or -1 where the Python engine must decide: the game ends (ranking by Outcome), or the
 * draw pile runs out and the discard pile is reshuffled by the position's generator. */
static int apply(Game *g, int seat, long code, const unsigned char *table, int bottom,
                 int max_turns) {
    int card = code & 31, ring = (code >> 5) & 7, amount = (int)((code >> 8) & 31) - 11;
    int frm = (code >> 13) & 127, to = (code >> 20) & 127;
    int *hand = g->hands[seat];
    for (int i = 0; i < g->hand_n[seat]; i++)
        if (hand[i] == card) { /* list.remove: the first copy, the rest in order */
            memmove(hand + i, hand + i + 1, sizeof(int) * (g->hand_n[seat] - i - 1));
            g->hand_n[seat]--;
            break;
        }
    discard_card(g, card);
    signed char *cells = g->b.cells;
    if (ring) { /* state._rotate */
        int r = ring - 1, k = mod12(amount), base = r * NUM_SLOTS;
        signed char old[NUM_SLOTS];
        memcpy(old, cells + base, NUM_SLOTS);
        for (int i = 0; i < NUM_SLOTS; i++) cells[base + (i + k) % NUM_SLOTS] = old[i];
        g->b.offsets[r] = (g->b.offsets[r] + k) % NUM_SLOTS;
        memcpy(g->b.rows[r], table + (r * NUM_SLOTS + g->b.offsets[r]) * NUM_SLOTS, NUM_SLOTS);
    }
    if (frm != NO_SQUARE) { /* state._move, with the bump chain (D12, D14) */
        if (frm != OFF) cells[frm] = EMPTY;
        if (to == TOP) {
            g->top[seat]++;
        } else {
            int bumped = cells[to];
            cells[to] = (signed char)seat;
            int r = to / NUM_SLOTS, s = to % NUM_SLOTS;
            while (bumped != EMPTY) {
                r -= 2;
                if (r < 0) {
                    if (bottom != FLOOR) break; /* knocked off the board */
                    r = 0;
                }
                int sq = r * NUM_SLOTS + s, next = cells[sq];
                cells[sq] = (signed char)bumped;
                bumped = next;
            }
        }
    }
    g->plays_done++;
    if (g->top[seat] == PAWNS) { /* state._finish */
        int place = 1, unfinished = 0;
        for (int i = 0; i < g->n; i++) place += g->places[i] != 0;
        g->places[seat] = place;
        for (int i = 0; i < g->n; i++) unfinished += g->places[i] == 0;
        if (unfinished <= 1) return -1;
    }
    if (g->plays_done < PLAYS_PER_TURN && seat_can_play(g, seat, bottom)) return seat;
    if (g->places[seat]) { /* state._end_turn */
        for (int i = 0; i < g->hand_n[seat]; i++) discard_card(g, hand[i]);
        g->hand_n[seat] = 0;
    } else {
        while (g->hand_n[seat] < HAND_SIZE) { /* state.refill_hand */
            if (!g->draw_n) {
                if (!g->discard_n) break;
                return -1;
            }
            hand[g->hand_n[seat]++] = g->draw[g->draw_at++];
            g->draw_n--;
        }
        for (int i = 1; i < g->hand_n[seat]; i++) /* hand.sort() */
            for (int j = i; j > 0 && hand[j - 1] > hand[j]; j--) {
                int tmp = hand[j];
                hand[j] = hand[j - 1];
                hand[j - 1] = tmp;
            }
    }
    g->turn++;
    g->plays_done = 0;
    int unfinished = 0, passes = 0; /* state._next_turn */
    for (int i = 0; i < g->n; i++) unfinished += g->places[i] == 0;
    for (;;) {
        if (max_turns >= 0 && g->turn >= max_turns) return -1;
        seat = (seat + 1) % g->n;
        while (g->places[seat]) seat = (seat + 1) % g->n;
        if (seat_can_play(g, seat, bottom)) return seat;
        passes++;
        g->turn++;
        if (passes >= unfinished) return -1;
    }
}

/* -1 with an exception set, 1 where the Python code must decide (a hand past MAX_HAND, a
 * draw pile past draw_max when draw_max is MAX_PILE), 0. Of the draw pile only the first
 * draw_max cards are read: one turn's refill draws HAND_SIZE at most. */
static int read_game(Game *g, PyObject *cells, PyObject *offsets, PyObject *table,
                     PyObject *hands, PyObject *draw, int draw_max, int discard_n,
                     PyObject *top, PyObject *places, PyObject *players, int seat,
                     int plays_done, int turn) {
    if (read_board(cells, offsets, table, &g->b) < 0) return -1;
    g->n = (int)PyList_GET_SIZE(hands);
    if (g->n < 2 || g->n > 6 || seat < 0 || seat >= g->n) {
        PyErr_SetString(PyExc_ValueError, "2-6 seats, and the seat to move among them");
        return -1;
    }
    for (int sq = 0; sq < NUM_SQUARES; sq++)
        if (g->b.cells[sq] < EMPTY || g->b.cells[sq] >= g->n) {
            PyErr_SetString(PyExc_ValueError, "a cell holds a seat that does not exist");
            return -1;
        }
    if (read_ints(top, g->top, g->n, "top") < 0 ||
        read_ints(places, g->places, g->n, "places") < 0 ||
        read_ints(players, g->own, g->n, "players") < 0)
        return -1;
    for (int i = 0; i < g->n; i++) {
        int rc = read_cards(PyList_GET_ITEM(hands, i), g->hands[i], MAX_HAND, &g->hand_n[i]);
        if (rc) return rc; /* -1 an error, 1 for the Python code to go on */
    }
    if (draw_max == MAX_PILE && PyList_GET_SIZE(draw) > MAX_PILE) return 1;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(draw) && i < draw_max; i++) {
        long c;
        if (small_int(PyList_GET_ITEM(draw, i), &c) < 0) return -1;
        if (c < 0 || c >= NUM_CARDS) {
            PyErr_SetString(PyExc_ValueError, "a card is 0-19");
            return -1;
        }
        g->draw[i] = (int)c;
    }
    g->draw_at = 0;
    g->draw_n = (int)PyList_GET_SIZE(draw);
    g->discard_n = discard_n;
    g->discarded = NULL;
    g->discarded_n = 0;
    g->plays_done = plays_done;
    g->turn = turn;
    return 0;
}

/* greedy_play's value of each legal play (in legal_plays order) for the seat to move: its
 * score minus the best unfinished other seat's after the play, NaN where the Python engine
 * must push the play itself (see apply). */
static PyObject *py_play_values(PyObject *self, PyObject *args) {
    PyObject *cells, *offsets, *table, *hands, *draw, *top, *places, *players;
    int discard_n, seat, plays_done, turn, max_turns, bottom;
    double w_top, w_opportunity, w_threat;
    if (!PyArg_ParseTuple(args, "OOOO!O!iOOOiiiiiddd", &cells, &offsets, &table, &PyList_Type,
                          &hands, &PyList_Type, &draw, &discard_n, &top, &places, &players,
                          &seat, &plays_done, &turn, &max_turns, &bottom, &w_top,
                          &w_opportunity, &w_threat))
        return NULL;
    Game g;
    int rc = read_game(&g, cells, offsets, table, hands, draw, HAND_SIZE, discard_n, top,
                       places, players, seat, plays_done, turn);
    if (rc < 0) return NULL;
    if (rc > 0) Py_RETURN_NONE;
    const unsigned char *t = (const unsigned char *)PyBytes_AS_STRING(table);
    generate(&g.b, t, card_set(g.hands[seat], g.hand_n[seat]), seat, g.own[seat], g.top[seat],
             bottom, &plays_buffer);
    int n;
    long *codes = own_codes(&n);
    if (codes == NULL) return NULL;
    PyObject *out = PyList_New(n);
    for (int i = 0; out != NULL && i < n; i++) {
        Game after = g;
        double value = Py_NAN;
        int mover = apply(&after, seat, codes[i], t, bottom, max_turns);
        if (mover >= 0) {
            double all[6];
            compute_scores(&after.b, after.top, g.n, bottom, w_top, w_opportunity, w_threat,
                           mover, after.hands[mover], after.hand_n[mover], after.own[mover], all);
            int any = 0;
            double best = 0.0;
            for (int s = 0; s < g.n; s++)
                if (s != seat && !after.places[s] && (!any || all[s] > best)) {
                    best = all[s];
                    any = 1;
                }
            value = all[seat] - best;
        }
        PyObject *f = PyFloat_FromDouble(value);
        if (f == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, f);
    }
    PyMem_Free(codes);
    return out;
}

static int set_int(PyObject *list, Py_ssize_t i, long v) {
    PyObject *o = PyLong_FromLong(v);
    return o == NULL ? -1 : PyList_SetItem(list, i, o);
}

/* What pop needs to take back a play the core made from `was` to `now` (an undo record, in
 * place of the engine's snapshot of every list): the counts, the board, the seats' tops and
 * places, the mover's hand as it was, the cards drawn from the pile, the discard pile's
 * length. Byte layout: seat, plays_done, turn (4 bytes, little-endian), n, 72 cells + 1,
 * 6 offsets, n tops, n places, the hand's size and cards, the drawn count and cards, the
 * discard pile's length (4 bytes). */
#define RECORD_MAX \
    (1 + 1 + 4 + 1 + NUM_SQUARES + NUM_RINGS + 12 + 1 + MAX_HAND + 1 + HAND_SIZE + 4)

static int set_cards(PyObject *list, Py_ssize_t from, Py_ssize_t to, const int *cards, int n);
static int turn_ring(PyObject *offsets, PyObject *rows_table, PyObject *rows, int r, int o);

static void put_u32(unsigned char *at, unsigned long v) {
    for (int i = 0; i < 4; i++) at[i] = (unsigned char)(v >> (8 * i));
}

static unsigned long get_u32(const unsigned char *at) {
    unsigned long v = 0;
    for (int i = 0; i < 4; i++) v |= (unsigned long)at[i] << (8 * i);
    return v;
}

static PyObject *undo_record(const Game *was, const Game *now, int seat, int discard_len) {
    unsigned char buf[RECORD_MAX], *p = buf;
    *p++ = (unsigned char)seat;
    *p++ = (unsigned char)was->plays_done;
    put_u32(p, (unsigned long)was->turn);
    p += 4;
    *p++ = (unsigned char)was->n;
    for (int sq = 0; sq < NUM_SQUARES; sq++) *p++ = (unsigned char)(was->b.cells[sq] + 1);
    for (int r = 0; r < NUM_RINGS; r++) *p++ = (unsigned char)was->b.offsets[r];
    for (int i = 0; i < was->n; i++) *p++ = (unsigned char)was->top[i];
    for (int i = 0; i < was->n; i++) *p++ = (unsigned char)was->places[i];
    *p++ = (unsigned char)was->hand_n[seat];
    for (int i = 0; i < was->hand_n[seat]; i++) *p++ = (unsigned char)was->hands[seat][i];
    int drawn = now->draw_at - was->draw_at; /* one turn's refill: HAND_SIZE at most */
    if (drawn < 0 || drawn > HAND_SIZE) {
        PyErr_SetString(PyExc_RuntimeError, "a play drew more than a refill");
        return NULL;
    }
    *p++ = (unsigned char)drawn;
    for (int i = 0; i < drawn; i++) *p++ = (unsigned char)was->draw[i];
    put_u32(p, (unsigned long)discard_len);
    p += 4;
    return PyBytes_FromStringAndSize((const char *)buf, p - buf);
}

/* CentrixState.pop of a play the core made: the state's lists set back by its undo record.
 * Takes the record, then the state as apply_play does (what the record does not need is
 * ignored). Returns (seat, plays_done, turn) for the caller to set. */
static PyObject *py_undo_play(PyObject *self, PyObject *args) {
    PyObject *record, *cells, *offsets, *table, *rows_table, *rows, *hands, *draw, *discard,
        *top, *places, *players;
    int seat, plays_done_now, turn_now, max_turns, bottom;
    if (!PyArg_ParseTuple(args, "SO!O!OO!O!O!O!O!O!O!Oiiiii", &record, &PyList_Type, &cells,
                          &PyList_Type, &offsets, &table, &PyTuple_Type, &rows_table,
                          &PyList_Type, &rows, &PyList_Type, &hands, &PyList_Type, &draw,
                          &PyList_Type, &discard, &PyList_Type, &top, &PyList_Type, &places,
                          &players, &seat, &plays_done_now, &turn_now, &max_turns, &bottom))
        return NULL;
    if (!configured()) return NULL;
    const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(record);
    const unsigned char *end = p + PyBytes_GET_SIZE(record);
    if (end - p < 7 + NUM_SQUARES + NUM_RINGS) goto bad;
    seat = *p++;
    int plays_done = *p++;
    long turn = (long)get_u32(p);
    p += 4;
    int n = *p++;
    if (n < 2 || n > 6 || seat >= n || PyList_GET_SIZE(cells) != NUM_SQUARES ||
        PyList_GET_SIZE(offsets) != NUM_RINGS || PyList_GET_SIZE(rows) != NUM_RINGS ||
        PyTuple_GET_SIZE(rows_table) != NUM_RINGS || PyList_GET_SIZE(hands) != n ||
        PyList_GET_SIZE(top) != n || PyList_GET_SIZE(places) != n)
        goto bad;
    for (int sq = 0; sq < NUM_SQUARES; sq++)
        if (set_int(cells, sq, (long)*p++ - 1) < 0) return NULL;
    for (int r = 0; r < NUM_RINGS; r++) {
        int o = *p++;
        if (o >= NUM_SLOTS) goto bad;
        long now = PyLong_AsLong(PyList_GET_ITEM(offsets, r));
        if (now == -1 && PyErr_Occurred()) return NULL;
        if (now != o && turn_ring(offsets, rows_table, rows, r, o) < 0) return NULL;
    }
    if (end - p < 2 * n + 1) goto bad;
    for (int i = 0; i < n; i++)
        if (set_int(top, i, *p++) < 0) return NULL;
    for (int i = 0; i < n; i++)
        if (set_int(places, i, *p++) < 0) return NULL;
    int hand_n = *p++, hand[MAX_HAND];
    if (hand_n > MAX_HAND || end - p < hand_n + 1) goto bad;
    for (int i = 0; i < hand_n; i++)
        if ((hand[i] = *p++) >= NUM_CARDS) goto bad;
    int drawn = *p++, cards[HAND_SIZE];
    if (drawn > HAND_SIZE || end - p != drawn + 4) goto bad;
    for (int i = 0; i < drawn; i++)
        if ((cards[i] = *p++) >= NUM_CARDS) goto bad;
    Py_ssize_t discard_len = (Py_ssize_t)get_u32(p);
    PyObject *own = PyList_GET_ITEM(hands, seat);
    if (!PyList_Check(own) || discard_len > PyList_GET_SIZE(discard)) goto bad;
    if (set_cards(own, 0, PyList_GET_SIZE(own), hand, hand_n) < 0 ||
        set_cards(draw, 0, 0, cards, drawn) < 0 ||
        PyList_SetSlice(discard, discard_len, PyList_GET_SIZE(discard), NULL) < 0)
        return NULL;
    return counts_tuple(seat, plays_done, turn, NULL);
bad:
    PyErr_SetString(PyExc_ValueError, "not an undo record of this state");
    return NULL;
}

/* The state's offset of ring index r set to o, and its row of colours to the layout's. */
static int turn_ring(PyObject *offsets, PyObject *rows_table, PyObject *rows, int r, int o) {
    PyObject *ring_rows = PyTuple_GET_ITEM(rows_table, r);
    if (!PyTuple_Check(ring_rows) || PyTuple_GET_SIZE(ring_rows) != NUM_SLOTS) {
        PyErr_SetString(PyExc_TypeError, "the rows table is 6 tuples of 12 rows");
        return -1;
    }
    PyObject *row = PyTuple_GET_ITEM(ring_rows, o);
    Py_INCREF(row);
    return set_int(offsets, r, o) < 0 ? -1 : PyList_SetItem(rows, r, row);
}

/* The fields of a Play value (card, rotation or None, move or None), read as apply_play's
 * card, ring, amount, from and to (ring 0 and from/to -1 where there is none). */
static int play_arg(PyObject *play, int *card, int *ring, int *amount, int *frm, int *to) {
    if (!PyTuple_Check(play) || PyTuple_GET_SIZE(play) != 3) {
        PyErr_SetString(PyExc_TypeError, "a play is a Play: (card, rotation, move)");
        return -1;
    }
    PyObject *rot = PyTuple_GET_ITEM(play, 1), *move = PyTuple_GET_ITEM(play, 2);
    *ring = *amount = 0;
    *frm = *to = -1;
    if (int_arg(PyTuple_GET_ITEM(play, 0), card) < 0) return -1;
    if (rot != Py_None && (!PyTuple_Check(rot) || PyTuple_GET_SIZE(rot) != 2 ||
                           int_arg(PyTuple_GET_ITEM(rot, 0), ring) < 0 ||
                           int_arg(PyTuple_GET_ITEM(rot, 1), amount) < 0))
        goto bad;
    if (move != Py_None && (!PyTuple_Check(move) || PyTuple_GET_SIZE(move) != 2 ||
                            int_arg(PyTuple_GET_ITEM(move, 0), frm) < 0 ||
                            int_arg(PyTuple_GET_ITEM(move, 1), to) < 0))
        goto bad;
    return 0;
bad:
    if (!PyErr_Occurred())
        PyErr_SetString(PyExc_TypeError, "a rotation is (ring, amount), a move (from, to)");
    return -1;
}

/* CentrixState._make (push_unchecked after its snapshot): the play made on the state's own
 * lists, up to the next seat to move. Returns (seat, plays_done, turn, undo record) for the
 * caller to set, or None, with nothing touched, where the engine must go on itself (see
 * apply). Arguments as rollout's first 16, then the Play. */
static PyObject *py_apply_play(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    int seat, plays_done, turn, max_turns, bottom, card, ring, amount, frm, to;
    if (count_args(nargs, 17, "apply_play") < 0) return NULL;
    PyObject *cells = args[0], *offsets = args[1], *table = args[2], *rows_table = args[3],
             *rows = args[4], *hands = args[5], *draw = args[6], *discard = args[7],
             *top = args[8], *places = args[9], *players = args[10];
    if (!PyTuple_Check(rows_table)) {
        PyErr_SetString(PyExc_TypeError, "the rows table is a tuple");
        return NULL;
    }
    if (list_arg(rows) < 0 || list_arg(hands) < 0 || list_arg(draw) < 0 ||
        list_arg(discard) < 0 || int_arg(args[11], &seat) < 0 ||
        int_arg(args[12], &plays_done) < 0 || int_arg(args[13], &turn) < 0 ||
        int_arg(args[14], &max_turns) < 0 || int_arg(args[15], &bottom) < 0 ||
        play_arg(args[16], &card, &ring, &amount, &frm, &to) < 0)
        return NULL;
    Game g;
    int rc = read_game(&g, cells, offsets, table, hands, draw, HAND_SIZE,
                       (int)PyList_GET_SIZE(discard), top, places, players, seat, plays_done,
                       turn);
    if (rc < 0) return NULL;
    if (rc > 0) Py_RETURN_NONE;
    /* Checked before anything changes: a move from the top or to off the board would
     * write outside the board. */
    if (card < 0 || card >= NUM_CARDS || ring < 0 || ring > NUM_RINGS || amount < -11 ||
        amount > 11 || (ring && !amount) || (frm >= 0) != (to >= 0) || frm == TOP ||
        to == OFF || frm > TOP || to > TOP || (ring == 0 && frm < 0)) {
        PyErr_SetString(PyExc_ValueError, "not a play: a card, a rotation and/or a move");
        return NULL;
    }
    PyObject *hand = PyList_GET_ITEM(hands, seat);
    Py_ssize_t at = -1;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(hand) && at < 0; i++) {
        long c;
        if (small_int(PyList_GET_ITEM(hand, i), &c) < 0) return NULL;
        if (c == card) at = i;
    }
    if (at < 0) {
        PyErr_SetString(PyExc_ValueError, "the play's card is not in the hand of the seat to move");
        return NULL;
    }
    Game after = g;
    int mover = apply(&after, seat, encode(card, ring, amount, frm < 0 ? -1 : frm << 7 | to),
                      (const unsigned char *)PyBytes_AS_STRING(table), bottom, max_turns);
    if (mover < 0) Py_RETURN_NONE;
    PyObject *record = undo_record(&g, &after, seat, (int)PyList_GET_SIZE(discard));
    if (record == NULL) return NULL;
    PyObject *played = PyList_GET_ITEM(hand, at);
    if (PyList_Append(discard, played) < 0 || PyList_SetSlice(hand, at, at + 1, NULL) < 0)
        goto fail;
    for (int sq = 0; sq < NUM_SQUARES; sq++)
        if (after.b.cells[sq] != g.b.cells[sq] && set_int(cells, sq, after.b.cells[sq]) < 0)
            goto fail;
    if (ring && turn_ring(offsets, rows_table, rows, ring - 1, after.b.offsets[ring - 1]) < 0)
        goto fail;
    if (after.top[seat] != g.top[seat] && set_int(top, seat, after.top[seat]) < 0) goto fail;
    if (after.places[seat] != g.places[seat] && set_int(places, seat, after.places[seat]) < 0)
        goto fail;
    if (after.plays_done == 0) { /* the turn ended: state._end_turn's cards */
        if (after.places[seat]) {
            Py_ssize_t n = PyList_GET_SIZE(hand);
            if (PyList_SetSlice(discard, PyList_GET_SIZE(discard), PyList_GET_SIZE(discard),
                                hand) < 0 ||
                PyList_SetSlice(hand, 0, n, NULL) < 0)
                goto fail;
        } else {
            Py_ssize_t drawn = HAND_SIZE - PyList_GET_SIZE(hand);
            if (drawn > PyList_GET_SIZE(draw)) drawn = PyList_GET_SIZE(draw);
            if (drawn > 0) {
                PyObject *cards = PyList_GetSlice(draw, 0, drawn);
                if (cards == NULL) goto fail;
                int failed = PyList_SetSlice(hand, PyList_GET_SIZE(hand), PyList_GET_SIZE(hand),
                                             cards) < 0 ||
                             PyList_SetSlice(draw, 0, drawn, NULL) < 0;
                Py_DECREF(cards);
                if (failed) goto fail;
            }
            if (PyList_Sort(hand) < 0) goto fail;
        }
    }
    keep_board(cells, offsets, table, &after.b); /* the next position's, for its reads */
    return counts_tuple(mover, after.plays_done, after.turn, record);
fail:
    Py_DECREF(record);
    return NULL;
}

/* ------------------------------------------------------------------ ISMCTS's default policy */

static int gain_of(int frm, int to) { /* bots.centrix._gain */
    if (to == TOP) return 10;
    int level_to = to < NUM_SQUARES ? to / NUM_SLOTS + 1 : 0;
    int level_from = frm == OFF ? 0 : frm / NUM_SLOTS + 1;
    return level_to - level_from;
}

/* Random._randbelow_with_getrandbits(n) through the generator's own getrandbits, so the
 * generator's stream, and every later draw, is the same as on the Python path. */
static long randbelow(PyObject *getrandbits, long n) {
    int k = 0;
    for (long m = n; m; m >>= 1) k++; /* n.bit_length() */
    PyObject *bits_wanted = PyLong_FromLong(k);
    if (bits_wanted == NULL) return -1;
    for (;;) {
        PyObject *bits = PyObject_CallOneArg(getrandbits, bits_wanted);
        if (bits == NULL) break;
        long r = PyLong_AsLong(bits);
        Py_DECREF(bits);
        if (r == -1 && PyErr_Occurred()) break;
        if (r < n) {
            Py_DECREF(bits_wanted);
            return r;
        }
    }
    Py_DECREF(bits_wanted);
    return -1;
}

/* The positions Random.shuffle swaps a list of n items with: js[i] for i from n - 1 down to
 * 1, each randbelow(i + 1), that is getrandbits(k) for k = (i + 1).bit_length() drawn until
 * below i + 1. Each getrandbits(k) of k <= 32 is the top k bits of the generator's next
 * 32-bit output, and one getrandbits(32 * m) gives the next m outputs as its 32-bit words,
 * least significant first (CPython's Random, the only kind mirrored: see native.mirrors).
 * So the outputs come in batches of one call, m being the swaps still to make: each needs
 * at least one more output, so no batch takes an output the loop would not have drawn and
 * the generator ends where Random.shuffle leaves it, in a few calls instead of one a draw
 * (nearly a third of a determinization's time). -1 with an exception set. */
/* The generator's next m 32-bit outputs, in order, from one getrandbits(32 * m): four bytes
 * a word, least significant first, in a buffer of the module's own (valid until the next
 * call; the GIL is held), or NULL with an exception set. */
static unsigned char *output_buffer = NULL;
static Py_ssize_t output_room = 0;

static const unsigned char *outputs(PyObject *getrandbits, Py_ssize_t m) {
    if (m > output_room) {
        unsigned char *grown = PyMem_Realloc(output_buffer, (size_t)(4 * m));
        if (grown == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        output_buffer = grown;
        output_room = m;
    }
    PyObject *k = PyLong_FromSsize_t(32 * m);
    PyObject *bits = k == NULL ? NULL : PyObject_CallOneArg(getrandbits, k);
    Py_XDECREF(k);
    if (bits == NULL) return NULL;
    if (!PyLong_Check(bits)) {
        Py_DECREF(bits);
        PyErr_SetString(PyExc_TypeError, "getrandbits gave no int of the bits asked");
        return NULL;
    }
#if PY_VERSION_HEX < 0x030D0000
    /* int.to_bytes(4 * m, "little") without the method call (a third of a draw's cost) */
    int rc = _PyLong_AsByteArray((PyLongObject *)bits, output_buffer, (size_t)(4 * m), 1, 0);
    Py_DECREF(bits);
    return rc < 0 ? NULL : output_buffer;
#else
    PyObject *words = PyObject_CallMethod(bits, "to_bytes", "ns", 4 * m, "little");
    Py_DECREF(bits);
    if (words == NULL) return NULL;
    if (!PyBytes_Check(words) || PyBytes_GET_SIZE(words) != 4 * m) {
        Py_DECREF(words);
        PyErr_SetString(PyExc_TypeError, "getrandbits gave no int of the bits asked");
        return NULL;
    }
    memcpy(output_buffer, PyBytes_AS_STRING(words), (size_t)(4 * m));
    Py_DECREF(words);
    return output_buffer;
#endif
}

static unsigned long output_at(const unsigned char *p) {
    return (unsigned long)p[0] | (unsigned long)p[1] << 8 | (unsigned long)p[2] << 16 |
           (unsigned long)p[3] << 24;
}

static int bit_length(unsigned long n) {
    int width = 0;
    for (; n; n >>= 1) width++;
    return width;
}

static int shuffle_draws(Py_ssize_t n, PyObject *getrandbits, Py_ssize_t *js) {
    if (n > ((Py_ssize_t)1 << 30)) {
        PyErr_SetString(PyExc_OverflowError, "too many items to shuffle");
        return -1;
    }
    Py_ssize_t i = n - 1;
    while (i > 0) {
        Py_ssize_t m = i;
        const unsigned char *p = outputs(getrandbits, m);
        if (p == NULL) return -1;
        for (Py_ssize_t w = 0; w < m && i > 0; w++, p += 4) {
            unsigned long below = (unsigned long)i + 1;
            unsigned long r = output_at(p) >> (32 - bit_length(below));
            if (r < below) js[i--] = (Py_ssize_t)r;
        }
    }
    return 0;
}

/* RandomBot.choose's draws for a mover who cannot see `unseen` cards and has `n` legal
 * plays: view.sample's shuffle of the unseen cards (randbelow(i + 1) for i from unseen - 1
 * down to 1), its key (getrandbits(64): two outputs), then rng.choice's randbelow(n); the
 * index chosen, or -1 with an exception set. The outputs come in batches as in
 * shuffle_draws, each of the fewest the draws still to make need (a swap or the choice at
 * least one, the key two), so no batch takes an output the Python draws would not have:
 * one call of the generator a play, mostly, where each draw was one. */
static long random_bot_index(Py_ssize_t unseen, long n, PyObject *getrandbits) {
    Py_ssize_t i = unseen - 1, left = 0, key = 2;
    int width = bit_length((unsigned long)n);
    const unsigned char *p = NULL;
    for (;;) {
        if (!left) {
            Py_ssize_t m = (i > 0 ? i : 0) + key + 1;
            p = outputs(getrandbits, m);
            if (p == NULL) return -1;
            left = m;
        }
        unsigned long x = output_at(p);
        p += 4;
        left--;
        if (i > 0) {
            if ((x >> (32 - bit_length((unsigned long)i + 1))) < (unsigned long)i + 1) i--;
        } else if (key) {
            key--;
        } else if ((long)(x >> (32 - width)) < n) {
            return (long)(x >> (32 - width));
        }
    }
}

/* Random.shuffle(list): the same swaps from the same draws. */
static PyObject *py_shuffle(PyObject *self, PyObject *args) {
    PyObject *list, *getrandbits;
    if (!PyArg_ParseTuple(args, "O!O", &PyList_Type, &list, &getrandbits)) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(list);
    Py_ssize_t *js = PyMem_Malloc(sizeof(Py_ssize_t) * (n ? n : 1));
    if (js == NULL) return PyErr_NoMemory();
    if (shuffle_draws(n, getrandbits, js) < 0) {
        PyMem_Free(js);
        return NULL;
    }
    if (PyList_GET_SIZE(list) != n) { /* only a getrandbits of another kind could */
        PyMem_Free(js);
        PyErr_SetString(PyExc_RuntimeError, "the list changed size during the shuffle");
        return NULL;
    }
    for (Py_ssize_t i = n - 1; i > 0; i--) {
        PyObject *a = PyList_GET_ITEM(list, i);
        PyList_SET_ITEM(list, i, PyList_GET_ITEM(list, js[i]));
        PyList_SET_ITEM(list, js[i], a);
    }
    PyMem_Free(js);
    Py_RETURN_NONE;
}

/* The cards of a tuple of Card values as ints; -1 with an exception set. */
static int tuple_cards(PyObject *cards, int *out, Py_ssize_t max) {
    if (!PyTuple_Check(cards)) {
        PyErr_SetString(PyExc_TypeError, "cards come in a tuple");
        return -1;
    }
    if (PyTuple_GET_SIZE(cards) > max) { /* more cards seen than the deck has */
        PyErr_SetString(PyExc_ValueError, "list.remove(x): x not in list");
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(cards); i++) {
        long c;
        if (small_int(PyTuple_GET_ITEM(cards, i), &c) < 0) return -1;
        if (c < 0 || c >= NUM_CARDS) {
            PyErr_SetString(PyExc_ValueError, "a card is 0-19");
            return -1;
        }
        out[i] = (int)c;
    }
    return 0;
}

static int compare_ints(const void *a, const void *b) {
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* CentrixView.sample's deal (state.deal_unseen, the reference): the deck without the own
 * hand's and the discard pile's cards (each the first copy left, as list.remove takes it),
 * shuffled as Random.shuffle, dealt in seat order to every seat but `seat` (its hand is
 * `own`), each hand sorted, the rest the draw pile. Returns (hands, draw), tuples of Card. */
static PyObject *py_deal(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    int seat;
    if (!configured() || count_args(nargs, 6, "deal") < 0 || int_arg(args[4], &seat) < 0)
        return NULL;
    PyObject *deck = args[0], *own = args[1], *discard = args[2], *sizes = args[3];
    if (!PyTuple_Check(deck) || !PyTuple_Check(sizes) || PyTuple_GET_SIZE(sizes) > 6) {
        PyErr_SetString(PyExc_TypeError, "a deck and at most 6 hand sizes, in tuples");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(deck);
    int *unseen = PyMem_Malloc(sizeof(int) * (n ? n : 1) * 2);
    Py_ssize_t *js = PyMem_Malloc(sizeof(Py_ssize_t) * (n ? n : 1));
    PyObject *result = NULL, *hands = NULL;
    if (unseen == NULL || js == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int *known = unseen + n;
    if (tuple_cards(deck, unseen, n) < 0) goto done;
    Py_ssize_t left = n;
    for (int part = 0; part < 2; part++) {
        PyObject *cards = part ? discard : own;
        if (tuple_cards(cards, known, n) < 0) goto done;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(cards); i++) {
            Py_ssize_t at = 0;
            while (at < left && unseen[at] != known[i]) at++;
            if (at == left) {
                PyErr_SetString(PyExc_ValueError, "list.remove(x): x not in list");
                goto done;
            }
            memmove(unseen + at, unseen + at + 1, sizeof(int) * (left - at - 1));
            left--;
        }
    }
    if (shuffle_draws(left, args[5], js) < 0) goto done;
    for (Py_ssize_t i = left - 1; i > 0; i--) {
        int a = unseen[i];
        unseen[i] = unseen[js[i]];
        unseen[js[i]] = a;
    }
    hands = PyTuple_New(PyTuple_GET_SIZE(sizes));
    if (hands == NULL) goto done;
    Py_ssize_t at = 0;
    for (Py_ssize_t s = 0; s < PyTuple_GET_SIZE(sizes); s++) {
        if (s == seat) {
            PyTuple_SET_ITEM(hands, s, Py_NewRef(own));
            continue;
        }
        long size;
        if (small_int(PyTuple_GET_ITEM(sizes, s), &size) < 0) goto done;
        Py_ssize_t take = size < 0 ? 0 : (size < left - at ? size : left - at);
        qsort(unseen + at, (size_t)take, sizeof(int), compare_ints);
        PyObject *hand = PyTuple_New(take);
        if (hand == NULL) goto done;
        for (Py_ssize_t i = 0; i < take; i++)
            PyTuple_SET_ITEM(hand, i, Py_NewRef(PyTuple_GET_ITEM(card_values, unseen[at + i])));
        PyTuple_SET_ITEM(hands, s, hand);
        at += take;
    }
    PyObject *draw = PyTuple_New(left - at);
    if (draw == NULL) goto done;
    for (Py_ssize_t i = at; i < left; i++)
        PyTuple_SET_ITEM(draw, i - at, Py_NewRef(PyTuple_GET_ITEM(card_values, unseen[i])));
    result = PyTuple_Pack(2, hands, draw);
    Py_DECREF(draw);
done:
    Py_XDECREF(hands);
    PyMem_Free(unseen);
    PyMem_Free(js);
    return result;
}

/* fast_play's climbing move without rotation: the cards in the order given (the caller's
 * set's order), a random tie-break per move from the caller's generator. Sets *best to the
 * play's code, or -1 when no move gains (the caller then draws a random legal play);
 * returns -1 with an exception set, else 0. */
static int climb_move(const Board *b, const int *cards, int ncards, int seat, int own,
                      int top_seat, int bottom, PyObject *getrandbits, long *best) {
    int mine[PAWNS];
    int nmine = own_pawns(b, seat, mine);
    Groups g;
    pawn_moves(b->cells, (unsigned char(*)[NUM_SLOTS])b->rows, mine, nmine,
               nmine + top_seat < PAWNS, bottom, &g);
    int best_gain = 0;
    *best = -1;
    for (int i = 0; i < ncards; i++) {
        int card = cards[i];
        int colour = card < CARD_ANY ? card / 3 : -1;
        int groups[TOP_GROUP + 1], ngroups = 0;
        if (colour < 0) {
            for (int group = 0; group <= TOP_GROUP; group++) groups[ngroups++] = group;
        } else {
            groups[ngroups++] = colour;
            if (colour == own) groups[ngroups++] = TOP_GROUP;
        }
        for (int k = 0; k < ngroups; k++) {
            int group = groups[k];
            for (int m = 0; m < g.n[group]; m++) {
                int frm = g.mv[group][m] >> 7, to = g.mv[group][m] & 127;
                long r = randbelow(getrandbits, 4); /* rng.randrange(4) */
                if (r < 0) return -1;
                int gain = gain_of(frm, to) * 4 + (int)r;
                if (to < NUM_SQUARES && b->cells[to] != EMPTY && b->cells[to] != seat) gain += 8;
                if (colour < 0) gain -= 2;
                if (gain > best_gain) {
                    *best = encode(card, 0, 0, frm << 7 | to);
                    best_gain = gain;
                }
            }
        }
    }
    return 0;
}

static PyObject *py_fast_move(PyObject *self, PyObject *args) {
    PyObject *cells, *offsets, *table, *cards, *getrandbits;
    int seat, own, top_seat, bottom;
    if (!PyArg_ParseTuple(args, "OOOO!iiiiO", &cells, &offsets, &table, &PyList_Type, &cards,
                          &seat, &own, &top_seat, &bottom, &getrandbits))
        return NULL;
    if (!configured()) return NULL;
    Board b;
    if (read_board(cells, offsets, table, &b) < 0) return NULL;
    int order[NUM_CARDS], n;
    if (read_cards(cards, order, NUM_CARDS, &n) != 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "at most 20 distinct cards");
        return NULL;
    }
    long best;
    if (climb_move(&b, order, n, seat, own, top_seat, bottom, getrandbits, &best) < 0)
        return NULL;
    if (best < 0) Py_RETURN_NONE;
    return decode(best);
}

/* ------------------------------------------------------------------ rollouts */

/* A new list of the Card values of `cards`. */
static PyObject *card_list(const int *cards, int n) {
    PyObject *list = PyList_New(n);
    if (list == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *c = PyTuple_GET_ITEM(card_values, cards[i]);
        Py_INCREF(c);
        PyList_SET_ITEM(list, i, c);
    }
    return list;
}

/* The order in which Python's set(hand) gives a hand's distinct cards (fast_play walks the
 * cards so, and each tie-break draw follows it). Asked of a real set, since that order is
 * CPython's (the members' hashes, the insertion order, the table size); remembered for
 * hands of up to three cards, keyed by the cards in list order, since a set is a fixed
 * function of those within a process. */
#define ORDER_KEYS (21 * 21 * 21)
static signed char set_orders[ORDER_KEYS][4]; /* [0] the count + 1 once known */

static int set_order(const int *hand, int n, int *out) {
    int key = -1;
    if (n <= 3) {
        key = 0;
        for (int i = 0; i < n; i++) key = key * 21 + hand[i] + 1;
        if (set_orders[key][0]) {
            for (int i = 0; i < set_orders[key][0] - 1; i++) out[i] = set_orders[key][i + 1];
            return set_orders[key][0] - 1;
        }
    }
    PyObject *list = card_list(hand, n);
    if (list == NULL) return -1;
    PyObject *set = PySet_New(list);
    Py_DECREF(list);
    if (set == NULL) return -1;
    PyObject *it = PyObject_GetIter(set);
    Py_DECREF(set);
    if (it == NULL) return -1;
    int count = 0;
    PyObject *item;
    while ((item = PyIter_Next(it)) != NULL) {
        long c = PyLong_AsLong(item);
        Py_DECREF(item);
        if (c < 0 || c >= NUM_CARDS || count >= NUM_CARDS) {
            Py_DECREF(it);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a card is 0-19");
            return -1;
        }
        out[count++] = (int)c;
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) return -1;
    if (key >= 0) {
        for (int i = 0; i < count; i++) set_orders[key][i + 1] = (signed char)out[i];
        set_orders[key][0] = (signed char)(count + 1);
    }
    return count;
}

enum { UNIFORM = 0, CLIMB = 1, RANDOM_BOT = 2 };

/* One play of the policy for the seat to move, drawn from the caller's generator exactly as
 * the Python loop draws: UNIFORM is rng.choice(state.legal_plays()), CLIMB is
 * bots.centrix.fast_play, RANDOM_BOT is bots.centrix.RandomBot.choose on the seat's view:
 * the determinization's draws first (the unseen cards' shuffle in view.sample's deal, then
 * its key, getrandbits(64)), whose cards it never reads (the mover's legal plays are the
 * same in every determinization of its own view), then UNIFORM's. -1 with an exception
 * set. */
static long choose(const Game *g, int seat, int policy, const unsigned char *table, int bottom,
                   PyObject *random_fn, PyObject *getrandbits, Plays *buffer) {
    if (policy == CLIMB) {
        PyObject *u = PyObject_CallNoArgs(random_fn);
        if (u == NULL) return -1;
        double x = PyFloat_AsDouble(u);
        Py_DECREF(u);
        if (x == -1.0 && PyErr_Occurred()) return -1;
        if (x < 0.85) {
            int order[NUM_CARDS];
            int n = set_order(g->hands[seat], g->hand_n[seat], order);
            if (n < 0) return -1;
            long best;
            if (climb_move(&g->b, order, n, seat, g->own[seat], g->top[seat], bottom,
                           getrandbits, &best) < 0)
                return -1;
            if (best >= 0) return best;
        }
    }
    generate(&g->b, table, card_set(g->hands[seat], g->hand_n[seat]), seat, g->own[seat],
             g->top[seat], bottom, buffer);
    if (buffer->n == 0) {
        PyErr_SetString(PyExc_RuntimeError, "the seat to move has no legal play");
        return -1;
    }
    long i;
    if (policy == RANDOM_BOT) {
        Py_ssize_t unseen = g->draw_n; /* the cards outside the mover's hand and the discard */
        for (int s = 0; s < g->n; s++)
            if (s != seat) unseen += g->hand_n[s];
        i = random_bot_index(unseen, buffer->n, getrandbits);
    } else {
        i = randbelow(getrandbits, buffer->n);
    }
    return i < 0 ? -1 : buffer->codes[i];
}

static int set_cards(PyObject *list, Py_ssize_t from, Py_ssize_t to, const int *cards, int n) {
    PyObject *values = card_list(cards, n);
    if (values == NULL) return -1;
    int rc = PyList_SetSlice(list, from, to, values);
    Py_DECREF(values);
    return rc;
}

/* The state's own lists brought from `was` to `now` (what the plays between changed). */
static int write_game(const Game *was, const Game *now, PyObject *cells, PyObject *offsets,
                      PyObject *rows_table, PyObject *rows, PyObject *hands, PyObject *draw,
                      PyObject *discard, PyObject *top, PyObject *places) {
    for (int sq = 0; sq < NUM_SQUARES; sq++)
        if (now->b.cells[sq] != was->b.cells[sq] && set_int(cells, sq, now->b.cells[sq]) < 0)
            return -1;
    for (int r = 0; r < NUM_RINGS; r++)
        if (now->b.offsets[r] != was->b.offsets[r] &&
            turn_ring(offsets, rows_table, rows, r, now->b.offsets[r]) < 0)
            return -1;
    for (int i = 0; i < now->n; i++) {
        if (now->top[i] != was->top[i] && set_int(top, i, now->top[i]) < 0) return -1;
        if (now->places[i] != was->places[i] && set_int(places, i, now->places[i]) < 0)
            return -1;
        if (now->hand_n[i] != was->hand_n[i] ||
            memcmp(now->hands[i], was->hands[i], sizeof(int) * now->hand_n[i])) {
            /* Checked access: the rollout called into Python (the generator), and a
             * finalizer run by a collection there could have reached these lists. */
            PyObject *hand = PyList_GetItem(hands, i);
            if (hand == NULL || !PyList_Check(hand)) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a hand is a list");
                return -1;
            }
            if (set_cards(hand, 0, PyList_GET_SIZE(hand), now->hands[i], now->hand_n[i]) < 0)
                return -1;
        }
    }
    if (now->draw_at && PyList_SetSlice(draw, 0, now->draw_at, NULL) < 0) return -1;
    Py_ssize_t end = PyList_GET_SIZE(discard);
    return set_cards(discard, end, end, now->discarded, now->discarded_n);
}

/* Plays of a policy (see choose) made on the state's own lists without returning to Python
 * per play, as `for _ in range(plays): if done: break; state.advance(policy(state, rng))`
 * would, with `done` the seat stop_seat to move after its turn stop_turn (never, for
 * stop_seat -1) or, for hold_seat other than -1, a seat other than hold_seat to move (one
 * seat's turn: the policy is that seat's, its generator too). Returns (plays made, seat, plays_done, turn, pending): pending is -1, or
 * the code of a play already drawn that the engine must make itself (it ends the game or
 * reshuffles the discard pile; see apply); None, with nothing touched, where the engine must
 * go on itself from the start (a hand or the draw pile past the core's sizes). */
static PyObject *py_rollout(PyObject *self, PyObject *args) {
    PyObject *cells, *offsets, *table, *rows_table, *rows, *hands, *draw, *discard, *top,
        *places, *players, *random_fn, *getrandbits;
    int seat, plays_done, turn, max_turns, bottom, policy, max_plays, stop_seat, stop_turn,
        hold_seat;
    if (!PyArg_ParseTuple(args, "OOOO!O!O!O!O!OOOiiiiiOOiiiii", &cells, &offsets, &table,
                          &PyTuple_Type, &rows_table, &PyList_Type, &rows, &PyList_Type, &hands,
                          &PyList_Type, &draw, &PyList_Type, &discard, &top, &places, &players,
                          &seat, &plays_done, &turn, &max_turns, &bottom, &random_fn,
                          &getrandbits, &policy, &max_plays, &stop_seat, &stop_turn,
                          &hold_seat))
        return NULL;
    if (!configured()) return NULL;
    if (policy != UNIFORM && policy != CLIMB && policy != RANDOM_BOT) {
        PyErr_SetString(PyExc_ValueError,
                        "the policy is 0 (uniform), 1 (climb) or 2 (the random bot)");
        return NULL;
    }
    if (PyList_GET_SIZE(rows) != NUM_RINGS || PyTuple_GET_SIZE(rows_table) != NUM_RINGS) {
        PyErr_SetString(PyExc_TypeError, "rows and the rows table have one entry a ring");
        return NULL;
    }
    Game *start = PyMem_Malloc(sizeof(Game) * 3);
    int *log = PyMem_Malloc(sizeof(int) * MAX_DISCARDED);
    Plays *buffer = PyMem_Malloc(sizeof(Plays));
    PyObject *result = NULL;
    if (start == NULL || log == NULL || buffer == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Game *g = start + 1, *next = start + 2;
    int rc = read_game(start, cells, offsets, table, hands, draw, MAX_PILE,
                       (int)PyList_GET_SIZE(discard), top, places, players, seat, plays_done,
                       turn);
    if (rc < 0) goto done;
    if (rc > 0) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    const unsigned char *t = (const unsigned char *)PyBytes_AS_STRING(table);
    *g = *start;
    g->discarded = log;
    int made = 0, failed = 0;
    long pending = -1;
    while (made < max_plays) {
        if (stop_seat >= 0 && seat == stop_seat && g->turn > stop_turn) break;
        if (hold_seat >= 0 && seat != hold_seat) break;
        long code = choose(g, seat, policy, t, bottom, random_fn, getrandbits, buffer);
        if (code < 0) {
            failed = 1; /* the plays made so far still go to the state */
            break;
        }
        *next = *g;
        int mover = apply(next, seat, code, t, bottom, max_turns);
        if (mover < 0) {
            pending = code;
            break;
        }
        *g = *next;
        seat = mover;
        made++;
    }
    if (write_game(start, g, cells, offsets, rows_table, rows, hands, draw, discard, top,
                   places) < 0 ||
        failed)
        goto done;
    result = Py_BuildValue("(iiiil)", made, seat, g->plays_done, g->turn, pending);
done:
    PyMem_Free(start);
    PyMem_Free(log);
    PyMem_Free(buffer);
    return result;
}

/* ------------------------------------------------------------------ ISMCTS's tree */

/* A node of ISMCTS's tree (bots.centrix._Node, the reference, has the same fields): the
 * seat that made the play leading here, its statistics and its children by play. */
typedef struct {
    PyObject_HEAD
    PyObject *children;
    long mover, visits, avail;
    double total, prior;
} SearchNode;

static PyTypeObject SearchNodeType;

static SearchNode *new_node(long mover, double prior) {
    SearchNode *node = PyObject_GC_New(SearchNode, &SearchNodeType);
    if (node == NULL) return NULL;
    node->children = PyDict_New();
    if (node->children == NULL) {
        PyObject_GC_Del(node);
        return NULL;
    }
    node->mover = mover;
    node->visits = node->avail = 0;
    node->total = 0.0;
    node->prior = prior;
    PyObject_GC_Track(node);
    return node;
}

static PyObject *node_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"mover", "prior", NULL};
    long mover;
    double prior = 0.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "l|d", names, &mover, &prior)) return NULL;
    return (PyObject *)new_node(mover, prior);
}

static int node_traverse(SearchNode *node, visitproc visit, void *arg) {
    Py_VISIT(node->children);
    return 0;
}

static int node_clear(SearchNode *node) {
    Py_CLEAR(node->children);
    return 0;
}

static void node_dealloc(SearchNode *node) {
    PyObject_GC_UnTrack(node);
    Py_TRASHCAN_BEGIN(node, node_dealloc) /* a deep tree frees without deep recursion */
    node_clear(node);
    PyObject_GC_Del(node);
    Py_TRASHCAN_END
}

static PyMemberDef node_members[] = {
    {"children", T_OBJECT_EX, offsetof(SearchNode, children), READONLY, "play -> node"},
    {"mover", T_LONG, offsetof(SearchNode, mover), 0, "the seat that made the play"},
    {"visits", T_LONG, offsetof(SearchNode, visits), 0, "iterations through this node"},
    {"avail", T_LONG, offsetof(SearchNode, avail), 0, "times the play was legal"},
    {"total", T_DOUBLE, offsetof(SearchNode, total), 0, "the mover's rewards, summed"},
    {"prior", T_DOUBLE, offsetof(SearchNode, prior), 0, "the planner's rank, as a bias"},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject SearchNodeType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "gamenight.centrix._speedups.SearchNode",
    .tp_basicsize = sizeof(SearchNode),
    .tp_dealloc = (destructor)node_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A node of ISMCTS's tree, made as SearchNode(mover, prior=0.0): its children by play, visits, availability, summed rewards and prior.",
    .tp_traverse = (traverseproc)node_traverse,
    .tp_clear = (inquiry)node_clear,
    .tp_members = node_members,
    .tp_new = node_new,
};

/* IsmctsBot._descend's choice among `plays` at a node: each play's child (made the first
 * time it is met) gains an availability, and the play of the highest UCB wins, the first
 * of equals. The same floating-point operations in the same order as the Python loop, and
 * a draw of `random` for every unvisited child in the order met, so the same choices. */
static PyObject *py_select(PyObject *self, PyObject *args) {
    PyObject *children, *plays, *random_fn;
    long mover;
    double c, bias;
    if (!PyArg_ParseTuple(args, "O!OlOdd", &PyDict_Type, &children, &plays, &mover, &random_fn,
                          &c, &bias))
        return NULL;
    PyObject *seq = PySequence_Fast(plays, "the plays are a list or a tuple");
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n == 0) {
        PyErr_SetString(PyExc_IndexError, "no play to choose from");
        goto fail;
    }
    PyObject *best = PySequence_Fast_GET_ITEM(seq, 0);
    double best_ucb = -INFINITY;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *play = PySequence_Fast_GET_ITEM(seq, i);
        PyObject *found = PyDict_GetItemWithError(children, play); /* borrowed */
        SearchNode *child;
        if (found == NULL) {
            if (PyErr_Occurred()) goto fail;
            child = new_node(mover, 0.0);
            if (child == NULL) goto fail;
            int rc = PyDict_SetItem(children, play, (PyObject *)child);
            Py_DECREF(child); /* the dict holds it */
            if (rc < 0) goto fail;
        } else if (Py_IS_TYPE(found, &SearchNodeType)) {
            child = (SearchNode *)found;
        } else {
            PyErr_SetString(PyExc_TypeError, "the tree's nodes are SearchNodes");
            goto fail;
        }
        child->avail += 1;
        long visits = child->visits;
        double ucb;
        if (visits == 0) {
            PyObject *u = PyObject_CallNoArgs(random_fn);
            if (u == NULL) goto fail;
            double x = PyFloat_AsDouble(u);
            Py_DECREF(u);
            if (x == -1.0 && PyErr_Occurred()) goto fail;
            ucb = 1e9 + child->prior + x * 1e-6;
        } else {
            ucb = child->total / (double)visits + c * sqrt(log((double)child->avail) / (double)visits) +
                  bias * child->prior / (double)(visits + 1);
        }
        if (ucb > best_ucb) {
            best = play;
            best_ucb = ucb;
        }
    }
    Py_INCREF(best);
    Py_DECREF(seq);
    return best;
fail:
    Py_DECREF(seq);
    return NULL;
}

/* ------------------------------------------------------------------ batched observations */

/* The decisions of a play in gamenight.envs.centrix_codec's action ids (play_codes): card,
 * rotation, from and, for a play with a move, to. Returns how many. */

static int play_decisions(long code, int *out) {
    int ring = (int)(code >> 5) & 7, frm = (int)(code >> 13) & 127, to = (int)(code >> 20) & 127;
    out[0] = (int)(code & 31);
    out[1] = rotation_id(ring, (int)((code >> 8) & 31) - 11);
    if (frm == NO_SQUARE) {
        out[2] = ACT_NO_MOVE;
        return 3;
    }
    out[2] = frm == OFF ? ACT_FROM_OFF : ACT_FROM + frm;
    out[3] = to == TOP ? ACT_TOP : ACT_TO + to;
    return 4;
}

/* The hand's card set a prefix's first decision (its card) leaves: only that card's plays
 * can extend it, and each card's plays are generated apart from the others' (generate), so
 * the rest need not be. None for an id that is no card. */
static unsigned prefix_card(int action) {
    return action >= 0 && action < NUM_CARDS ? 1u << action : 0;
}

static int item_int(PyObject *seq, Py_ssize_t i, long *out) {
    PyObject *v = PySequence_Fast_GET_ITEM(seq, i);
    *out = PyLong_AsLong(v);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

/* One game's observation (centrix_codec.encode of the seat's view with the play so far) and
 * mask, from the tuple (cells, offsets, colours, players, top, hands, draw size, discard,
 * to_move or -1, plays_done, places, seat, prefix, bottom, whether the seat is to move). */
static int encode_game(PyObject *game, float *out, signed char *mask, Py_ssize_t size,
                       const float *copies, int pawns, int deck_size) {
    if (!PyTuple_Check(game) || PyTuple_GET_SIZE(game) != 15) {
        PyErr_SetString(PyExc_TypeError, "a game is a tuple of 15 fields");
        return -1;
    }
    PyObject *cells = PyTuple_GET_ITEM(game, 0), *offsets = PyTuple_GET_ITEM(game, 1);
    PyObject *colours = PyTuple_GET_ITEM(game, 2);
    PyObject *players = PySequence_Fast(PyTuple_GET_ITEM(game, 3), "players is a sequence");
    PyObject *top = NULL, *hands = NULL, *discard = NULL, *places = NULL, *prefix = NULL;
    PyObject *hand = NULL;
    int rc = -1;
    if (players == NULL) return -1;
    top = PySequence_Fast(PyTuple_GET_ITEM(game, 4), "top is a sequence");
    hands = PySequence_Fast(PyTuple_GET_ITEM(game, 5), "hands is a sequence");
    discard = PySequence_Fast(PyTuple_GET_ITEM(game, 7), "discard is a sequence");
    places = PySequence_Fast(PyTuple_GET_ITEM(game, 10), "places is a sequence");
    prefix = PySequence_Fast(PyTuple_GET_ITEM(game, 12), "prefix is a sequence");
    if (top == NULL || hands == NULL || discard == NULL || places == NULL || prefix == NULL)
        goto done;
    long draw_size, to_move, plays_done, seat, bottom;
    draw_size = PyLong_AsLong(PyTuple_GET_ITEM(game, 6));
    to_move = PyLong_AsLong(PyTuple_GET_ITEM(game, 8));
    plays_done = PyLong_AsLong(PyTuple_GET_ITEM(game, 9));
    seat = PyLong_AsLong(PyTuple_GET_ITEM(game, 11));
    bottom = PyLong_AsLong(PyTuple_GET_ITEM(game, 13));
    int legal = PyObject_IsTrue(PyTuple_GET_ITEM(game, 14));
    if (PyErr_Occurred() || legal < 0) goto done;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(players);
    if (n < 2 || n > 6 || PySequence_Fast_GET_SIZE(top) != n ||
        PySequence_Fast_GET_SIZE(hands) != n || PySequence_Fast_GET_SIZE(places) != n ||
        seat < 0 || seat >= n) {
        PyErr_SetString(PyExc_ValueError, "players, top, hands and places have a seat each");
        goto done;
    }
    if (size != 83 * n + 641) {
        PyErr_SetString(PyExc_ValueError, "the observations' width is not the player count's");
        goto done;
    }
    Board b;
    if (read_board(cells, offsets, colours, &b) < 0) goto done;
    memset(out, 0, sizeof(float) * size);
    memset(mask, 0, NUM_ACT);
    Py_ssize_t i = 0;
    for (Py_ssize_t k = 0; k < n; k++, i += NUM_SQUARES) {
        int who = (int)((seat + k) % n);
        for (int sq = 0; sq < NUM_SQUARES; sq++)
            if (b.cells[sq] == who) out[i + sq] = 1.0f;
    }
    for (int sq = 0; sq < NUM_SQUARES; sq++)
        out[i + sq * 6 + b.rows[sq / NUM_SLOTS][sq % NUM_SLOTS]] = 1.0f;
    i += NUM_SQUARES * 6;
    long v;
    for (Py_ssize_t k = 0; k < n; k++) {
        if (item_int(players, (seat + k) % n, &v) < 0) goto done;
        if (v < 0 || v >= 6) {
            PyErr_SetString(PyExc_ValueError, "a colour is 0-5");
            goto done;
        }
        out[i + k * 6 + v] = 1.0f;
    }
    i += n * 6;
    for (Py_ssize_t k = 0; k < n; k++) {
        int who = (int)((seat + k) % n);
        long t, place;
        if (item_int(top, who, &t) < 0 || item_int(places, who, &place) < 0) goto done;
        int on_board = 0;
        for (int sq = 0; sq < NUM_SQUARES; sq++) on_board += b.cells[sq] == who;
        PyObject *h = PySequence_Fast_GET_ITEM(hands, who);
        Py_ssize_t held = PyObject_Length(h);
        if (held < 0) goto done;
        out[i + k] = (float)((double)t / pawns);
        out[i + n + k] = (float)((double)(pawns - t - on_board) / pawns);
        out[i + 2 * n + k] = (float)((double)held / 3);
        out[i + 3 * n + k] = (float)((double)place / n);
        if (to_move == who) out[i + 4 * n + k] = 1.0f;
    }
    i += 5 * n;
    hand = PySequence_Fast(PySequence_Fast_GET_ITEM(hands, seat), "a hand is a sequence");
    if (hand == NULL) goto done;
    unsigned cards = 0;
    for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(hand); j++) {
        if (item_int(hand, j, &v) < 0) goto done;
        if (v < 0 || v >= NUM_CARDS) {
            PyErr_SetString(PyExc_ValueError, "a card is 0-19");
            goto done;
        }
        out[i + v] += 1.0f;
        cards |= 1u << v;
    }
    for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(discard); j++) {
        if (item_int(discard, j, &v) < 0) goto done;
        if (v < 0 || v >= NUM_CARDS) {
            PyErr_SetString(PyExc_ValueError, "a card is 0-19");
            goto done;
        }
        out[i + NUM_CARDS + v] += 1.0f;
    }
    for (int c = 0; c < NUM_CARDS; c++) {
        out[i + c] /= copies[c];
        out[i + NUM_CARDS + c] /= copies[c];
    }
    i += 2 * NUM_CARDS;
    out[i] = (float)((double)draw_size / deck_size);
    i += 1;
    out[i + (plays_done < PLAYS_PER_TURN - 1 ? plays_done : PLAYS_PER_TURN - 1)] = 1.0f;
    i += PLAYS_PER_TURN;
    Py_ssize_t depth = PySequence_Fast_GET_SIZE(prefix);
    int chosen[4];
    if (depth > 3) {
        PyErr_SetString(PyExc_ValueError, "a play's prefix has at most 3 decisions");
        goto done;
    }
    out[i + depth] = 1.0f;
    i += 4;
    for (Py_ssize_t j = 0; j < depth; j++) {
        if (item_int(prefix, j, &v) < 0) goto done;
        if (v < 0 || v >= PREFIX_IDS) {
            PyErr_SetString(PyExc_ValueError, "a prefix's decision is 0-160");
            goto done;
        }
        chosen[j] = (int)v;
        out[i + v] = 1.0f;
    }
    if (legal) {
        long own;
        if (item_int(players, seat, &own) < 0 || item_int(top, seat, &v) < 0) goto done;
        if (!depth) { /* the cards that have a legal play: D8's test, card by card */
            for (int c = 0; c < NUM_CARDS; c++)
                if ((cards & (1u << c)) &&
                    has_legal(&b, 1u << c, 1, (int)seat, (int)own, (int)v, 0, (int)bottom))
                    mask[c] = 1;
            rc = 0;
            goto done;
        }
        cards &= prefix_card(chosen[0]);
        generate_only(&b, (const unsigned char *)PyBytes_AS_STRING(colours), cards, (int)seat,
                      (int)own, (int)v, (int)bottom, depth >= 2 ? chosen[1] : -1,
                      &plays_buffer);
        for (int p = 0; p < plays_buffer.n; p++) {
            int d[4];
            int count = play_decisions(plays_buffer.codes[p], d);
            if (count <= depth) continue;
            int same = 1;
            for (Py_ssize_t j = 0; j < depth && same; j++) same = d[j] == chosen[j];
            if (same) mask[d[depth]] = 1;
        }
    }
    rc = 0;
done:
    Py_XDECREF(players);
    Py_XDECREF(top);
    Py_XDECREF(hands);
    Py_XDECREF(discard);
    Py_XDECREF(places);
    Py_XDECREF(prefix);
    Py_XDECREF(hand);
    return rc;
}

/* encode_batch(games, copies, pawns, deck_size, observations, masks): every game's
 * observation and mask written into row i of the two C-contiguous arrays (float32 and int8),
 * in one call. */
static PyObject *py_encode_batch(PyObject *self, PyObject *args) {
    PyObject *games, *copies_seq, *obs_arg, *mask_arg;
    int pawns, deck_size;
    if (!PyArg_ParseTuple(args, "O!OiiOO", &PyList_Type, &games, &copies_seq, &pawns, &deck_size,
                          &obs_arg, &mask_arg))
        return NULL;
    if (pawns != PAWNS || deck_size <= 0) {
        PyErr_SetString(PyExc_ValueError, "the core encodes 3 pawns a seat and a deck of cards");
        return NULL;
    }
    float copies[NUM_CARDS];
    PyObject *cs = PySequence_Fast(copies_seq, "copies is a sequence of 20 numbers");
    if (cs == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(cs) != NUM_CARDS) {
        Py_DECREF(cs);
        PyErr_SetString(PyExc_ValueError, "copies has one count per card kind (20)");
        return NULL;
    }
    for (int c = 0; c < NUM_CARDS; c++) {
        copies[c] = (float)PyFloat_AsDouble(PySequence_Fast_GET_ITEM(cs, c));
        if (PyErr_Occurred() || copies[c] <= 0) {
            Py_DECREF(cs);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a copy count is > 0");
            return NULL;
        }
    }
    Py_DECREF(cs);
    Py_buffer obs, masks;
    if (PyObject_GetBuffer(obs_arg, &obs, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) <
        0)
        return NULL;
    if (PyObject_GetBuffer(mask_arg, &masks, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) <
        0) {
        PyBuffer_Release(&obs);
        return NULL;
    }
    PyObject *result = NULL;
    Py_ssize_t count = PyList_GET_SIZE(games);
    if (obs.ndim != 2 || strcmp(obs.format, "f") || obs.shape[0] != count || masks.ndim != 2 ||
        (strcmp(masks.format, "b") && strcmp(masks.format, "B")) || masks.shape[0] != count ||
        masks.shape[1] != NUM_ACT) {
        PyErr_SetString(PyExc_ValueError,
                        "observations are (games, size) float32, masks (games, 234) int8");
        goto done;
    }
    for (Py_ssize_t g = 0; g < count; g++) {
        float *row = (float *)obs.buf + g * obs.shape[1];
        signed char *mrow = (signed char *)masks.buf + g * NUM_ACT;
        if (encode_game(PyList_GET_ITEM(games, g), row, mrow, obs.shape[1], copies, pawns,
                        deck_size) < 0)
            goto done;
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&obs);
    PyBuffer_Release(&masks);
    return result;
}

/* decisions(cells, offsets, table, hand, seat, own, top, bottom, prefix) -> (the sorted
 * action ids that extend prefix towards a legal play, the code of the legal play prefix
 * makes whole or -1): centrix_codec.PlayTree's two answers, from the legal codes. */
static PyObject *py_decisions(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (count_args(nargs, 9, "decisions") < 0) return NULL;
    int seat, own, top_seat, bottom;
    if (int_arg(args[4], &seat) < 0 || int_arg(args[5], &own) < 0 ||
        int_arg(args[6], &top_seat) < 0 || int_arg(args[7], &bottom) < 0)
        return NULL;
    PyObject *prefix = PySequence_Fast(args[8], "prefix is a sequence of action ids");
    if (prefix == NULL) return NULL;
    Py_ssize_t depth = PySequence_Fast_GET_SIZE(prefix);
    int chosen[4];
    if (depth > 4) {
        Py_DECREF(prefix);
        PyErr_SetString(PyExc_ValueError, "a play has at most 4 decisions");
        return NULL;
    }
    for (Py_ssize_t j = 0; j < depth; j++) {
        long v;
        if (item_int(prefix, j, &v) < 0) {
            Py_DECREF(prefix);
            return NULL;
        }
        chosen[j] = (int)v;
    }
    Py_DECREF(prefix);
    Board b;
    unsigned cards;
    int size;
    if (read_board(args[0], args[1], args[2], &b) < 0 || read_hand(args[3], &cards, &size) < 0)
        return NULL;
    if (depth) cards &= prefix_card(chosen[0]);
    generate_only(&b, (const unsigned char *)PyBytes_AS_STRING(args[2]), cards, seat, own,
                  top_seat, bottom, depth >= 2 ? chosen[1] : -1, &plays_buffer);
    unsigned char next[NUM_ACT] = {0};
    long done = -1;
    for (int p = 0; p < plays_buffer.n; p++) {
        int d[4];
        int count = play_decisions(plays_buffer.codes[p], d);
        if (count < depth) continue;
        int same = 1;
        for (Py_ssize_t j = 0; j < depth && same; j++) same = d[j] == chosen[j];
        if (!same) continue;
        if (count == depth) {
            if (done < 0) done = plays_buffer.codes[p];
        } else {
            next[d[depth]] = 1;
        }
    }
    PyObject *ids = PyList_New(0);
    if (ids == NULL) return NULL;
    for (int a = 0; a < NUM_ACT; a++) {
        if (!next[a]) continue;
        PyObject *id = PyLong_FromLong(a);
        if (id == NULL || PyList_Append(ids, id) < 0) {
            Py_XDECREF(id);
            Py_DECREF(ids);
            return NULL;
        }
        Py_DECREF(id);
    }
    return Py_BuildValue("(Nl)", ids, done);
}

static PyMethodDef methods[] = {
    {"configure", py_configure, METH_VARARGS,
     "configure(Play, cards, rotations, moves): the values plays are built from."},
    {"legal_plays", (PyCFunction)(void (*)(void))py_legal_plays, METH_FASTCALL,
     "legal_plays(cells, offsets, table, hand, seat, own, top, bottom) -> tuple of Play."},
    {"legal_codes", (PyCFunction)(void (*)(void))py_legal_codes, METH_FASTCALL,
     "legal_codes(cells, offsets, table, hand, seat, own, top, bottom) -> list of int."},
    {"decode", py_decode, METH_O, "decode(code) -> Play."},
    {"has_legal_play", (PyCFunction)(void (*)(void))py_has_legal_play, METH_FASTCALL,
     "has_legal_play(cells, offsets, table, hand, seat, own, top, finished, bottom) -> bool."},
    {"pawn_moves", py_pawn_moves, METH_VARARGS,
     "pawn_moves(cells, offsets, table, seat, top, bottom) -> 7 lists of Move."},
    {"apply_play", (PyCFunction)(void (*)(void))py_apply_play, METH_FASTCALL,
     "apply_play(cells, offsets, table, rows_table, rows, hands, draw, discard, top, places, "
     "players, seat, plays_done, turn, max_turns, bottom, play)."},
    {"play_values", py_play_values, METH_VARARGS,
     "play_values(cells, offsets, table, hands, draw, discard_n, top, places, players, seat, "
     "plays_done, turn, max_turns, bottom, w_top, w_opp, w_threat) -> list of float."},
    {"fast_move", py_fast_move, METH_VARARGS,
     "fast_move(cells, offsets, table, cards, seat, own, top, bottom, getrandbits) -> Play | None."},
    {"undo_play", py_undo_play, METH_VARARGS,
     "undo_play(record, then apply_play's state arguments) -> (seat, plays_done, turn)."},
    {"rollout", py_rollout, METH_VARARGS,
     "rollout(cells, offsets, table, rows_table, rows, hands, draw, discard, top, places, "
     "players, seat, plays_done, turn, max_turns, bottom, random, getrandbits, policy, plays, "
     "stop_seat, stop_turn) -> (made, seat, plays_done, turn, pending) | None."},
    {"select", py_select, METH_VARARGS,
     "select(children, plays, mover, random, c, bias) -> the play of the highest UCB."},
    {"shuffle", py_shuffle, METH_VARARGS,
     "shuffle(list, getrandbits): random.Random.shuffle, the same swaps from the same draws."},
    {"deal", (PyCFunction)(void (*)(void))py_deal, METH_FASTCALL,
     "deal(deck, own, discard, sizes, seat, getrandbits) -> (hands, draw): a view's deal."},
    {"decisions", (PyCFunction)(void (*)(void))py_decisions, METH_FASTCALL,
     "decisions(cells, offsets, table, hand, seat, own, top, bottom, prefix) -> (ids, code)."},
    {"encode_batch", py_encode_batch, METH_VARARGS,
     "encode_batch(games, copies, pawns, deck_size, observations, masks): the envs' tensors."},
    {"scores", py_scores, METH_VARARGS,
     "scores(cells, offsets, table, top, bottom, w_top, w_opp, w_threat, mover, hand, own)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_speedups",
                                    "The compiled core of Centrix move generation.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__speedups(void) {
    if (PyType_Ready(&SearchNodeType) < 0) return NULL;
    for (int v = SMALL_LOW; v <= SMALL_HIGH; v++)
        if (small_ints[v - SMALL_LOW] == NULL &&
            (small_ints[v - SMALL_LOW] = PyLong_FromLong(v)) == NULL)
            return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "SearchNode", (PyObject *)&SearchNodeType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
