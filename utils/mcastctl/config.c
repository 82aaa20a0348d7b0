// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastctl node | peer | group: show and change the kernel's
 * configuration over the "mcast" generic netlink family.
 *
 * Every command checks its syntax before it talks to the kernel, so usage
 * errors are the same with or without the module.  Coordinates are read
 * and printed highest dimension first, as `mcastctl plan` does; reading
 * one needs the node's topology, which comes from NODE_GET.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/attr.h>

#include "chain.h"
#include "config.h"
#include "json.h"
#include "mcastctl.h"
#include "nl.h"
#include "parse.h"
#include "switchtopo.h"

bool mcastctl_json;

bool is_help(const char *s)
{
	return !strcmp(s, "help") || !strcmp(s, "-h") || !strcmp(s, "--help");
}

/*
 * Removes every @shrt or @lng from argv[1..] (then sets *on) and returns
 * the new argc: a show command's options may come anywhere after its verb.
 */
int take_flag(int argc, char **argv, const char *shrt, const char *lng,
		     bool *on)
{
	int i, n = 1;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], shrt) || !strcmp(argv[i], lng))
			*on = true;
		else
			argv[n++] = argv[i];
	}
	argv[n] = NULL;
	return n;
}

/* -j, --json (or mcastctl -j before the object) */
int take_json(int argc, char **argv, bool *json)
{
	*json = mcastctl_json;
	return take_flag(argc, argv, "-j", "--json", json);
}

/* -s, --stats: peer show's data path view */
static int take_stats(int argc, char **argv, bool *stats)
{
	*stats = false;
	return take_flag(argc, argv, "-s", "--stats", stats);
}

int parse_group_id(const char *what, const char *s, u32 *id)
{
	char q[80];

	if (parse_u32(s, UINT32_MAX, id) || *id == MCAST_NO_GROUP)
		return usage_err(what, "group \"%s\": expected a number from 1 to %u",
				 printable(s, q, sizeof(q)), UINT32_MAX);
	return 0;
}

static void json_coord(struct json *j, const struct mc_torus *t, u32 node)
{
	u16 sigma[MC_MAX_DIMS];
	int i;

	mc_node_coords(t, node, sigma);
	json_arr_begin(j);
	for (i = t->n - 1; i >= 0; i--)
		json_uint(j, sigma[i]);
	json_arr_end(j);
}

static void json_topology(struct json *j, const struct mc_torus *t)
{
	int i;

	json_obj_begin(j);
	if (t->rank) {		/* a switched cluster: its hosts' order */
		json_key_str(j, "kind", "switch");
		json_key_uint(j, "nodes", t->nodes);
		json_key(j, "order");
		json_arr_begin(j);
		for (i = 0; i < (int)t->nodes; i++)
			json_uint(j, t->unrank[i]);
		json_arr_end(j);
		json_obj_end(j);
		return;
	}
	json_key_str(j, "kind", "torus");
	json_key(j, "dims");
	json_arr_begin(j);
	for (i = t->n - 1; i >= 0; i--)
		json_uint(j, t->k[i]);
	json_arr_end(j);
	json_key_str(j, "links", t->links == MC_LINKS_BI ? "bi" : "uni");
	json_key_uint(j, "nodes", t->nodes);
	json_obj_end(j);
}

/* JSON goes to memory first (config.h says why). */
int jout_begin(struct jout *o, const char *what)
{
	o->buf = NULL;
	o->len = 0;
	o->f = open_memstream(&o->buf, &o->len);
	if (!o->f)
		return nomem(what);
	json_init(&o->j, o->f);
	return 0;
}

int jout_end(struct jout *o, const char *what, int err)
{
	int bad = json_finish(&o->j);

	if (fclose(o->f))
		bad = 1;
	if (!err && bad)
		err = input_err(what, "cannot write the JSON output");
	if (!err && (fwrite(o->buf, 1, o->len, stdout) != o->len ||
		     fflush(stdout)))
		err = input_err(what, "cannot write the output");
	free(o->buf);
	return err;
}

/* Connect and fetch the node; it must be configured when @need. */
static int open_node(struct ctl_nl *nl, const char *what, struct ctl_node *node,
		     bool need)
{
	int err = ctl_nl_open(nl, what);

	if (err)
		return err;
	err = ctl_node_get(nl, node);
	if (!err && need && !node->configured) {
		fprintf(stderr, "mcastctl: %s: this node is not configured: mcastctl node set topology T coord C\n",
			what);
		err = MCASTCTL_EINPUT;
	}
	if (err)
		ctl_nl_close(nl);
	return err;
}

/* ------------------------------------------------------------------ node */

/*
 * How sends go under the node's algorithm, where that is not plain: what
 * auto picks; U-torus where the torus cannot run worms; without IR on the
 * transport, auto takes U-torus or, for long messages, Mu-torus(4) chains
 * (data_send.c), the rest its worms in software (chains).
 */
static const char *algo_note(const struct ctl_node *node, char *buf,
			     size_t size)
{
	bool ir = node->tp_caps & MCAST_TRANSPORT_CAP_IR;
	const char *why = NULL;
	u8 a = node->algo;

	if (a == MCAST_ALGORITHM_UTORUS || a >= __MCAST_ALGORITHM_MAX)
		return "";
	if (a == MCAST_ALGORITHM_BINOMIAL)
		return node->t.rank ? " (over node ids, not the switches' order)" : "";
	if (a == MCAST_ALGORITHM_RING)
		return " (a software worm along the members' ring)";
	if (a == MCAST_ALGORITHM_RB)
		return " (recursion-based broadcast: byte ranges over XOR-diagonals, for sends to every node)";
	if (a == MCAST_ALGORITHM_RB_ALL_PORT)
		return " (all-port recursion-based broadcast: byte ranges over XOR-diagonals, for sends to every node)";
	if (a >= MCAST_ALGORITHM_UCUBE && a <= MCAST_ALGORITHM_WSORT)
		return " (all-port, E-cube)";
	if (mc_algo_supported(&node->t, MC_ALGO_STORUS, 0, &why)) {
		snprintf(buf, size, " (u-torus: %s)", why ? why : "this torus");
		return buf;
	}
	if (a == MCAST_ALGORITHM_AUTO && ir) {
		snprintf(buf, size, " (s-torus or mu-torus:%u)", node->algo_r);
		return buf;
	}
	if (a == MCAST_ALGORITHM_AUTO)
		return " (u-torus; mu-torus:4 chains from 512 KiB: the transport has no ir)";
	return ir ? "" : " (worms in software: the transport has no ir)";
}

