// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastctl stats show: the node's and the groups' counters over generic
 * netlink.  JSON is printed as the replies come, unchanged since scripts
 * parse it; text is collected first (-d needs every counter before it
 * prints one) and laid out by statfmt.c, or by statprom.c for
 * Prometheus.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <netlink/attr.h>

#include "config.h"
#include "nl.h"
#include "statfmt.h"
#include "statprom.h"

void cmd_stats_usage(FILE *f)
{
	fputs("usage: mcastctl stats show [group GROUP] [-j] [-z | -a] [-d]\n"
	      "       mcastctl stats show [group GROUP] --prometheus\n"
	      "\n"
	      "The node's counters and every group's; or one group's.  Text\n"
	      "groups them by area, one per line; gauges (current levels) are\n"
	      "marked \"gauge\" and always shown.\n"
	      "\n"
	      "-z, -a (--all): counters at 0 too (hidden by default).\n"
	      "-d (--delta): each counter's increase since the last stats show\n"
	      "-d by this user (history in $XDG_RUNTIME_DIR/mcastctl-stats, or\n"
	      "/tmp/mcastctl-stats.u<UID>); not with -j.\n"
	      "-j (--json): every key, at 0 too, one object per node or group.\n"
	      "--prometheus: Prometheus' text format (node_exporter's textfile\n"
	      "collector), every value, labelled node and group; not with -j\n"
	      "or -d.  The node must be configured: its id is the node label.\n",
	      f);
}

struct stats_ctx {
	struct json *j;		/* NULL: text, into sets */
	struct stat_set *sets;
	size_t n;
	bool oom;
};

static void json_stats(struct json *j, struct nlattr **st, u32 group,
		       u32 files)
{
	size_t i;

	json_obj_begin(j);
	if (group)
		json_key_uint(j, "group", group);
	for (i = 0; i < stat_nkeys; i++) {
		struct nlattr *a = st[stat_keys[i].attr];

		if (stat_keys[i].attr == MCAST_STATS_A_FILES)
			json_key_uint(j, "files", files);
		else if (a || stat_keys[i].always)
			json_key_uint(j, stat_keys[i].key,
				      a ? nla_get_u64(a) : 0);
	}
	json_obj_end(j);
}

/* A number of any width: an attribute newer than this mcastctl too. */
static bool nla_number(const struct nlattr *a, uint64_t *v)
{
	switch (nla_len(a)) {
	case 8: *v = nla_get_u64((struct nlattr *)a); return true;
	case 4: *v = nla_get_u32((struct nlattr *)a); return true;
	case 2: *v = nla_get_u16((struct nlattr *)a); return true;
	case 1: *v = nla_get_u8((struct nlattr *)a); return true;
	}
	return false;
}

static int set_add(struct stat_set *s, int attr, uint64_t v)
{
	struct stat_val *nv = realloc(s->v, (s->n + 1) * sizeof(*nv));

	if (!nv)
		return -1;
	s->v = nv;
	nv[s->n++] = (struct stat_val){ attr, v };
	return 0;
}

/* The reply as a stat_set: the always-present keys at 0 when absent. */
static int text_set(struct stat_set *s, struct nlattr *nest)
{
	struct nlattr *a;
	size_t i;
	int rem;

	for (i = 0; i < stat_nkeys; i++)
		if (stat_keys[i].always &&
		    set_add(s, stat_keys[i].attr, 0))
			return -1;
	nla_for_each_nested(a, nest, rem) {
		int type = nla_type(a);
		const struct stat_key *k = stat_key_of(type);
		uint64_t v;

		if (type == MCAST_STATS_A_GROUP || type == MCAST_STATS_A_PAD ||
		    !nla_number(a, &v))
			continue;
		if (k && k->always) {	/* already there: set it */
			for (i = 0; s->v[i].attr != type; i++)
				;
			s->v[i].v = v;
		} else if (set_add(s, type, v)) {
			return -1;
		}
	}
	return 0;
}

static int text_stats(struct stats_ctx *c, struct nlattr *nest, u32 group)
{
	struct stat_set *ns = realloc(c->sets, (c->n + 1) * sizeof(*ns));

	if (!ns)
		return -1;
	c->sets = ns;
	ns[c->n] = (struct stat_set){ .group = group };
	return text_set(&ns[c->n++], nest);
}

