// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Helpers shared by the peer harnesses; see peers.h. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "peers.h"

double peers_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int parse_u32(const char *s, uint32_t max, uint32_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

/* "8", "1K", "4M" (binary multiples); 1 byte to PEERS_MAX_SIZE. */
static int parse_size(const char *s, uint32_t *out)
{
	char buf[32];
	size_t n = strlen(s);
	uint32_t v, mul = 1;

	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n + 1);
	if (buf[n - 1] == 'K' || buf[n - 1] == 'k')
		mul = 1024;
	else if (buf[n - 1] == 'M' || buf[n - 1] == 'm')
		mul = 1024 * 1024;
	if (mul > 1)
		buf[--n] = 0;
	if (parse_u32(buf, PEERS_MAX_SIZE, &v) || !v || (uint64_t)v * mul > PEERS_MAX_SIZE)
		return -1;
	*out = v * mul;
	return 0;
}

static int parse_sizes(const char *s, struct peers_opts *o)
{
	char *copy = strdup(s), *tok, *save = NULL;

	if (!copy)
		return -1;
	o->nsizes = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (o->nsizes >= PEERS_MAX_SIZES || parse_size(tok, &o->sizes[o->nsizes])) {
			free(copy);
			return -1;
		}
		o->nsizes++;
	}
	free(copy);
	return o->nsizes ? 0 : -1;
}

static int bad_opt(const char *what, const char *arg, const char *usage)
{
	fprintf(stderr, "bad %s \"%s\"\n%s", what, arg, usage);
	return 2;
}

int peers_parse(int argc, char **argv, struct peers_opts *o, const char *usage)
{
	static const struct option opts[] = {
		{ "peer", required_argument, NULL, 'p' },
		{ "method", required_argument, NULL, 'm' },
		{ "sizes", required_argument, NULL, 's' },
		{ "iters", required_argument, NULL, 'n' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "no-header", no_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	o->peer = "unknown";
	o->method = "default";
	o->iters = 20;
	o->warmup = 2;
	o->header = true;
	parse_sizes("8,1K,64K,1M,4M", o);
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			o->peer = optarg;
			break;
		case 'm':
			o->method = optarg;
			break;
		case 's':
			if (parse_sizes(optarg, o))
				return bad_opt("--sizes", optarg, usage);
			break;
		case 'n':
			if (parse_u32(optarg, 1000000, &o->iters) || !o->iters)
				return bad_opt("--iters", optarg, usage);
			break;
		case 'w':
			if (parse_u32(optarg, 1000000, &o->warmup))
				return bad_opt("--warmup", optarg, usage);
			break;
		case 'H':
			o->header = false;
			break;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind < argc)
		return bad_opt("argument", argv[optind], usage);
	return 0;
}

void peers_fill(uint8_t *buf, size_t off, size_t len, uint32_t iter)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)((off + i) * 7 + iter);
}

size_t peers_check(const uint8_t *buf, size_t off, size_t len, uint32_t iter)
{
	size_t i, bad = 0;

	for (i = 0; i < len; i++)
		bad += buf[i] != (uint8_t)((off + i) * 7 + iter);
	return bad;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void peers_stats(double *lat, uint32_t n, struct peers_row *r)
{
	uint32_t i;

	qsort(lat, n, sizeof(*lat), cmp_double);
	r->median_us = n % 2 ? lat[n / 2] : (lat[n / 2 - 1] + lat[n / 2]) / 2;
	i = (uint32_t)(0.99 * n + 0.999999);
	r->p99_us = lat[(i ? i : 1) - 1];
}

double peers_cpu_us(void)
{
	unsigned long long user, nice, sys, idle, iowait, irq, softirq, steal = 0;
	long hz = sysconf(_SC_CLK_TCK);
	FILE *f = fopen("/proc/stat", "r");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice,
		   &sys, &idle, &iowait, &irq, &softirq, &steal);
	fclose(f);
	if (n < 7 || hz <= 0)
		return -1;
	return (double)(user + nice + sys + irq + softirq + steal) * 1e6 / hz;
}

double peers_tx_bytes(void)
{
	DIR *d = opendir("/sys/class/net");
	unsigned long long v;
	struct dirent *e;
	char path[300];
	double sum = 0;
	FILE *f;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "lo"))
			continue;
		snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/tx_bytes",
			 e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%llu", &v) == 1)
			sum += (double)v;
		fclose(f);
	}
	closedir(d);
	return sum;
}

void peers_print_row(const struct peers_opts *o, const struct peers_row *r)
{
	double mb_s = r->msgs_s * r->size / 1e6;

	printf("%s,%s,%u,%u,%u,%u,%.1f,%.1f,%.1f,%.3f,%.1f,%u,%.0f,%.0f\n", o->peer,
	       o->method, r->nodes, r->dests, r->size, r->iters, r->median_us, r->p99_us,
	       r->msgs_s, mb_s, r->cpu_us_per_msg, r->failed, r->tx_before, r->tx_after);
	fflush(stdout);
}