/* "algorithm    mu-torus:8", "algorithm    auto (s-torus or mu-torus:8)" */
static void print_algo(const struct ctl_node *node)
{
	char buf[192];

	printf("algorithm    %s", node_algo_name(node->algo));
	if (node->algo == MCAST_ALGORITHM_MUTORUS)
		printf(":%u", node->algo_r);
	printf("%s\n", algo_note(node, buf, sizeof(buf)));
}

void cmd_node_usage(FILE *f)
{
	fputs("usage: mcastctl node show [-j]\n"
	      "       mcastctl node set [topology torus:K[xK...][:uni|:bi]|cube:N|switch:FILE]\n"
	      "                         [coord C]\n"
	      "                         [port P] [transport udp|tcp] [rto MS]\n"
	      "                         [retries N] [algorithm A]\n"
	      "       mcastctl node set key FILE|none [key-id N]\n"
	      "       mcastctl node set key-next FILE key-id N\n"
	      "       mcastctl node set key-use N | key-drop N\n"
	      "\n"
	      "show: this node's topology, coordinate and id.\n"
	      "set: configure them (the topology and the coordinate together the\n"
	      "first time; later either one alone).  Coordinates and radices are\n"
	      "written highest dimension first, as in mcastctl plan.\n"
	      "algorithm: how the node multicasts: auto, u-torus, s-torus, md-torus,\n"
	      "mu-torus (keeping its R), mu-torus:R (R 2 to 255) or binomial (u-torus's\n"
	      "halving over node ids: a topology-blind tree); on a hypercube\n"
	      "(cube:N, or a torus whose every radix is 2) also u-cube, maxport,\n"
	      "combine, w-sort (Robinson 1994, ch. 3, all-port) or ring (Lin and\n"
	      "Chen 1996: the members' contention-free ring, for many senders); on a\n"
	      "torus whose sides are powers of two (2D, or 3D and more with equal\n"
	      "sides) also rb or rb-all-port (the recursion-based broadcast of Zhuang\n"
	      "and Liberatore, one-port or all-port: sends to every node go by it,\n"
	      "the others by u-torus).  The\n"
	      "path-based ones (s-, md-, mu-torus) need a unidirectional torus with\n"
	      "equal radices; without ir on the transport their worms go in\n"
	      "software.\n"
	      "switch:FILE: a switched cluster (a topology file: link A B, host N S,\n"
	      "root S); C is this node's host id.  Groups then follow the up*-down*\n"
	      "order of Libeskind-Hadas et al. (1998) and multicast by recursive\n"
	      "halving (u-torus) only.\n"
	      "key: the cluster key, 32 bytes (raw, or 64 hex digits), that every\n"
	      "datagram is authenticated with, installed (id N, default 1) and used\n"
	      "at once; none: no key.  To rotate without losing a message: key-next\n"
	      "on every node, then key-use on every node, then key-drop the old.\n", f);
}

/* "key_id": the one in use or null, "key_ids": all it has. */
static void json_keys(struct json *j, const struct ctl_node *node)
{
	u32 i;

	json_key(j, "key_id");
	if (node->nkeys)
		json_uint(j, node->key_use);
	else
		json_null(j);
	json_key(j, "key_ids");
	json_arr_begin(j);
	for (i = 0; i < node->nkeys; i++)
		json_uint(j, node->key_ids[i]);
	json_arr_end(j);
}

/* "key          id 2 (also has 1, 3)", or "none": never the keys. */
static void print_keys(const struct ctl_node *node)
{
	u32 i, n = 0;

	if (!node->nkeys) {
		printf("key          none (datagrams are not authenticated)\n");
		return;
	}
	printf("key          id %u", node->key_use);
	for (i = 0; i < node->nkeys; i++) {
		if (node->key_ids[i] == node->key_use)
			continue;
		printf(n++ ? ", %u" : " (also has %u", node->key_ids[i]);
	}
	printf("%s\n", n ? ")" : "");
}

/* The transport's capabilities, named: "ir", "reliable". */
static const struct {
	u32 bit;
	const char *name;
} tp_caps[] = {
	{ MCAST_TRANSPORT_CAP_IR, "ir" },
	{ MCAST_TRANSPORT_CAP_RELIABLE, "reliable" },
};

static const char *caps_str(u32 caps, char *buf)
{
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < sizeof(tp_caps) / sizeof(tp_caps[0]); i++)
		if (caps & tp_caps[i].bit)
			sprintf(buf + strlen(buf), "%s%s", buf[0] ? ", " : "",
				tp_caps[i].name);
	if (!buf[0])
		strcpy(buf, "none (unicast trees)");
	return buf;
}

static void json_caps(struct json *j, u32 caps)
{
	size_t i;

	json_arr_begin(j);
	for (i = 0; i < sizeof(tp_caps) / sizeof(tp_caps[0]); i++)
		if (caps & tp_caps[i].bit)
			json_str(j, tp_caps[i].name);
	json_arr_end(j);
}

