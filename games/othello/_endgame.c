/* The Othello endgame solver's search, compiled (games/othello/endgame.py is the same search in
 * Python, the reference the tests compare this one with, and what runs where this is not built).
 *
 * Negamax with fail-soft alpha-beta over two bitboards (the mover's discs, the opponent's),
 * scored as a finished game is scored: the mover's discs minus the opponent's, the empty
 * squares going to the winner (World Othello Federation rules).  What makes it fast enough for
 * the last 14-20 empties within a move's time:
 *   - move generation by shifts over the eight directions (no loop over squares);
 *   - fastest-first ordering while many squares are empty: the move that leaves the opponent
 *     the fewest replies first (corners a little earlier), the table's best move before all;
 *   - a transposition table (both bounds and the best move) where a subtree is worth keeping;
 *   - near the end, squares in a fixed order (corners first) without sorting, and the last
 *     empty square counted directly.
 * Bit b is square b of games/othello/rules.py (a1 = 0, h1 = 7, a8 = 56).
 *
 * The midgame search (`Engine`, games/othello/engine.py, below the solver) shares its board code
 * and ends in it: principal variation search on the fitted pattern evaluation.
 */
#include "../_kernel.h"
#include <stdint.h>
#include <string.h>
#include <time.h>

typedef uint64_t u64;

#define NOT_A 0xfefefefefefefefeULL /* every file but a: where a step east may land */
#define NOT_H 0x7f7f7f7f7f7f7f7fULL /* every file but h: where a step west may land */
#define CORNERS 0x8100000000000081ULL
#define SORT_FROM 7         /* with more empty squares than this, moves are sorted fastest first */
#define TABLE_FROM 9        /* with at least this many empty squares, a position goes into the table */
#define CLOCK_MASK 4095     /* with a deadline, look at the clock every 4096 nodes */
#define DEFAULT_TABLE_SIZE (1 << 20)
#define NO_MOVE 64

/* Squares in the order the last few empties are tried: corners, then edges and the centre,
 * the squares next to corners last (they give corners away). */
static const int8_t FIXED_ORDER[64] = {
    0, 7, 56, 63, 2, 5, 16, 23, 40, 47, 58, 61, 3, 4, 24, 31, 32, 39, 59, 60, 18, 21, 42, 45,
    19, 20, 26, 29, 34, 37, 43, 44, 27, 28, 35, 36, 10, 11, 12, 13, 17, 22, 25, 30, 33, 38, 41, 46,
    50, 51, 52, 53, 1, 6, 8, 15, 48, 55, 57, 62, 9, 14, 49, 54,
};

typedef struct {
    u64 mover, other;
    int8_t low, high; /* bounds on the exact score */
    uint8_t best;
    uint8_t used;
} Entry;

typedef struct {
    PyObject_HEAD
    Entry *table;
    size_t table_size; /* a power of two */
    unsigned long long nodes;
    unsigned long long max_nodes; /* stop at this many nodes (0: no cap) */
    double deadline; /* a time.monotonic() instant, or 0 for none */
    int timed_out;
} Kernel;

/* One step of every disc in a direction, the masks keeping lines from wrapping round an edge. */
static inline u64 step(u64 b, int dir) {
    switch (dir) {
        case 0: return (b << 1) & NOT_A;  /* east */
        case 1: return (b >> 1) & NOT_H;  /* west */
        case 2: return b << 8;            /* south */
        case 3: return b >> 8;            /* north */
        case 4: return (b << 9) & NOT_A;  /* south-east */
        case 5: return (b >> 9) & NOT_H;  /* north-west */
        case 6: return (b << 7) & NOT_H;  /* south-west */
        default: return (b >> 7) & NOT_A; /* north-east */
    }
}

/* Empty squares where the mover may play: a run of the other's discs closed by a mover's disc. */
static u64 legal(u64 mover, u64 other) {
    u64 empty = ~(mover | other), moves = 0;
    for (int dir = 0; dir < 8; dir++) {
        u64 x = step(mover, dir) & other;
        x |= step(x, dir) & other;
        x |= step(x, dir) & other;
        x |= step(x, dir) & other;
        x |= step(x, dir) & other;
        x |= step(x, dir) & other;
        moves |= step(x, dir) & empty;
    }
    return moves;
}

