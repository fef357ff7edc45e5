/* The chess Master's search, compiled: a bitboard board, legal move generation, and an
 * alpha-beta engine on it (games/chess/engine.py is its Python face; games/chess/search.py and
 * ai/alphabeta.py are the search in Python that runs where this is not built).
 *
 * Board: twelve bitboards (square 0 = a1, 63 = h8, as python-chess numbers them), a mailbox,
 * side, castling rights (1 K, 2 Q, 4 k, 8 q), en-passant square, halfmove clock, Zobrist key.
 * Moves are pseudo-legal, kept when the mover's king is not attacked after them.
 * A move is an int: from | to << 6 | promotion piece << 12 (0 none, 1 N .. 4 Q) | flag << 15
 * (1 castling, 2 en passant, 3 double pawn push).
 *
 * Search: iterative deepening, negamax with principal variation search, a transposition
 * table, quiescence on captures and queen promotions (MVV-LVA, delta and SEE pruning),
 * killers and history, null-move pruning, reverse futility pruning, late-move reductions,
 * check extension; repetitions (against the game's history too) and the 50-move rule score
 * as draws.  Evaluation: PeSTO's tapered piece-square tables and the terms beyond them (passed,
 * isolated and doubled pawns, bishop pair, rooks on open files, mobility, king attack, pawn
 * shelter and storm), the values of games/chess/evaluation.py (the tests compare the two on
 * many positions).
 */
#include "../_kernel.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

enum { PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING };
enum { WHITE, BLACK };
#define EMPTY 12
#define PIECE(type, colour) ((type) + 6 * (colour))
#define TYPE_OF(pc) ((pc) % 6)
#define COLOUR_OF(pc) ((pc) / 6)

#define MOVE(from, to, promo, flag) ((from) | ((to) << 6) | ((promo) << 12) | ((flag) << 15))
#define FROM(m) ((m)&63)
#define TO(m) (((m) >> 6) & 63)
#define PROMO(m) (((m) >> 12) & 7)
#define FLAG(m) ((m) >> 15)
#define F_CASTLE 1
#define F_EP 2
#define F_DOUBLE 3
#define NO_MOVE 0

#define MAX_MOVES 256
#define MAX_PLY 128
#define MAX_GAME 1024 /* history positions kept for repetitions */
#define INF 32000
#define MATE 30000
#define MATE_BOUND (MATE - 1000) /* scores beyond are mates found */
#define CLOCK_MASK 1023

static inline int lsb(u64 b) { return __builtin_ctzll(b); }
static inline int msb(u64 b) { return 63 - __builtin_clzll(b); }
static inline int popcount(u64 b) { return __builtin_popcountll(b); }
#define BIT(sq) (1ULL << (sq))

/* --- tables made once at import ----------------------------------------------------------- */
static u64 KNIGHT_ATT[64], KING_ATT[64], PAWN_ATT[2][64], RAYS[8][64];
/* directions: N, E, NE, NW (increasing squares), S, W, SW, SE (decreasing) */
static const int DIR_FILE[8] = {0, 1, 1, -1, 0, -1, -1, 1};
static const int DIR_RANK[8] = {1, 0, 1, 1, -1, 0, -1, -1};
static u64 Z_PIECE[12][64], Z_CASTLE[16], Z_EP[8], Z_SIDE;
static int CASTLE_MASK[64];
static int MG[12][64], EG[12][64]; /* value + bonus, white positive, black negative */
/* PeSTO's tapered tables and the other terms, set once from games/chess/evaluation.py (`set_evaluation`, called by
   games/chess/engine.py as it loads): the one copy of their values is the Python module's. */
static int PHASE_WEIGHT[6];
/* The terms beyond the tables, in the order of games/chess/evaluation.py's TERMS (its comments
   say what each is and where its values come from). */
typedef struct {
    int passed_mg[8], passed_eg[8], passed_king_cap, free_block, free_path;
    int isolated[2], doubled[2], bishop_pair[2], rook_semi_open[2], rook_open[2];
    int mobility_offset[4], mobility_mg[4], mobility_eg[4], attack_units[4], attack_weight[8];
    int shelter[8], storm[8], open_file_near_king;
} Terms;
#define TERM_COUNT ((int)(sizeof(Terms) / sizeof(int)))
static Terms T;
static int evaluation_set = 0;
static u64 FILE_BB[8], ADJACENT[8], FRONT[2][64], PASSED_SPAN[2][64], NOT_BEHIND[2][8];