static int node_show(int argc, char **argv)
{
	const char *what = "node show";
	char buf[COORD_STR_MAX], topo[96], caps[64];
	struct ctl_node node;
	struct ctl_nl nl;
	struct jout o;
	bool json;
	int err;

	argc = take_json(argc, argv, &json);
	if (argc > 1)
		return usage_err(what, "unexpected argument \"%.64s\"", argv[1]);
	err = open_node(&nl, what, &node, false);
	if (err)
		return err;
	ctl_nl_close(&nl);
	if (json) {
		if ((err = jout_begin(&o, what)))
			return err;
		json_obj_begin(&o.j);
		json_key_bool(&o.j, "configured", node.configured);
		if (node.configured) {
			json_key_uint(&o.j, "id", node.id);
			json_key(&o.j, "coord");
			json_coord(&o.j, &node.t, node.id);
			json_key(&o.j, "topology");
			json_topology(&o.j, &node.t);
			if (node.transport[0])
				json_key_str(&o.j, "transport", node.transport);
			if (node.tp_mtu) {
				json_key(&o.j, "transport_caps");
				json_caps(&o.j, node.tp_caps);
				json_key_uint(&o.j, "transport_mtu",
					      node.tp_mtu);
			}
			if (node.port)
				json_key_uint(&o.j, "port", node.port);
			if (node.rto_ms)
				json_key_uint(&o.j, "rto_ms", node.rto_ms);
			if (node.retries)
				json_key_uint(&o.j, "retries", node.retries);
			if (node.has_algo) {
				json_key_str(&o.j, "algorithm",
					     node_algo_name(node.algo));
				json_key_uint(&o.j, "algo_r", node.algo_r);
			}
			if (node.worm_dests) {
				json_key_uint(&o.j, "worm_dests",
					      node.worm_dests);
				json_key_uint(&o.j, "worm_hdr", node.worm_hdr);
			}
			json_keys(&o.j, &node);
		}
		json_obj_end(&o.j);
		return jout_end(&o, what, 0);
	}
	if (!node.configured) {
		printf("node         not configured (mcastctl node set topology T coord C)\n");
		return MCASTCTL_OK;
	}
	printf("node         %u\n", node.id);
	printf("coordinate   %s\n", format_coord(&node.t, node.id, true, buf));
	printf("topology     %s, %u nodes\n", ctl_topology_str(&node.t, topo),
	       node.t.nodes);
	if (node.port)
		printf("transport    %s, port %u, rto %u ms, %u retries\n",
		       node.transport[0] ? node.transport : "?", node.port,
		       node.rto_ms, node.retries);
	if (node.tp_mtu)
		printf("capabilities %s; %u-byte datagrams\n",
		       caps_str(node.tp_caps, caps), node.tp_mtu);
	if (node.worm_dests)
		printf("worms        of up to %u destinations, %u-byte compound headers\n",
		       node.worm_dests, node.worm_hdr);
	if (node.has_algo)
		print_algo(&node);
	print_keys(&node);
	return MCASTCTL_OK;
}

static int node_set(int argc, char **argv)
{
	const char *what = "node set";
	const char *topo_s = NULL, *coord_s = NULL, *port_s = NULL;
	const char *rto_s = NULL, *retries_s = NULL, *tp_s = NULL;
	const char *algo_s = NULL;
	u32 port = 0, rto = 0, retries = 0, algo_r = 0;
	u8 algo = 0;
	char err_s[PARSE_ERR_MAX];
	struct ctl_node node;
	struct mc_torus t;
	struct ctl_nl nl;
	struct ctl_node_set set;
	struct nl_msg *msg;
	u16 sigma[MC_MAX_DIMS];
	u32 id;
	int i, err;

	if (argc > 1 && !strncmp(argv[1], "key", 3))
		return node_set_key(argc, argv);
	for (i = 1; i < argc; i += 2) {
		const char **slot;

		if (!strcmp(argv[i], "topology"))
			slot = &topo_s;
		else if (!strcmp(argv[i], "coord"))
			slot = &coord_s;
		else if (!strcmp(argv[i], "port"))
			slot = &port_s;
		else if (!strcmp(argv[i], "rto"))
			slot = &rto_s;
		else if (!strcmp(argv[i], "retries"))
			slot = &retries_s;
		else if (!strcmp(argv[i], "transport"))
			slot = &tp_s;
		else if (!strcmp(argv[i], "algorithm"))
			slot = &algo_s;
		else
			return usage_err(what, "unknown keyword \"%.64s\" (topology, coord, port, transport, rto, retries, algorithm)",
					 argv[i]);
		if (i + 1 >= argc)
			return usage_err(what, "%s needs a value", argv[i]);
		if (*slot)
			return usage_err(what, "%s given twice", argv[i]);
		*slot = argv[i + 1];
	}
	if (!topo_s && !coord_s && !port_s && !rto_s && !retries_s && !tp_s &&
	    !algo_s)
		return usage_err(what, "nothing to set: topology T, coord C, port P, transport NAME, rto MS, retries N, algorithm A");
	if (tp_s && !transport_name_ok(tp_s))
		return input_err(what, "transport: expected a name of 1 to %d characters (udp, tcp)",
				 TRANSPORT_NAME_CHARS);
	if (port_s && (parse_u32(port_s, 65535, &port) || !port))
		return input_err(what, "port: expected 1 to 65535");
	if (rto_s && (parse_u32(rto_s, 60000, &rto) || !rto))
		return input_err(what, "rto: expected 1 to 60000 (ms)");
	if (retries_s && (parse_u32(retries_s, 1000, &retries) || !retries))
		return input_err(what, "retries: expected 1 to 1000");
	if (algo_s && parse_node_algo(algo_s, &algo, &algo_r, err_s))
		return input_err(what, "%s", err_s);
	if (topo_s && !strncmp(topo_s, "switch:", 7)) {
		if (switch_topology_load(topo_s + 7, &t, err_s))
			return input_err(what, "%s", err_s);
	} else if (topo_s && parse_topology(topo_s, &t, err_s)) {
		return input_err(what, "%s", err_s);
	}
	if (topo_s && coord_s && parse_coord(&t, coord_s, &id, err_s))
		return input_err(what, "%s", err_s);

	err = open_node(&nl, what, &node, !(topo_s && coord_s));
	if (err)
		return err;
	if (!topo_s)
		t = node.t;
	if (!coord_s) {
		/* keep the coordinate under a new topology, if it fits */
		for (i = 0; i < t.n; i++)
			sigma[i] = i < node.t.n ? node.coord[i] : 0;
		id = t.n == node.t.n ? mc_node_index(&t, sigma) : MC_NO_NODE;
		if (id == MC_NO_NODE) {
			ctl_nl_close(&nl);
			return input_err(what, "the node's coordinate does not fit the new topology: give coord too");
		}
	} else if (!topo_s && parse_coord(&t, coord_s, &id, err_s)) {
		ctl_nl_close(&nl);
		return input_err(what, "%s", err_s);
	}
	/* what was not given is 0 or NULL here: the node keeps it */
	set = (struct ctl_node_set){
		.t = &t, .id = id, .port = port, .transport = tp_s,
		.rto_ms = rto, .retries = retries, .has_algo = algo_s != NULL,
		.algo = algo, .algo_r = algo_r,
	};
	msg = ctl_node_set_msg(&nl, &set);
	if (!msg) {
		ctl_nl_close(&nl);
		return nomem(what);
	}
	err = ctl_nl_request(&nl, msg, NULL, NULL);
	ctl_nl_close(&nl);
	return err;
}

