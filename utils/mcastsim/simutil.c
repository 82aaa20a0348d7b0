// SPDX-License-Identifier: GPL-2.0 OR MIT
/* mcastsim's shared helpers: see simutil.h. */
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