static u64 splitmix(u64 *s) {
    u64 z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void init_tables(void) {
    for (int sq = 0; sq < 64; sq++) {
        int f = sq & 7, r = sq >> 3;
        static const int kn[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
        KNIGHT_ATT[sq] = KING_ATT[sq] = 0;
        for (int i = 0; i < 8; i++) {
            int nf = f + kn[i][0], nr = r + kn[i][1];
            if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8) KNIGHT_ATT[sq] |= BIT(nr * 8 + nf);
        }
        for (int df = -1; df <= 1; df++)
            for (int dr = -1; dr <= 1; dr++) {
                int nf = f + df, nr = r + dr;
                if ((df || dr) && nf >= 0 && nf < 8 && nr >= 0 && nr < 8) KING_ATT[sq] |= BIT(nr * 8 + nf);
            }
        PAWN_ATT[WHITE][sq] = PAWN_ATT[BLACK][sq] = 0;
        if (r < 7) {
            if (f > 0) PAWN_ATT[WHITE][sq] |= BIT(sq + 7);
            if (f < 7) PAWN_ATT[WHITE][sq] |= BIT(sq + 9);
        }
        if (r > 0) {
            if (f > 0) PAWN_ATT[BLACK][sq] |= BIT(sq - 9);
            if (f < 7) PAWN_ATT[BLACK][sq] |= BIT(sq - 7);
        }
        for (int d = 0; d < 8; d++) {
            u64 ray = 0;
            int nf = f + DIR_FILE[d], nr = r + DIR_RANK[d];
            while (nf >= 0 && nf < 8 && nr >= 0 && nr < 8) {
                ray |= BIT(nr * 8 + nf);
                nf += DIR_FILE[d];
                nr += DIR_RANK[d];
            }
            RAYS[d][sq] = ray;
        }
        CASTLE_MASK[sq] = 15;
    }
    for (int f = 0; f < 8; f++) FILE_BB[f] = 0x0101010101010101ULL << f;
    for (int f = 0; f < 8; f++) ADJACENT[f] = (f > 0 ? FILE_BB[f - 1] : 0) | (f < 7 ? FILE_BB[f + 1] : 0);
    for (int sq = 0; sq < 64; sq++) {
        FRONT[WHITE][sq] = FILE_BB[sq & 7] & (sq < 63 ? ~((2ULL << sq) - 1) : 0);
        FRONT[BLACK][sq] = FILE_BB[sq & 7] & (BIT(sq) - 1);
        for (int c = 0; c < 2; c++) {
            u64 f = FRONT[c][sq];
            PASSED_SPAN[c][sq] = f | ((f << 1) & ~FILE_BB[0]) | ((f >> 1) & ~FILE_BB[7]);
        }
    }
    for (int r = 0; r < 8; r++) {
        NOT_BEHIND[WHITE][r] = ~((1ULL << (8 * r)) - 1);
        NOT_BEHIND[BLACK][r] = r == 7 ? ~0ULL : (1ULL << (8 * r + 8)) - 1;
    }
    CASTLE_MASK[4] = 15 & ~3;   /* e1 */
    CASTLE_MASK[7] = 15 & ~1;   /* h1 */
    CASTLE_MASK[0] = 15 & ~2;   /* a1 */
    CASTLE_MASK[60] = 15 & ~12; /* e8 */
    CASTLE_MASK[63] = 15 & ~4;  /* h8 */
    CASTLE_MASK[56] = 15 & ~8;  /* a8 */
    u64 seed = 20261207;
    for (int p = 0; p < 12; p++)
        for (int sq = 0; sq < 64; sq++) Z_PIECE[p][sq] = splitmix(&seed);
    for (int i = 0; i < 16; i++) Z_CASTLE[i] = i ? splitmix(&seed) : 0;
    for (int i = 0; i < 8; i++) Z_EP[i] = splitmix(&seed);
    Z_SIDE = splitmix(&seed);
}

static inline u64 ray_attacks(int d, int sq, u64 occ) {
    u64 a = RAYS[d][sq], b = a & occ;
    if (b) a ^= RAYS[d][d < 4 ? lsb(b) : msb(b)];
    return a;
}
static inline u64 bishop_attacks(int sq, u64 occ) {
    return ray_attacks(2, sq, occ) | ray_attacks(3, sq, occ) | ray_attacks(6, sq, occ) | ray_attacks(7, sq, occ);
}
static inline u64 rook_attacks(int sq, u64 occ) {
    return ray_attacks(0, sq, occ) | ray_attacks(1, sq, occ) | ray_attacks(4, sq, occ) | ray_attacks(5, sq, occ);
}

/* --- the board ------------------------------------------------------------------------------- */
typedef struct {
    u64 bb[12];
    u64 occ[2];
    uint8_t sq[64];
    int side, castle, ep, half;
    u64 key;
} Board;

typedef struct {
    int move, captured, castle, ep, half;
    u64 key;
} Undo;

static inline u64 all_occ(const Board *b) { return b->occ[0] | b->occ[1]; }

static inline void put(Board *b, int pc, int sq) {
    b->bb[pc] |= BIT(sq);
    b->occ[COLOUR_OF(pc)] |= BIT(sq);
    b->sq[sq] = (uint8_t)pc;
    b->key ^= Z_PIECE[pc][sq];
}
static inline void take(Board *b, int sq) {
    int pc = b->sq[sq];
    b->bb[pc] &= ~BIT(sq);
    b->occ[COLOUR_OF(pc)] &= ~BIT(sq);
    b->sq[sq] = EMPTY;
    b->key ^= Z_PIECE[pc][sq];
}

/* Whether `by` attacks `sq` with the pieces on `occ`. */
static inline int attacked_occ(const Board *b, int sq, int by, u64 occ) {
    const u64 *bb = b->bb + 6 * by;
    if (PAWN_ATT[by ^ 1][sq] & bb[PAWN] & occ) return 1;
    if (KNIGHT_ATT[sq] & bb[KNIGHT] & occ) return 1;
    if (KING_ATT[sq] & bb[KING]) return 1;
    if (bishop_attacks(sq, occ) & (bb[BISHOP] | bb[QUEEN]) & occ) return 1;
    if (rook_attacks(sq, occ) & (bb[ROOK] | bb[QUEEN]) & occ) return 1;
    return 0;
}
static inline int attacked(const Board *b, int sq, int by) { return attacked_occ(b, sq, by, all_occ(b)); }
static inline int in_check(const Board *b, int side) {
    u64 k = b->bb[PIECE(KING, side)];
    return k ? attacked(b, lsb(k), side ^ 1) : 0;
}

static u64 compute_key(const Board *b) {
    u64 k = 0;
    for (int sq = 0; sq < 64; sq++)
        if (b->sq[sq] != EMPTY) k ^= Z_PIECE[b->sq[sq]][sq];
    k ^= Z_CASTLE[b->castle];
    if (b->ep >= 0) k ^= Z_EP[b->ep & 7];
    if (b->side) k ^= Z_SIDE;
    return k;
}

/* A FEN's board; 0 on success, -1 when the text is not one this reads. */
static int parse_fen(Board *b, const char *fen) {
    memset(b, 0, sizeof *b);
    memset(b->sq, EMPTY, 64);
    b->ep = -1;
    int rank = 7, file = 0;
    const char *p = fen;
    for (; *p && *p != ' '; p++) {
        char c = *p;
        if (c == '/') {
            rank--;
            file = 0;
            if (rank < 0) return -1;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
        } else {
            const char *pieces = "PNBRQKpnbrqk";
            const char *at = strchr(pieces, c);
            if (!at || file > 7) return -1;
            put(b, (int)(at - pieces), rank * 8 + file);
            file++;
        }
    }
    if (*p != ' ') return -1;
    p++;
    if (*p == 'w') b->side = WHITE;
    else if (*p == 'b') b->side = BLACK;
    else return -1;
    p++;
    if (*p == ' ') p++;
    for (; *p && *p != ' '; p++) {
        switch (*p) {
            case 'K': b->castle |= 1; break;
            case 'Q': b->castle |= 2; break;
            case 'k': b->castle |= 4; break;
            case 'q': b->castle |= 8; break;
            case '-': break;
            default: return -1;
        }
    }
    /* rights without the king and rook on their squares are dropped (python-chess's clean rights) */
    if (b->sq[4] != PIECE(KING, WHITE)) b->castle &= ~3;
    if (b->sq[60] != PIECE(KING, BLACK)) b->castle &= ~12;
    if (b->sq[7] != PIECE(ROOK, WHITE)) b->castle &= ~1;
    if (b->sq[0] != PIECE(ROOK, WHITE)) b->castle &= ~2;
    if (b->sq[63] != PIECE(ROOK, BLACK)) b->castle &= ~4;
    if (b->sq[56] != PIECE(ROOK, BLACK)) b->castle &= ~8;
    if (*p == ' ') p++;
    if (*p && *p != '-') {
        if (p[0] < 'a' || p[0] > 'h' || p[1] < '1' || p[1] > '8') return -1;
        b->ep = (p[1] - '1') * 8 + (p[0] - 'a');
        p += 2;
    } else if (*p == '-') {
        p++;
    }
    if (*p == ' ') b->half = atoi(p + 1);
    if (popcount(b->bb[PIECE(KING, WHITE)]) != 1 || popcount(b->bb[PIECE(KING, BLACK)]) != 1) return -1;
    b->key = compute_key(b);
    return 0;
}

/* --- move generation ----------------------------------------------------------------------- */
static inline int add_pawn_moves(int *list, int n, int from, int to, int promoting, int flag) {
    if (promoting) {
        for (int p = 4; p >= 1; p--) list[n++] = MOVE(from, to, p, 0);
    } else {
        list[n++] = MOVE(from, to, 0, flag);
    }
    return n;
}

/* Pseudo-legal moves; with `noisy`, only captures (en passant too) and promotions. */
static int generate(const Board *b, int *list, int noisy) {
    int n = 0, us = b->side, them = us ^ 1;
    u64 own = b->occ[us], enemy = b->occ[them], occ = own | enemy, empty = ~occ;
    u64 targets = noisy ? enemy : ~own;
    const u64 *bb = b->bb + 6 * us;
    /* pawns */
    int fwd = us == WHITE ? 8 : -8;
    u64 last_rank = us == WHITE ? 0xff00000000000000ULL : 0xffULL;
    u64 third = us == WHITE ? 0xff0000ULL : 0xff0000000000ULL;
    for (u64 p = bb[PAWN]; p; p &= p - 1) {
        int from = lsb(p), to = from + fwd;
        int promoting = (BIT(to) & last_rank) != 0;
        if (BIT(to) & empty) {
            if (!noisy || promoting) n = add_pawn_moves(list, n, from, to, promoting, 0);
            if (!noisy && (BIT(to) & third) && (BIT(to + fwd) & empty)) list[n++] = MOVE(from, to + fwd, 0, F_DOUBLE);
        }
        for (u64 a = PAWN_ATT[us][from] & enemy; a; a &= a - 1) n = add_pawn_moves(list, n, from, lsb(a), promoting, 0);
        if (b->ep >= 0 && (PAWN_ATT[us][from] & BIT(b->ep))) list[n++] = MOVE(from, b->ep, 0, F_EP);
    }
    for (u64 p = bb[KNIGHT]; p; p &= p - 1) {
        int from = lsb(p);
        for (u64 a = KNIGHT_ATT[from] & targets; a; a &= a - 1) list[n++] = MOVE(from, lsb(a), 0, 0);
    }
    for (u64 p = bb[BISHOP] | bb[QUEEN]; p; p &= p - 1) {
        int from = lsb(p);
        for (u64 a = bishop_attacks(from, occ) & targets; a; a &= a - 1) list[n++] = MOVE(from, lsb(a), 0, 0);
    }
    for (u64 p = bb[ROOK] | bb[QUEEN]; p; p &= p - 1) {
        int from = lsb(p);
        for (u64 a = rook_attacks(from, occ) & targets; a; a &= a - 1) list[n++] = MOVE(from, lsb(a), 0, 0);
    }
    if (bb[KING]) {
        int from = lsb(bb[KING]);
        for (u64 a = KING_ATT[from] & targets; a; a &= a - 1) list[n++] = MOVE(from, lsb(a), 0, 0);
        if (!noisy && b->castle) {
            if (us == WHITE) {
                if ((b->castle & 1) && !(occ & 0x60ULL) && !attacked(b, 4, BLACK) && !attacked(b, 5, BLACK) &&
                    !attacked(b, 6, BLACK))
                    list[n++] = MOVE(4, 6, 0, F_CASTLE);
                if ((b->castle & 2) && !(occ & 0xeULL) && !attacked(b, 4, BLACK) && !attacked(b, 3, BLACK) &&
                    !attacked(b, 2, BLACK))
                    list[n++] = MOVE(4, 2, 0, F_CASTLE);
            } else {
                if ((b->castle & 4) && !(occ & (0x60ULL << 56)) && !attacked(b, 60, WHITE) &&
                    !attacked(b, 61, WHITE) && !attacked(b, 62, WHITE))
                    list[n++] = MOVE(60, 62, 0, F_CASTLE);
                if ((b->castle & 8) && !(occ & (0xeULL << 56)) && !attacked(b, 60, WHITE) &&
                    !attacked(b, 59, WHITE) && !attacked(b, 58, WHITE))
                    list[n++] = MOVE(60, 58, 0, F_CASTLE);
            }
        }
    }
    return n;
}

static void make(Board *b, int m, Undo *u) {
    int from = FROM(m), to = TO(m), promo = PROMO(m), flag = FLAG(m);
    int pc = b->sq[from], us = b->side;
    u->move = m;
    u->castle = b->castle;
    u->ep = b->ep;
    u->half = b->half;
    u->key = b->key;
    u->captured = EMPTY;
    b->key ^= Z_CASTLE[b->castle];
    if (b->ep >= 0) b->key ^= Z_EP[b->ep & 7];
    if (flag == F_EP) {
        int cap_sq = to + (us == WHITE ? -8 : 8);
        u->captured = b->sq[cap_sq];
        take(b, cap_sq);
    } else if (b->sq[to] != EMPTY) {
        u->captured = b->sq[to];
        take(b, to);
    }
    take(b, from);
    put(b, promo ? PIECE(promo, us) : pc, to);
    if (flag == F_CASTLE) {
        int rook_from = to > from ? to + 1 : to - 2, rook_to = to > from ? to - 1 : to + 1;
        take(b, rook_from);
        put(b, PIECE(ROOK, us), rook_to);
    }
    b->castle &= CASTLE_MASK[from] & CASTLE_MASK[to];
    b->ep = flag == F_DOUBLE ? (from + to) / 2 : -1;
    b->half = (TYPE_OF(pc) == PAWN || u->captured != EMPTY) ? 0 : b->half + 1;
    b->side ^= 1;
    b->key ^= Z_SIDE ^ Z_CASTLE[b->castle];
    if (b->ep >= 0) b->key ^= Z_EP[b->ep & 7];
}

static void unmake(Board *b, const Undo *u) {
    int m = u->move, from = FROM(m), to = TO(m), flag = FLAG(m);
    b->side ^= 1;
    int us = b->side;
    int pc = PROMO(m) ? PIECE(PAWN, us) : b->sq[to];
    if (flag == F_CASTLE) {
        int rook_from = to > from ? to + 1 : to - 2, rook_to = to > from ? to - 1 : to + 1;
        take(b, rook_to);
        put(b, PIECE(ROOK, us), rook_from);
    }
    take(b, to);
    put(b, pc, from);
    if (u->captured != EMPTY) put(b, u->captured, flag == F_EP ? to + (us == WHITE ? -8 : 8) : to);
    b->castle = u->castle;
    b->ep = u->ep;
    b->half = u->half;
    b->key = u->key;
}

static void make_null(Board *b, Undo *u) {
    u->move = NO_MOVE;
    u->ep = b->ep;
    u->key = b->key;
    u->half = b->half;
    u->castle = b->castle;
    if (b->ep >= 0) b->key ^= Z_EP[b->ep & 7];
    b->ep = -1;
    b->side ^= 1;
    b->key ^= Z_SIDE;
    b->half = 0; /* no repetition reaches back across a pass */
}
static void unmake_null(Board *b, const Undo *u) {
    b->side ^= 1;
    b->ep = u->ep;
    b->key = u->key;
    b->half = u->half;
}

/* Make `m` if it leaves the mover's king safe (1), else leave the board as it was (0). */
static inline int make_legal(Board *b, int m, Undo *u) {
    make(b, m, u);
    if (in_check(b, b->side ^ 1)) {
        unmake(b, u);
        return 0;
    }
    return 1;
}

static int legal_moves(Board *b, int *list) {
    int pseudo[MAX_MOVES], n = generate(b, pseudo, 0), k = 0;
    Undo u;
    for (int i = 0; i < n; i++)
        if (make_legal(b, pseudo[i], &u)) {
            unmake(b, &u);
            list[k++] = pseudo[i];
        }
    return k;
}

static unsigned long long perft(Board *b, int depth) {
    int list[MAX_MOVES], n = generate(b, list, 0);
    unsigned long long total = 0;
    Undo u;
    for (int i = 0; i < n; i++) {
        if (!make_legal(b, list[i], &u)) continue;
        total += depth <= 1 ? 1 : perft(b, depth - 1);
        unmake(b, &u);
    }
    return total;
}

static void move_uci(int m, char *out) {
    out[0] = (char)('a' + (FROM(m) & 7));
    out[1] = (char)('1' + (FROM(m) >> 3));
    out[2] = (char)('a' + (TO(m) & 7));
    out[3] = (char)('1' + (TO(m) >> 3));
    out[4] = PROMO(m) ? " nbrq"[PROMO(m)] : 0;
    out[5] = 0;
}

/* --- evaluation ------------------------------------------------------------------------------ */
static inline int distance(int a, int b) {
    int df = abs((a & 7) - (b & 7)), dr = abs((a >> 3) - (b >> 3));
    return df > dr ? df : dr;
}
static inline int min_int(int a, int b) { return a < b ? a : b; }

/* The shelter and storm of `side`'s king on `king`: middlegame centipawns, positive when sound
 * (games/chess/evaluation.py's `_shelter`). */
static int shelter(int king, u64 own_pawns, u64 their_pawns, int side) {
    u64 ahead = NOT_BEHIND[side][king >> 3];
    int centre = king & 7, score = 0;
    if (centre < 1) centre = 1;
    if (centre > 6) centre = 6;
    for (int f = centre - 1; f <= centre + 1; f++) {
        u64 file = FILE_BB[f], ours = own_pawns & file & ahead, theirs = their_pawns & file & ahead;
        if (!((own_pawns | their_pawns) & file)) score += T.open_file_near_king;
        if (ours) {
            int nearest = side == WHITE ? lsb(ours) : msb(ours);
            score += T.shelter[side == WHITE ? nearest >> 3 : 7 - (nearest >> 3)];
        } else {
            score += T.shelter[0];
        }
        if (theirs) {
            int nearest = side == WHITE ? lsb(theirs) : msb(theirs);
            int blocker = side == WHITE ? nearest - 8 : nearest + 8;
            if (blocker < 0 || blocker > 63 || !(own_pawns & BIT(blocker)))
                score += T.storm[side == WHITE ? nearest >> 3 : 7 - (nearest >> 3)];
        }
    }
    return score;
}

/* `side`'s terms beyond the tables, added to *mg and *eg, positive when they favour it
 * (games/chess/evaluation.py's `_side_terms`). */
static void side_terms(const Board *b, int side, int *mg_out, int *eg_out) {
    int them = side ^ 1, mg = 0, eg = 0;
    u64 own = b->occ[side], occ = all_occ(b);
    u64 own_pawns = b->bb[PIECE(PAWN, side)], their_pawns = b->bb[PIECE(PAWN, them)];
    int king = b->bb[PIECE(KING, side)] ? lsb(b->bb[PIECE(KING, side)]) : -1;
    int their_king = b->bb[PIECE(KING, them)] ? lsb(b->bb[PIECE(KING, them)]) : -1;
    for (u64 p = own_pawns; p; p &= p - 1) {
        int sq = lsb(p);
        if (!(own_pawns & ADJACENT[sq & 7])) {
            mg -= T.isolated[0];
            eg -= T.isolated[1];
        }
        u64 front = FRONT[side][sq];
        if (own_pawns & front) {
            mg -= T.doubled[0];
            eg -= T.doubled[1];
        } else if (!(their_pawns & PASSED_SPAN[side][sq])) {
            int rank = side == WHITE ? sq >> 3 : 7 - (sq >> 3);
            mg += T.passed_mg[rank];
            eg += T.passed_eg[rank];
            if (rank >= 3) {
                int weight = 5 * rank - 13, block = side == WHITE ? sq + 8 : sq - 8;
                int theirs = their_king >= 0 ? min_int(distance(their_king, block), T.passed_king_cap) : T.passed_king_cap;
                int ours = king >= 0 ? min_int(distance(king, block), T.passed_king_cap) : T.passed_king_cap;
                eg += 19 * theirs * weight / 8 - ours * weight;
                if (!(occ & front)) eg += T.free_path * weight;
                else if (!(occ & BIT(block))) eg += T.free_block * weight;
            }
        }
    }
    if (popcount(b->bb[PIECE(BISHOP, side)]) >= 2) {
        mg += T.bishop_pair[0];
        eg += T.bishop_pair[1];
    }
    for (u64 p = b->bb[PIECE(ROOK, side)]; p; p &= p - 1) {
        u64 file = FILE_BB[lsb(p) & 7];
        if (!(own_pawns & file)) {
            const int *bonus = their_pawns & file ? T.rook_semi_open : T.rook_open;
            mg += bonus[0];
            eg += bonus[1];
        }
    }
    u64 zone = their_king >= 0 ? KING_ATT[their_king] | BIT(their_king) : 0;
    int attackers = 0, units = 0;
    for (int t = KNIGHT; t <= QUEEN; t++) {
        int i = t - KNIGHT;
        for (u64 p = b->bb[PIECE(t, side)]; p; p &= p - 1) {
            int sq = lsb(p);
            u64 att = t == KNIGHT ? KNIGHT_ATT[sq]
                      : t == BISHOP ? bishop_attacks(sq, occ)
                      : t == ROOK   ? rook_attacks(sq, occ)
                                    : bishop_attacks(sq, occ) | rook_attacks(sq, occ);
            int mobility = popcount(att & ~own) - T.mobility_offset[i];
            mg += T.mobility_mg[i] * mobility;
            eg += T.mobility_eg[i] * mobility;
            u64 hits = att & zone;
            if (hits) {
                attackers++;
                units += T.attack_units[i] * popcount(hits);
            }
        }
    }
    mg += units * T.attack_weight[attackers < 7 ? attackers : 7] / 100;
    if (their_king >= 0) mg -= shelter(their_king, their_pawns, own_pawns, them);
    *mg_out += mg;
    *eg_out += eg;
}

/* The tapered score, centipawns from white's side, rounded as Python's round() rounds:
 * PeSTO's tables and the terms of `side_terms`. */
static int evaluate_white(const Board *b) {
    int mg = 0, eg = 0, phase = 0;
    for (int pc = 0; pc < 12; pc++)
        for (u64 p = b->bb[pc]; p; p &= p - 1) {
            int sq = lsb(p);
            mg += MG[pc][sq];
            eg += EG[pc][sq];
            phase += PHASE_WEIGHT[TYPE_OF(pc)];
        }
    int white_mg = 0, white_eg = 0, black_mg = 0, black_eg = 0;
    side_terms(b, WHITE, &white_mg, &white_eg);
    side_terms(b, BLACK, &black_mg, &black_eg);
    mg += white_mg - black_mg;
    eg += white_eg - black_eg;
    if (phase > 24) phase = 24;
    long n = (long)mg * phase + (long)eg * (24 - phase);
    long q = n >= 0 ? n / 24 : -((-n) / 24), r = n - q * 24; /* truncated; |r| < 24 */
    if (2 * labs(r) > 24 || (2 * labs(r) == 24 && (q & 1))) q += n >= 0 ? 1 : -1; /* half to even */
    return (int)q;
}
static inline int evaluate(const Board *b) {
    int s = evaluate_white(b);
    return b->side == WHITE ? s : -s;
}

/* Neither side can mate: kings alone, or one minor piece besides them. */
static int insufficient(const Board *b) {
    if (b->bb[PIECE(PAWN, WHITE)] | b->bb[PIECE(PAWN, BLACK)] | b->bb[PIECE(ROOK, WHITE)] | b->bb[PIECE(ROOK, BLACK)] |
        b->bb[PIECE(QUEEN, WHITE)] | b->bb[PIECE(QUEEN, BLACK)])
        return 0;
    return popcount(all_occ(b)) <= 3;
}

/* Static exchange evaluation of `m`, centipawns for the mover: games/chess/search.py's `see`
 * (every piece bearing on the square recaptures, least valuable first; pins ignored). */
static const int SEE_VALUE[6] = {100, 320, 330, 500, 900, 20000};
static int see(const Board *b, int m) {
    int from = FROM(m), to = TO(m), promo = PROMO(m), flag = FLAG(m);
    int gains[40], d = 0;
    int victim = flag == F_EP ? PAWN : (b->sq[to] == EMPTY ? -1 : TYPE_OF(b->sq[to]));
    gains[0] = (victim >= 0 ? SEE_VALUE[victim] : 0) + (promo ? SEE_VALUE[promo] - SEE_VALUE[PAWN] : 0);
    int on_square = promo ? promo : TYPE_OF(b->sq[from]);
    u64 occ = all_occ(b) & ~BIT(from);
    if (flag == F_EP) occ &= ~BIT(to + (b->side == WHITE ? -8 : 8));
    int side = b->side ^ 1;
    u64 diag = b->bb[PIECE(BISHOP, 0)] | b->bb[PIECE(BISHOP, 1)] | b->bb[PIECE(QUEEN, 0)] | b->bb[PIECE(QUEEN, 1)];
    u64 straight = b->bb[PIECE(ROOK, 0)] | b->bb[PIECE(ROOK, 1)] | b->bb[PIECE(QUEEN, 0)] | b->bb[PIECE(QUEEN, 1)];
    for (;;) {
        u64 att = (PAWN_ATT[BLACK][to] & b->bb[PIECE(PAWN, WHITE)]) | (PAWN_ATT[WHITE][to] & b->bb[PIECE(PAWN, BLACK)]) |
                  (KNIGHT_ATT[to] & (b->bb[PIECE(KNIGHT, 0)] | b->bb[PIECE(KNIGHT, 1)])) |
                  (KING_ATT[to] & (b->bb[PIECE(KING, 0)] | b->bb[PIECE(KING, 1)])) |
                  (bishop_attacks(to, occ) & diag) | (rook_attacks(to, occ) & straight);
        att &= occ & b->occ[side];
        if (!att || d >= 38) break;
        int t = PAWN;
        u64 c = 0;
        for (; t <= KING; t++)
            if ((c = att & b->bb[PIECE(t, side)])) break;
        d++;
        gains[d] = SEE_VALUE[on_square] - gains[d - 1];
        on_square = t;
        occ &= ~(c & -c);
        side ^= 1;
    }
    for (; d > 0; d--) {
        int a = -gains[d - 1], c = gains[d];
        gains[d - 1] = -(a > c ? a : c);
    }
    return gains[0];
}

/* --- the engine ------------------------------------------------------------------------------ */
enum { T_EXACT = 1, T_LOWER, T_UPPER };
typedef struct {
    u64 key;
    int32_t move;
    int16_t score;
    int8_t depth;
    uint8_t flag;
} Entry;

typedef struct {
    PyObject_HEAD
    Entry *table;
    size_t mask;
    unsigned long long nodes, max_nodes;
    double deadline;
    int stopped;
    Board b;
    u64 keys[MAX_GAME + MAX_PLY + 8]; /* the game's earlier positions, then the path searched */
    int nkeys;
    int killers[MAX_PLY + 1][2];
    int history[2][64][64];
    int pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_len[MAX_PLY + 1];
    int root_first; /* the root move searched first (the last iteration's best) */
    int busy;       /* a search runs (without the GIL): another thread must use another Engine */
} Engine;

/* Ordering and pruning values: victims by PeSTO's larger value, attackers by type. */
static const int GAIN[6] = {94, 337, 365, 512, 1025, 0};
#define DELTA_MARGIN 200
#define SCORE_TT (1 << 30)
#define SCORE_CAPTURE (1 << 26)
#define SCORE_KILLER1 (1 << 25)
#define SCORE_KILLER2 (1 << 24)
#define HISTORY_MAX (1 << 22)

static inline int is_capture(const Board *b, int m) { return b->sq[TO(m)] != EMPTY || FLAG(m) == F_EP; }

static inline int mvv_lva(const Board *b, int m) {
    int s = 0;
    if (is_capture(b, m)) {
        int victim = FLAG(m) == F_EP ? PAWN : TYPE_OF(b->sq[TO(m)]);
        s += 16 * GAIN[victim] - TYPE_OF(b->sq[FROM(m)]);
    }
    if (PROMO(m)) s += 16 * GAIN[PROMO(m)];
    return s;
}

static inline int pick(int *list, int *scores, int n, int i) {
    int best = i;
    for (int j = i + 1; j < n; j++)
        if (scores[j] > scores[best]) best = j;
    int m = list[best], s = scores[best];
    list[best] = list[i];
    scores[best] = scores[i];
    list[i] = m;
    scores[i] = s;
    return m;
}

static inline void check_time(Engine *e) {
    if (e->max_nodes && e->nodes >= e->max_nodes) e->stopped = 1;
    else if (e->deadline > 0 && monotonic_now() >= e->deadline) e->stopped = 1;
}
static inline void count_node(Engine *e) {
    if (e->stopped) return; /* a re-search after the stop: no node */
    e->nodes++;
    if ((e->nodes & CLOCK_MASK) == 0 || (e->max_nodes && e->nodes >= e->max_nodes)) check_time(e);
}

/* The position on the board stood earlier since the last irreversible move, same side to move. */
static int repeated(const Engine *e) {
    int last = e->nkeys - 1, stop = last - e->b.half;
    if (stop < 0) stop = 0;
    for (int i = last - 2; i >= stop; i -= 2)
        if (e->keys[i] == e->b.key) return 1;
    return 0;
}

static inline int has_pieces(const Board *b, int side) {
    return (b->bb[PIECE(KNIGHT, side)] | b->bb[PIECE(BISHOP, side)] | b->bb[PIECE(ROOK, side)] | b->bb[PIECE(QUEEN, side)]) != 0;
}

static inline int to_tt(int s, int ply) { return s >= MATE_BOUND ? s + ply : s <= -MATE_BOUND ? s - ply : s; }
static inline int from_tt(int s, int ply) { return s >= MATE_BOUND ? s - ply : s <= -MATE_BOUND ? s + ply : s; }

static int quiesce(Engine *e, int alpha, int beta, int ply) {
    Board *b = &e->b;
    e->pv_len[ply] = ply;
    count_node(e);
    if (e->stopped) return 0;
    if (ply >= MAX_PLY - 1) return evaluate(b);
    int check = in_check(b, b->side), best = -INF, stand = 0;
    if (!check) {
        stand = best = evaluate(b);
        if (stand >= beta) return stand;
        if (stand > alpha) alpha = stand;
    }
    int list[MAX_MOVES], scores[MAX_MOVES], n = generate(b, list, !check), legal = 0;
    for (int i = 0; i < n; i++) scores[i] = mvv_lva(b, list[i]);
    Undo u;
    for (int i = 0; i < n; i++) {
        int m = pick(list, scores, n, i);
        if (!check) {
            if (PROMO(m) && PROMO(m) != QUEEN) continue; /* an under-promotion is never worth it here */
            int gain = DELTA_MARGIN + (is_capture(b, m) ? GAIN[FLAG(m) == F_EP ? PAWN : TYPE_OF(b->sq[TO(m)])] : 0) +
                       (PROMO(m) ? GAIN[PROMO(m)] - GAIN[PAWN] : 0);
            if (stand + gain <= alpha) continue; /* delta pruning */
            if (see(b, m) < 0) continue;          /* SEE pruning */
        }
        if (!make_legal(b, m, &u)) continue;
        legal++;
        int score = -quiesce(e, -beta, -alpha, ply + 1);
        unmake(b, &u);
        if (e->stopped) return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) break;
            }
        }
    }
    if (check && !legal) return -MATE + ply;
    return best;
}