/* The other's discs a mover's disc on `square` turns over. */
static u64 flips(u64 mover, u64 other, u64 square) {
    u64 flipped = 0;
    for (int dir = 0; dir < 8; dir++) {
        u64 run = 0, x = step(square, dir);
        while (x & other) {
            run |= x;
            x = step(x, dir);
        }
        if (x & mover) flipped |= run;
    }
    return flipped;
}

/* The final score for the mover when the game ends here: the empties go to the winner. */
static int final_score(u64 mover, u64 other) {
    int mine = __builtin_popcountll(mover), theirs = __builtin_popcountll(other);
    if (mine > theirs) return 64 - 2 * theirs;
    if (mine < theirs) return 2 * mine - 64;
    return 0;
}

static int solve(Kernel *k, u64 mover, u64 other, int alpha, int beta, int passed);

/* The last empty square: whoever can play it does (the mover first), else the game ends. */
static int last_square(Kernel *k, u64 mover, u64 other) {
    u64 square = ~(mover | other);
    k->nodes++;
    u64 f = flips(mover, other, square);
    if (f) return final_score(mover | square | f, other ^ f);
    f = flips(other, mover, square);
    if (f) return -final_score(other | square | f, mover ^ f);
    return final_score(mover, other);
}

static int out_of_time(Kernel *k) {
    if (k->timed_out) return 1;
    if (k->max_nodes && k->nodes >= k->max_nodes) k->timed_out = 1;
    if (k->deadline > 0 && (k->nodes & CLOCK_MASK) == 0 && monotonic_now() >= k->deadline) k->timed_out = 1;
    return k->timed_out;
}

/* Moves in the order to try them: the table's move, then fewest replies left to the other. */
static int ordered(u64 mover, u64 other, u64 moves, int first, int8_t *out) {
    int count = 0, keys[64];
    while (moves) {
        int sq = __builtin_ctzll(moves);
        moves &= moves - 1;
        u64 bit = 1ULL << sq, f = flips(mover, other, bit);
        int key = __builtin_popcountll(legal(other ^ f, mover | bit | f)) * 4 - ((bit & CORNERS) ? 3 : 0);
        if (sq == first) key = -1000;
        int i = count++;
        while (i > 0 && keys[i - 1] > key) { /* insertion sort: a handful of moves */
            keys[i] = keys[i - 1];
            out[i] = out[i - 1];
            i--;
        }
        keys[i] = key;
        out[i] = (int8_t)sq;
    }
    return count;
}

static int solve(Kernel *k, u64 mover, u64 other, int alpha, int beta, int passed) {
    int empties = 64 - __builtin_popcountll(mover | other);
    if (empties == 0) return final_score(mover, other);
    if (empties == 1) return last_square(k, mover, other);
    k->nodes++;
    if (out_of_time(k)) return 0;
    u64 moves = legal(mover, other);
    if (!moves) {
        if (passed) return final_score(mover, other);
        return -solve(k, other, mover, -beta, -alpha, 1);
    }
    Entry *entry = NULL;
    int first = NO_MOVE;
    if (empties >= TABLE_FROM) {
        u64 h = (mover * 0x9E3779B97F4A7C15ULL) ^ (other * 0xC2B2AE3D27D4EB4FULL);
        entry = &k->table[(h ^ (h >> 29)) & (k->table_size - 1)];
        if (entry->used && entry->mover == mover && entry->other == other) {
            if (entry->low >= beta) return entry->low;
            if (entry->high <= alpha) return entry->high;
            if (entry->low == entry->high) return entry->low;
            if (entry->low > alpha) alpha = entry->low;
            if (entry->high < beta) beta = entry->high;
            first = entry->best;
        }
    }
    int alpha0 = alpha; /* the window searched: a score at or below it is only an upper bound */
    int8_t order[64];
    int count;
    if (empties > SORT_FROM) {
        count = ordered(mover, other, moves, first, order);
    } else {
        count = 0;
        for (int i = 0; i < 64; i++)
            if (moves >> FIXED_ORDER[i] & 1) order[count++] = FIXED_ORDER[i];
    }
    int best = -65, best_move = NO_MOVE;
    for (int i = 0; i < count; i++) {
        u64 bit = 1ULL << order[i], f = flips(mover, other, bit);
        int score = -solve(k, other ^ f, mover | bit | f, -beta, -(alpha > best ? alpha : best), 0);
        if (k->timed_out) return 0;
        if (score > best) {
            best = score;
            best_move = order[i];
            if (best >= beta) break;
        }
    }
    if (entry) {
        int8_t low = -64, high = 64;
        if (entry->used && entry->mover == mover && entry->other == other) low = entry->low, high = entry->high;
        if (best >= beta) low = (int8_t)best; /* a lower bound */
        else if (best <= alpha0) high = (int8_t)best; /* an upper bound */
        else low = high = (int8_t)best; /* exact */
        *entry = (Entry){mover, other, low, high, (uint8_t)best_move, 1};
    }
    return best;
}