const struct verb node_verbs[] = {
	{ "show", node_show, "-j --json" },
	{ "set", node_set, "topology= coord= port= transport=udp|tcp rto= "
	  "retries= algorithm=auto|u-torus|s-torus|md-torus|mu-torus|binomial|"
	  "u-cube|maxport|combine|w-sort|ring|rb|rb-all-port key=none key-id= "
	  "key-next= key-use= key-drop=" },
	{ NULL, NULL, NULL },
};

int cmd_node(int argc, char **argv)
{
	return run_verb("node", node_verbs, cmd_node_usage, argc, argv);
}

/* ------------------------------------------------------------------ peer */

void cmd_peer_usage(FILE *f)
{
	fputs("usage: mcastctl peer show [PEER] [-s] [-j]\n"
	      "       mcastctl peer add PEER addr IPADDR port PORT\n"
	      "       mcastctl peer del PEER\n"
	      "\n"
	      "PEER is a node's coordinate (highest dimension first, e.g. 1,3) or\n"
	      "\"id N\" (its node id).  IPADDR is IPv4 or IPv6; PORT is 1 to 65535.\n"
	      "-s (--stats): the data path's view of each peer too (round trip,\n"
	      "timeout, when it last spoke, the state it holds).\n", f);
}

/* PEER at argv[*i]: a coordinate or "id N"; advances *i. */
struct peer_ref {
	const char *coord;	/* or NULL */
	u32 id;
};

static int take_peer(const char *what, int argc, char **argv, int *i,
		     struct peer_ref *p)
{
	char q[80];

	memset(p, 0, sizeof(*p));
	if (*i >= argc)
		return usage_err(what, "missing PEER (a coordinate, or id N)");
	if (!strcmp(argv[*i], "id")) {
		if (*i + 1 >= argc)
			return usage_err(what, "id needs a node id");
		if (parse_u32(argv[*i + 1], MCAST_MAX_NODES - 1, &p->id))
			return usage_err(what, "node id \"%s\": expected a number below %u",
					 printable(argv[*i + 1], q, sizeof(q)),
					 MCAST_MAX_NODES);
		*i += 2;
		return 0;
	}
	p->coord = argv[(*i)++];
	return 0;
}

static int resolve_peer(const char *what, const struct ctl_node *node,
			struct peer_ref *p)
{
	char err_s[PARSE_ERR_MAX];

	if (p->coord && parse_coord(&node->t, p->coord, &p->id, err_s))
		return input_err(what, "%s", err_s);
	return 0;
}

struct show_ctx {
	struct ctl_node *node;
	struct json *j;		/* NULL: text */
	unsigned int count;
	bool stats;		/* peer show -s */
};

/* A u32 attribute of a peer's reply, 0 if absent. */
static u32 peer_u32(struct nlattr **pt, int attr)
{
	return pt[attr] ? nla_get_u32(pt[attr]) : 0;
}

/*
 * peer show -s: the data path's view of the peer, as the kernel gave it
 * (an older module gives none: nothing is printed).
 */
