// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastsim run EXPERIMENT: the seeds' studies, reproduced by name.  Each
 * experiment runs studies of this program (latency, visits, steps) with
 * the seed's parameters into DIR/NAME.csv, checks the seed's stated
 * conclusions against the figures into DIR/NAME.txt, and draws
 * DIR/NAME.png and .svg with gnuplot (DIR/NAME.gp).  `make figures` runs
 * them all into docs/figures/.
 *
 * Each study runs in a child process (its option parser and exit()s are
 * its own), its CSV appended to the experiment's.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "experiments.h"

FILE *out_file(const struct run_opts *o, const char *name,
		      const char *ext, const char *mode)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.%s", o->dir, name, ext);
	f = fopen(path, mode);
	if (!f) {
		fprintf(stderr, "mcastsim: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return f;
}

static int study_main(int argc, char **argv)
{
	if (!strcmp(argv[0], "latency"))
		return latency_main(argc, argv);
	if (!strcmp(argv[0], "visits"))
		return visits_main(argc, argv);
	if (!strcmp(argv[0], "steps"))
		return steps_main(argc, argv);
	if (!strcmp(argv[0], "cube"))
		return cube_main(argc, argv);
	return 2;
}

/*
 * Run one study (arguments @ap, NULL-terminated) with its CSV on @csv:
 * the header only if @header; with @tag, every line begins with a column
 * "tag" (@tag's value).
 */
static int vspawn(FILE *csv, bool header, const char *tag, const char *arg0,
		  va_list ap)
{
	/* the study's output goes to an unlinked file (mkstemp's template) */
	char *argv[MAX_ARGS], tmpl[] = "/tmp/mcastsim-run.XXXXXX", line[1024];
	int argc = 0, fd, st;
	FILE *in;
	pid_t pid;
	bool first = true;

	for (argv[argc++] = (char *)arg0; argc < MAX_ARGS - 1;)
		if (!(argv[argc++] = va_arg(ap, char *)))
			break;
	argv[argc] = NULL;
	argc--;
	fd = mkstemp(tmpl);
	if (fd < 0)
		return -1;
	unlink(tmpl);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(fd, 1);
		optind = 0;
		exit(study_main(argc, argv));
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "mcastsim: run: mcastsim %s failed\n", arg0);
		close(fd);
		return -1;
	}
	in = fdopen(fd, "r");
	rewind(in);
	while (fgets(line, sizeof(line), in)) {
		if (!first || header)
			fprintf(csv, "%s%s%s", tag ? (first ? "tag" : tag) : "",
				tag ? "," : "", line);
		first = false;
	}
	fclose(in);
	return 0;
}

int spawn(FILE *csv, bool header, const char *arg0, ...)
{
	va_list ap;
	int rc;

	va_start(ap, arg0);
	rc = vspawn(csv, header, NULL, arg0, ap);
	va_end(ap);
	return rc;
}

int spawn_tagged(FILE *csv, bool header, const char *tag, const char *arg0,
		 ...)
{
	va_list ap;
	int rc;

	va_start(ap, arg0);
	rc = vspawn(csv, header, tag, arg0, ap);
	va_end(ap);
	return rc;
}

u32 trials(const struct run_opts *o, u32 n)
{
	n /= o->scale;
	return n ? n : 1;
}

void fmt(char *buf, size_t n, const char *f, u32 v)
{
	snprintf(buf, n, f, v);
}