static int negamax(Engine *e, int depth, int alpha, int beta, int ply, int can_null) {
    Board *b = &e->b;
    int pv_node = beta - alpha > 1;
    e->pv_len[ply] = ply;
    if (ply > 0) {
        if (b->half >= 100 || insufficient(b) || repeated(e)) return 0;
        if (alpha < -MATE + ply) alpha = -MATE + ply; /* mate distance pruning */
        if (beta > MATE - ply - 1) beta = MATE - ply - 1;
        if (alpha >= beta) return alpha;
    }
    int check = in_check(b, b->side);
    if (check) depth++; /* check extension */
    if (depth <= 0) return quiesce(e, alpha, beta, ply);
    count_node(e);
    if (e->stopped) return 0;
    if (ply >= MAX_PLY - 1) return evaluate(b);

    Entry *t = &e->table[b->key & e->mask];
    int tt_move = NO_MOVE;
    if (t->key == b->key) {
        tt_move = t->move;
        if (!pv_node && t->depth >= depth) {
            int s = from_tt(t->score, ply);
            if (t->flag == T_EXACT || (t->flag == T_LOWER && s >= beta) || (t->flag == T_UPPER && s <= alpha)) return s;
        }
    }
    if (ply == 0 && e->root_first) tt_move = e->root_first;

    int static_eval = check ? -INF : evaluate(b);
    Undo u;
    if (!pv_node && !check && beta < MATE_BOUND && beta > -MATE_BOUND) {
        if (depth <= 3 && static_eval - 120 * depth >= beta) return static_eval; /* reverse futility */
        if (can_null && depth >= 3 && static_eval >= beta && has_pieces(b, b->side)) {
            int r = 2 + (depth >= 7);
            make_null(b, &u);
            e->keys[e->nkeys++] = b->key;
            int score = -negamax(e, depth - 1 - r, -beta, -beta + 1, ply + 1, 0);
            e->nkeys--;
            unmake_null(b, &u);
            if (e->stopped) return 0;
            if (score >= beta) return score >= MATE_BOUND ? beta : score;
        }
    }

    int list[MAX_MOVES], scores[MAX_MOVES], n = generate(b, list, 0);
    int *killers = e->killers[ply];
    for (int i = 0; i < n; i++) {
        int m = list[i];
        if (m == tt_move) scores[i] = SCORE_TT;
        else if (is_capture(b, m) || PROMO(m)) scores[i] = SCORE_CAPTURE + mvv_lva(b, m);
        else if (m == killers[0]) scores[i] = SCORE_KILLER1;
        else if (m == killers[1]) scores[i] = SCORE_KILLER2;
        else scores[i] = e->history[b->side][FROM(m)][TO(m)];
    }
    int legal = 0, best = -INF, best_move = NO_MOVE, orig_alpha = alpha;
    int futile = !pv_node && !check && depth <= 2 && static_eval + 100 + 150 * depth <= alpha;
    for (int i = 0; i < n; i++) {
        int m = pick(list, scores, n, i);
        int quiet = !is_capture(b, m) && !PROMO(m);
        if (!make_legal(b, m, &u)) continue;
        legal++;
        int gives = in_check(b, b->side);
        if (futile && quiet && !gives && legal > 1) { /* futility pruning */
            unmake(b, &u);
            continue;
        }
        e->keys[e->nkeys++] = b->key;
        int score;
        if (legal == 1) {
            score = -negamax(e, depth - 1, -beta, -alpha, ply + 1, 1);
        } else {
            int r = 0;
            if (depth >= 3 && quiet && !check && !gives && legal > 3 && m != killers[0] && m != killers[1]) {
                r = 1 + (legal > 8) + (!pv_node && depth >= 6 && legal > 16);
                if (r > depth - 2) r = depth - 2;
            }
            score = -negamax(e, depth - 1 - r, -alpha - 1, -alpha, ply + 1, 1);
            if (score > alpha && r) score = -negamax(e, depth - 1, -alpha - 1, -alpha, ply + 1, 1);
            if (score > alpha && score < beta) score = -negamax(e, depth - 1, -beta, -alpha, ply + 1, 1);
        }
        e->nkeys--;
        unmake(b, &u);
        if (e->stopped) return 0;
        if (score > best) {
            best = score;
            best_move = m;
            if (score > alpha) {
                alpha = score;
                e->pv[ply][ply] = m;
                for (int j = ply + 1; j < e->pv_len[ply + 1]; j++) e->pv[ply][j] = e->pv[ply + 1][j];
                e->pv_len[ply] = e->pv_len[ply + 1] > ply + 1 ? e->pv_len[ply + 1] : ply + 1;
                if (alpha >= beta) {
                    if (quiet) {
                        if (killers[0] != m) {
                            killers[1] = killers[0];
                            killers[0] = m;
                        }
                        int *h = &e->history[b->side][FROM(m)][TO(m)];
                        *h += depth * depth;
                        if (*h > HISTORY_MAX) /* keep below the killers: halve them all */
                            for (int s = 0; s < 2; s++)
                                for (int f = 0; f < 64; f++)
                                    for (int to = 0; to < 64; to++) e->history[s][f][to] /= 2;
                    }
                    break;
                }
            }
        }
    }
    if (!legal) return check ? -MATE + ply : 0;
    if (futile && best == -INF) best = alpha; /* every quiet move pruned: no better than alpha */
    t->key = b->key;
    t->move = best_move;
    t->score = (int16_t)to_tt(best, ply);
    t->depth = (int8_t)(depth > 127 ? 127 : depth);
    t->flag = best >= beta ? T_LOWER : best > orig_alpha ? T_EXACT : T_UPPER;
    return best;
}