static void peer_link(struct show_ctx *c, struct nlattr **pt)
{
	static const struct {
		int attr;
		const char *key;
	} k[] = {
		{ MCAST_PEER_A_SRTT_US, "srtt_us" },
		{ MCAST_PEER_A_RTTVAR_US, "rttvar_us" },
		{ MCAST_PEER_A_RTO_MS, "rto_ms" },
		{ MCAST_PEER_A_RTO_HELD_MS, "rto_held_ms" },
		{ MCAST_PEER_A_TRANSFERS, "transfers" },
		{ MCAST_PEER_A_JOBS, "jobs" },
		{ MCAST_PEER_A_HELD, "held" },
		{ MCAST_PEER_A_STREAMS, "streams" },
		{ MCAST_PEER_A_RX_MEM, "rx_mem" },
		{ MCAST_PEER_A_MSG_MEM, "msg_mem" },
		{ MCAST_PEER_A_RB, "rb" },
	};
	bool down = pt[MCAST_PEER_A_DOWN] && nla_get_u8(pt[MCAST_PEER_A_DOWN]);
	char heard[32] = "never";
	size_t i;

	if (!pt[MCAST_PEER_A_RTO_MS])
		return;
	if (c->j) {
		for (i = 0; i < sizeof(k) / sizeof(k[0]); i++)
			json_key_uint(c->j, k[i].key, peer_u32(pt, k[i].attr));
		if (pt[MCAST_PEER_A_HEARD_MS])
			json_key_uint(c->j, "heard_ms",
				      peer_u32(pt, MCAST_PEER_A_HEARD_MS));
		json_key_bool(c->j, "down", down);
		return;
	}
	if (pt[MCAST_PEER_A_HEARD_MS])
		snprintf(heard, sizeof(heard), "%u ms ago",
			 peer_u32(pt, MCAST_PEER_A_HEARD_MS));
	printf("    srtt %.3f ms rttvar %.3f ms rto %u ms rto_held %u ms heard %s%s\n"
	       "    transfers %u jobs %u held %u streams %u\n"
	       "    rx_mem %u msg_mem %u rb %u\n",
	       peer_u32(pt, MCAST_PEER_A_SRTT_US) / 1000.0,
	       peer_u32(pt, MCAST_PEER_A_RTTVAR_US) / 1000.0,
	       peer_u32(pt, MCAST_PEER_A_RTO_MS),
	       peer_u32(pt, MCAST_PEER_A_RTO_HELD_MS), heard,
	       down ? " down" : "",
	       peer_u32(pt, MCAST_PEER_A_TRANSFERS),
	       peer_u32(pt, MCAST_PEER_A_JOBS),
	       peer_u32(pt, MCAST_PEER_A_HELD),
	       peer_u32(pt, MCAST_PEER_A_STREAMS),
	       peer_u32(pt, MCAST_PEER_A_RX_MEM),
	       peer_u32(pt, MCAST_PEER_A_MSG_MEM),
	       peer_u32(pt, MCAST_PEER_A_RB));
}

static int peer_reply(int cmd, struct nlattr **tb, void *arg)
{
	struct show_ctx *c = arg;
	struct nlattr *pt[MCAST_PEER_A_MAX + 1];
	char addr[INET6_ADDRSTRLEN] = "?", buf[COORD_STR_MAX];
	u32 id;
	u16 port = 0;

	(void)cmd;
	if (!tb[MCAST_A_PEER] ||
	    nla_parse_nested(pt, MCAST_PEER_A_MAX, tb[MCAST_A_PEER], NULL) < 0 ||
	    !pt[MCAST_PEER_A_ID]) {
		fprintf(stderr, "mcastctl: malformed peer attributes from the kernel\n");
		return MCASTCTL_EKERNEL;
	}
	id = nla_get_u32(pt[MCAST_PEER_A_ID]);
	if (pt[MCAST_PEER_A_IPV4] && nla_len(pt[MCAST_PEER_A_IPV4]) == 4)
		inet_ntop(AF_INET, nla_data(pt[MCAST_PEER_A_IPV4]), addr,
			  sizeof(addr));
	else if (pt[MCAST_PEER_A_IPV6] && nla_len(pt[MCAST_PEER_A_IPV6]) == 16)
		inet_ntop(AF_INET6, nla_data(pt[MCAST_PEER_A_IPV6]), addr,
			  sizeof(addr));
	if (pt[MCAST_PEER_A_PORT])
		port = nla_get_u16(pt[MCAST_PEER_A_PORT]);
	c->count++;
	if (c->j) {
		json_obj_begin(c->j);
		json_key_uint(c->j, "id", id);
		if (id < c->node->t.nodes) {
			json_key(c->j, "coord");
			json_coord(c->j, &c->node->t, id);
		}
		json_key_str(c->j, "addr", addr);
		json_key_uint(c->j, "port", port);
		if (c->stats)
			peer_link(c, pt);
		json_obj_end(c->j);
	} else {
		printf("peer %-12s id %-8u addr %s port %u\n",
		       id < c->node->t.nodes ?
		       format_coord(&c->node->t, id, true, buf) : "?",
		       id, addr, port);
		if (c->stats)
			peer_link(c, pt);
	}
	return 0;
}

static int put_peer_id(struct nl_msg *msg, u32 id, struct nlattr **nest)
{
	*nest = nla_nest_start(msg, MCAST_A_PEER);
	return !*nest || nla_put_u32(msg, MCAST_PEER_A_ID, id);
}

/*
 * Send @msg (a do or a dump of a list) and print each reply through @cb:
 * as text, or with @json as one JSON array.  Consumes @msg and @nl.
 */
static int show_list(struct ctl_nl *nl, struct nl_msg *msg, const char *what,
		     bool json, ctl_reply_fn cb, struct show_ctx *c)
{
	struct jout o;
	int err;

	if (json && (err = jout_begin(&o, what))) {
		nlmsg_free(msg);
		ctl_nl_close(nl);
		return err;
	}
	if (json) {
		json_arr_begin(&o.j);
		c->j = &o.j;
	}
	err = ctl_nl_request(nl, msg, cb, c);
	ctl_nl_close(nl);
	if (json) {
		json_arr_end(&o.j);
		return jout_end(&o, what, err);
	}
	return err;
}