static int Kernel_init(Kernel *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"table_size", NULL};
    Py_ssize_t size = DEFAULT_TABLE_SIZE;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|n", kwlist, &size)) return -1;
    if (size < 1 || (size & (size - 1))) {
        PyErr_SetString(PyExc_ValueError, "table_size must be a power of two");
        return -1;
    }
    PyMem_Free(self->table);
    self->table = PyMem_Calloc((size_t)size, sizeof(Entry));
    if (!self->table) {
        PyErr_NoMemory();
        return -1;
    }
    self->table_size = (size_t)size;
    return 0;
}

static void Kernel_dealloc(Kernel *self) {
    PyMem_Free(self->table);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Kernel_reset(Kernel *self, PyObject *Py_UNUSED(ignored)) {
    memset(self->table, 0, self->table_size * sizeof(Entry));
    self->nodes = 0;
    Py_RETURN_NONE;
}

/* solve(mover, other, alpha, beta, deadline=None): the fail-soft score within the window: exact
 * inside (alpha, beta), an upper bound at or below alpha, a lower bound at or above beta. */
static PyObject *Kernel_solve(Kernel *self, PyObject *args) {
    unsigned long long mover, other;
    int alpha, beta;
    PyObject *deadline = Py_None;
    if (!PyArg_ParseTuple(args, "KKii|O", &mover, &other, &alpha, &beta, &deadline)) return NULL;
    if (mover & other) {
        PyErr_SetString(PyExc_ValueError, "a square holds one disc: mover and other overlap");
        return NULL;
    }
    if (alpha < -64 || beta > 64 || alpha >= beta) {
        PyErr_SetString(PyExc_ValueError, "the window must satisfy -64 <= alpha < beta <= 64");
        return NULL;
    }
    if (read_deadline(deadline, &self->deadline) < 0) return NULL;
    self->timed_out = 0;
    self->max_nodes = 0;
    int score;
    Py_BEGIN_ALLOW_THREADS
    score = solve(self, mover, other, alpha, beta, 0);
    Py_END_ALLOW_THREADS
    if (self->timed_out) {
        PyErr_SetString(PyExc_TimeoutError, "the deadline passed before the position was solved");
        return NULL;
    }
    return PyLong_FromLong(score);
}

NODES_ATTRIBUTE(Kernel)

static PyMethodDef Kernel_methods[] = {
    {"solve", (PyCFunction)Kernel_solve, METH_VARARGS,
     "solve(mover, other, alpha, beta, deadline=None) -> the fail-soft score within the window"},
    {"reset", (PyCFunction)Kernel_reset, METH_NOARGS, "Empty the transposition table, zero the node count."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "games.othello._endgame.Kernel",
    .tp_basicsize = sizeof(Kernel),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The endgame solver's search and its transposition table.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Kernel_init,
    .tp_dealloc = (destructor)Kernel_dealloc,
    .tp_methods = Kernel_methods,
    .tp_getset = Kernel_getset,
};

/* --- The midgame search ------------------------------------------------------------------------
 *
 * Iterative deepening principal variation search (fail-soft negamax, null windows after the
 * first move) with a transposition table of its own, scored by the fitted pattern evaluation of
 * games/othello/patterns.py, whose tables the Python side hands over once (`set_weights`: the
 * arrays themselves, not a copy).  Moves are tried the table's first, then, deep in the tree, by
 * the evaluation of the position they leave, near the leaves fastest first.  A side without a
 * move passes (a ply, as in the game); from `solve_empties` empty squares on, the exact solver
 * above takes over with the window mapped onto disc margins.
 *
 * Scores are the mover's: the evaluation in 1/128 discs within +-HEURISTIC_LIMIT, a proven
 * result WIN_BASE + the final margin (a loss its negative, a draw 0), so any proven win ranks
 * above every heuristic value.  The clock is read every CLOCK_MASK + 1 nodes; a node cap is kept
 * to within one node (the solver counts its last square unchecked). */

#define PHASES 12
#define PHASE_DISCS 5
#define MAX_PATTERNS 64
#define MAX_PER_SQUARE 16
#define WIN_BASE 10000
#define HEURISTIC_LIMIT 8191
#define INF_SCORE 30000
#define MAX_DEPTH 60
#define EVAL_ORDER_DEPTH 3 /* with at least this many plies left, moves are sorted by evaluation */
#define DEFAULT_SOLVE_EMPTIES 12

/* The pattern evaluation's tables: per square the patterns through it with its base-3 digit's
 * weight; per pattern its shape's place in a phase's flat table; the phases' tables (int16, in
 * 1/128 discs; the last three entries the weights of each side's moves and the constant). */
static struct {
    int loaded;
    int patterns;
    Py_ssize_t phase_weights;
    uint32_t offsets[MAX_PATTERNS];
    uint8_t square_count[64];
    uint8_t square_pattern[64][MAX_PER_SQUARE];
    uint32_t square_power[64][MAX_PER_SQUARE];
    Py_buffer views[PHASES];
    const int16_t *tables[PHASES];
} EVAL;

/* The fitted value of a live position for the mover, in 1/128 discs (patterns.py's `_fitted`). */
static int pattern_value(u64 mover, u64 other, int mine, int theirs) {
    uint32_t index[MAX_PATTERNS];
    memcpy(index, EVAL.offsets, sizeof(uint32_t) * (size_t)EVAL.patterns);
    for (u64 b = mover; b; b &= b - 1) {
        int sq = __builtin_ctzll(b);
        for (int j = 0; j < EVAL.square_count[sq]; j++) index[EVAL.square_pattern[sq][j]] += EVAL.square_power[sq][j];
    }
    for (u64 b = other; b; b &= b - 1) {
        int sq = __builtin_ctzll(b);
        for (int j = 0; j < EVAL.square_count[sq]; j++)
            index[EVAL.square_pattern[sq][j]] += 2 * EVAL.square_power[sq][j];
    }
    int phase = (__builtin_popcountll(mover | other) - 4) / PHASE_DISCS;
    const int16_t *table = EVAL.tables[phase < PHASES ? phase : PHASES - 1];
    Py_ssize_t w = EVAL.phase_weights;
    int total = 0;
    for (int k = 0; k < EVAL.patterns; k++) total += table[index[k]];
    return total + table[w - 3] * mine + table[w - 2] * theirs + table[w - 1];
}

static int encode_result(int margin) { return margin > 0 ? WIN_BASE + margin : margin < 0 ? margin - WIN_BASE : 0; }

typedef struct {
    u64 mover, other;
    int16_t low, high; /* bounds on the score searched `depth` plies deep */
    int8_t depth;
    uint8_t best;
    uint8_t age; /* the search that stored it */
    uint8_t used;
} MidEntry;

typedef struct {
    PyObject_HEAD
    Kernel solver; /* the exact search of the last empties: its table, and the one node count and clock */
    MidEntry *table;
    size_t table_size; /* a power of two */
    uint8_t age;
    int solve_empties;
} Engine;

static int mid_search(Engine *e, u64 mover, u64 other, int depth, int alpha, int beta);

/* The exact score as a search score, within (alpha, beta) as the solver's fail-soft bounds allow. */
static int exact_score(Engine *e, u64 mover, u64 other, int alpha, int beta) {
    int a = -65, b = 65; /* the disc window: the largest margin scored <= alpha, the smallest >= beta */
    for (int s = 64; s >= -64; s--)
        if (encode_result(s) <= alpha) { a = s; break; }
    for (int s = -64; s <= 64; s++)
        if (encode_result(s) >= beta) { b = s; break; }
    if (b <= -64) return encode_result(-64); /* every result is at least beta */
    if (a >= 64) return encode_result(64);   /* every result is at most alpha */
    if (a < -64) a = -64;
    if (b > 64) b = 64;
    return encode_result(solve(&e->solver, mover, other, a, b, 0));
}

static MidEntry *mid_slot(Engine *e, u64 mover, u64 other) {
    u64 h = (mover * 0x9E3779B97F4A7C15ULL) ^ (other * 0xC2B2AE3D27D4EB4FULL);
    return &e->table[(h ^ (h >> 29)) & (e->table_size - 1)];
}

/* The moves in the order to try them: `first`, then by the evaluation of the position each leaves
 * the other (deep in the tree), or by the replies it leaves (fewest first, corners earlier). */
static int mid_ordered(u64 mover, u64 other, u64 moves, int first, int by_value, int8_t *out) {
    int count = 0, keys[64];
    while (moves) {
        int sq = __builtin_ctzll(moves);
        moves &= moves - 1;
        u64 bit = 1ULL << sq, f = flips(mover, other, bit);
        u64 next_mover = other ^ f, next_other = mover | bit | f;
        int replies = __builtin_popcountll(legal(next_mover, next_other));
        int key;
        if (by_value)
            key = pattern_value(next_mover, next_other, replies, __builtin_popcountll(legal(next_other, next_mover)));
        else
            key = replies * 4 - ((bit & CORNERS) ? 3 : 0);
        if (sq == first) key = -1000000;
        int i = count++;
        while (i > 0 && keys[i - 1] > key) {
            keys[i] = keys[i - 1];
            out[i] = out[i - 1];
            i--;
        }
        keys[i] = key;
        out[i] = (int8_t)sq;
    }
    return count;
}

static int leaf_value(u64 mover, u64 other, u64 moves) {
    u64 replies = legal(other, mover);
    if (!moves && !replies) return encode_result(final_score(mover, other));
    int value = pattern_value(mover, other, __builtin_popcountll(moves), __builtin_popcountll(replies));
    return value > HEURISTIC_LIMIT ? HEURISTIC_LIMIT : value < -HEURISTIC_LIMIT ? -HEURISTIC_LIMIT : value;
}

static int mid_search(Engine *e, u64 mover, u64 other, int depth, int alpha, int beta) {
    Kernel *k = &e->solver;
    int empties = 64 - __builtin_popcountll(mover | other);
    if (empties <= e->solve_empties) return exact_score(e, mover, other, alpha, beta);
    k->nodes++;
    if (out_of_time(k)) return 0;
    u64 moves = legal(mover, other);
    if (depth <= 0) return leaf_value(mover, other, moves);
    if (!moves) {
        if (!legal(other, mover)) return encode_result(final_score(mover, other));
        return -mid_search(e, other, mover, depth - 1, -beta, -alpha); /* a pass is a ply */
    }
    MidEntry *entry = mid_slot(e, mover, other);
    int first = NO_MOVE;
    if (entry->used && entry->mover == mover && entry->other == other) {
        if (entry->depth >= depth) {
            if (entry->low >= beta) return entry->low;
            if (entry->high <= alpha) return entry->high;
            if (entry->low == entry->high) return entry->low;
        }
        first = entry->best;
    }
    int alpha0 = alpha;
    int8_t order[64];
    int count = mid_ordered(mover, other, moves, first, depth >= EVAL_ORDER_DEPTH, order);
    int best = -INF_SCORE, best_move = NO_MOVE;
    for (int i = 0; i < count; i++) {
        u64 bit = 1ULL << order[i], f = flips(mover, other, bit);
        u64 next_mover = other ^ f, next_other = mover | bit | f;
        int bound = alpha > best ? alpha : best, score;
        if (i == 0) {
            score = -mid_search(e, next_mover, next_other, depth - 1, -beta, -bound);
        } else {
            score = -mid_search(e, next_mover, next_other, depth - 1, -bound - 1, -bound);
            if (score > bound && score < beta && !k->timed_out)
                score = -mid_search(e, next_mover, next_other, depth - 1, -beta, -bound);
        }
        if (k->timed_out) return 0;
        if (score > best) {
            best = score;
            best_move = order[i];
            if (best >= beta) break;
        }
    }
    if (!entry->used || entry->age != e->age || entry->depth <= depth ||
        (entry->mover == mover && entry->other == other)) {
        int16_t low = -INF_SCORE, high = INF_SCORE;
        if (best >= beta) low = (int16_t)best;
        else if (best <= alpha0) high = (int16_t)best;
        else low = high = (int16_t)best;
        *entry = (MidEntry){mover, other, low, high, (int8_t)depth, (uint8_t)best_move, e->age, 1};
    }
    return best;
}

/* The expected line after the root's `move`: the table's moves while they are legal, passes shown as -1. */
static PyObject *principal_variation(Engine *e, u64 mover, u64 other, int move, int limit) {
    PyObject *pv = PyList_New(0);
    if (!pv) return NULL;
    for (int n = 0; n < limit; n++) {
        if (move != NO_MOVE) {
            u64 bit = 1ULL << move, f = flips(mover, other, bit);
            u64 next_mover = other ^ f;
            other = mover | bit | f;
            mover = next_mover;
        } else {
            u64 t = mover;
            mover = other;
            other = t;
        }
        PyObject *item = PyLong_FromLong(move == NO_MOVE ? -1 : move);
        if (!item || PyList_Append(pv, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(pv);
            return NULL;
        }
        Py_DECREF(item);
        u64 moves = legal(mover, other);
        if (!moves) {
            if (!legal(other, mover)) break;
            move = NO_MOVE;
            continue;
        }
        MidEntry *entry = mid_slot(e, mover, other);
        if (!entry->used || entry->mover != mover || entry->other != other || entry->best >= 64 ||
            !(moves >> entry->best & 1))
            break;
        move = entry->best;
    }
    return pv;
}

static int Engine_init(Engine *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"table_size", "solver_table_size", NULL};
    Py_ssize_t size = DEFAULT_TABLE_SIZE, solver_size = DEFAULT_TABLE_SIZE / 2;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|nn", kwlist, &size, &solver_size)) return -1;
    if (size < 1 || (size & (size - 1)) || solver_size < 1 || (solver_size & (solver_size - 1))) {
        PyErr_SetString(PyExc_ValueError, "table sizes must be powers of two");
        return -1;
    }
    PyMem_Free(self->table);
    PyMem_Free(self->solver.table);
    self->table = PyMem_Calloc((size_t)size, sizeof(MidEntry));
    self->solver.table = PyMem_Calloc((size_t)solver_size, sizeof(Entry));
    if (!self->table || !self->solver.table) {
        PyErr_NoMemory();
        return -1;
    }
    self->table_size = (size_t)size;
    self->solver.table_size = (size_t)solver_size;
    return 0;
}

static void Engine_dealloc(Engine *self) {
    PyMem_Free(self->table);
    PyMem_Free(self->solver.table);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Engine_clear(Engine *self, PyObject *Py_UNUSED(ignored)) {
    memset(self->table, 0, self->table_size * sizeof(MidEntry));
    memset(self->solver.table, 0, self->solver.table_size * sizeof(Entry));
    self->solver.nodes = 0;
    Py_RETURN_NONE;
}

/* search(mover, other, deadline=None, max_depth=60, max_nodes=0, solve_empties=12):
 * (move, score, depth, pv) with move a square (-1: pass), or None when neither side can move. */
static PyObject *Engine_search(Engine *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"mover", "other", "deadline", "max_depth", "max_nodes", "solve_empties", NULL};
    unsigned long long mover, other, max_nodes = 0;
    PyObject *deadline = Py_None;
    int max_depth = MAX_DEPTH, solve_empties = DEFAULT_SOLVE_EMPTIES;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "KK|OiKi", kwlist, &mover, &other, &deadline, &max_depth,
                                     &max_nodes, &solve_empties))
        return NULL;
    if (mover & other) {
        PyErr_SetString(PyExc_ValueError, "a square holds one disc: mover and other overlap");
        return NULL;
    }
    if (!EVAL.loaded) {
        PyErr_SetString(PyExc_RuntimeError, "set_weights() first: the search has no evaluation");
        return NULL;
    }
    if (read_deadline(deadline, &self->solver.deadline) < 0) return NULL;
    if (max_depth < 1) max_depth = 1;
    if (max_depth > MAX_DEPTH) max_depth = MAX_DEPTH;
    Kernel *k = &self->solver;
    k->timed_out = 0;
    k->max_nodes = max_nodes ? k->nodes + max_nodes : 0;
    self->solve_empties = solve_empties;
    self->age++;
    u64 moves = legal(mover, other);
    if (!moves) {
        if (!legal(other, mover)) Py_RETURN_NONE;
        return Py_BuildValue("(iii[i])", -1, 0, 0, -1);
    }
    int8_t order[64];
    int count = mid_ordered(mover, other, moves, NO_MOVE, 1, order);
    int best_move = order[0], best_score = 0, depth_done = 0;
    Py_BEGIN_ALLOW_THREADS
    for (int depth = 1; depth <= max_depth; depth++) {
        int alpha = -INF_SCORE, beta = INF_SCORE, best = -INF_SCORE, move = order[0];
        for (int i = 0; i < count; i++) {
            u64 bit = 1ULL << order[i], f = flips(mover, other, bit);
            u64 next_mover = other ^ f, next_other = mover | bit | f;
            int score;
            if (i == 0) {
                score = -mid_search(self, next_mover, next_other, depth - 1, -beta, -alpha);
            } else {
                score = -mid_search(self, next_mover, next_other, depth - 1, -alpha - 1, -alpha);
                if (score > alpha && !k->timed_out)
                    score = -mid_search(self, next_mover, next_other, depth - 1, -beta, -alpha);
            }
            if (k->timed_out) break;
            if (score > best) {
                best = score;
                move = order[i];
                if (best > alpha) alpha = best;
            }
        }
        if (k->timed_out) {
            /* an unfinished iteration: a move it proved better than the last iteration's stands */
            if (best > -INF_SCORE && move != order[0]) best_move = move, best_score = best;
            break;
        }
        best_move = move, best_score = best, depth_done = depth;
        for (int i = 0; i < count; i++) /* the best first next time, the rest in their order */
            if (order[i] == move) {
                memmove(order + 1, order, (size_t)i);
                order[0] = (int8_t)move;
                break;
            }
        if (best > WIN_BASE || best < -WIN_BASE) break; /* proven: deeper only refines the margin */
        if (depth >= 64 - __builtin_popcountll(mover | other) + 2) break; /* every line reached the end */
    }
    Py_END_ALLOW_THREADS
    PyObject *pv = principal_variation(self, mover, other, best_move, depth_done > 0 ? depth_done : 1);
    if (!pv) return NULL;
    return Py_BuildValue("(iiiN)", best_move, best_score, depth_done, pv);
}

