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

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "games.othello._endgame",
    .m_doc = "The Othello endgame solver's search, compiled.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__endgame(void) { return module_with_type(&module, &KernelType, "Kernel"); }
