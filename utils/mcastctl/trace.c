// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastctl trace SRC SEQ: the tree one message actually took, read from
 * mcast.ko's tracepoints (docs/tracing.md): its send at the source, every
 * transfer (mcast_forward) with its time, every delivery with its time and
 * outcome, the retransmissions and BUSY answers of its transfers; and,
 * given the topology, the plan the planning core makes for the same
 * source, destinations and algorithm, each destination's parent and step
 * beside what happened.  The trace is tracefs's text (the trace file of
 * this host, or several hosts' concatenated: each event names its node).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "json.h"
#include "mcastctl.h"
#include "parse.h"
#include "schedule.h"

#define TRACE_FILE	"/sys/kernel/tracing/trace"
#define TRACE_NODES_MAX	65536	/* the torus's limit on nodes */

/* What the trace says of one destination. */
struct hop {
	u32 node;
	bool fwd, got;		/* a transfer to it; a delivery at it */
	u32 from, step;		/* the transfer's sender, its step */
	double fwd_at, got_at;	/* seconds of the trace's clock */
	char outcome[16];
	u32 retrans, busy;	/* of the transfers to it */
	u64 xid;
	bool plan;		/* ... and what the plan says */
	u32 plan_from, plan_step;
};

struct trace {
	u32 src;
	u64 seq;
	bool sent;
	double sent_at;
	u64 group, len;
	char algo[16];
	struct hop *hops;
	u32 nhops, cap;
	u64 drops;
};

/* "key=value" in @line's fields, as a string (NULL if absent). */
static const char *field(const char *line, const char *key, char *buf,
			 size_t size)
{
	size_t k = strlen(key), n;
	const char *p = line;

	while ((p = strstr(p, key))) {
		if ((p == line || p[-1] == ' ') && p[k] == '=') {
			p += k + 1;
			n = strcspn(p, " \n");
			if (n >= size)
				n = size - 1;
			memcpy(buf, p, n);
			buf[n] = 0;
			return buf;
		}
		p += k;
	}
	return NULL;
}

static bool field_u64(const char *line, const char *key, u64 *v)
{
	char buf[32], *end;

	if (!field(line, key, buf, sizeof(buf)))
		return false;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return !errno && !*end && end != buf;
}

/* The event's name and time: "... 302.755207: mcast_send: node=0 ..." */
static const char *event_of(const char *line, double *at)
{
	const char *e = strstr(line, ": mcast_");
	const char *t;

	if (!e)
		return NULL;
	for (t = e; t > line && t[-1] != ' '; t--)
		;
	*at = strtod(t, NULL);
	return e + 2;
}

static struct hop *hop_of(struct trace *tr, u32 node)
{
	struct hop *h;
	u32 i;

	for (i = 0; i < tr->nhops; i++)
		if (tr->hops[i].node == node)
			return &tr->hops[i];
	if (tr->nhops == tr->cap) {
		u32 cap = tr->cap ? 2 * tr->cap : 64;

		if (cap > TRACE_NODES_MAX)
			return NULL;
		h = realloc(tr->hops, cap * sizeof(*h));
		if (!h)
			return NULL;
		tr->hops = h;
		tr->cap = cap;
	}
	h = &tr->hops[tr->nhops++];
	memset(h, 0, sizeof(*h));
	h->node = node;
	return h;
}

/* The destination whose transfer has @xid from @node (its sender). */
static struct hop *hop_by_xid(struct trace *tr, u32 node, u64 xid)
{
	u32 i;

	for (i = 0; i < tr->nhops; i++)
		if (tr->hops[i].fwd && tr->hops[i].from == node &&
		    tr->hops[i].xid == xid)
			return &tr->hops[i];
	return NULL;
}