static int peer_show(int argc, char **argv)
{
	const char *what = "peer show";
	struct show_ctx c = { 0 };
	struct peer_ref p = { 0 };
	struct ctl_node node;
	struct nlattr *nest;
	struct ctl_nl nl;
	struct nl_msg *msg;
	bool json, one = false;
	int i = 1, err;

	argc = take_json(argc, argv, &json);
	argc = take_stats(argc, argv, &c.stats);
	if (argc > 1) {
		err = take_peer(what, argc, argv, &i, &p);
		if (err)
			return err;
		if (i < argc)
			return usage_err(what, "unexpected argument \"%.64s\"",
					 argv[i]);
		one = true;
	}
	err = open_node(&nl, what, &node, false);
	if (err)
		return err;
	if (!node.configured) {
		ctl_nl_close(&nl);
		if (json) {
			printf("[]\n");
			return MCASTCTL_OK;
		}
		if (one)
			return input_err(what, "this node is not configured: it has no peers");
		return MCASTCTL_OK;
	}
	if (one && (err = resolve_peer(what, &node, &p))) {
		ctl_nl_close(&nl);
		return err;
	}
	msg = ctl_nl_msg(&nl, MCAST_CMD_PEER_GET, !one, 0);
	if (!msg || (one && put_peer_id(msg, p.id, &nest))) {
		nlmsg_free(msg);
		ctl_nl_close(&nl);
		return nomem(what);
	}
	if (one)
		nla_nest_end(msg, nest);
	c.node = &node;
	return show_list(&nl, msg, what, json, peer_reply, &c);
}

static int peer_add(int argc, char **argv)
{
	const char *what = "peer add";
	const char *addr_s = NULL, *port_s = NULL;
	unsigned char addr[16];
	struct peer_ref p;
	struct ctl_node node;
	struct nlattr *nest;
	struct ctl_nl nl;
	struct nl_msg *msg;
	bool v6 = false;
	char q[80];
	u32 port;
	int i = 1, err;

	err = take_peer(what, argc, argv, &i, &p);
	if (err)
		return err;
	for (; i < argc; i += 2) {
		const char **slot;

		if (!strcmp(argv[i], "addr"))
			slot = &addr_s;
		else if (!strcmp(argv[i], "port"))
			slot = &port_s;
		else
			return usage_err(what, "unknown keyword \"%.64s\" (addr, port)",
					 argv[i]);
		if (i + 1 >= argc)
			return usage_err(what, "%s needs a value", argv[i]);
		if (*slot)
			return usage_err(what, "%s given twice", argv[i]);
		*slot = argv[i + 1];
	}
	if (!addr_s || !port_s)
		return usage_err(what, "needs addr IPADDR and port PORT");
	if (inet_pton(AF_INET, addr_s, addr) != 1) {
		if (inet_pton(AF_INET6, addr_s, addr) != 1)
			return input_err(what, "address \"%s\": expected an IPv4 or IPv6 address",
					 printable(addr_s, q, sizeof(q)));
		v6 = true;
	}
	if (parse_u32(port_s, 65535, &port) || port == 0)
		return input_err(what, "port \"%s\": expected a number from 1 to 65535",
				 printable(port_s, q, sizeof(q)));

	err = open_node(&nl, what, &node, true);
	if (err)
		return err;
	err = resolve_peer(what, &node, &p);
	if (err) {
		ctl_nl_close(&nl);
		return err;
	}
	msg = ctl_nl_msg(&nl, MCAST_CMD_PEER_NEW, false, 0);
	if (!msg || put_peer_id(msg, p.id, &nest) ||
	    (v6 ? nla_put(msg, MCAST_PEER_A_IPV6, 16, addr) :
		  nla_put(msg, MCAST_PEER_A_IPV4, 4, addr)) ||
	    nla_put_u16(msg, MCAST_PEER_A_PORT, port)) {
		nlmsg_free(msg);
		ctl_nl_close(&nl);
		return nomem(what);
	}
	nla_nest_end(msg, nest);
	err = ctl_nl_request(&nl, msg, NULL, NULL);
	ctl_nl_close(&nl);
	return err;
}

static int peer_del(int argc, char **argv)
{
	const char *what = "peer del";
	struct peer_ref p;
	struct ctl_node node;
	struct nlattr *nest;
	struct ctl_nl nl;
	struct nl_msg *msg;
	int i = 1, err;

	err = take_peer(what, argc, argv, &i, &p);
	if (err)
		return err;
	if (i < argc)
		return usage_err(what, "unexpected argument \"%.64s\"", argv[i]);
	err = open_node(&nl, what, &node, true);
	if (err)
		return err;
	err = resolve_peer(what, &node, &p);
	if (err) {
		ctl_nl_close(&nl);
		return err;
	}
	msg = ctl_nl_msg(&nl, MCAST_CMD_PEER_DEL, false, 0);
	if (!msg || put_peer_id(msg, p.id, &nest)) {
		nlmsg_free(msg);
		ctl_nl_close(&nl);
		return nomem(what);
	}
	nla_nest_end(msg, nest);
	err = ctl_nl_request(&nl, msg, NULL, NULL);
	ctl_nl_close(&nl);
	return err;
}

const struct verb peer_verbs[] = {
	{ "show", peer_show, "id= -s --stats -j --json" },
	{ "add", peer_add, "id= addr= port=" },
	{ "del", peer_del, "id=" },
	{ NULL, NULL, NULL },
};

int cmd_peer(int argc, char **argv)
{
	return run_verb("peer", peer_verbs, cmd_peer_usage, argc, argv);
}

/* ----------------------------------------------------------------- group */

void cmd_group_usage(FILE *f)
{
	fputs("usage: mcastctl group show [GROUP] [-j]\n"
	      "       mcastctl group add GROUP [members C...]\n"
	      "       mcastctl group set GROUP [epoch E] [managed 0|1] [members C...]\n"
	      "       mcastctl group del GROUP [epoch E] [managed 0|1]\n"
	      "\n"
	      "GROUP is a number from 1.  C is a member node's coordinate, highest\n"
	      "dimension first.  add and set compute the group's R-chain (dimension\n"
	      "order) and, on a unidirectional torus with equal radices, its H-cycle\n"
	      "(Hamiltonian-label order) and install them with the members.\n"
	      "epoch E: only if the group is still at epoch E (else ESTALE).\n"
	      "managed: a group mcastd keeps refuses changes without it (EBUSY);\n"
	      "managed 0 takes the group over from mcastd.\n", f);
}