struct table *table_read(const struct run_opts *o, const char *name)
{
	FILE *f = out_file(o, name, "csv", "r");
	struct table *t = sim_calloc(1, sizeof(*t));
	char *p, *line, *save = NULL;
	long len;

	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	t->buf = sim_calloc((size_t)len + 1, 1);
	if (fread(t->buf, 1, (size_t)len, f) != (size_t)len)
		len = 0;
	fclose(f);
	for (line = strtok_r(t->buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char **row = t->ncols ? t->cell[t->nrows] : t->cols;
		u32 c = 0;

		for (p = line; c < MAX_COLS; c++) {
			row[c] = p;
			p = strchr(p, ',');
			if (!p)
				break;
			*p++ = '\0';
		}
		if (!t->ncols)
			t->ncols = c + 1;
		else if (t->nrows < MAX_ROWS - 1)
			t->nrows++;
	}
	if (!t->ncols) {
		fprintf(stderr, "mcastsim: run: %s/%s.csv is empty\n", o->dir,
			name);
		exit(1);
	}
	return t;
}

void table_free(struct table *t)
{
	free(t->buf);
	free(t);
}

int col(const struct table *t, const char *name)
{
	u32 c;

	for (c = 0; c < t->ncols; c++)
		if (!strcmp(t->cols[c], name))
			return (int)c;
	fprintf(stderr, "mcastsim: run: no column %s\n", name);
	exit(1);
}

/*
 * The value in column @want of the row whose columns @k1 and @k2 hold
 * @v1 and @v2 (and @k3 @v3 unless NULL), or -1.
 */
double lookup(const struct table *t, const char *want,
		     const char *k1, const char *v1, const char *k2,
		     const char *v2, const char *k3, const char *v3)
{
	int w = col(t, want), c1 = col(t, k1), c2 = col(t, k2);
	int c3 = k3 ? col(t, k3) : -1;
	u32 r;

	for (r = 0; r < t->nrows; r++)
		if (!strcmp(t->cell[r][c1], v1) &&
		    !strcmp(t->cell[r][c2], v2) &&
		    (c3 < 0 || !strcmp(t->cell[r][c3], v3)))
			return atof(t->cell[r][w]);
	return -1;
}

/* One line of NAME.txt: a conclusion of the seed, and whether it holds. */
int verdict(FILE *f, bool holds, const char *fmt_, ...)
{
	va_list ap;

	fprintf(f, "%s: ", holds ? "holds" : "DOES NOT HOLD");
	va_start(ap, fmt_);
	vfprintf(f, fmt_, ap);
	va_end(ap);
	fputc('\n', f);
	return holds ? 0 : 1;
}

/* gnuplot DIR/NAME.gp: @body plots to both terminals in turn. */
int plot(const struct run_opts *o, const char *name, const char *size,
		const char *body)
{
	char cmd[4200];
	FILE *f = out_file(o, name, "gp", "w");
	int rc;

	fprintf(f, "# %s: drawn by mcastsim run %s\n"
		"set datafile separator ','\nset datafile missing NaN\nset datafile columnheaders\n"
		"set key inside top left\nset grid\n"
		"algos = 's-torus md-torus mu-torus(8) mu-torus(64) mu-torus(2)'\n"
		"csv = '%s.csv'\n"
		"do for [term in 'pngcairo svg'] {\n"
		"  if (term eq 'svg') { set terminal svg size %s dynamic; set output '%s.svg' }\n"
		"  else { set terminal pngcairo size %s; set output '%s.png' }\n"
		"%s\n}\n",
		name, name, name, size, name, size, name, body);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "cd '%s' && gnuplot '%s.gp'", o->dir, name);
	rc = system(cmd);
	if (rc)
		fprintf(stderr, "mcastsim: run: gnuplot failed on %s/%s.gp (no plot; the CSV and checks stand)\n",
			o->dir, name);
	return 0;
}

