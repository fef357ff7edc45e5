/* The Connect Four solver's search in C: the same negamax as games/connect4/solver.py.
 *
 * A position is (current, mask, moves) on the layout of games/connect4/bitboard.py: bit
 * col * 7 + row, one spare bit on top of each column.  Scores are those of the Python
 * solver (positive when the side to move wins, larger the sooner).  What makes it fast,
 * besides being compiled:
 *
 * - null-window probes narrowing the score (the loop of `Kernel.solve`);
 * - only moves that do not lose at once (forced blocks, never under an opponent's winning
 *   cell);
 * - moves ordered by the winning cells they create, the centre first among equals;
 * - a transposition table of one 64-bit word an entry: the whole key (49 bits) and both
 *   bounds, replaced on collision;
 * - an optional opening book: the win / draw / loss of every position with `book_ply`
 *   stones, its keys made symmetric (a position and its mirror share an entry), read as
 *   bounds where the search meets them.
 *
 * The search releases the GIL: one Kernel must not be used by two threads at once.
 */
#include "../_kernel.h"
#include <stdint.h>
#include <string.h>
#include <time.h>

typedef uint64_t u64;

#define WIDTH 7
#define HEIGHT 6
#define H1 7
#define CELLS 42
#define CLOCK_MASK 4095 /* with a deadline, look at the clock every 4096 nodes */
#define SCORE_OFFSET 32  /* bounds are stored as score + 32 in six bits */
#define DEFAULT_TABLE_SIZE 4194301 /* a prime near 2**22: 32 MB */

static const u64 BOTTOM = 0x40810204081ULL; /* the bottom cell of every column */
static const u64 BOARD = 0x40810204081ULL * 63ULL;
static const int CENTRE_FIRST[WIDTH] = {3, 2, 4, 1, 5, 0, 6};

static inline u64 column_mask(int col) { return 63ULL << (col * H1); }

/* Empty cells that would complete four in a line for `stones`. */
static inline u64 winning_cells(u64 s, u64 mask) {
    u64 r = (s << 1) & (s << 2) & (s << 3);
    u64 p;
    p = (s << H1) & (s << 2 * H1);
    r |= p & (s << 3 * H1);
    r |= p & (s >> H1);
    p = (s >> H1) & (s >> 2 * H1);
    r |= p & (s << H1);
    r |= p & (s >> 3 * H1);
    p = (s << (H1 - 1)) & (s << 2 * (H1 - 1));
    r |= p & (s << 3 * (H1 - 1));
    r |= p & (s >> (H1 - 1));
    p = (s >> (H1 - 1)) & (s >> 2 * (H1 - 1));
    r |= p & (s << (H1 - 1));
    r |= p & (s >> 3 * (H1 - 1));
    p = (s << (H1 + 1)) & (s << 2 * (H1 + 1));
    r |= p & (s << 3 * (H1 + 1));
    r |= p & (s >> (H1 + 1));
    p = (s >> (H1 + 1)) & (s >> 2 * (H1 + 1));
    r |= p & (s << (H1 + 1));
    r |= p & (s >> 3 * (H1 + 1));
    return r & (BOARD ^ mask);
}

static inline int has_four(u64 s) {
    static const int shifts[4] = {1, H1, H1 - 1, H1 + 1};
    for (int i = 0; i < 4; i++) {
        u64 pairs = s & (s >> shifts[i]);
        if (pairs & (pairs >> 2 * shifts[i])) return 1;
    }
    return 0;
}

/* The key of the mirrored position: the columns of `key` in reverse order (a key is
 * current + mask, which never carries from one column into the next). */
static inline u64 mirror_key(u64 key) {
    u64 out = 0;
    for (int col = 0; col < WIDTH; col++) out |= ((key >> (col * H1)) & 127ULL) << ((WIDTH - 1 - col) * H1);
    return out;
}

static inline u64 symmetric_key(u64 key) {
    u64 m = mirror_key(key);
    return m < key ? m : key;
}

typedef struct {
    PyObject_HEAD
    u64 *table;
    size_t table_size;
    unsigned long long nodes;
    double deadline; /* a time.monotonic() instant, or 0 for none */
    int timed_out;
    int dirty; /* an entry was stored since the last reset */
    Py_buffer book; /* sorted u64: symmetric key << 2 | (value + 1) */
    Py_ssize_t book_len;
    int book_ply; /* -1 without a book */
} Kernel;

/* The book's value of a position with `book_ply` stones (-1, 0, 1), or 2 if absent. */
static int book_value(const Kernel *k, u64 key) {
    const u64 *entries = (const u64 *)k->book.buf;
    u64 wanted = symmetric_key(key);
    Py_ssize_t lo = 0, hi = k->book_len;
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        u64 at = entries[mid] >> 2;
        if (at < wanted)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < k->book_len && entries[lo] >> 2 == wanted) return (int)(entries[lo] & 3) - 1;
    return 2;
}

