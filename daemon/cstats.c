// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The cluster's counters for mcastctl cluster stats, so that ops do not
 * log into every host.  A client's request starts a round: this daemon
 * reads its own kernel's counters and sends STATS_PULL to every node its
 * view holds alive or suspect; each answers STATS with its kernel's.  The
 * round ends when all have answered or after MCD_CSTATS_WAIT_MS, and the
 * table goes to every client that asked meanwhile; a node that did not
 * answer is shown so, not left out.
 *
 * Bounds: a STATS_PULL is as long as the STATS it draws (no amplification
 * for a forger at a node's address), each peer is answered at most
 * MCD_CSTATS_BURST times at once and then once per MCD_CSTATS_GAP_MS, a
 * round asks each node once and keeps one row a node, and at most
 * MCD_CSTATS_CLIENTS clients wait on a round.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cstats.h"
#include "json.h"
#include "log.h"
#include "mcastd.h"
#include "parse.h"

/* What each value is in the kernel's counters, and its name. */
static const struct {
	int attr;
	const char *name;
} stat_attrs[MCD_STAT_N] = {
	[MCD_STAT_TX_MSGS] = { MCAST_STATS_A_TX_MSGS, "tx_msgs" },
	[MCD_STAT_RX_MSGS] = { MCAST_STATS_A_RX_MSGS, "rx_msgs" },
	[MCD_STAT_FWD_MSGS] = { MCAST_STATS_A_FWD_MSGS, "fwd_msgs" },
	[MCD_STAT_TX_PACKETS] = { MCAST_STATS_A_TX_PACKETS, "tx_packets" },
	[MCD_STAT_RX_PACKETS] = { MCAST_STATS_A_RX_PACKETS, "rx_packets" },
	[MCD_STAT_RETRANS] = { MCAST_STATS_A_RETRANS, "retrans" },
	[MCD_STAT_PEER_FAILS] = { MCAST_STATS_A_PEER_FAILS, "peer_fails" },
	[MCD_STAT_BUSY_SENT] = { MCAST_STATS_A_BUSY_SENT, "busy_sent" },
	[MCD_STAT_RX_DROPS] = { MCAST_STATS_A_RX_DROPS, "rx_drops" },
	[MCD_STAT_RX_MALFORMED] = { MCAST_STATS_A_RX_MALFORMED, "rx_malformed" },
	[MCD_STAT_RX_BAD_AUTH] = { MCAST_STATS_A_RX_BAD_AUTH, "rx_bad_auth" },
	[MCD_STAT_RX_MEM] = { MCAST_STATS_A_RX_MEM, "rx_mem" },
	[MCD_STAT_MSG_MEM] = { MCAST_STATS_A_MSG_MEM, "msg_mem" },
};

/* The text table's columns: the key counters, so that a row fits a line. */
static const enum mcd_stat text_cols[] = {
	MCD_STAT_TX_MSGS, MCD_STAT_RX_MSGS, MCD_STAT_FWD_MSGS,
	MCD_STAT_RETRANS, MCD_STAT_PEER_FAILS, MCD_STAT_BUSY_SENT,
	MCD_STAT_RX_DROPS, MCD_STAT_RX_MALFORMED, MCD_STAT_RX_BAD_AUTH,
	MCD_STAT_RX_MEM,
};

static const char *const state_names[] = {
	[MCD_UNKNOWN] = "unknown", [MCD_ALIVE] = "alive",
	[MCD_SUSPECT] = "suspect", [MCD_DEAD] = "dead",
};

int mcd_cstats_init(struct mcd *d)
{
	d->cstats.rows = calloc(d->conf.nnodes, sizeof(*d->cstats.rows));
	return d->cstats.rows ? 0 : -ENOMEM;
}

void mcd_cstats_free(struct mcd *d)
{
	free(d->cstats.rows);
	d->cstats.rows = NULL;
}

static void own_values(struct mcd *d, uint64_t vals[MCD_STAT_N])
{
	uint64_t k[MCAST_STATS_A_MAX + 1];
	int i;

	if (mcd_kernel_stats(&d->kernel, k))
		log_warn("cluster stats: cannot read this node's counters");
	for (i = 0; i < MCD_STAT_N; i++)
		vals[i] = k[stat_attrs[i].attr];
}

static uint32_t self_index(const struct mcd *d)
{
	return (uint32_t)(mcd_conf_node(&d->conf, d->self) - d->conf.nodes);
}

static void render_text(struct mcd *d, FILE *f)
{
	struct mcd_cstats *c = &d->cstats;
	uint64_t total[MCD_STAT_N] = { 0 };
	char buf[COORD_STR_MAX];
	size_t i, k;

	fprintf(f, "%-4s %-10s %-8s", "id", "coord", "state");
	for (k = 0; k < sizeof(text_cols) / sizeof(text_cols[0]); k++)
		fprintf(f, " %12s", stat_attrs[text_cols[k]].name);
	fputc('\n', f);
	for (i = 0; i < d->conf.nnodes; i++) {
		const struct mcd_cstats_row *r = &c->rows[i];

		fprintf(f, "%-4" PRIu32 " %-10s %-8s", d->conf.nodes[i].id,
			format_coord(&d->conf.torus, d->conf.nodes[i].id,
				     false, buf),
			state_names[r->state]);
		if (!r->got) {
			fprintf(f, " %s\n", r->asked ? "no answer" : "not asked");
			continue;
		}
		for (k = 0; k < sizeof(text_cols) / sizeof(text_cols[0]); k++) {
			uint64_t v = r->vals[text_cols[k]];

			if (v == MCD_STATS_NONE)
				fprintf(f, " %12s", "-");
			else
				fprintf(f, " %12" PRIu64, v);
		}
		fputc('\n', f);
		for (k = 0; k < MCD_STAT_N; k++)
			if (r->vals[k] != MCD_STATS_NONE)
				total[k] += r->vals[k];
	}
	fprintf(f, "%-24s", "total");
	for (k = 0; k < sizeof(text_cols) / sizeof(text_cols[0]); k++)
		fprintf(f, " %12" PRIu64, total[text_cols[k]]);
	fprintf(f, "\n%" PRIu32 " of %" PRIu32 " nodes answered (%" PRIu32
		" asked)\n", c->got, (uint32_t)d->conf.nnodes, c->asked);
}

static void json_values(struct json *j, const uint64_t vals[MCD_STAT_N])
{
	int k;

	json_obj_begin(j);
	for (k = 0; k < MCD_STAT_N; k++)
		if (vals[k] != MCD_STATS_NONE)
			json_key_uint(j, stat_attrs[k].name, vals[k]);
	json_obj_end(j);
}

static void render_json(struct mcd *d, FILE *f)
{
	struct mcd_cstats *c = &d->cstats;
	uint64_t total[MCD_STAT_N] = { 0 };
	char buf[COORD_STR_MAX];
	struct json j;
	size_t i, k;

	json_init(&j, f);
	json_obj_begin(&j);
	json_key(&j, "nodes");
	json_arr_begin(&j);
	for (i = 0; i < d->conf.nnodes; i++) {
		const struct mcd_cstats_row *r = &c->rows[i];

		json_obj_begin(&j);
		json_key_uint(&j, "id", d->conf.nodes[i].id);
		json_key_str(&j, "coord",
			     format_coord(&d->conf.torus, d->conf.nodes[i].id,
					  false, buf));
		json_key_str(&j, "state", state_names[r->state]);
		json_key_bool(&j, "asked", r->asked);
		json_key_bool(&j, "answered", r->got);
		if (r->got) {
			json_key(&j, "stats");
			json_values(&j, r->vals);
			for (k = 0; k < MCD_STAT_N; k++)
				if (r->vals[k] != MCD_STATS_NONE)
					total[k] += r->vals[k];
		}
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_key(&j, "total");
	json_values(&j, total);
	json_key_uint(&j, "answered", c->got);
	json_key_uint(&j, "asked", c->asked);
	json_obj_end(&j);
	fputc('\n', f);
}

/* The table to every client of the round, and the round is over. */
static void finish(struct mcd *d)
{
	struct mcd_cstats *c = &d->cstats;
	char *out[2] = { NULL, NULL };
	size_t len[2] = { 0, 0 };
	uint32_t i;
	int js;

	c->active = false;
	for (i = 0; i < c->nclients; i++) {
		js = c->clients[i].json;
		if (!out[js]) {
			FILE *f = open_memstream(&out[js], &len[js]);

			if (!f)
				continue;
			if (js)
				render_json(d, f);
			else
				render_text(d, f);
			fclose(f);
		}
		mcd_answer_client(d, &c->clients[i].addr, c->clients[i].len,
				  out[js], len[js]);
	}
	c->nclients = 0;
	free(out[0]);
	free(out[1]);
}

/* A new round: our own row now, a STATS_PULL to every other live node. */
static void start(struct mcd *d, uint64_t now)
{
	struct mcd_cstats *c = &d->cstats;
	uint32_t i, me = self_index(d);
	struct mcd_node_info ni;
	struct mcd_wbuf w;

	c->active = true;
	c->query = c->query + 1 ? c->query + 1 : 1;
	c->deadline = now + MCD_CSTATS_WAIT_MS;
	c->asked = c->got = 0;
	c->rounds++;
	for (i = 0; i < d->conf.nnodes; i++) {
		struct mcd_cstats_row *r = &c->rows[i];

		r->asked = r->got = false;
		r->state = mcd_view_node(d->view, d->conf.nodes[i].id, &ni) ?
			   MCD_UNKNOWN : ni.state;
		if (i == me) {
			own_values(d, r->vals);
			r->asked = r->got = true;
			c->asked++;
			c->got++;
			continue;
		}
		if (r->state != MCD_ALIVE && r->state != MCD_SUSPECT)
			continue;	/* a suspect may yet answer */
		mcd_wbuf_begin(&w, MCD_MSG_STATS_PULL, d->self, d->incarnation,
			       c->query);
		mcd_send(d, d->conf.nodes[i].id, w.buf, mcd_wbuf_end(&w));
		r->asked = true;
		c->asked++;
	}
	if (c->got == c->asked)
		finish(d);
}

void mcd_cstats_request(struct mcd *d, const struct sockaddr_un *from,
			socklen_t len, bool json, uint64_t now)
{
	struct mcd_cstats *c = &d->cstats;
	struct mcd_cstats_client *cl;
	static const char busy[] =
		"error: too many cluster stats requests at once, try again\n";

	if (c->nclients == MCD_CSTATS_CLIENTS) {
		mcd_answer_client(d, from, len, busy, sizeof(busy) - 1);
		return;
	}
	cl = &c->clients[c->nclients++];
	memcpy(&cl->addr, from, len);
	cl->len = len;
	cl->json = json;
	if (!c->active)
		start(d, now);
}

/* A peer asks for our counters: a burst, then once per MCD_CSTATS_GAP_MS. */
static void answer_pull(struct mcd *d, uint32_t idx, const struct mcd_msg *m,
			uint64_t now)
{
	const uint64_t span = MCD_CSTATS_BURST * MCD_CSTATS_GAP_MS;
	struct mcd_cstats_row *r = &d->cstats.rows[idx];
	uint64_t floor = now > span ? now - span : 0;
	uint64_t vals[MCD_STAT_N];
	struct mcd_wbuf w;
	int i;

	/* a burst of MCD_CSTATS_BURST, then one per MCD_CSTATS_GAP_MS */
	if (r->answer_after < floor)
		r->answer_after = floor;
	if (r->answer_after > now) {
		d->cstats.refused++;
		return;
	}
	r->answer_after += MCD_CSTATS_GAP_MS;
	own_values(d, vals);
	mcd_wbuf_begin(&w, MCD_MSG_STATS, d->self, d->incarnation, m->query);
	for (i = 0; i < MCD_STAT_N; i++)
		mcd_wbuf_add_value(&w, vals[i]);
	mcd_send(d, d->conf.nodes[idx].id, w.buf, mcd_wbuf_end(&w));
	d->cstats.answered++;
}

/* A peer's counters: kept if they answer this round's question. */
static void take_stats(struct mcd *d, uint32_t idx, const struct mcd_msg *m)
{
	struct mcd_cstats *c = &d->cstats;
	struct mcd_cstats_row *r = &c->rows[idx];
	int i;

	if (!c->active || m->query != c->query || !r->asked || r->got) {
		c->late++;
		return;
	}
	for (i = 0; i < MCD_STAT_N; i++)
		r->vals[i] = mcd_stats_value(m, i);
	r->got = true;
	if (++c->got == c->asked)
		finish(d);
}

void mcd_cstats_input(struct mcd *d, uint32_t idx, const struct mcd_msg *m,
		      uint64_t now)
{
	if (idx >= d->conf.nnodes || d->conf.nodes[idx].id == d->self)
		return;
	if (m->type == MCD_MSG_STATS_PULL)
		answer_pull(d, idx, m, now);
	else if (m->type == MCD_MSG_STATS)
		take_stats(d, idx, m);
}

void mcd_cstats_tick(struct mcd *d, uint64_t now)
{
	if (d->cstats.active && now >= d->cstats.deadline)
		finish(d);
}

uint64_t mcd_cstats_next(const struct mcd *d)
{
	return d->cstats.active ? d->cstats.deadline : UINT64_MAX;
}