static int stats_reply(int cmd, struct nlattr **tb, void *arg)
{
	struct stats_ctx *c = arg;
	struct nlattr *st[MCAST_STATS_A_MAX + 1];
	u32 group = 0, files = 0;

	(void)cmd;
	if (!tb[MCAST_A_STATS] ||
	    nla_parse_nested(st, MCAST_STATS_A_MAX, tb[MCAST_A_STATS], NULL) < 0) {
		fprintf(stderr, "mcastctl: malformed statistics from the kernel\n");
		return MCASTCTL_EKERNEL;
	}
	if (st[MCAST_STATS_A_GROUP])
		group = nla_get_u32(st[MCAST_STATS_A_GROUP]);
	if (st[MCAST_STATS_A_FILES])
		files = nla_get_u32(st[MCAST_STATS_A_FILES]);
	if (c->j) {
		json_stats(c->j, st, group, files);
		return 0;
	}
	if (text_stats(c, tb[MCAST_A_STATS], group))
		c->oom = true;
	return 0;
}

/* ------------------------------------------------------------ history */

static const char *hist_path(char *buf, size_t len)
{
	const char *dir = getenv("XDG_RUNTIME_DIR");

	if (dir && *dir)
		snprintf(buf, len, "%s/mcastctl-stats", dir);
	else
		snprintf(buf, len, "/tmp/mcastctl-stats.u%u",
			 (unsigned int)getuid());
	return buf;
}

static void hist_warn(const char *path, const char *why)
{
	fprintf(stderr, "mcastctl: stats show: warning: %s: %s; the counters "
		"are totals\n", path, why);
}

/*
 * Reads the history, untrusted (/tmp is everyone's): our own regular
 * file, no symlink, at most STAT_HIST_MAX bytes.  -1: none usable.
 */
static int hist_load(const char *path, struct stat_set **s, size_t *n)
{
	char *buf = malloc(STAT_HIST_MAX + 1);
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	const char *why = NULL;
	struct stat sb;
	ssize_t got = 0, r = 0;

	if (fd < 0 || !buf) {
		if (!buf || errno != ENOENT)
			why = buf ? strerror(errno) : "out of memory";
	} else if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) ||
		   sb.st_uid != geteuid()) {
		why = "not a file of this user's, ignored";
	} else {
		while (got <= STAT_HIST_MAX &&
		       (r = read(fd, buf + got, STAT_HIST_MAX + 1 - got)) > 0)
			got += r;
		if (r < 0 || stat_hist_parse(buf, got, s, n))
			why = "unreadable or corrupt, ignored";
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	if (why)
		hist_warn(path, why);
	return fd < 0 || why ? -1 : 0;
}

/* Atomically: a 0600 file beside it, then rename over it. */
static void hist_save(const char *path, const struct stat_set *s, size_t n)
{
	char tmp[4200];
	FILE *f = NULL;
	int fd, bad;

	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd >= 0)
		f = fdopen(fd, "w");
	bad = !f || stat_hist_write(f, s, n);
	if (f)
		bad |= fclose(f) != 0;
	else if (fd >= 0)
		close(fd);
	if (!bad && rename(tmp, path))
		bad = 1;
	if (bad) {
		fprintf(stderr, "mcastctl: stats show: warning: cannot save "
			"%s: %s\n", path, strerror(errno));
		if (fd >= 0)
			unlink(tmp);
	}
}

/* -d: saves the totals for the next -d, then makes them increases. */
static unsigned int stats_delta(struct stat_set *s, size_t n)
{
	struct stat_set *prev = NULL;
	unsigned int flags = 0;
	char path[4096];
	size_t nprev = 0;
	bool have;

	hist_path(path, sizeof(path));
	have = !hist_load(path, &prev, &nprev);
	hist_save(path, s, n);
	if (have && stat_delta(s, n, prev, nprev))
		hist_warn(path, "a counter went down (the module reloaded?)");
	else if (have)
		flags = STAT_DELTA;
	stat_sets_free(prev, nprev);
	return flags;
}

/* ------------------------------------------------------------ command */

struct stats_opts {
	bool json, all, delta, prom;
	u32 id;			/* 0: the node and every group */
	u32 node;		/* --prometheus: this node's id */
};