/* Score within (alpha, beta) for the side to move, which cannot win at once. */
static int negamax(Kernel *k, u64 current, u64 mask, int moves, int alpha, int beta) {
    k->nodes++;
    if (k->deadline > 0 && !(k->nodes & CLOCK_MASK) && monotonic_now() >= k->deadline) k->timed_out = 1;
    if (k->timed_out) return 0;
    u64 possible = (mask + BOTTOM) & BOARD;
    u64 opponent_win = winning_cells(current ^ mask, mask);
    u64 forced = possible & opponent_win;
    if (forced) {
        if (forced & (forced - 1)) return -((CELLS - moves) / 2); /* two threats: lost */
        possible = forced;
    }
    u64 candidates = possible & ~(opponent_win >> 1); /* never right under their winning cell */
    if (!candidates) return -((CELLS - moves) / 2);
    if (moves >= CELLS - 2) return 0;
    int low = -((CELLS - 2 - moves) / 2);
    int high = (CELLS - 1 - moves) / 2;
    u64 key = current + mask;
    size_t slot = (size_t)(key % k->table_size);
    u64 entry = k->table[slot];
    if (entry && (entry >> 12) == key) {
        int stored_low = (int)((entry >> 6) & 63) - SCORE_OFFSET;
        int stored_high = (int)(entry & 63) - SCORE_OFFSET;
        if (stored_low > low) low = stored_low;
        if (stored_high < high) high = stored_high;
    }
    if (moves == k->book_ply) {
        int value = book_value(k, key);
        if (value == 0) low = high = 0;
        else if (value == 1 && low < 1) low = 1;
        else if (value == -1 && high > -1) high = -1;
    }
    if (alpha < low) {
        alpha = low;
        if (alpha >= beta) return alpha;
    }
    if (beta > high) {
        beta = high;
        if (alpha >= beta) return beta;
    }

    /* Order by the winning cells each move creates, the centre first among equals. */
    u64 ordered[WIDTH];
    int keys[WIDTH];
    int n = 0;
    for (int rank = 0; rank < WIDTH; rank++) {
        u64 move = candidates & column_mask(CENTRE_FIRST[rank]);
        if (!move) continue;
        int threats = __builtin_popcountll(winning_cells(current | move, mask));
        int i = n++;
        while (i > 0 && keys[i - 1] < threats) { /* stable: equals keep the centre-first order */
            ordered[i] = ordered[i - 1];
            keys[i] = keys[i - 1];
            i--;
        }
        ordered[i] = move;
        keys[i] = threats;
    }
    u64 next_current = current ^ mask;
    int best = -CELLS;
    for (int i = 0; i < n; i++) {
        int score = -negamax(k, next_current, mask | ordered[i], moves + 1, -beta, -alpha);
        if (k->timed_out) return 0;
        if (score >= beta) {
            best = score;
            break;
        }
        if (score > alpha) alpha = score;
    }
    /* Store what was learnt: a lower bound on a cut, else an upper bound (alpha). */
    entry = k->table[slot];
    int new_low = -((CELLS - 2 - moves) / 2) - 1, new_high = (CELLS - 1 - moves) / 2 + 1;
    if (entry && (entry >> 12) == key) {
        new_low = (int)((entry >> 6) & 63) - SCORE_OFFSET;
        new_high = (int)(entry & 63) - SCORE_OFFSET;
    }
    int result;
    if (best >= beta) {
        if (best > new_low) new_low = best;
        result = best;
    } else {
        if (alpha < new_high) new_high = alpha;
        result = alpha;
    }
    k->table[slot] = key << 12 | (u64)(new_low + SCORE_OFFSET) << 6 | (u64)(new_high + SCORE_OFFSET);
    return result;
}

static int Kernel_init(Kernel *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"table_size", NULL};
    Py_ssize_t size = DEFAULT_TABLE_SIZE;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|n", kwlist, &size)) return -1;
    if (size < 1) {
        PyErr_SetString(PyExc_ValueError, "table_size must be positive");
        return -1;
    }
    PyMem_Free(self->table);
    self->table = PyMem_Calloc((size_t)size, sizeof(u64));
    if (!self->table) {
        PyErr_NoMemory();
        return -1;
    }
    self->table_size = (size_t)size;
    self->book_ply = -1;
    return 0;
}

