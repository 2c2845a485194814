/*
 * retro: a single-threaded retrograde solver of free-placement m,n,k games
 * over a combinatorial rank of the placements, the yardstick of issue 9
 * ("4x4 k=4 enumerate+solve with 2 workers in at most the time of one core
 * of a tight C solver"). It is not part of the tool: scripts/retro/bench.sh
 * builds it and times it beside the Go benchmark, in turns, so that both
 * are measured in the same hour of a machine whose speed drifts.
 *
 * For every placement of each ply (X's cells ranked among the C(n, x) sets
 * in colex order, O's among the cells X leaves free) it keeps, as the Go
 * solver does for every reachable position: reachable, value, depth, best
 * moves, moves that win, draw and lose, move sequences from the empty board
 * (paths) and the canonical state id and orbit under the square's
 * symmetries. It prints the figures to check against the tool's.
 *
 * Usage: retro ROWS COLS K
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <immintrin.h>

#define MAXN 16

static int n, rows, cols, k;
static uint32_t lines[4 * MAXN * MAXN];
static int nlines;
static int64_t binom[MAXN + 1][MAXN + 1];
static uint32_t ranklo[256], rankhi[9][256]; /* colex rank of a set, a byte at a time */
static uint8_t haswon[1 << (MAXN - 3)];       /* bit m&7 of byte m>>3: the mask m holds a line */
static uint16_t enc[256]; /* base-3 digits 1 where the byte has a bit */
static int nsyms;
static uint16_t symlo[8][256], symhi[8][256]; /* image of a mask's bytes */

typedef struct {
	uint8_t *rvd;    /* bit 7 reachable, bits 5-6 value+1, bits 0-4 depth */
	uint16_t *best;  /* best moves */
	uint8_t *win, *draw, *lose;
	uint64_t *paths;
	uint32_t *canon; /* smallest state id over the symmetries */
	uint8_t *orbit;
	int64_t size;
} ply_t;

static ply_t plys[MAXN + 1];
static int64_t classes; /* reachable positions whose canonical id is their own */

static int pop(uint32_t m) { return __builtin_popcount(m); }

static int won(uint32_t m) { return haswon[m >> 3] >> (m & 7) & 1; }

static void make_tables(void)
{
	for (uint32_t m = 0; m < 1u << n; m++)
		for (int i = 0; i < nlines; i++)
			if ((m & lines[i]) == lines[i]) {
				haswon[m >> 3] |= 1 << (m & 7);
				break;
			}
	for (int v = 0; v < 256; v++) {
		int i = 1;
		for (int e = 0; e < 8; e++)
			if (v >> e & 1)
				ranklo[v] += binom[e][i++];
		for (int below = 0; below <= 8; below++) {
			i = below + 1;
			for (int e = 0; e < 8; e++)
				if (v >> e & 1 && e + 8 <= MAXN)
					rankhi[below][v] += binom[e + 8][i++];
		}
	}
}

static void make_lines(void)
{
	int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++)
			for (int d = 0; d < 4; d++) {
				int er = r + (k - 1) * dr[d], ec = c + (k - 1) * dc[d];
				if (er < 0 || er >= rows || ec < 0 || ec >= cols)
					continue;
				uint32_t m = 0;
				for (int i = 0; i < k; i++)
					m |= 1u << ((r + i * dr[d]) * cols + c + i * dc[d]);
				lines[nlines++] = m;
			}
}

static void make_syms(void)
{
	int R = rows - 1, C = cols - 1;
	nsyms = rows == cols ? 8 : 4;
	for (int s = 0; s < nsyms; s++) {
		int perm[MAXN];
		for (int r = 0; r < rows; r++)
			for (int c = 0; c < cols; c++) {
				int rr, cc;
				switch (s) {
				case 0: rr = r, cc = c; break;
				case 1: rr = r, cc = C - c; break;
				case 2: rr = R - r, cc = c; break;
				case 3: rr = R - r, cc = C - c; break;
				case 4: rr = c, cc = r; break;
				case 5: rr = C - c, cc = r; break;
				case 6: rr = c, cc = R - r; break;
				default: rr = C - c, cc = R - r; break;
				}
				perm[r * cols + c] = rr * cols + cc;
			}
		for (int v = 0; v < 256; v++) {
			uint16_t lo = 0, hi = 0;
			for (int j = 0; j < 8; j++) {
				if (v >> j & 1 && j < n)
					lo |= 1u << perm[j];
				if (v >> j & 1 && j + 8 < n)
					hi |= 1u << perm[j + 8];
			}
			symlo[s][v] = lo, symhi[s][v] = hi;
		}
	}
}