static int stats_args(int argc, char **argv, struct stats_opts *o)
{
	const char *what = "stats show";
	bool z = false;

	argc = take_json(argc, argv, &o->json);
	argc = take_flag(argc, argv, "-z", "--zeros", &z);
	argc = take_flag(argc, argv, "-a", "--all", &o->all);
	argc = take_flag(argc, argv, "-d", "--delta", &o->delta);
	argc = take_flag(argc, argv, "--prometheus", "--prometheus", &o->prom);
	o->all |= z;
	if (o->prom && o->json)
		return usage_err(what, "--prometheus and -j are two formats: "
				 "choose one");
	if (o->prom && o->delta)
		return usage_err(what, "--prometheus prints the totals (rate() "
				 "makes increases): not with -d");
	if (o->delta && o->json)
		return usage_err(what, "-d is for text: -j prints the totals");
	if (argc > 1) {
		if (strcmp(argv[1], "group"))
			return usage_err(what, "unknown keyword \"%.64s\" (group)",
					 argv[1]);
		if (argc < 3)
			return usage_err(what, "group needs a GROUP");
		if (argc > 3)
			return usage_err(what, "unexpected argument \"%.64s\"",
					 argv[3]);
		return parse_group_id(what, argv[2], &o->id);
	}
	return 0;
}

/* STATS_GET for group @id (0: the node), or a dump of every group's. */
static int stats_get(struct ctl_nl *nl, const char *what, u32 id, bool dump,
		     struct stats_ctx *c)
{
	struct nl_msg *msg = ctl_nl_msg(nl, MCAST_CMD_STATS_GET, dump, 0);
	struct nlattr *nest;

	if (msg && id) {
		nest = nla_nest_start(msg, MCAST_A_STATS);
		if (!nest || nla_put_u32(msg, MCAST_STATS_A_GROUP, id)) {
			nlmsg_free(msg);
			msg = NULL;
		} else {
			nla_nest_end(msg, nest);
		}
	}
	return msg ? ctl_nl_request(nl, msg, stats_reply, c) : nomem(what);
}

/* The node's then every group's (one request each), or group @o->id's. */
static int stats_fetch(struct ctl_nl *nl, const char *what,
		       const struct stats_opts *o, struct stats_ctx *c)
{
	int err;

	if (c->j && !o->id) {
		json_obj_begin(c->j);
		json_key(c->j, "node");
	}
	err = stats_get(nl, what, o->id, false, c);
	if (err || o->id)
		return err;
	if (c->j) {
		json_key(c->j, "groups");
		json_arr_begin(c->j);
	}
	err = stats_get(nl, what, 0, true, c);
	if (c->j) {
		json_arr_end(c->j);
		json_obj_end(c->j);
	}
	return err;
}

static int stats_text(const char *what, const struct stats_opts *o,
		      struct stats_ctx *c, int err)
{
	unsigned int flags = o->all ? STAT_ALL : 0;
	size_t i;

	if (!err && c->oom)
		err = nomem(what);
	if (!err && o->delta)
		flags |= stats_delta(c->sets, c->n);
	if (!err && o->prom && stat_prom_write(stdout, o->node, c->sets, c->n))
		err = input_err(what, "cannot write the output");
	for (i = 0; !err && !o->prom && i < c->n; i++)
		stat_print(stdout, &c->sets[i], flags);
	stat_sets_free(c->sets, c->n);
	if (!err && fflush(stdout))
		err = input_err(what, "cannot write the output");
	return err;
}

/* --prometheus labels every sample with the node's id: it needs one. */
static int stats_node_id(struct ctl_nl *nl, const char *what, u32 *id)
{
	struct ctl_node node;
	int err = ctl_node_get(nl, &node);

	if (!err && !node.configured)
		return input_err(what, "this node is not configured, and its "
				 "metrics are labelled with its id (mcastctl "
				 "node set topology T coord C)");
	*id = node.id;
	return err;
}

static int stats_show(int argc, char **argv)
{
	const char *what = "stats show";
	struct stats_opts o = { 0 };
	struct stats_ctx c = { 0 };
	struct ctl_nl nl;
	struct jout jo;
	int err;

	err = stats_args(argc, argv, &o);
	if (err)
		return err;
	err = ctl_nl_open(&nl, what);
	if (err)
		return err;
	if ((o.prom && (err = stats_node_id(&nl, what, &o.node))) ||
	    (o.json && (err = jout_begin(&jo, what)))) {
		ctl_nl_close(&nl);
		return err;
	}
	if (o.json)
		c.j = &jo.j;
	err = stats_fetch(&nl, what, &o, &c);
	ctl_nl_close(&nl);
	return o.json ? jout_end(&jo, what, err) : stats_text(what, &o, &c, err);
}

const struct verb stats_verbs[] = {
	{ "show", stats_show, "group= -j --json -z --zeros -a --all -d --delta "
	  "--prometheus" },
	{ NULL, NULL, NULL },
};

int cmd_stats(int argc, char **argv)
{
	return run_verb("stats", stats_verbs, cmd_stats_usage, argc, argv);
}