static void Kernel_dealloc(Kernel *self) {
    PyMem_Free(self->table);
    if (self->book.obj) PyBuffer_Release(&self->book);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Kernel_reset(Kernel *self, PyObject *Py_UNUSED(ignored)) {
    if (self->dirty) memset(self->table, 0, self->table_size * sizeof(u64)); /* else still empty: no 32 MB to touch */
    self->dirty = 0;
    self->nodes = 0;
    Py_RETURN_NONE;
}

static int check_position(u64 current, u64 mask, int moves) {
    if ((mask & ~BOARD) || (current & ~mask) || moves < 0 || moves > CELLS ||
        __builtin_popcountll(mask) != moves || ((mask + BOTTOM) & mask & BOARD) != 0) {
        /* the last test: no stone above an empty cell (mask + BOTTOM fills each column's lowest gap) */
        PyErr_SetString(PyExc_ValueError, "not a Connect Four position (current, mask, moves)");
        return 0;
    }
    return 1;
}

/* solve(current, mask, moves, low, high, deadline=None): the score within [low, high] found by
 * null-window probes, as Connect4Solver.solve narrows it (low when low >= high); a position
 * already won, full, or won with the next stone gets its score whatever the window. */
static PyObject *Kernel_solve(Kernel *self, PyObject *args) {
    unsigned long long current, mask;
    int moves, low, high;
    PyObject *deadline = Py_None;
    if (!PyArg_ParseTuple(args, "KKiii|O", &current, &mask, &moves, &low, &high, &deadline)) return NULL;
    if (!check_position(current, mask, moves)) return NULL;
    if (low < -CELLS || high > CELLS) {
        PyErr_SetString(PyExc_ValueError, "low and high must bracket a score");
        return NULL;
    }
    /* What the search does not handle: a game already over, a win with the next stone. */
    if (has_four(current ^ mask)) return PyLong_FromLong(-((CELLS + 2 - moves) / 2));
    if (moves >= CELLS) return PyLong_FromLong(0);
    if (winning_cells(current, mask) & ((mask + BOTTOM) & BOARD)) return PyLong_FromLong((CELLS + 1 - moves) / 2);
    if (read_deadline(deadline, &self->deadline) < 0) return NULL;
    self->timed_out = 0;
    self->dirty = 1;
    Py_BEGIN_ALLOW_THREADS
    while (low < high) {
        int med = low + (high - low) / 2;
        if (med <= 0 && low / 2 < med)
            med = low / 2;
        else if (med >= 0 && high / 2 > med)
            med = high / 2;
        int score = negamax(self, current, mask, moves, med, med + 1);
        if (self->timed_out) break;
        if (score <= med)
            high = score;
        else
            low = score;
    }
    Py_END_ALLOW_THREADS
    if (self->timed_out) {
        PyErr_SetString(PyExc_TimeoutError, "the deadline passed before the position was solved");
        return NULL;
    }
    return PyLong_FromLong(low);
}

/* set_book(entries, ply): a buffer of sorted native u64 (symmetric key << 2 | value + 1), or None. */
static PyObject *Kernel_set_book(Kernel *self, PyObject *args) {
    PyObject *entries;
    int ply;
    if (!PyArg_ParseTuple(args, "Oi", &entries, &ply)) return NULL;
    if (self->book.obj) PyBuffer_Release(&self->book);
    self->book.obj = NULL;
    self->book_len = 0;
    self->book_ply = -1;
    if (entries == Py_None) Py_RETURN_NONE;
    if (PyObject_GetBuffer(entries, &self->book, PyBUF_SIMPLE) < 0) return NULL;
    if (self->book.len % 8 || ply < 0 || ply > CELLS) {
        PyBuffer_Release(&self->book);
        self->book.obj = NULL;
        PyErr_SetString(PyExc_ValueError, "a book is whole 64-bit entries at a ply of 0..42");
        return NULL;
    }
    self->book_len = self->book.len / 8;
    self->book_ply = ply;
    Py_RETURN_NONE;
}

static PyObject *symmetric(PyObject *Py_UNUSED(module), PyObject *arg) {
    unsigned long long key = PyLong_AsUnsignedLongLong(arg);
    if (key == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    return PyLong_FromUnsignedLongLong(symmetric_key(key));
}

NODES_ATTRIBUTE(Kernel)

static PyMethodDef Kernel_methods[] = {
    {"solve", (PyCFunction)Kernel_solve, METH_VARARGS,
     "solve(current, mask, moves, low, high, deadline=None) -> the score within [low, high]"},
    {"reset", (PyCFunction)Kernel_reset, METH_NOARGS, "Empty the transposition table, zero the node count."},
    {"set_book", (PyCFunction)Kernel_set_book, METH_VARARGS, "set_book(entries or None, ply)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "games.connect4._solver.Kernel",
    .tp_basicsize = sizeof(Kernel),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The exact solver's search and its transposition table.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Kernel_init,
    .tp_dealloc = (destructor)Kernel_dealloc,
    .tp_methods = Kernel_methods,
    .tp_getset = Kernel_getset,
};

static PyMethodDef module_methods[] = {
    {"symmetric_key", symmetric, METH_O, "The smaller of a position key and its mirror's."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "games.connect4._solver",
    .m_doc = "The Connect Four solver's search, compiled.",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__solver(void) { return module_with_type(&module, &KernelType, "Kernel"); }