static uint32_t state_id(uint32_t x, uint32_t o)
{
	return enc[x & 255] + 2u * enc[o & 255] + 6561u * (enc[x >> 8] + 2u * enc[o >> 8]);
}

static uint32_t image(int s, uint32_t m) { return symlo[s][m & 255] | symhi[s][m >> 8]; }

static int64_t rank_set(uint32_t s) { return ranklo[s & 255] + rankhi[pop(s & 255)][s >> 8 & 255]; }

/* rank_of ranks X's cells among all sets and O's among the cells X leaves free. */
static int64_t rank_of(uint32_t x, uint32_t o)
{
	return rank_set(x) * binom[n - pop(x)][pop(o)] + rank_set(_pext_u32(o, ~x));
}

static uint32_t next_set(uint32_t s)
{
	uint32_t low = s & -s, ripple = s + low;
	return ripple | ((s ^ ripple) >> 2) / low;
}

/* each calls fn for every placement of ply p in rank order. */
static void each(int p, void (*fn)(int p, int64_t rank, uint32_t x, uint32_t o))
{
	int nx = (p + 1) / 2, no = p / 2;
	int64_t inner = binom[n - nx][no], rank = 0;
	uint32_t xs = (1u << nx) - 1;
	for (int64_t rx = 0; rx < binom[n][nx]; rx++) {
		uint32_t free = ~xs & ((1u << n) - 1), os = (1u << no) - 1;
		for (int64_t ri = 0; ri < inner; ri++) {
			fn(p, rank++, xs, _pdep_u32(os, free));
			if (os)
				os = next_set(os);
		}
		if (xs)
			xs = next_set(xs);
	}
}

/* over: the last mover has a line, or the board is full. */
static int over(int p, uint32_t x, uint32_t o) { return p == n || won(p & 1 ? x : o); }

static void forward(int p, int64_t rank, uint32_t x, uint32_t o)
{
	ply_t *P = &plys[p];
	if (!(P->rvd[rank] & 0x80))
		return;
	uint32_t id = state_id(x, o), canon = id;
	int fixed = 0;
	for (int s = 0; s < nsyms; s++) {
		uint32_t t = state_id(image(s, x), image(s, o));
		canon = t < canon ? t : canon;
		fixed += t == id;
	}
	P->canon[rank] = canon, P->orbit[rank] = nsyms / fixed;
	classes += canon == id;
	if (p > 0 && over(p, x, o))
		return;
	ply_t *C = &plys[p + 1];
	uint32_t empty = ~(x | o) & ((1u << n) - 1);
	for (uint32_t m = empty; m; m &= m - 1) {
		uint32_t c = 1u << __builtin_ctz(m);
		int64_t r = p & 1 ? rank_of(x, o | c) : rank_of(x | c, o);
		C->rvd[r] = 0x80;
		C->paths[r] += P->paths[rank];
	}
}