static const struct experiment experiments[] = {
	{ "fig3.10-11", "U-cube, Maxport, Combine, W-sort steps, 6-cube and 10-cube, all-port", exp_fig3_10 },
	{ "fig4.12-13", "U-torus receive steps, 1024-node 2D and 512-node 3D, uni and bi (avg, max)", exp_fig4_12 },
	{ "fig4.14-15", "U-torus receive steps, 4096-node 2D and 3D, uni and bi (avg, max)", exp_fig4_14 },
	{ "fig4.16", "U-torus against separate addressing, 4096-node 2D unidirectional", exp_fig4_16 },
	{ "fig4.17", "Type 1 and Type 2 link sharing, 4096-node 2D and 3D bidirectional", exp_fig4_17 },
	{ "fig6.3", "latency against m, 64x64, high start-up (95/75/0.5 us)", exp_fig6_3 },
	{ "fig6.4", "latency against m, 64x64, low start-up (10/8/0.5 us)", exp_fig6_4 },
	{ "fig6.5", "latency against m, 16x16x16, high start-up", exp_fig6_5 },
	{ "fig6.6", "latency against m, 16x16x16, low start-up", exp_fig6_6 },
	{ "fig6.7", "latency against message length, 64x64, m = 512", exp_fig6_7 },
	{ "fig6.8", "total link visits, 4096-node 2D and 3D", exp_fig6_8 },
	{ "closed-form", "contention-free latency closed forms, both parameter sets", exp_closed_form },
	{ "seed001", "one multicast on random lattice switch graphs, 64 and 256 switches (Fig 3)", exp_seed001 },
	{ "seed001-multi", "Poisson multicasts on random lattice switch graphs: latency against arrival rate, wormhole contention", exp_seed001_multi },
	{ "seed002", "packet routers: oblivious, Duato, Min Triplex, Chaos, input- and output-driven, 16x16 torus and mesh (Tables 5.3-5.6, 6.2, B.1-B.6)", exp_seed002 },
	{ "seed002-ch4", "wormhole routers: oblivious, oblivious, minimal and non-minimal Triplex, Duato, 16x16 torus, 40 and 40/400-word (Table 4.4); ch. 4's packet Triplex claims", exp_seed002_ch4 },
	{ "seed002-mixed", "mixed-class traffic: x % oblivious-class, the rest minimal or non-minimal Triplex, against the oblivious router, 16x16 torus, wormhole 40/400-word (Figs 4.13, 4.14)", exp_seed002_mixed },
	{ "seed003", "recursion-based broadcast against its baselines, n = 5, 2D and 3D (Figs 4, 8)", exp_seed003 },
};

#define NEXP (sizeof(experiments) / sizeof(experiments[0]))

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: mcastsim run [--dir DIR] [--quick] [--model worm|flit]\n"
	      "                    [--header none|addr|compound] EXPERIMENT|all ...\n"
	      "       mcastsim run --list\n"
	      "  writes DIR/EXPERIMENT.{csv,txt,gp,png,svg} (DIR default .)\n"
	      "  --quick           trials / 40 (a smoke run)\n"
	      "  --model M         the fabric's level of detail for latencies: worm\n"
	      "                    (default) or flit, the same figures, flit much slower\n"
	      "  --header H        the flits a worm's header adds (mcastsim latency\n"
	      "                    --header; default none)\n"
	      "experiments:\n", f);
	for (i = 0; i < NEXP; i++)
		fprintf(f, "  %-14s %s\n", experiments[i].name,
			experiments[i].what);
}

static int run_one(const struct experiment *e, const struct run_opts *o)
{
	int rc;

	fprintf(stderr, "mcastsim run: %s ...\n", e->name);
	rc = e->run(e, o);
	fprintf(stderr, "mcastsim run: %s: %s\n", e->name,
		rc < 0 ? "failed" : rc ? "a conclusion does not hold" : "ok");
	return rc < 0 ? 1 : 0;
}

int run_main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "quick", no_argument, NULL, 'q' },
		{ "model", required_argument, NULL, 'm' },
		{ "header", required_argument, NULL, 'H' },
		{ "list", no_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct run_opts o = { .dir = ".", .scale = 1, .model = "worm",
				.header = "none" };
	int c, rc = 0, i;
	size_t j;

	while ((c = getopt_long(argc, argv, "d:qh", lo, NULL)) != -1) {
		switch (c) {
		case 'd':
			o.dir = optarg;
			break;
		case 'q':
			o.scale = 40;
			break;
		case 'm':
			sim_model(optarg);	/* dies on a bad one */
			o.model = optarg;
			break;
		case 'H':
			sim_header(optarg);
			o.header = optarg;
			break;
		case 'L':
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (optind == argc) {
		usage(stderr);
		exit(2);
	}
	for (i = optind; i < argc; i++) {
		bool found = !strcmp(argv[i], "all");

		for (j = 0; j < NEXP; j++)
			found |= !strcmp(argv[i], experiments[j].name);
		if (!found)
			sim_die("run: no experiment named '%s' (mcastsim run --list)",
				argv[i]);
	}
	for (i = optind; i < argc; i++)
		for (j = 0; j < NEXP; j++)
			if (!strcmp(argv[i], "all") ||
			    !strcmp(argv[i], experiments[j].name))
				rc |= run_one(&experiments[j], &o);
	return rc;
}
