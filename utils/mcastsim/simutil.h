/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What mcastsim's studies share: errors, allocation, the random numbers
 * (splitmix64, so every machine draws the same destination sets) and
 * number lists on the command line.
 */
#ifndef MCASTSIM_SIMUTIL_H
#define MCASTSIM_SIMUTIL_H

#include <stddef.h>

#include "fabric_worm.h"
#include "schedule.h"

#define SIM_MAX_LIST	16

/* "mcastsim: " + printf(@fmt, @arg), exit status 2 (usage). */
void sim_die(const char *fmt, const char *arg) __attribute__((noreturn));
/* calloc that exits on failure (and never returns NULL for 0). */
void *sim_calloc(size_t n, size_t sz);
/* "a,b,c" of numbers in [1, @max] into @out (at most SIM_MAX_LIST). */
u32 sim_parse_list(const char *s, u32 *out, u32 max, const char *what);
/* A number below 2^32, or sim_die naming @what. */
u32 sim_num(const char *s, const char *what);
/* Threads to use: the CPUs online, 1..64. */
u32 sim_default_jobs(void);

/*
 * The options every study spells the same way; each dies (exit 2) naming
 * the option on a bad value.
 *   sim_model        --model flit|worm
 *   sim_header       --header none|addr|compound
 *   sim_parse_algos  --algorithms a,b,...: at most SIM_MAX_LIST into
 *                    @algo/@r, separate addressing refused unless @separate
 */
enum mc_fsim_model sim_model(const char *s);
enum mc_fab_header sim_header(const char *s);
u32 sim_parse_algos(const char *s, enum mc_algo *algo, u32 *r, bool separate);
/* "mu-torus(R)" or the algorithm's name, for tables and CSV. */
const char *sim_algo_label(enum mc_algo algo, u32 r, char *buf, size_t n);

/*
 * Student's t at 0.975 for @df degrees of freedom: a 95 % confidence
 * interval of a mean of n samples is t(n - 1) * s / sqrt(n).
 */
double sim_t975(u32 df);
/*
 * The mean of @n samples (stride @stride doubles apart) and the half-width
 * of its 95 % confidence interval (0 for one sample).
 */
double sim_mean_ci(const double *x, u32 n, u32 stride, double *half);

/* splitmix64 */
static inline u64 sim_rnd(u64 *s)
{
	u64 z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * @cnt distinct random nodes of @n into @out (partial Fisher-Yates over
 * @perm, n entries).
 */
void sim_pick(u64 *seed, u32 n, u32 cnt, u32 *perm, u32 *out);

/* The studies: each parses its own options (argv[0] is its name). */
int cube_main(int argc, char **argv);
int latency_main(int argc, char **argv);
int load_main(int argc, char **argv);
int router_main(int argc, char **argv);
int run_main(int argc, char **argv);
int steps_main(int argc, char **argv);
int trace_main(int argc, char **argv);
int visits_main(int argc, char **argv);

#endif /* MCASTSIM_SIMUTIL_H */
