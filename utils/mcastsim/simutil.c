// SPDX-License-Identifier: GPL-2.0 OR MIT
/* mcastsim's shared helpers: see simutil.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse.h"
#include "simutil.h"

void sim_die(const char *fmt, const char *arg)
{
	fprintf(stderr, "mcastsim: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

void *sim_calloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);

	if (!p) {
		perror("mcastsim");
		exit(1);
	}
	return p;
}

u32 sim_parse_list(const char *s, u32 *out, u32 max, const char *what)
{
	char buf[512], *tok, *save = NULL;
	u32 n = 0;

	if (strlen(s) >= sizeof(buf))
		sim_die("%s: list too long", what);
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == SIM_MAX_LIST)
			sim_die("%s: at most 16 values", what);
		if (parse_u32(tok, max, &out[n]) || !out[n])
			sim_die("%s: not a positive number in range", what);
		n++;
	}
	if (!n)
		sim_die("%s: empty list", what);
	return n;
}

u32 sim_num(const char *s, const char *what)
{
	u64 v;

	if (parse_u64(s, &v) || v > 0xffffffffull)
		sim_die("%s: not a number below 2^32", what);
	return (u32)v;
}

u32 sim_default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 64 ? 64 : (u32)n;
}

void sim_pick(u64 *seed, u32 n, u32 cnt, u32 *perm, u32 *out)
{
	u32 i;

	for (i = 0; i < n; i++)
		perm[i] = i;
	for (i = 0; i < cnt; i++) {
		u32 j = i + (u32)(sim_rnd(seed) % (n - i)), x = perm[i];

		perm[i] = perm[j];
		perm[j] = x;
		out[i] = perm[i];
	}
}

double sim_t975(u32 df)
{
	static const double t[] = { 0, 12.706, 4.303, 3.182, 2.776, 2.571,
		2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
		2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
		2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };

	if (df < sizeof(t) / sizeof(t[0]))
		return t[df];
	return 1.96 + 2.5 / df;	/* within 0.002 of the quantile past 30 */
}

double sim_mean_ci(const double *x, u32 n, u32 stride, double *half)
{
	double sum = 0, ss = 0, mean;
	u32 i;

	for (i = 0; i < n; i++)
		sum += x[(size_t)i * stride];
	mean = n ? sum / n : 0;
	for (i = 0; i < n; i++)
		ss += (x[(size_t)i * stride] - mean) *
		      (x[(size_t)i * stride] - mean);
	*half = n > 1 ? sim_t975(n - 1) * sqrt(ss / (n - 1)) / sqrt(n) : 0;
	return mean;
}

enum mc_fsim_model sim_model(const char *s)
{
	if (!strcmp(s, "flit"))
		return MC_FSIM_FLIT;
	if (!strcmp(s, "worm"))
		return MC_FSIM_WORM;
	sim_die("--model: '%s' is not flit or worm", s);
}

enum mc_fab_header sim_header(const char *s)
{
	if (!strcmp(s, "none"))
		return MC_FAB_HDR_NONE;
	if (!strcmp(s, "addr"))
		return MC_FAB_HDR_ADDR;
	if (!strcmp(s, "compound"))
		return MC_FAB_HDR_COMPOUND;
	sim_die("--header: '%s' is not none, addr or compound", s);
}

u32 sim_parse_algos(const char *s, enum mc_algo *algo, u32 *r, bool separate)
{
	char buf[512], *tok, *save = NULL, err[PARSE_ERR_MAX];
	u32 n = 0;

	if (strlen(s) >= sizeof(buf))
		sim_die("%s: list too long", "--algorithms");
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == SIM_MAX_LIST)
			sim_die("%s: at most 16 algorithms", "--algorithms");
		if (parse_algorithm(tok, &algo[n], &r[n], err))
			sim_die("--algorithms: %s", err);
		if (algo[n] == MC_ALGO_SEPARATE && !separate)
			sim_die("--algorithms: %s is not simulated", tok);
		n++;
	}
	if (!n)
		sim_die("%s: empty list", "--algorithms");
	return n;
}

const char *sim_algo_label(enum mc_algo algo, u32 r, char *buf, size_t n)
{
	if (algo == MC_ALGO_MUTORUS)
		snprintf(buf, n, "mu-torus(%u)", r);
	else
		snprintf(buf, n, "%s", algo_name(algo));
	return buf;
}