static int take_event(struct trace *tr, const char *ev, double at,
		      const char *line)
{
	u64 node, peer, step, xid, v;
	struct hop *h;
	char buf[16];

	if (!field_u64(line, "node", &node) || node >= TRACE_NODES_MAX)
		return 0;
	if (!strncmp(ev, "mcast_send:", 11) && node == tr->src) {
		tr->sent = true;
		tr->sent_at = at;
		field_u64(line, "group", &tr->group);
		field_u64(line, "len", &tr->len);
		if (field(line, "algo", buf, sizeof(buf)))
			strcpy(tr->algo, buf);
	} else if (!strncmp(ev, "mcast_forward:", 14) &&
		   field_u64(line, "peer", &peer) && peer < TRACE_NODES_MAX &&
		   field_u64(line, "step", &step) && field_u64(line, "xid", &xid)) {
		h = hop_of(tr, (u32)peer);
		if (!h)
			return -ENOMEM;
		if (!h->fwd) {	/* the first: a takeover's comes later */
			h->fwd = true;
			h->from = (u32)node;
			h->step = (u32)step;
			h->fwd_at = at;
			h->xid = xid;
		}
	} else if (!strncmp(ev, "mcast_deliver:", 14)) {
		h = hop_of(tr, (u32)node);
		if (!h)
			return -ENOMEM;
		if (!h->got || !strcmp(h->outcome, "blocked")) {
			const char *o = strrchr(line, ' ');

			h->got = true;
			h->got_at = at;
			snprintf(h->outcome, sizeof(h->outcome), "%.*s",
				 (int)strcspn(o ? o + 1 : "?", "\n"),
				 o ? o + 1 : "?");
		}
	} else if ((!strncmp(ev, "mcast_retransmit:", 17) ||
		    !strncmp(ev, "mcast_busy:", 11)) &&
		   field_u64(line, "xid", &xid)) {
		/* at the sender of the transfer, or (BUSY sent) its child */
		h = hop_by_xid(tr, (u32)node, xid);
		if (!h && field_u64(line, "peer", &v))
			h = hop_by_xid(tr, (u32)v, xid);
		if (h && ev[6] == 'r')
			h->retrans++;
		else if (h)
			h->busy++;
	} else if (!strncmp(ev, "mcast_drop:", 11)) {
		tr->drops++;
	}
	return 0;
}

static int read_trace(struct trace *tr, FILE *f)
{
	char line[1024];
	const char *ev;
	u64 src, seq;
	double at;
	int err;

	while (fgets(line, sizeof(line), f)) {
		ev = event_of(line, &at);
		if (!ev || !field_u64(line, "src", &src) || src != tr->src ||
		    !field_u64(line, "seq", &seq) || seq != tr->seq)
			continue;
		err = take_event(tr, ev, at, line);
		if (err)
			return err;
	}
	return 0;
}

/* The plan for the traced destinations from @topo; 0 or an exit status. */
static int plan_hops(struct trace *tr, const char *topo, const char *algo)
{
	const char *what = "trace", *why = NULL;
	struct mc_schedule s = { 0 };
	char err[PARSE_ERR_MAX];
	struct mc_torus t;
	enum mc_algo a;
	u32 *dst, n = 0, i, r = 0;
	int rc = MCASTCTL_OK;

	if (parse_topology(topo, &t, err))
		return input_err(what, "topology: %s", err);
	if (parse_algorithm(algo, &a, &r, err))
		return input_err(what, "algorithm %s: %s (give algorithm NAME)",
				 algo, err);
	dst = calloc(tr->nhops + 1, sizeof(*dst));
	s.order = calloc(tr->nhops + 2, sizeof(*s.order));
	s.msg = calloc(tr->nhops + 2, sizeof(*s.msg));
	s.dest = calloc(tr->nhops + 2, sizeof(*s.dest));
	if (!dst || !s.order || !s.msg || !s.dest) {
		rc = nomem(what);
		goto out;
	}
	for (i = 0; i < tr->nhops; i++)
		if (tr->hops[i].fwd && tr->hops[i].node != tr->src)
			dst[n++] = tr->hops[i].node;
	if (mc_plan(&s, &t, a, r, tr->src, dst, n, &why)) {
		rc = input_err(what, "no plan: %s", why ? why : "?");
		goto out;
	}
	for (i = 0; i < s.ndest; i++) {
		u32 node = s.order[s.dest[i].pos];
		struct hop *h = hop_of(tr, node);

		if (!h)
			continue;
		h->plan = true;
		h->plan_from = s.order[s.msg[s.dest[i].msg].from];
		h->plan_step = s.dest[i].step;
	}
out:
	free(dst);
	free(s.order);
	free(s.msg);
	free(s.dest);
	return rc;
}

