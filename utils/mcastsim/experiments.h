/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * mcastsim run: what the experiments (experiments_ch*.c) share with the
 * runner (experiments.c).
 */
#ifndef MCASTSIM_EXPERIMENTS_H
#define MCASTSIM_EXPERIMENTS_H

#include <stdio.h>

#include "simutil.h"

#define MAX_ROWS	4096
#define MAX_COLS	24
#define MAX_ARGS	32

struct run_opts {
	const char *dir;
	u32 scale;		/* trials divided by this (--quick: 40) */
	const char *model;	/* the fabric's level: "worm" or "flit" */
	const char *header;	/* latency --header */
};

/* A CSV read back: the header's columns and the rows' fields. */
struct table {
	char *cols[MAX_COLS];
	u32 ncols;
	char *cell[MAX_ROWS][MAX_COLS];
	u32 nrows;
	char *buf;
};

/*
 * An experiment returns 0 when every conclusion it checks holds, 1 when
 * one does not (a finding, in NAME.txt), -1 when it could not run.
 */
struct experiment {
	const char *name;
	const char *what;
	int (*run)(const struct experiment *e, const struct run_opts *o);
};

FILE *out_file(const struct run_opts *o, const char *name, const char *ext,
	       const char *mode);
/* One study, NULL-terminated arguments, its CSV (header if @header). */
int spawn(FILE *csv, bool header, const char *arg0, ...);
/* The same with a first column "tag" holding @tag on every line. */
int spawn_tagged(FILE *csv, bool header, const char *tag, const char *arg0,
		 ...);
/* The trials to run for the seed's @n. */
u32 trials(const struct run_opts *o, u32 n);
/* snprintf of one number, for study arguments. */
void fmt(char *buf, size_t n, const char *f, u32 v);
/* NAME.csv of @o->dir into a new table; table_free() frees it. */
struct table *table_read(const struct run_opts *o, const char *name);
void table_free(struct table *t);
int col(const struct table *t, const char *name);
double lookup(const struct table *t, const char *want, const char *k1,
	      const char *v1, const char *k2, const char *v2, const char *k3,
	      const char *v3);
int verdict(FILE *f, bool holds, const char *fmt_, ...)
	__attribute__((format(printf, 3, 4)));
int plot(const struct run_opts *o, const char *name, const char *size,
	 const char *body);

#define EXPERIMENT(fn) \
	int fn(const struct experiment *e, const struct run_opts *o)
EXPERIMENT(exp_fig3_10);
EXPERIMENT(exp_fig4_12);
EXPERIMENT(exp_fig4_14);
EXPERIMENT(exp_fig4_16);
EXPERIMENT(exp_fig4_17);
EXPERIMENT(exp_fig6_3);
EXPERIMENT(exp_fig6_4);
EXPERIMENT(exp_fig6_5);
EXPERIMENT(exp_fig6_6);
EXPERIMENT(exp_fig6_7);
EXPERIMENT(exp_fig6_8);
EXPERIMENT(exp_closed_form);
EXPERIMENT(exp_seed001);
EXPERIMENT(exp_seed001_multi);
EXPERIMENT(exp_seed002);
EXPERIMENT(exp_seed002_ch4);
EXPERIMENT(exp_seed002_mixed);
EXPERIMENT(exp_seed003);

#endif /* MCASTSIM_EXPERIMENTS_H */