/* --- Python ---------------------------------------------------------------------------------- */
static int board_from(PyObject *fen, Board *b) {
    const char *text = PyUnicode_AsUTF8(fen);
    if (!text) return -1;
    if (parse_fen(b, text) < 0) {
        PyErr_Format(PyExc_ValueError, "not a FEN this engine reads: %.100s", text);
        return -1;
    }
    return 0;
}

/* The key of a repetition key tuple of games/chess/rules.py (`position_key`): pawns, knights,
 * bishops, rooks, queens, kings, white's and black's squares, white to move, castling rights
 * as rook squares, en-passant square or None. */
static int key_of_parts(PyObject *parts, u64 *out) {
    if (!PyTuple_Check(parts) || PyTuple_GET_SIZE(parts) != 11) {
        PyErr_SetString(PyExc_TypeError, "a repetition key is an 11-tuple");
        return -1;
    }
    u64 v[10];
    for (int i = 0; i < 10; i++) {
        PyObject *item = PyTuple_GET_ITEM(parts, i);
        v[i] = i == 8 ? (u64)PyObject_IsTrue(item) : PyLong_AsUnsignedLongLongMask(item);
        if (PyErr_Occurred()) return -1;
    }
    u64 k = 0;
    for (int t = 0; t < 6; t++)
        for (int c = 0; c < 2; c++)
            for (u64 p = v[t] & v[6 + c]; p; p &= p - 1) k ^= Z_PIECE[PIECE(t, c)][lsb(p)];
    int castle = (v[9] & BIT(7) ? 1 : 0) | (v[9] & BIT(0) ? 2 : 0) | (v[9] & BIT(63) ? 4 : 0) | (v[9] & BIT(56) ? 8 : 0);
    k ^= Z_CASTLE[castle];
    PyObject *ep = PyTuple_GET_ITEM(parts, 10);
    if (ep != Py_None) {
        long sq = PyLong_AsLong(ep);
        if (sq == -1 && PyErr_Occurred()) return -1;
        k ^= Z_EP[sq & 7];
    }
    if (!v[8]) k ^= Z_SIDE;
    *out = k;
    return 0;
}