static int by_step(const void *a, const void *b)
{
	const struct hop *x = a, *y = b;

	if (x->step != y->step)
		return x->step < y->step ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

static double us(double at, double t0)
{
	return (at - t0) * 1e6;
}

static void print_text(const struct trace *tr, bool plan)
{
	double last = tr->sent_at;
	u32 i, re = 0, differ = 0;

	printf("message src=%" PRIu32 " seq=%" PRIu64 " group=%" PRIu64
	       " len=%" PRIu64 " algo=%s: %" PRIu32 " destinations\n",
	       tr->src, tr->seq, tr->group, tr->len,
	       tr->algo[0] ? tr->algo : "?", tr->nhops);
	printf("%6s %6s %5s %12s %12s %-10s %7s %4s%s\n", "node", "from",
	       "step", "sent(us)", "got(us)", "outcome", "retrans", "busy",
	       plan ? "   plan: from step" : "");
	for (i = 0; i < tr->nhops; i++) {
		const struct hop *h = &tr->hops[i];
		bool same = h->plan && h->fwd && h->plan_from == h->from &&
			    h->plan_step == h->step;

		printf("%6" PRIu32 " ", h->node);
		if (h->fwd)
			printf("%6" PRIu32 " %5" PRIu32 " %12.0f ", h->from,
			       h->step, us(h->fwd_at, tr->sent_at));
		else
			printf("%6s %5s %12s ", "-", "-", "-");
		if (h->got)
			printf("%12.0f %-10s", us(h->got_at, tr->sent_at),
			       h->outcome);
		else
			printf("%12s %-10s", "-", "none");
		printf(" %7" PRIu32 " %4" PRIu32, h->retrans, h->busy);
		if (plan && h->plan)
			printf("   %10" PRIu32 " %4" PRIu32 "%s", h->plan_from,
			       h->plan_step, same ? "" : "  differs");
		else if (plan)
			printf("   %10s %4s  not in the plan", "-", "-");
		putchar('\n');
		differ += plan && !same;
		re += h->retrans;
		if (h->got && h->got_at > last)
			last = h->got_at;
	}
	printf("last delivery +%.0f us; %" PRIu32 " retransmissions; %" PRIu64
	       " datagrams refused", us(last, tr->sent_at), re, tr->drops);
	if (plan)
		printf("; %" PRIu32 " of %" PRIu32 " hops as planned",
		       tr->nhops - differ, tr->nhops);
	putchar('\n');
}

static void print_json(const struct trace *tr, bool plan)
{
	struct json j;
	u32 i;

	json_init(&j, stdout);
	json_obj_begin(&j);
	json_key_uint(&j, "src", tr->src);
	json_key_uint(&j, "seq", tr->seq);
	json_key_uint(&j, "group", tr->group);
	json_key_uint(&j, "len", tr->len);
	json_key_str(&j, "algo", tr->algo[0] ? tr->algo : "?");
	json_key(&j, "hops");
	json_arr_begin(&j);
	for (i = 0; i < tr->nhops; i++) {
		const struct hop *h = &tr->hops[i];

		json_obj_begin(&j);
		json_key_uint(&j, "node", h->node);
		if (h->fwd) {
			json_key_uint(&j, "from", h->from);
			json_key_uint(&j, "step", h->step);
			json_key_uint(&j, "sent_us",
				      (u64)(us(h->fwd_at, tr->sent_at) + 0.5));
		}
		if (h->got) {
			json_key_uint(&j, "got_us",
				      (u64)(us(h->got_at, tr->sent_at) + 0.5));
			json_key_str(&j, "outcome", h->outcome);
		}
		json_key_uint(&j, "retrans", h->retrans);
		json_key_uint(&j, "busy", h->busy);
		if (plan && h->plan) {
			json_key_uint(&j, "plan_from", h->plan_from);
			json_key_uint(&j, "plan_step", h->plan_step);
		}
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_key_uint(&j, "drops", tr->drops);
	json_obj_end(&j);
	putchar('\n');
}

void cmd_trace_usage(FILE *f)
{
	fputs("usage: mcastctl trace SRC SEQ [file PATH|-] [topology SPEC]\n"
	      "                      [algorithm NAME] [-j]\n"
	      "\n"
	      "The tree the message SEQ of node SRC took, from mcast.ko's trace\n"
	      "events (echo 1 > /sys/kernel/tracing/events/mcast/enable before it\n"
	      "is sent; docs/tracing.md): each destination's sender, step, when it\n"
	      "was sent and delivered (us after the send began), the outcome, the\n"
	      "retransmissions and BUSY answers of its transfer.  PATH: the trace\n"
	      "(default " TRACE_FILE "; several hosts' traces one after another\n"
	      "will do: each event names its node).  With topology, the plan the\n"
	      "planning core makes for the same source and destinations (with the\n"
	      "algorithm the send ran, or NAME) beside it.\n", f);
}

static int trace_args(int argc, char **argv, struct trace *tr,
		      const char **path, const char **topo, const char **algo,
		      bool *json)
{
	const char *what = "trace";
	int i;

	if (argc < 3)
		return usage_err(what, "expected SRC and SEQ");
	if (parse_u32(argv[1], TRACE_NODES_MAX - 1, &tr->src))
		return usage_err(what, "SRC: a node id, not \"%.64s\"", argv[1]);
	if (parse_u64(argv[2], &tr->seq))
		return usage_err(what, "SEQ: a number, not \"%.64s\"", argv[2]);
	for (i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json"))
			*json = true;
		else if (!strcmp(argv[i], "file") && i + 1 < argc)
			*path = argv[++i];
		else if (!strcmp(argv[i], "topology") && i + 1 < argc)
			*topo = argv[++i];
		else if (!strcmp(argv[i], "algorithm") && i + 1 < argc)
			*algo = argv[++i];
		else
			return usage_err(what, "unexpected argument \"%.64s\"",
					 argv[i]);
	}
	return MCASTCTL_OK;
}

int cmd_trace(int argc, char **argv)
{
	const char *path = TRACE_FILE, *topo = NULL, *algo = NULL;
	struct trace tr = { 0 };
	bool json = mcastctl_json;
	FILE *f;
	int rc;

	if (argc >= 2 && is_help(argv[1])) {
		cmd_trace_usage(stdout);
		return MCASTCTL_OK;
	}
	rc = trace_args(argc, argv, &tr, &path, &topo, &algo, &json);
	if (rc)
		return rc;
	f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!f)
		return input_err("trace", "%s: %s", path, strerror(errno));
	rc = read_trace(&tr, f);
	if (f != stdin)
		fclose(f);
	if (rc) {
		free(tr.hops);
		return nomem("trace");
	}
	if (!tr.sent && !tr.nhops) {
		free(tr.hops);
		return input_err("trace", "no event of message %" PRIu32 "/%"
				 PRIu64 " in %s (are the mcast events on?)",
				 tr.src, tr.seq, path);
	}
	qsort(tr.hops, tr.nhops, sizeof(*tr.hops), by_step);
	if (topo)
		rc = plan_hops(&tr, topo, algo ? algo : tr.algo);
	if (!rc && json)
		print_json(&tr, topo != NULL);
	else if (!rc)
		print_text(&tr, topo != NULL);
	free(tr.hops);
	return rc;
}