static void backward(int p, int64_t rank, uint32_t x, uint32_t o)
{
	ply_t *P = &plys[p];
	if (!(P->rvd[rank] & 0x80))
		return;
	if (p > 0 && over(p, x, o)) {
		int v = won(p & 1 ? x : o) ? (p & 1 ? 1 : -1) : 0;
		P->rvd[rank] = 0x80 | (v + 1) << 5;
		return;
	}
	ply_t *C = &plys[p + 1];
	int sign = p & 1 ? -1 : 1; /* X moves at even plies */
	int bv = -2, bd = 0;
	uint16_t best = 0;
	uint8_t w = 0, d = 0, l = 0;
	uint32_t empty = ~(x | o) & ((1u << n) - 1);
	for (uint32_t m = empty; m; m &= m - 1) {
		int cell = __builtin_ctz(m);
		int64_t r = p & 1 ? rank_of(x, o | 1u << cell) : rank_of(x | 1u << cell, o);
		uint8_t b = C->rvd[r];
		int v = sign * ((b >> 5 & 3) - 1), dep = b & 31;
		w += v > 0, d += v == 0, l += v < 0;
		int better = v != bv ? v > bv : (v > 0 ? dep < bd : v < 0 && dep > bd);
		if (better)
			bv = v, bd = dep, best = 0;
		if (v == bv && dep == bd)
			best |= 1u << cell;
	}
	P->rvd[rank] = 0x80 | (sign * bv + 1) << 5 | (bd + 1);
	P->best[rank] = best, P->win[rank] = w, P->draw[rank] = d, P->lose[rank] = l;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* solve runs the forward and the backward pass over the arrays, cleared
 * first when they were used by a run before. */
static void solve(int again)
{
	if (again) {
		for (int p = 0; p <= n; p++) {
			ply_t *P = &plys[p];
			memset(P->rvd, 0, P->size), memset(P->best, 0, 2 * P->size);
			memset(P->win, 0, P->size), memset(P->draw, 0, P->size), memset(P->lose, 0, P->size);
			memset(P->paths, 0, 8 * P->size), memset(P->canon, 0, 4 * P->size), memset(P->orbit, 0, P->size);
		}
		classes = 0;
	}
	plys[0].rvd[0] = 0x80, plys[0].paths[0] = 1;
	for (int p = 0; p <= n; p++)
		each(p, forward);
	for (int p = n; p >= 0; p--)
		each(p, backward);
}

static int alloc(void)
{
	for (int p = 0; p <= n; p++) {
		ply_t *P = &plys[p];
		P->size = binom[n][(p + 1) / 2] * binom[n - (p + 1) / 2][p / 2];
		P->rvd = calloc(P->size, 1), P->best = calloc(P->size, 2);
		P->win = calloc(P->size, 1), P->draw = calloc(P->size, 1), P->lose = calloc(P->size, 1);
		P->paths = calloc(P->size, 8), P->canon = calloc(P->size, 4), P->orbit = calloc(P->size, 1);
		if (!P->rvd || !P->best || !P->win || !P->draw || !P->lose || !P->paths || !P->canon || !P->orbit)
			return 0;
	}
	return 1;
}

/* report prints the figures of the game to check against the tool's. */
static void report(void)
{
	int64_t positions = 0, byvalue[3] = {0};
	uint64_t games = 0, maxpaths = 0;
	for (int p = 0; p <= n; p++) {
		ply_t *P = &plys[p];
		for (int64_t r = 0; r < P->size; r++) {
			if (!(P->rvd[r] & 0x80))
				continue;
			positions++, byvalue[P->rvd[r] >> 5 & 3]++;
			maxpaths = P->paths[r] > maxpaths ? P->paths[r] : maxpaths;
			if (P->win[r] + P->draw[r] + P->lose[r] == 0)
				games += P->paths[r];
		}
	}
	printf("%dx%d k=%d: %lld positions (X wins %lld, draws %lld, O wins %lld), value %d depth %d, "
	       "%lld classes, games %llu, max paths %llu\n",
	       rows, cols, k, (long long)positions, (long long)byvalue[2], (long long)byvalue[1],
	       (long long)byvalue[0], (plys[0].rvd[0] >> 5 & 3) - 1, (plys[0].rvd[0] & 31),
	       (long long)classes, (unsigned long long)games, (unsigned long long)maxpaths);
}

int main(int argc, char **argv)
{
	int runs = argc == 5 ? atoi(argv[4]) : 1;
	if (argc < 4 || argc > 5 || (rows = atoi(argv[1])) < 1 || (cols = atoi(argv[2])) < 1 ||
	    (k = atoi(argv[3])) < 1 || (n = rows * cols) > MAXN || runs < 1) {
		fprintf(stderr, "usage: retro ROWS COLS K [RUNS] (at most %d cells)\n", MAXN);
		return 2;
	}
	double t0 = now();
	for (int i = 0; i <= MAXN; i++) {
		binom[i][0] = 1;
		for (int j = 1; j <= i; j++)
			binom[i][j] = binom[i - 1][j - 1] + binom[i - 1][j];
	}
	for (int m = 0; m < 256; m++)
		for (int j = 0, p = 1; j < 8; j++, p *= 3)
			if (m >> j & 1)
				enc[m] += p;
	make_lines();
	make_tables();
	make_syms();
	if (!alloc()) {
		fprintf(stderr, "retro: out of memory\n");
		return 1;
	}
	/* The first run writes fresh pages; the next ones clear and reuse them,
	 * as the iterations of a Go benchmark reuse the heap. */
	for (int run = 0; run < runs; run++) {
		solve(run > 0);
		double t1 = now();
		printf("run %d: %.3f s\n", run + 1, t1 - t0);
		t0 = t1;
	}
	report();
	return 0;
}