NODES_ATTRIBUTE_OF(Engine, solver.nodes)

static PyMethodDef Engine_methods[] = {
    {"search", (PyCFunction)(void (*)(void))Engine_search, METH_VARARGS | METH_KEYWORDS,
     "search(mover, other, deadline=None, max_depth=60, max_nodes=0, solve_empties=12) -> "
     "(move, score, depth, pv) or None"},
    {"clear", (PyCFunction)Engine_clear, METH_NOARGS, "Empty both tables, zero the node count."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "games.othello._endgame.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The midgame search, its transposition table and the exact solver it ends in.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Engine_init,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
    .tp_getset = Engine_getset,
};

static void release_weights(void) {
    if (!EVAL.loaded) return;
    for (int p = 0; p < PHASES; p++) PyBuffer_Release(&EVAL.views[p]);
    EVAL.loaded = 0;
}

/* set_weights(patterns, tables): `patterns` the (offset in a phase's table, squares) of each pattern,
 * its first square the lowest base-3 digit; `tables` one int16 buffer a phase, held, not copied. */
static PyObject *set_weights(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *patterns, *tables;
    if (!PyArg_ParseTuple(args, "OO", &patterns, &tables)) return NULL;
    PyObject *pats = PySequence_Fast(patterns, "patterns must be a sequence");
    if (!pats) return NULL;
    PyObject *tabs = PySequence_Fast(tables, "tables must be a sequence");
    if (!tabs) {
        Py_DECREF(pats);
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(pats);
    if (n < 1 || n > MAX_PATTERNS || PySequence_Fast_GET_SIZE(tabs) != PHASES) {
        PyErr_Format(PyExc_ValueError, "1 to %d patterns and %d phase tables", MAX_PATTERNS, PHASES);
        goto fail;
    }
    release_weights();
    memset(&EVAL, 0, sizeof(EVAL));
    uint32_t largest = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long offset;
        PyObject *squares;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(pats, i), "kO", &offset, &squares)) goto fail;
        PyObject *sq_list = PySequence_Fast(squares, "a pattern's squares must be a sequence");
        if (!sq_list) goto fail;
        uint32_t power = 1, top = (uint32_t)offset;
        for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(sq_list); j++) {
            long sq = PyLong_AsLong(PySequence_Fast_GET_ITEM(sq_list, j));
            if (sq < 0 || sq > 63 || EVAL.square_count[sq] >= MAX_PER_SQUARE) {
                Py_DECREF(sq_list);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a square is 0-63, in few patterns");
                goto fail;
            }
            EVAL.square_pattern[sq][EVAL.square_count[sq]] = (uint8_t)i;
            EVAL.square_power[sq][EVAL.square_count[sq]++] = power;
            top += 2 * power;
            power *= 3;
        }
        Py_DECREF(sq_list);
        EVAL.offsets[i] = (uint32_t)offset;
        if (top > largest) largest = top;
    }
    EVAL.patterns = (int)n;
    for (int p = 0; p < PHASES; p++) {
        Py_buffer *view = &EVAL.views[p];
        if (PyObject_GetBuffer(PySequence_Fast_GET_ITEM(tabs, p), view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
            for (int q = 0; q < p; q++) PyBuffer_Release(&EVAL.views[q]);
            goto fail;
        }
        Py_ssize_t entries = view->len / 2;
        if (view->itemsize != 2 || !view->format || strcmp(view->format, "h") != 0 ||
            (p > 0 && entries != EVAL.phase_weights) || entries < (Py_ssize_t)largest + 4) {
            for (int q = 0; q <= p; q++) PyBuffer_Release(&EVAL.views[q]);
            PyErr_SetString(PyExc_ValueError, "each phase's table is an int16 array of the same length, "
                                              "its patterns' entries then the moves' and the constant");
            goto fail;
        }
        EVAL.phase_weights = entries;
        EVAL.tables[p] = (const int16_t *)view->buf;
    }
    EVAL.loaded = 1;
    Py_DECREF(pats);
    Py_DECREF(tabs);
    Py_RETURN_NONE;
fail:
    memset(&EVAL, 0, sizeof(EVAL));
    Py_DECREF(pats);
    Py_DECREF(tabs);
    return NULL;
}