static PyObject *uci_list(const int *moves, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    char text[6];
    for (int i = 0; i < n; i++) {
        move_uci(moves[i], text);
        PyList_SET_ITEM(list, i, PyUnicode_FromString(text));
    }
    return list;
}

static int Engine_init(Engine *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"table_bits", NULL};
    int bits = 20;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|i", kwlist, &bits)) return -1;
    if (bits < 10 || bits > 28) {
        PyErr_SetString(PyExc_ValueError, "table_bits is 10..28");
        return -1;
    }
    PyMem_Free(self->table);
    self->table = PyMem_Calloc((size_t)1 << bits, sizeof(Entry));
    if (!self->table) {
        PyErr_NoMemory();
        return -1;
    }
    self->mask = ((size_t)1 << bits) - 1;
    self->nodes = 0;
    return 0;
}

static void Engine_dealloc(Engine *self) {
    PyMem_Free(self->table);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Engine_search(Engine *self, PyObject *args, PyObject *kwds) {
    if (!evaluation_set) return PyErr_Format(PyExc_RuntimeError, "set_evaluation() first");
    static char *kwlist[] = {"fen", "history", "deadline", "max_depth", "max_nodes", NULL};
    PyObject *fen, *history, *deadline = Py_None;
    int max_depth = 64;
    unsigned long long max_nodes = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "UO|OiK", kwlist, &fen, &history, &deadline, &max_depth, &max_nodes))
        return NULL;
    if (!self->table || self->busy) {
        PyErr_SetString(PyExc_RuntimeError, self->busy ? "this Engine is searching in another thread" : "Engine not initialised");
        return NULL;
    }
    Board *b = &self->b;
    if (board_from(fen, b) < 0 || read_deadline(deadline, &self->deadline) < 0) return NULL;
    PyObject *seq = PySequence_Fast(history, "history is a sequence of repetition keys");
    if (!seq) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq), skip = count > MAX_GAME ? count - MAX_GAME : 0;
    self->nkeys = 0;
    for (Py_ssize_t i = skip; i < count; i++)
        if (key_of_parts(PySequence_Fast_GET_ITEM(seq, i), &self->keys[self->nkeys++]) < 0) {
            Py_DECREF(seq);
            return NULL;
        }
    Py_DECREF(seq);
    self->keys[self->nkeys++] = b->key;
    if (max_depth < 1) max_depth = 1;
    if (max_depth > MAX_PLY - 16) max_depth = MAX_PLY - 16;
    memset(self->killers, 0, sizeof self->killers);
    memset(self->history, 0, sizeof self->history);
    self->max_nodes = max_nodes ? self->nodes + max_nodes : 0;
    self->stopped = 0;
    self->root_first = NO_MOVE;

    int moves[MAX_MOVES], n = legal_moves(b, moves);
    int best = n ? moves[0] : NO_MOVE, score = 0, reached = 0, pv[MAX_PLY + 1], pv_len = n ? 1 : 0;
    pv[0] = best;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS /* the search reads no Python object */
    memset(self->table, 0, (self->mask + 1) * sizeof(Entry));
    for (int depth = 1; n && depth <= max_depth; depth++) {
        int s = negamax(self, depth, -INF, INF, 0, 0);
        if (self->stopped) {
            /* the last best was searched first: a move that beat it in the unfinished pass is better */
            if (self->pv_len[0] > 0 && self->pv[0][0] != best) {
                best = self->pv[0][0];
                pv_len = 1;
                pv[0] = best;
            }
            break;
        }
        best = self->pv[0][0];
        score = s;
        reached = depth;
        pv_len = self->pv_len[0];
        memcpy(pv, self->pv[0], sizeof(int) * (size_t)pv_len);
        self->root_first = best;
        if (n == 1 && depth >= 4) break; /* a forced move: no need to know more */
        if (score >= MATE_BOUND && MATE - score <= depth) break; /* a mate found within the full-width depth */
        if (score <= -MATE_BOUND && MATE + score <= depth) break;
        check_time(self);
        if (self->stopped) break;
    }
    Py_END_ALLOW_THREADS
    self->busy = 0;
    if (!n) Py_RETURN_NONE;
    char text[6];
    move_uci(best, text);
    PyObject *line = uci_list(pv, pv_len);
    if (!line) return NULL;
    return Py_BuildValue("(siiN)", text, score, reached, line);
}