static void print_nodes(struct show_ctx *c, const char *key, const char *label,
			struct nlattr *a)
{
	const struct mc_torus *t = &c->node->t;
	char buf[COORD_STR_MAX];
	u32 n, i, v;

	if (!a)
		return;
	n = nla_len(a) / sizeof(u32);
	if (c->j) {
		json_key(c->j, key);
		json_arr_begin(c->j);
	} else {
		printf("  %-8s", label);
	}
	for (i = 0; i < n; i++) {
		memcpy(&v, (char *)nla_data(a) + i * sizeof(u32), sizeof(v));
		if (c->j && v < t->nodes)
			json_coord(c->j, t, v);
		else if (c->j)
			json_uint(c->j, v);
		else
			printf(" %s", v < t->nodes ?
			       format_coord(t, v, true, buf) : "?");
	}
	if (c->j)
		json_arr_end(c->j);
	else
		putchar('\n');
}

static int group_reply(int cmd, struct nlattr **tb, void *arg)
{
	struct show_ctx *c = arg;
	struct nlattr *gt[MCAST_GROUP_A_MAX + 1];
	u32 id, epoch = 0, local = 0, n;
	bool managed;

	(void)cmd;
	if (!tb[MCAST_A_GROUP] ||
	    nla_parse_nested(gt, MCAST_GROUP_A_MAX, tb[MCAST_A_GROUP], NULL) < 0 ||
	    !gt[MCAST_GROUP_A_ID]) {
		fprintf(stderr, "mcastctl: malformed group attributes from the kernel\n");
		return MCASTCTL_EKERNEL;
	}
	id = nla_get_u32(gt[MCAST_GROUP_A_ID]);
	if (gt[MCAST_GROUP_A_EPOCH])
		epoch = nla_get_u32(gt[MCAST_GROUP_A_EPOCH]);
	if (gt[MCAST_GROUP_A_LOCAL])
		local = nla_get_u32(gt[MCAST_GROUP_A_LOCAL]);
	managed = gt[MCAST_GROUP_A_MANAGED] &&
		  nla_get_u8(gt[MCAST_GROUP_A_MANAGED]);
	n = gt[MCAST_GROUP_A_MEMBERS] ?
	    nla_len(gt[MCAST_GROUP_A_MEMBERS]) / sizeof(u32) : 0;
	c->count++;
	if (c->j) {
		json_obj_begin(c->j);
		json_key_uint(c->j, "id", id);
		json_key_uint(c->j, "epoch", epoch);
		json_key_uint(c->j, "local", local);
		json_key_uint(c->j, "nmembers", n);
		json_key_bool(c->j, "managed", managed);
	} else {
		printf("group %u  epoch %u  local files %u  members %u%s\n", id,
		       epoch, local, n, managed ? "  managed by mcastd" : "");
	}
	print_nodes(c, "members", "members", gt[MCAST_GROUP_A_MEMBERS]);
	print_nodes(c, "rchain", "r-chain", gt[MCAST_GROUP_A_RCHAIN]);
	print_nodes(c, "hcycle", "h-cycle", gt[MCAST_GROUP_A_HCYCLE]);
	if (c->j)
		json_obj_end(c->j);
	return 0;
}

static int put_group_id(struct nl_msg *msg, u32 id, struct nlattr **nest)
{
	*nest = nla_nest_start(msg, MCAST_A_GROUP);
	return !*nest || nla_put_u32(msg, MCAST_GROUP_A_ID, id);
}

static int group_show(int argc, char **argv)
{
	const char *what = "group show";
	struct show_ctx c = { 0 };
	struct ctl_node node;
	struct nlattr *nest;
	struct ctl_nl nl;
	struct nl_msg *msg;
	bool json;
	u32 id = 0;
	int err;

	argc = take_json(argc, argv, &json);
	if (argc > 2)
		return usage_err(what, "unexpected argument \"%.64s\"", argv[2]);
	if (argc == 2 && (err = parse_group_id(what, argv[1], &id)))
		return err;
	err = open_node(&nl, what, &node, false);
	if (err)
		return err;
	msg = ctl_nl_msg(&nl, MCAST_CMD_GROUP_GET, !id, 0);
	if (!msg || (id && put_group_id(msg, id, &nest))) {
		nlmsg_free(msg);
		ctl_nl_close(&nl);
		return nomem(what);
	}
	if (id)
		nla_nest_end(msg, nest);
	c.node = &node;
	return show_list(&nl, msg, what, json, group_reply, &c);
}

/* A change's conditions: "epoch E" (if-match) and "managed 0|1". */
struct group_opts {
	u32 epoch;			/* 0: any */
	int managed;			/* -1: not said */
};

/* Takes the option words at argv[*i...]; stops at the first other word. */
static int group_opts_parse(const char *what, int argc, char **argv, int *i,
			    struct group_opts *o)
{
	u32 v;

	o->epoch = 0;
	o->managed = -1;
	while (*i < argc && (!strcmp(argv[*i], "epoch") ||
			     !strcmp(argv[*i], "managed"))) {
		bool epoch = argv[*i][0] == 'e';

		if (*i + 1 >= argc)
			return usage_err(what, "%s needs a value", argv[*i]);
		if (parse_u32(argv[*i + 1], epoch ? UINT32_MAX : 1, &v) ||
		    (epoch && !v))
			return input_err(what, "%s \"%.64s\": %s", argv[*i],
					 argv[*i + 1], epoch ?
					 "an epoch from group show (>= 1)" :
					 "0 or 1");
		if (epoch)
			o->epoch = v;
		else
			o->managed = v;
		*i += 2;
	}
	return 0;
}