/* evaluate(mover, other): the fitted value in 1/128 discs (a finished game: its disc difference). */
static PyObject *evaluate(PyObject *Py_UNUSED(module), PyObject *args) {
    unsigned long long mover, other;
    if (!PyArg_ParseTuple(args, "KK", &mover, &other)) return NULL;
    if (!EVAL.loaded) {
        PyErr_SetString(PyExc_RuntimeError, "set_weights() first");
        return NULL;
    }
    u64 mine = legal(mover, other), theirs = legal(other, mover);
    if (!mine && !theirs)
        return PyLong_FromLong(128L * (__builtin_popcountll(mover) - __builtin_popcountll(other)));
    return PyLong_FromLong(pattern_value(mover, other, __builtin_popcountll(mine), __builtin_popcountll(theirs)));
}

static PyMethodDef module_functions[] = {
    {"set_weights", set_weights, METH_VARARGS, "set_weights(patterns, tables): the evaluation's patterns and tables"},
    {"evaluate", evaluate, METH_VARARGS, "evaluate(mover, other) -> the fitted value in 1/128 discs"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "games.othello._endgame",
    .m_doc = "The Othello endgame solver's search, compiled.",
    .m_size = -1,
    .m_methods = module_functions,
};

PyMODINIT_FUNC PyInit__endgame(void) {
    PyObject *m = module_with_type(&module, &KernelType, "Kernel");
    if (!m) return NULL;
    if (PyType_Ready(&EngineType) < 0) goto fail;
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(m, "Engine", (PyObject *)&EngineType) < 0) {
        Py_DECREF(&EngineType);
        goto fail;
    }
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