static PyObject *Engine_clear(Engine *self, PyObject *Py_UNUSED(ignored)) {
    if (self->table) memset(self->table, 0, (self->mask + 1) * sizeof(Entry));
    Py_RETURN_NONE;
}

NODES_ATTRIBUTE(Engine)

static PyMethodDef Engine_methods[] = {
    {"search", (PyCFunction)(void (*)(void))Engine_search, METH_VARARGS | METH_KEYWORDS,
     "search(fen, history, deadline=None, max_depth=64, max_nodes=0) -> (uci, centipawns, depth, pv) or None\n"
     "Iterative deepening from the FEN, the repetition keys of the earlier positions in `history`; "
     "stops at the deadline (a time.monotonic() instant), the depth or after max_nodes more nodes. "
     "Centipawns for the side to move; beyond +-29000 a mate in 30000 - |score| plies."},
    {"clear", (PyCFunction)Engine_clear, METH_NOARGS, "Empty the transposition table."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "games.chess._engine.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The chess search and its transposition table.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Engine_init,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
    .tp_getset = Engine_getset,
};

static PyObject *py_perft(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *fen;
    int depth;
    Board b;
    if (!PyArg_ParseTuple(args, "Ui", &fen, &depth) || board_from(fen, &b) < 0) return NULL;
    return PyLong_FromUnsignedLongLong(depth <= 0 ? 1 : perft(&b, depth));
}

static PyObject *py_legal_moves(PyObject *Py_UNUSED(module), PyObject *fen) {
    Board b;
    if (!PyUnicode_Check(fen)) return PyErr_Format(PyExc_TypeError, "a FEN is a str");
    if (board_from(fen, &b) < 0) return NULL;
    int moves[MAX_MOVES], n = legal_moves(&b, moves);
    return uci_list(moves, n);
}

static PyObject *py_evaluate(PyObject *Py_UNUSED(module), PyObject *fen) {
    Board b;
    if (!evaluation_set) return PyErr_Format(PyExc_RuntimeError, "set_evaluation() first");
    if (!PyUnicode_Check(fen)) return PyErr_Format(PyExc_TypeError, "a FEN is a str");
    if (board_from(fen, &b) < 0) return NULL;
    return PyLong_FromLong(evaluate_white(&b));
}

static PyObject *py_key(PyObject *Py_UNUSED(module), PyObject *fen) {
    Board b;
    if (!PyUnicode_Check(fen)) return PyErr_Format(PyExc_TypeError, "a FEN is a str");
    if (board_from(fen, &b) < 0) return NULL;
    return PyLong_FromUnsignedLongLong(b.key);
}

static PyObject *py_history_key(PyObject *Py_UNUSED(module), PyObject *parts) {
    u64 k;
    if (key_of_parts(parts, &k) < 0) return NULL;
    return PyLong_FromUnsignedLongLong(k);
}

static PyObject *py_see(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *fen;
    const char *uci;
    Board b;
    if (!PyArg_ParseTuple(args, "Us", &fen, &uci) || board_from(fen, &b) < 0) return NULL;
    int moves[MAX_MOVES], n = legal_moves(&b, moves);
    char text[6];
    for (int i = 0; i < n; i++) {
        move_uci(moves[i], text);
        if (!strcmp(text, uci)) return PyLong_FromLong(see(&b, moves[i]));
    }
    return PyErr_Format(PyExc_ValueError, "%s is not legal here", uci);
}

/* `count` ints of the sequence `seq` into `out`; -1 with an exception when it is not that. */
static int read_ints(PyObject *seq, int *out, Py_ssize_t count) {
    PyObject *fast = PySequence_Fast(seq, "a sequence of ints");
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != count) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%zd ints expected", count);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

/* A table of 12 rows (2 * piece type + colour, white 0) of 64 squares (a1 = 0) into `out`. */
static int read_table(PyObject *rows, int out[12][64]) {
    PyObject *fast = PySequence_Fast(rows, "12 rows of 64 ints");
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != 12) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "12 rows expected");
        return -1;
    }
    for (int row = 0; row < 12; row++)
        if (read_ints(PySequence_Fast_GET_ITEM(fast, row), out[PIECE(row / 2, row % 2)], 64) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    Py_DECREF(fast);
    return 0;
}

