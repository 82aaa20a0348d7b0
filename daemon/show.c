// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * What mcastctl cluster show prints: every configured node as this
 * daemon sees it (state, incarnation, version, last heard, groups),
 * every group with its members and the kernel's epoch, and this host's
 * RDMA ports, in text or JSON (the same walk for both).
 */
#include <inttypes.h>

#include "json.h"
#include "mcastd.h"
#include "parse.h"

static const char *const state_names[] = {
	[MCD_UNKNOWN] = "unknown", [MCD_ALIVE] = "alive",
	[MCD_SUSPECT] = "suspect", [MCD_DEAD] = "dead",
};

static void show_ids(struct json *j, FILE *f, const char *key,
		     const struct mc_torus *t, const uint32_t *ids, uint32_t n)
{
	char buf[COORD_STR_MAX];
	uint32_t i;

	if (j) {
		json_key(j, key);
		json_arr_begin(j);
	}
	for (i = 0; i < n; i++) {
		const char *s = t ? format_coord(t, ids[i], false, buf) : NULL;

		if (j && s)
			json_str(j, s);
		else if (j)
			json_uint(j, ids[i]);
		else if (s)
			fprintf(f, " %s", s);
		else
			fprintf(f, " %" PRIu32, ids[i]);
	}
	if (j)
		json_arr_end(j);
}

static void show_node(struct mcd *d, struct json *j, FILE *f,
		      const struct mcd_node_info *ni, uint64_t now_ms)
{
	const struct mc_torus *t = &d->conf.torus;
	char buf[COORD_STR_MAX];
	uint64_t ago = ni->last_heard_ms ? now_ms - ni->last_heard_ms : 0;

	format_coord(t, ni->node, false, buf);
	if (j) {
		json_obj_begin(j);
		json_key_uint(j, "id", ni->node);
		json_key_str(j, "coord", buf);
		json_key_str(j, "state", state_names[ni->state]);
		json_key_bool(j, "self", ni->node == d->self);
		json_key_uint(j, "incarnation", ni->incarnation);
		json_key_uint(j, "version", ni->version);
		json_key(j, "last_heard_ms_ago");
		if (ni->last_heard_ms)
			json_uint(j, ago);
		else
			json_null(j);
		show_ids(j, f, "groups", NULL, ni->groups, ni->ngroups);
		json_obj_end(j);
		return;
	}
	fprintf(f, "node %-8s id %-5" PRIu32 " %-7s%s incarnation %" PRIu64
		" version %" PRIu32, buf, ni->node, state_names[ni->state],
		ni->node == d->self ? " (self)" : "", ni->incarnation,
		ni->version);
	if (ni->node == d->self)
		fprintf(f, "  last heard -");
	else if (ni->last_heard_ms)
		fprintf(f, "  last heard %" PRIu64 ".%03" PRIu64 " s ago",
			ago / 1000, ago % 1000);
	else
		fprintf(f, "  never heard");
	fprintf(f, "  groups");
	if (!ni->ngroups)
		fprintf(f, " -");
	show_ids(NULL, f, NULL, NULL, ni->groups, ni->ngroups);
	fputc('\n', f);
}

static void show_group(struct mcd *d, struct json *j, FILE *f, uint32_t id,
		       const uint32_t *m, uint32_t n)
{
	const struct mcd_kgroup *kg = mcd_kernel_group(&d->kernel, id);

	if (j) {
		json_obj_begin(j);
		json_key_uint(j, "id", id);
		json_key_uint(j, "nmembers", n);
		show_ids(j, f, "members", &d->conf.torus, m, n);
		if (kg) {
			json_key_uint(j, "epoch", kg->epoch);
			json_key_bool(j, "managed", kg->managed);
			json_key_uint(j, "local", kg->nlocal);
		}
		json_obj_end(j);
		return;
	}
	fprintf(f, "group %" PRIu32 "  members %" PRIu32 ":", id, n);
	show_ids(NULL, f, NULL, &d->conf.torus, m, n);
	if (kg)
		fprintf(f, "  (kernel: epoch %" PRIu32 "%s, local files %" PRIu32
			")", kg->epoch, kg->managed ? ", managed" : "",
			kg->nlocal);
	fputc('\n', f);
}