static int group_opts_put(struct nl_msg *msg, const struct group_opts *o)
{
	return (o->epoch && nla_put_u32(msg, MCAST_GROUP_A_EPOCH, o->epoch)) ||
	       (o->managed >= 0 &&
		nla_put_u8(msg, MCAST_GROUP_A_MANAGED, o->managed));
}

/* GROUP_NEW / GROUP_SET with the members at argv[first..argc). */
static int group_change(const char *what, int cmd, u32 id, int argc,
			char **argv, int first, const struct group_opts *o)
{
	char err_s[PARSE_ERR_MAX];
	struct ctl_node node;
	struct nlattr *nest;
	struct ctl_nl nl;
	struct nl_msg *msg = NULL;
	u32 *members = NULL, *rchain = NULL, *hcycle = NULL;
	const char *why = NULL;
	bool with = first >= 0, ham;
	u32 n = with ? argc - first : 0, i;
	size_t bytes = n * sizeof(u32);
	int err;

	err = open_node(&nl, what, &node, true);
	if (err)
		return err;
	ham = node.t.regular && node.t.links == MC_LINKS_UNI;
	if (with) {
		members = malloc(bytes + 1);
		rchain = malloc(bytes + 1);
		hcycle = malloc(bytes + 1);
		if (!members || !rchain || !hcycle) {
			err = nomem(what);
			goto out;
		}
		for (i = 0; i < n; i++) {
			if (parse_coord(&node.t, argv[first + i], &members[i],
					err_s)) {
				err = input_err(what, "%s", err_s);
				goto out;
			}
		}
		memcpy(rchain, members, bytes);
		memcpy(hcycle, members, bytes);
		if (mc_chain_sort(&node.t, MC_ORDER_DIM, rchain, n, &why) ||
		    (ham && mc_chain_sort(&node.t, MC_ORDER_HAM, hcycle, n, &why))) {
			err = input_err(what, "members: %s", why ? why : "invalid");
			goto out;
		}
	}
	msg = ctl_nl_msg(&nl, cmd, false, 3 * bytes);
	if (!msg || put_group_id(msg, id, &nest) || group_opts_put(msg, o) ||
	    (with && (nla_put(msg, MCAST_GROUP_A_MEMBERS, bytes, members) ||
		      nla_put(msg, MCAST_GROUP_A_RCHAIN, bytes, rchain) ||
		      (ham && nla_put(msg, MCAST_GROUP_A_HCYCLE, bytes,
				      hcycle))))) {
		err = nomem(what);
		goto out;
	}
	nla_nest_end(msg, nest);
	err = ctl_nl_request(&nl, msg, NULL, NULL);
	msg = NULL;
out:
	nlmsg_free(msg);
	free(members);
	free(rchain);
	free(hcycle);
	ctl_nl_close(&nl);
	return err;
}

static int group_add_set(int argc, char **argv, bool set)
{
	const char *what = set ? "group set" : "group add";
	struct group_opts o;
	int i = 2, err;
	u32 id;

	if (argc < 2)
		return usage_err(what, "missing GROUP");
	err = parse_group_id(what, argv[1], &id);
	if (err)
		return err;
	if (set) {
		err = group_opts_parse(what, argc, argv, &i, &o);
		if (err)
			return err;
	} else {
		o = (struct group_opts){ .managed = -1 };
	}
	if (i == argc && (!set || o.managed >= 0))
		return group_change(what, set ? MCAST_CMD_GROUP_SET :
				    MCAST_CMD_GROUP_NEW, id, argc, argv, -1, &o);
	if (i == argc)
		return usage_err(what, "missing members C...");
	if (strcmp(argv[i], "members"))
		return usage_err(what, "unknown keyword \"%.64s\" (%smembers)",
				 argv[i], set ? "epoch, managed, " : "");
	return group_change(what, set ? MCAST_CMD_GROUP_SET : MCAST_CMD_GROUP_NEW,
			    id, argc, argv, i + 1, &o);
}

static int group_del(int argc, char **argv)
{
	const char *what = "group del";
	struct group_opts o;
	struct nlattr *nest;
	struct ctl_nl nl;
	struct nl_msg *msg;
	int i = 2, err;
	u32 id;

	if (argc < 2)
		return usage_err(what, "missing GROUP");
	err = parse_group_id(what, argv[1], &id);
	if (err)
		return err;
	err = group_opts_parse(what, argc, argv, &i, &o);
	if (err)
		return err;
	if (i < argc)
		return usage_err(what, "unexpected argument \"%.64s\"", argv[i]);
	err = ctl_nl_open(&nl, what);
	if (err)
		return err;
	msg = ctl_nl_msg(&nl, MCAST_CMD_GROUP_DEL, false, 0);
	if (!msg || put_group_id(msg, id, &nest) || group_opts_put(msg, &o)) {
		nlmsg_free(msg);
		ctl_nl_close(&nl);
		return nomem(what);
	}
	nla_nest_end(msg, nest);
	err = ctl_nl_request(&nl, msg, NULL, NULL);
	ctl_nl_close(&nl);
	return err;
}

static int group_add(int argc, char **argv)
{
	return group_add_set(argc, argv, false);
}

static int group_set(int argc, char **argv)
{
	return group_add_set(argc, argv, true);
}

const struct verb group_verbs[] = {
	{ "show", group_show, "-j --json" },
	{ "add", group_add, "members" },
	{ "set", group_set, "epoch= managed=0|1 members" },
	{ "del", group_del, "epoch= managed=0|1" },
	{ NULL, NULL, NULL },
};

int cmd_group(int argc, char **argv)
{
	return run_verb("group", group_verbs, cmd_group_usage, argc, argv);
}