static PyObject *py_set_evaluation(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *mg, *eg, *phase, *terms;
    int mg_table[12][64], eg_table[12][64], weights[6];
    Terms read;
    if (!PyArg_ParseTuple(args, "OOOO", &mg, &eg, &phase, &terms)) return NULL;
    if (read_table(mg, mg_table) < 0 || read_table(eg, eg_table) < 0 || read_ints(phase, weights, 6) < 0 ||
        read_ints(terms, (int *)&read, TERM_COUNT) < 0)
        return NULL;
    memcpy(MG, mg_table, sizeof MG);
    memcpy(EG, eg_table, sizeof EG);
    memcpy(PHASE_WEIGHT, weights, sizeof PHASE_WEIGHT);
    T = read;
    evaluation_set = 1;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"set_evaluation", py_set_evaluation, METH_VARARGS,
     "set_evaluation(mg, eg, phase_weight, terms): PeSTO's tables, 12 rows (2 * piece type + colour, white 0) "
     "of 64 squares (a1 = 0), signed for the colour, middlegame and endgame; the phase's weight of each type; "
     "the other terms' values, in the order of games/chess/evaluation.py's TERMS."},
    {"perft", py_perft, METH_VARARGS, "perft(fen, depth): leaves of the legal move tree that deep."},
    {"legal_moves", py_legal_moves, METH_O, "legal_moves(fen): the legal moves, UCI."},
    {"evaluate", py_evaluate, METH_O, "evaluate(fen): the tapered score, centipawns from white's side."},
    {"key", py_key, METH_O, "key(fen): the position's Zobrist key."},
    {"history_key", py_history_key, METH_O, "history_key(position_key): the Zobrist key of a repetition key."},
    {"see", py_see, METH_VARARGS, "see(fen, uci): static exchange evaluation of a legal move, centipawns."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "games.chess._engine", "The chess board and search, compiled (games/chess/engine.py).", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__engine(void) {
    init_tables();
    return module_with_type(&module, &EngineType, "Engine");
}