static void show_groups(struct mcd *d, struct json *j, FILE *f)
{
	static uint32_t ids[MCD_MAX_NODES], m[MCD_MAX_NODES];
	uint32_t ng, i;

	ng = mcd_view_groups(d->view, ids, MCD_MAX_NODES);
	if (j) {
		json_key(j, "groups");
		json_arr_begin(j);
	}
	for (i = 0; i < ng; i++)
		show_group(d, j, f, ids[i], m,
			   mcd_view_members(d->view, ids[i], m, MCD_MAX_NODES));
	if (j)
		json_arr_end(j);
}

static void show_stats(struct mcd *d, struct json *j, FILE *f)
{
	struct mcd_view_stats s;

	mcd_view_stats(d->view, &s);
	if (!j) {
		fprintf(f, "control: tx %" PRIu64 " datagrams %" PRIu64
			" bytes, rx %" PRIu64 " datagrams %" PRIu64
			" bytes, %" PRIu64 " bad (%" PRIu64 " bad records), %"
			PRIu64 " answer records cut, %" PRIu64
			" unauthenticated, %"
			PRIu64 " replayed, %" PRIu64
			" from strangers; suspicions %" PRIu64
			", refutations %" PRIu64 ", deaths %" PRIu64
			"; kernel: %" PRIu64 " installs, %" PRIu64
			" deletes, %" PRIu64 " stale, %" PRIu64 " resyncs\n",
			s.tx_dgrams, s.tx_bytes, s.rx_dgrams, s.rx_bytes,
			s.rx_bad, s.bad_records, s.answers_cut, d->rx_unauth, d->rx_replayed, d->rx_stranger,
			s.suspicions, s.refutations, s.deaths,
			d->kernel.installs, d->kernel.deletes, d->kernel.stale,
			d->kernel.resyncs);
		fprintf(f, "cluster stats: %" PRIu64 " rounds; %" PRIu64
			" answered, %" PRIu64 " refused (too soon), %" PRIu64
			" late, %" PRIu64 " malformed\n", d->cstats.rounds,
			d->cstats.answered, d->cstats.refused, d->cstats.late,
			d->rx_bad_stats);
		return;
	}
	json_key(j, "stats");
	json_obj_begin(j);
	json_key_uint(j, "tx_dgrams", s.tx_dgrams);
	json_key_uint(j, "tx_bytes", s.tx_bytes);
	json_key_uint(j, "rx_dgrams", s.rx_dgrams);
	json_key_uint(j, "rx_bytes", s.rx_bytes);
	json_key_uint(j, "rx_bad", s.rx_bad);
	json_key_uint(j, "bad_records", s.bad_records);
	json_key_uint(j, "answers_cut", s.answers_cut);
	json_key_uint(j, "rx_unauth", d->rx_unauth);
	json_key_uint(j, "rx_replayed", d->rx_replayed);
	json_key_uint(j, "rx_stranger", d->rx_stranger);
	json_key_bool(j, "authenticated", d->auth.on);
	json_key_uint(j, "suspicions", s.suspicions);
	json_key_uint(j, "refutations", s.refutations);
	json_key_uint(j, "deaths", s.deaths);
	json_key_uint(j, "installs", d->kernel.installs);
	json_key_uint(j, "deletes", d->kernel.deletes);
	json_key_uint(j, "stale", d->kernel.stale);
	json_key_uint(j, "resyncs", d->kernel.resyncs);
	json_key_uint(j, "stats_rounds", d->cstats.rounds);
	json_key_uint(j, "stats_answered", d->cstats.answered);
	json_key_uint(j, "stats_refused", d->cstats.refused);
	json_key_uint(j, "stats_late", d->cstats.late);
	json_key_uint(j, "stats_bad", d->rx_bad_stats);
	json_obj_end(j);
}

void mcd_show(struct mcd *d, FILE *f, bool json, uint64_t now_ms)
{
	struct json jw, *j = json ? &jw : NULL;
	struct mcd_node_info ni;
	uint32_t i;

	if (j) {
		json_init(j, f);
		json_obj_begin(j);
		json_key_uint(j, "self", d->self);
		json_key_str(j, "topology", d->conf.topology);
		json_key(j, "nodes");
		json_arr_begin(j);
	}
	for (i = 0; i < d->conf.nnodes; i++)
		if (!mcd_view_node(d->view, d->conf.nodes[i].id, &ni))
			show_node(d, j, f, &ni, now_ms);
	if (j)
		json_arr_end(j);
	show_groups(d, j, f);
	show_stats(d, j, f);
	mcd_rdma_show(&d->rdma, j, f);	/* last: demo.sh shows the head */
	if (j) {
		json_obj_end(j);
		json_finish(j);
		fputc('\n', f);
	}
}
