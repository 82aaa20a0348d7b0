/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Tiny header-only TAP helpers for the planning core's unit tests.
 *
 *   ok(cond, fmt, ...)     one test line; on failure a "# " diagnostic follows
 *                          (call diag() right after for more context);
 *   diag(fmt, ...)         a "# " comment line;
 *   done_testing()         prints the plan "1..N" and returns the exit status
 *                          (non-zero when any test failed).
 *
 * Plus a deterministic PRNG (splitmix64) so every property test reproduces.
 */
#ifndef MC_TAP_H
#define MC_TAP_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned int tap_n;
static unsigned int tap_failed;

__attribute__((format(printf, 1, 2)))
static inline void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

__attribute__((format(printf, 4, 5)))
static inline int tap_ok(int cond, const char *file, int line,
			 const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%sok %u - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	if (!cond)
		printf("# failed at %s:%d\n", file, line);
	fflush(stdout);
	return cond;
}

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

/* ok() for integer equality, printing both values on failure. */
#define is_int(got, want, ...) ({					\
	long long _g = (long long)(got), _w = (long long)(want);	\
	int _r = ok(_g == _w, __VA_ARGS__);				\
	if (!_r)							\
		diag("got %lld, want %lld", _g, _w);			\
	_r; })

static inline int done_testing(void)
{
	printf("1..%u\n", tap_n);
	if (tap_failed)
		printf("# %u of %u tests failed\n", tap_failed, tap_n);
	fflush(stdout);
	return tap_failed ? 1 : 0;
}

/* ---- deterministic PRNG (splitmix64) ---- */

struct rng {
	uint64_t s;
};

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0 (rejection sampling, no modulo bias). */
static inline uint32_t rng_below(struct rng *r, uint32_t n)
{
	uint64_t lim = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;

	do
		x = rng_next(r);
	while (x >= lim);
	return (uint32_t)(x % n);
}

/*
 * A uniformly random subset of size @cnt of [0, @n) in random order,
 * written to @out (partial Fisher-Yates on a scratch array).
 */
static inline void rng_subset(struct rng *r, uint32_t n, uint32_t cnt,
			      uint32_t *out)
{
	uint32_t *a = malloc((size_t)n * sizeof(*a));
	uint32_t i;

	if (!a) {
		perror("malloc");
		exit(2);
	}
	for (i = 0; i < n; i++)
		a[i] = i;
	for (i = 0; i < cnt; i++) {
		uint32_t j = i + rng_below(r, n - i);
		uint32_t t = a[i];

		a[i] = a[j];
		a[j] = t;
		out[i] = a[i];
	}
	free(a);
}

static inline void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		perror("malloc");
		exit(2);
	}
	return p;
}

static inline void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (!p) {
		perror("calloc");
		exit(2);
	}
	return p;
}

#endif /* MC_TAP_H */
