/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * mcastd.conf(5): a full configuration read back field by field, the
 * defaults, one case per error with its message, the lookups, loading from
 * a file, and random mutations of a good file that must fail cleanly or
 * give a consistent configuration (ASan/LSan watch for the rest).
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "conf.h"
#include "parse.h"

static const char good[] =
	"# a 4x4 unidirectional torus\n"
	"[cluster]\n"
	"topology = torus:4x4:uni    ; comment after a value\n"
	"port=7500\n"
	"\tcontrol_port   =   7600\t# tabs too\n"
	"transport = udp\n"
	"algorithm = mu-torus:04\n"
	"heartbeat = 200ms\n"
	"suspect = 1s\n"
	"dead = 3 s\n"
	"sync = 10s\n"
	"monitors = 3\n"
	"key = /etc/mcast/cluster.key\n"
	"\n"
	"[ nodes ]\n"
	"0,0-3 = 10.77.0.1-4\n"
	"1,0-3 = 10.77.0.5-8\n"
	"(2,0) = fd00::a\n"
	"2,1-3 = fd00::b-d\n"
	"3,0 = 10.77.1.1\n"
	"3,1-3 = fd00::1:fffd-ffff\n"
	"[groups]\n"
	"7 = static 0,0 1,1 3,3\n"
	"1 = dynamic\n"
	"4294967295 = static 2,0-3 0,1\n";

static struct in6_addr v4(const char *s)
{
	struct in6_addr a = { 0 };

	a.s6_addr[10] = a.s6_addr[11] = 0xff;
	inet_pton(AF_INET, s, &a.s6_addr[12]);
	return a;
}

static struct in6_addr v6(const char *s)
{
	struct in6_addr a = { 0 };

	inet_pton(AF_INET6, s, &a);
	return a;
}

static bool zeroed(const struct mcd_conf *c)
{
	static const struct mcd_conf z;

	return !memcmp(c, &z, sizeof(z));
}

static void test_good(void)
{
	static const char *const want_addr[16] = {
		"10.77.0.1", "10.77.0.2", "10.77.0.3", "10.77.0.4",
		"10.77.0.5", "10.77.0.6", "10.77.0.7", "10.77.0.8",
		"fd00::a", "fd00::b", "fd00::c", "fd00::d",
		"10.77.1.1", "fd00::1:fffd", "fd00::1:fffe", "fd00::1:ffff",
	};
	static const unsigned int want_line[16] = {
		16, 16, 16, 16, 17, 17, 17, 17, 18, 19, 19, 19, 20, 21, 21, 21,
	};
	struct mcd_conf c;
	char err[MCD_CONF_ERR_MAX] = "";
	unsigned int i, bad_id = 0, bad_addr = 0, bad_line = 0;
	int rc;

	rc = mcd_conf_parse(good, "good.conf", &c, err);
	is_int(rc, 0, "good config parses");
	if (rc) {
		diag("%s", err);
		return;
	}
	ok(!strcmp(c.path, "good.conf"), "path is the name");
	is_int(c.torus.n, 2, "torus: 2 dimensions");
	ok(c.torus.k[0] == 4 && c.torus.k[1] == 4 && c.torus.nodes == 16,
	   "torus: 4x4, 16 nodes");
	is_int(c.torus.links, MC_LINKS_UNI, "torus: unidirectional");
	ok(!strcmp(c.topology, "torus:4x4:uni"), "topology as written");
	is_int(c.port, 7500, "port");
	is_int(c.control_port, 7600, "control_port");
	ok(!strcmp(c.transport, "udp"), "transport");
	ok(!strcmp(c.algorithm, "mu-torus:4"), "algorithm canonical: %s",
	   c.algorithm);
	ok(c.algo == MC_ALGO_MUTORUS && c.algo_r == 4, "algorithm parsed");
	is_int(c.heartbeat_ms, 200, "heartbeat 200ms");
	is_int(c.suspect_ms, 1000, "suspect 1s");
	is_int(c.dead_ms, 3000, "dead \"3 s\"");
	is_int(c.sync_ms, 10000, "sync 10s");
	is_int(c.monitors, 3, "monitors");
	ok(!strcmp(c.key_file, "/etc/mcast/cluster.key"), "key");

	is_int(c.nnodes, 16, "16 nodes");
	for (i = 0; i < c.nnodes && i < 16; i++) {
		bool is4 = !strchr(want_addr[i], ':');
		struct in6_addr a = is4 ? v4(want_addr[i]) : v6(want_addr[i]);

		bad_id += c.nodes[i].id != i;
		bad_addr += memcmp(&c.nodes[i].addr, &a, sizeof(a)) ||
			    c.nodes[i].family != (is4 ? AF_INET : AF_INET6);
		bad_line += c.nodes[i].line != want_line[i];
	}
	is_int(bad_id, 0, "nodes sorted by id, one per torus node");
	is_int(bad_addr, 0, "every address and family (v4-mapped IPv4)");
	is_int(bad_line, 0, "every node's line");

	is_int(c.ngroups, 3, "3 groups");
	if (c.ngroups != 3)
		return mcd_conf_free(&c);
	ok(c.groups[0].id == 1 && !c.groups[0].fixed && !c.groups[0].n &&
	   !c.groups[0].members && c.groups[0].line == 24,
	   "group 1: dynamic, line 24, sorted first");
	ok(c.groups[1].id == 7 && c.groups[1].fixed && c.groups[1].n == 3 &&
	   c.groups[1].members[0] == 0 && c.groups[1].members[1] == 5 &&
	   c.groups[1].members[2] == 15 && c.groups[1].line == 23,
	   "group 7: static 0,0 1,1 3,3 = ids 0 5 15");
	ok(c.groups[2].id == 4294967295u && c.groups[2].fixed &&
	   c.groups[2].n == 5 && c.groups[2].members[0] == 1 &&
	   c.groups[2].members[1] == 8 && c.groups[2].members[4] == 11,
	   "group 4294967295: static range 2,0-3 and 0,1, sorted");
	mcd_conf_free(&c);
	ok(zeroed(&c), "mcd_conf_free zeroes");
	mcd_conf_free(&c);
	ok(zeroed(&c), "a freed conf can be freed again");
}

static void test_defaults(void)
{
	struct mcd_conf c;
	char err[MCD_CONF_ERR_MAX] = "";
	int rc;

	rc = mcd_conf_parse("[cluster]\ntopology = torus:2x2\n[nodes]\n"
			    "0,0-1 = fd00::1-2\n1,0-1 = 192.168.1.1-2\n",
			    "d.conf", &c, err);
	is_int(rc, 0, "minimal config parses");
	if (rc) {
		diag("%s", err);
		return;
	}
	is_int(c.torus.links, MC_LINKS_UNI, "links default to uni");
	is_int(c.port, 7447, "port defaults to 7447");
	is_int(c.control_port, 7448, "control_port defaults to port + 1");
	ok(!c.transport[0] && !c.algorithm[0] && !c.key_file[0],
	   "transport, algorithm and key default to empty");
	is_int(c.heartbeat_ms, 500, "heartbeat defaults to 500ms");
	is_int(c.suspect_ms, 2000, "suspect defaults to 4 x heartbeat");
	is_int(c.dead_ms, 2000, "dead defaults to 4 x heartbeat");
	is_int(c.sync_ms, 5000, "sync defaults to 5s");
	is_int(c.monitors, 0, "monitors defaults to 0");
	is_int(c.ngroups, 0, "no groups");
	mcd_conf_free(&c);

	rc = mcd_conf_parse("[cluster]\ntopology = torus:2x2\nport = 9000\n"
			    "heartbeat = 1s\n[nodes]\n0,0 = 10.0.0.1\n",
			    "d.conf", &c, err);
	is_int(rc, 0, "defaults follow the keys they derive from");
	ok(c.control_port == 9001 && c.suspect_ms == 4000 &&
	   c.dead_ms == 4000, "control_port 9001, suspect/dead 4s");
	mcd_conf_free(&c);

	rc = mcd_conf_parse("\xef\xbb\xbf[cluster]\r\ntopology = torus:4:bi\r\n"
			    "algorithm = auto\r\nheartbeat = 60s\r\n"
			    "[nodes]\r\n0-3 = 10.0.0.1-4\r\n", "d.conf", &c,
			    err);
	is_int(rc, 0, "byte order mark and CRLF line ends are accepted");
	if (rc)
		diag("%s", err);
	ok(!strcmp(c.algorithm, "auto") && c.suspect_ms == 240000 &&
	   c.nnodes == 4, "auto; suspect 240s from a 60s heartbeat");
	mcd_conf_free(&c);
}

/* A header that the error cases below add to. */
#define CL "[cluster]\ntopology = torus:4x4\n"
#define ND "[nodes]\n0,0 = 10.0.0.1\n"

/* @text fails with a message holding each of @want (NULL-ended). */
static void fails(const char *text, const char *const *want, const char *what)
{
	struct mcd_conf c;
	char err[MCD_CONF_ERR_MAX];
	bool all = true;
	int rc, i;

	memset(err, 0, sizeof(err));
	rc = mcd_conf_parse(text, "t.conf", &c, err);
	for (i = 0; want[i]; i++)
		all = all && strstr(err, want[i]);
	ok(rc == -1 && all && zeroed(&c) && !strchr(err, '\n'), "%s", what);
	if (rc != -1 || !all)
		diag("got rc %d: \"%s\", want \"%s\"...", rc, err, want[0]);
	if (!rc)
		mcd_conf_free(&c);
}

#define FAILS(text, what, ...) \
	fails(text, (const char *const[]){ __VA_ARGS__, NULL }, what)

/* @text fails with exactly @want. */
static void fails_exactly(const char *text, const char *want)
{
	struct mcd_conf c;
	char err[MCD_CONF_ERR_MAX] = "";
	int rc = mcd_conf_parse(text, "t.conf", &c, err);

	ok(rc == -1 && !strcmp(err, want), "message: %s", want);
	if (rc != -1 || strcmp(err, want))
		diag("got rc %d: \"%s\"", rc, err);
	if (!rc)
		mcd_conf_free(&c);
}

static void test_syntax_errors(void)
{
	FAILS("[clutser]\n", "unknown section",
	      "t.conf:1: unknown section [clutser] (valid: cluster, nodes, groups)");
	FAILS(CL "[cluster\n", "section without ]", "t.conf:3:", "lacks its ']'");
	FAILS(CL "[nodes] x\n", "text after a section header",
	      "t.conf:3:", "text after the section header");
	FAILS("# c\n\ntopology = torus:4x4\n", "key outside a section",
	      "t.conf:3: key \"topology\" outside a section");
	FAILS(CL "topo = 1\n", "unknown key, with the valid ones",
	      "t.conf:3: unknown key \"topo\" in [cluster]",
	      "topology, port, control_port, transport, algorithm, heartbeat, suspect, dead, sync, monitors, key");
	FAILS(CL "port = 1\n[nodes]\n[cluster]\nport = 2\n", "key repeated",
	      "t.conf:6: port repeated (first on line 3)");
	FAILS(CL "heartbeat 200ms\n", "missing =",
	      "t.conf:3: missing '=' in \"heartbeat 200ms\"");
	FAILS(CL " = 5\n", "nothing before =", "t.conf:3: nothing before '='");
	FAILS(CL "port =   # none\n", "empty value",
	      "t.conf:3: \"port\" has no value");
	FAILS(CL "# x\n", "missing nodes", "t.conf: no nodes");
	FAILS("[cluster]\nport = 1\n", "missing topology",
	      "t.conf: no topology");
	FAILS("", "empty file: no topology", "t.conf: no topology");
	FAILS("[nodes]\n0,0 = 10.0.0.1\n" CL, "[nodes] before topology",
	      "t.conf:2: node 0,0: the topology is not known yet",
	      "must come before [nodes]");
}

static void test_cluster_errors(void)
{
	FAILS("[cluster]\ntopology = mesh:4x4\n", "bad topology",
	      "t.conf:2: topology \"mesh:4x4\": expected torus:");
	FAILS("[cluster]\ntopology = torus:4x4:tri\n", "bad links",
	      "t.conf:2:", "\"uni\" or \"bi\"");
	FAILS(CL "port = 0\n" ND, "port 0",
	      "t.conf:3: port \"0\": must be 1 to 65535");
	FAILS(CL "port = 65536\n" ND, "port too large", "t.conf:3:",
	      "must be 1 to 65535");
	FAILS(CL "port = 7o\n" ND, "port not a number", "t.conf:3:",
	      "port \"7o\"");
	FAILS(CL "control_port = -1\n" ND, "control_port negative",
	      "t.conf:3: control_port \"-1\": must be 1 to 65535");
	FAILS(CL "transport = UDP\n" ND, "transport upper case",
	      "t.conf:3: transport \"UDP\": expected a word");
	FAILS(CL "transport = abcdefghijklmnop\n" ND, "transport too long",
	      "t.conf:3:", "up to 15 characters");
	FAILS(CL "algorithm = separate\n" ND, "separate is no node algorithm",
	      "t.conf:3: algorithm \"separate\": expected auto, u-torus, s-torus, md-torus, mu-torus:R, binomial, u-cube, maxport, combine, w-sort, ring, rb or rb-all-port");
	FAILS(CL "algorithm = mu-torus\n" ND, "mu-torus without R",
	      "t.conf:3:", "partition size");
	FAILS(CL "algorithm = mu-torus:1\n" ND, "mu-torus:1", "t.conf:3:",
	      "2 to");
	FAILS(CL "algorithm = mu-torus:256\n" ND, "mu-torus:256 past the kernel's R",
	      "t.conf:3: algorithm \"mu-torus:256\": R must be 2 to 255");
	FAILS(CL "algorithm = auto:3\n" ND, "auto with a parameter",
	      "t.conf:3: algorithm \"auto:3\" takes no parameter");
	FAILS(CL "algorithm = u-torus:3\n" ND, "u-torus with a parameter",
	      "t.conf:3:", "takes no parameter");
	FAILS(CL "heartbeat = 5ms\n" ND, "heartbeat too short",
	      "t.conf:3: heartbeat \"5ms\": must be 10ms to 60s");
	FAILS(CL "heartbeat = 61s\n" ND, "heartbeat too long",
	      "t.conf:3:", "must be 10ms to 60s");
	FAILS(CL "heartbeat = 99999999999999999999s\n" ND, "huge heartbeat",
	      "t.conf:3:", "must be 10ms to 60s");
	FAILS(CL "heartbeat = 500\n" ND, "duration without unit",
	      "t.conf:3: heartbeat \"500\": expected a whole number of ms or s");
	FAILS(CL "sync = 1m\n" ND, "minutes are no unit", "t.conf:3:",
	      "sync \"1m\"", "ms or s");
	FAILS(CL "suspect = 1.5s\n" ND, "fractions are not", "t.conf:3:",
	      "whole number");
	FAILS(CL "dead = 241s\n" ND, "dead too long", "t.conf:3:",
	      "must be 10ms to 240s");
	FAILS(CL "monitors = 65\n" ND, "monitors too many",
	      "t.conf:3: monitors \"65\": must be 0 to 64");
	FAILS(CL "key = etc/cluster.key\n" ND, "relative key",
	      "t.conf:3: key \"etc/cluster.key\": must be an absolute path");
}

static void test_node_errors(void)
{
	FAILS(CL ND "0,0 = 10.0.0.2\n", "duplicate coordinate",
	      "t.conf:5: node 0,0 listed twice (first on line 4)");
	FAILS(CL ND "(0,0) = 10.0.0.2\n", "the same node in parentheses",
	      "t.conf:5: node 0,0 listed twice (first on line 4)");
	FAILS(CL "[nodes]\n0,0-3 = 10.0.0.1-4\n0,2 = 10.0.0.9\n",
	      "node inside an earlier range",
	      "t.conf:5: node 0,2 listed twice (first on line 4)");
	FAILS(CL ND "0,1 = 10.0.0.1\n", "duplicate address",
	      "t.conf:5: address 10.0.0.1 of node 0,1 listed twice (first on line 4, node 0,0)");
	FAILS(CL ND "0,1 = fd00::1\n1,0-3 = 10.0.0.5-8\n3,3 = ::ffff:10.0.0.1\n",
	      "IPv4 written as v4-mapped IPv6 is the same address",
	      "t.conf:7: address 10.0.0.1 of node 3,3 listed twice (first on line 4, node 0,0)");
	FAILS(CL "[nodes]\n0,0 = fd00::1\n1,0 = fd00::2\n2,0-3 = fd00::1-4\n0,1 = fd00::2\n",
	      "the first repeat is named",
	      "t.conf:6: address fd00::1 of node 2,0 listed twice (first on line 4, node 0,0)");
	FAILS(CL "[nodes]\n4,0 = 10.0.0.1\n", "coordinate outside the torus",
	      "t.conf:4: coordinate \"4,0\" out of range: dimension 1 has radix 4");
	FAILS(CL "[nodes]\n0,0,0 = 10.0.0.1\n", "coordinate with 3 elements",
	      "t.conf:4:", "has 3 elements but the torus has 2 dimensions");
	FAILS(CL "[nodes]\n-1,0 = 10.0.0.1\n", "negative coordinate",
	      "t.conf:4:", "only its last element may be a range");
	FAILS(CL "[nodes]\n0,0-x = 10.0.0.1\n", "range without its end",
	      "t.conf:4: malformed range \"0,0-x\"");
	FAILS(CL "[nodes]\n0,0-3 = 10.0.0.1-3\n", "range sizes differ",
	      "t.conf:4: node range 0,0-3 has 4 nodes but address range \"10.0.0.1-3\" has 3: the sizes differ");
	FAILS(CL "[nodes]\n0,0-3 = 10.0.0.1\n", "node range, one address",
	      "t.conf:4: node range 0,0-3 has 4 nodes but \"10.0.0.1\" is one address");
	FAILS(CL "[nodes]\n0,0 = fd00::1-4\n", "address range, one node",
	      "t.conf:4: address range \"fd00::1-4\" has 4 addresses but 0,0 is one node");
	FAILS(CL "[nodes]\n0,2-4 = 10.0.0.1-3\n", "range past the torus",
	      "t.conf:4: range \"0,2-4\" runs past the torus: dimension 0 has radix 4");
	FAILS(CL "[nodes]\n0,3-1 = 10.0.0.1-3\n", "coordinate range backwards",
	      "t.conf:4: range \"0,3-1\" runs backwards");
	FAILS(CL "[nodes]\n0,0-3 = 10.0.0.254-257\n", "past the last octet",
	      "t.conf:4: address range \"10.0.0.254-257\" runs past the last octet (255)");
	FAILS(CL "[nodes]\n0,0-3 = fd00::fffe-10001\n", "past the last group",
	      "t.conf:4: address range \"fd00::fffe-10001\" runs past the last group (ffff)");
	FAILS(CL "[nodes]\n0,0-3 = 10.0.0.4-1\n", "address range backwards",
	      "t.conf:4: address range \"10.0.0.4-1\" runs backwards");
	FAILS(CL "[nodes]\n0,0-1 = 10.0.0.1-a\n", "hex after a dotted quad",
	      "t.conf:4:", "expected a run in the last octet");
	FAILS(CL "[nodes]\n0,0 = 10.0.0.300\n", "bad IPv4 address",
	      "t.conf:4: address \"10.0.0.300\": expected an IPv4 or IPv6 address");
	FAILS(CL "[nodes]\n0,0 = fe80::1%eth0\n", "scoped address",
	      "t.conf:4:", "expected an IPv4 or IPv6 address");
	FAILS(CL "[nodes]\n0,0 = 10.0.0.1 10.0.0.2\n", "two addresses",
	      "t.conf:4:", "expected an IPv4 or IPv6 address");
	FAILS(CL "[nodes]\n0,0 = 224.0.0.1\n", "multicast address",
	      "t.conf:4: node 0,0: address 224.0.0.1 is not a unicast address");
	FAILS(CL "[nodes]\n0,0-1 = ::0-1\n", "the unspecified address",
	      "t.conf:4: node 0,0: address :: is not a unicast address");
	FAILS(CL "[nodes]\n0,0 = ff02::1\n", "IPv6 multicast",
	      "t.conf:4:", "not a unicast address");
}

static void test_group_errors(void)
{
	FAILS(CL ND "[groups]\n5 = static 0,0 1,1\n", "unknown static member",
	      "t.conf:6: group 5: member 1,1 is not a configured node");
	FAILS(CL ND "[groups]\n5 = static 0,0 (0,0)\n", "repeated member",
	      "t.conf:6: group 5: member 0,0 repeated");
	FAILS(CL ND "[groups]\n5 = static 0,0-2 0,1\n", "member in a range",
	      "t.conf:6: group 5: member 0,1 repeated");
	FAILS(CL ND "[groups]\n5 = dynamic\n6 = dynamic\n5 = static 0,0\n",
	      "group listed twice",
	      "t.conf:8: group 5 listed twice (first on line 6)");
	FAILS(CL ND "[groups]\n0 = dynamic\n", "group 0",
	      "t.conf:6: group \"0\": the id must be 1 to 4294967295");
	FAILS(CL ND "[groups]\n4294967296 = dynamic\n", "group id too large",
	      "t.conf:6:", "1 to 4294967295");
	FAILS(CL ND "[groups]\n5 = static\n", "static without members",
	      "t.conf:6: group 5: static needs at least one member");
	FAILS(CL ND "[groups]\n5 = dynamic 0,0\n", "dynamic with members",
	      "t.conf:6: group 5: dynamic takes no members");
	FAILS(CL ND "[groups]\n5 = fixed 0,0\n", "neither static nor dynamic",
	      "t.conf:6: group 5: \"fixed\": expected static COORD ... or dynamic");
	FAILS(CL ND "[groups]\n5 = static 0,9\n", "member outside the torus",
	      "t.conf:6: group 5: coordinate \"0,9\" out of range");
	FAILS("[groups]\n5 = static 0,0\n" CL ND, "static group before topology",
	      "t.conf:2: group 5: the topology is not known yet");
	FAILS("[groups]\n5 = dynamic\n" CL, "dynamic before topology is fine; no nodes",
	      "t.conf: no nodes");
}

static void test_cross_errors(void)
{
	FAILS(CL "port = 7447\ncontrol_port = 7447\n" ND, "control_port = port",
	      "t.conf:4: control_port 7447 is the data port too: they must differ");
	FAILS(CL "control_port = 7447\n" ND, "control_port = default port",
	      "t.conf:3: control_port 7447");
	FAILS(CL "port = 65535\n" ND, "no room for the default control_port",
	      "t.conf:3:", "set control_port");
	FAILS(CL "suspect = 1s\nheartbeat = 1s\n" ND, "suspect = heartbeat",
	      "t.conf:4: suspect 1s must be longer than heartbeat 1s");
	FAILS("[cluster]\nalgorithm = s-torus\ntopology = torus:4x4:bi\n" ND,
	      "path-based algorithm on a bidirectional torus",
	      "t.conf:3: algorithm s-torus cannot run on torus:4x4:bi",
	      "unidirectional");
	FAILS("[cluster]\ntopology = torus:4x2\nalgorithm = md-torus\n" ND,
	      "path-based algorithm on unequal radices",
	      "t.conf:3: algorithm md-torus cannot run on torus:4x2",
	      "equal radices");
	FAILS("[cluster]\ntopology = torus:4x4\nalgorithm = maxport\n" ND,
	      "a hypercube's algorithm on a 4x4 torus",
	      "t.conf:3: algorithm maxport cannot run on torus:4x4",
	      "hypercube");
	FAILS("[cluster]\ntopology = torus:4x4\nalgorithm = ring\n" ND,
	      "ring on a 4x4 torus",
	      "t.conf:3: algorithm ring cannot run on torus:4x4", "hypercube");
	FAILS("[cluster]\nalgorithm = rb\ntopology = torus:6x6:bi\n" ND,
	      "rb on sides that are no powers of two",
	      "t.conf:3: algorithm rb cannot run on torus:6x6:bi",
	      "power of two");
	FAILS("[cluster]\ntopology = torus:128x2:bi\nalgorithm = rb\n" ND,
	      "rb on a side 64 times the other",
	      "t.conf:3: algorithm rb cannot run on torus:128x2:bi",
	      "more than 32 times");
	FAILS("[cluster]\ntopology = torus:4x4x2:bi\nalgorithm = rb\n"
	      "[nodes]\n0,0,0 = 10.0.0.1\n",
	      "rb on unequal sides in 3D",
	      "t.conf:3: algorithm rb cannot run on torus:4x4x2:bi",
	      "unequal sides only in 2D");
	FAILS("[cluster]\ntopology = torus:16:bi\nalgorithm = rb\n"
	      "[nodes]\n0 = 10.0.0.1\n",
	      "rb on a ring (one dimension)",
	      "t.conf:3: algorithm rb cannot run on torus:16:bi",
	      "two dimensions");
	FAILS("[cluster]\ntopology = torus:8x4:bi\nalgorithm = rb-all-port\n"
	      "[nodes]\n0,0 = 10.0.0.1\n",
	      "rb-all-port on unequal sides",
	      "t.conf:3: algorithm rb-all-port cannot run on torus:8x4:bi",
	      "all-port only with equal sides");
	FAILS("[cluster]\ntopology = torus:4x4:bi\nalgorithm = rb:4\n" ND,
	      "rb takes no parameter",
	      "t.conf:3: algorithm \"rb:4\": expected auto,", "rb-all-port");
}

/* cube:N and the hypercube's algorithms (mcast.ko's, by name). */
static void test_cube(void)
{
	static const char *const names[] = { "u-cube", "maxport", "combine",
					     "w-sort", "ring", "binomial" };
	char text[256], err[MCD_CONF_ERR_MAX] = "";
	struct mcd_conf c;
	unsigned int i;
	int rc;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(text, sizeof(text),
			 "[cluster]\ntopology = cube:3\nalgorithm = %s\n"
			 "[nodes]\n0,0,0 = 10.77.0.1\n", names[i]);
		rc = mcd_conf_parse(text, "t.conf", &c, err);
		ok(!rc && !strcmp(c.algorithm, names[i]) &&
		   c.algo == (i < 4 ? MC_ALGO_CUBE : i == 4 ? MC_ALGO_RING :
			      MC_ALGO_BINOMIAL) &&
		   c.algo_r == (i < 4 ? i : 0) && c.torus.n == 3 &&
		   c.torus.k[2] == 2,
		   "cube:3 with algorithm %s: %s", names[i], rc ? err : "parsed");
		if (!rc)
			mcd_conf_free(&c);
	}
}

/*
 * rb and rb-all-port (mcast.ko's recursion-based broadcast, by name): no
 * enum mc_algo of their own, U-torus for the sends not to every node.
 */
static void test_rb(void)
{
	static const struct {
		const char *topo, *algo, *node;
		enum mc_rb_ports ports;
	} cases[] = {
		{ "torus:4x4:bi", "rb", "0,0", MC_RB_ONE_PORT },
		{ "torus:4x4:bi", "rb-all-port", "0,0", MC_RB_ALL_PORT },
		{ "torus:4x4", "rb", "0,0", MC_RB_ONE_PORT },
		{ "torus:16x4:bi", "rb", "0,0", MC_RB_ONE_PORT },
		{ "torus:8x4:bi", "rb", "0,0", MC_RB_ONE_PORT },
		{ "torus:4x4x4:bi", "rb-all-port", "0,0,0", MC_RB_ALL_PORT },
		{ "cube:3", "rb", "0,0,0", MC_RB_ONE_PORT },
	};
	char text[256], err[MCD_CONF_ERR_MAX] = "";
	struct mcd_conf c;
	unsigned int i;
	int rc;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text),
			 "[cluster]\ntopology = %s\nalgorithm = %s\n"
			 "[nodes]\n%s = 10.77.0.1\n", cases[i].topo,
			 cases[i].algo, cases[i].node);
		rc = mcd_conf_parse(text, "t.conf", &c, err);
		ok(!rc && !strcmp(c.algorithm, cases[i].algo) && c.rb &&
		   c.rb_ports == cases[i].ports && c.algo == MC_ALGO_UTORUS &&
		   !c.algo_r,
		   "%s with algorithm %s: %s", cases[i].topo, cases[i].algo,
		   rc ? err : "parsed");
		if (!rc)
			mcd_conf_free(&c);
	}
	rc = mcd_conf_parse("[cluster]\ntopology = torus:4x4:bi\n"
			    "algorithm = u-torus\n[nodes]\n0,0 = 10.77.0.1\n",
			    "t.conf", &c, err);
	ok(!rc && !c.rb, "algorithm u-torus is no rb: %s", rc ? err : "parsed");
	if (!rc)
		mcd_conf_free(&c);
}

static void test_text_errors(void)
{
	static const char nul[] = "[cluster]\ntopo\0logy = torus:4x4\n";
	struct mcd_conf c;
	char err[MCD_CONF_ERR_MAX] = "", *big;
	int rc;

	rc = mcd_conf_parse_mem(nul, sizeof(nul) - 1, "t.conf", &c, err);
	ok(rc == -1 && !strcmp(err, "t.conf:2: NUL byte in column 5: not a text file?"),
	   "NUL byte: %s", err);
	FAILS(CL "port = 7\b447\n", "control character", "t.conf:3:",
	      "control character 0x08 in column 9");
	FAILS(CL "port = 7447\r8\n", "a CR inside a line", "t.conf:3:",
	      "control character 0x0d");
	FAILS("[cluster]\ntopology = torus:4\xc3\x97" "4\n", "Unicode in a value",
	      "t.conf:2: topology \"torus:4\xc3\x97" "4\"");
	FAILS("[cl\xff\xfe" "ster]\n", "garbage in a section name",
	      "t.conf:1: unknown section");
	FAILS(CL "\xe2\x80\x8bport = 1\n", "zero-width space before a key",
	      "t.conf:3: unknown key");

	/* 1023 characters pass; 1024 do not */
	big = xmalloc(2048 + sizeof(CL ND));
	strcpy(big, CL ND "#");
	memset(big + strlen(big), 'x', 1022);
	strcpy(big + strlen(CL ND) + 1023, "\n");
	rc = mcd_conf_parse(big, "t.conf", &c, err);
	is_int(rc, 0, "a line of 1023 characters");
	mcd_conf_free(&c);
	strcpy(big + strlen(CL ND) + 1023, "x\n");
	fails_exactly(big, "t.conf:5: line longer than 1023 characters");
	strcpy(big + strlen(CL ND) + 1023, "\r\n");
	rc = mcd_conf_parse(big, "t.conf", &c, err);
	is_int(rc, 0, "its CR does not count");
	mcd_conf_free(&c);
	free(big);
}

static void test_lookups(void)
{
	struct mcd_conf c;
	char err[MCD_CONF_ERR_MAX] = "";
	struct in6_addr a;
	const struct mcd_conf_node *n;
	unsigned int i, bad = 0;

	if (mcd_conf_parse(good, "good.conf", &c, err)) {
		ok(0, "good config for lookups: %s", err);
		return;
	}
	for (i = 0; i < 16; i++) {
		n = mcd_conf_node(&c, i);
		bad += !n || n->id != i ||
		       mcd_conf_node_by_addr(&c, &n->addr) != n;
	}
	is_int(bad, 0, "mcd_conf_node and _by_addr find every node");
	ok(!mcd_conf_node(&c, 16) && !mcd_conf_node(&c, UINT32_MAX),
	   "mcd_conf_node: no such id");
	a = v4("10.77.0.7");
	n = mcd_conf_node_by_addr(&c, &a);
	ok(n && n->id == 6 && n->family == AF_INET, "10.77.0.7 is node 1,2");
	a = v6("fd00::1:fffe");
	n = mcd_conf_node_by_addr(&c, &a);
	ok(n && n->id == 14 && n->family == AF_INET6, "fd00::1:fffe is 3,2");
	a = v4("10.77.0.9");
	ok(!mcd_conf_node_by_addr(&c, &a), "10.77.0.9 is no node");
	a = v6("::a4d:1");	/* 10.77.0.1 as IPv4-compatible, not mapped */
	ok(!mcd_conf_node_by_addr(&c, &a), "only the v4-mapped form matches");
	mcd_conf_free(&c);
	ok(!mcd_conf_node(&c, 0) && !mcd_conf_node_by_addr(&c, &a),
	   "lookups in a freed conf find nothing");
}

/* 4096 nodes in 256 lines of ranges, on a 3-dimensional torus. */
static void test_many(void)
{
	char *text = xmalloc(256 * 40 + 128), err[MCD_CONF_ERR_MAX] = "";
	struct mcd_conf c;
	struct in6_addr a;
	size_t n;
	unsigned int x, y, bad = 0;
	int rc;

	n = sprintf(text, "[cluster]\ntopology = torus:16x16x16\n[nodes]\n");
	for (x = 16; x-- > 0;)
		for (y = 0; y < 16; y++)
			n += sprintf(text + n, "%u,%u,0-15 = 10.%u.%u.1-16\n",
				     x, y, x, y);
	rc = mcd_conf_parse(text, "many.conf", &c, err);
	is_int(rc, 0, "4096 nodes parse");
	if (rc) {
		diag("%s", err);
		free(text);
		return;
	}
	is_int(c.nnodes, 4096, "4096 nodes");
	for (x = 0; x < c.nnodes; x++) {
		const struct mcd_conf_node *nd = mcd_conf_node(&c, x);
		char want[32];

		snprintf(want, sizeof(want), "10.%u.%u.%u", x / 256,
			 x / 16 % 16, x % 16 + 1);
		a = v4(want);
		bad += !nd || nd->id != x || nd != &c.nodes[x] ||
		       memcmp(&nd->addr, &a, sizeof(a)) ||
		       mcd_conf_node_by_addr(&c, &a) != nd;
	}
	is_int(bad, 0, "node x,y,z is at 10.x.y.z+1, both ways");
	mcd_conf_free(&c);

	/* one more than mcastd can take */
	text[strlen("[cluster]\ntopology = torus:16x16x1")] = '7';
	strcat(text, "0,0,16 = 10.99.0.1\n");
	rc = mcd_conf_parse(text, "many.conf", &c, err);
	ok(rc == -1 && !strcmp(err, "many.conf:260: node 0,0,16: more than 4096 nodes (mcastd's limit)"),
	   "4097 nodes: %s", err);
	free(text);
}

static void test_load(void)
{
	char path[] = "/tmp/test_mcastd_conf.XXXXXX";
	char err[MCD_CONF_ERR_MAX] = "", want[MCD_CONF_ERR_MAX];
	struct mcd_conf c;
	int fd = mkstemp(path), rc;

	ok(fd >= 0, "temporary file");
	if (fd < 0)
		return;
	ok(write(fd, good, sizeof(good) - 1) == (ssize_t)sizeof(good) - 1,
	   "written");
	rc = mcd_conf_load(path, &c, err);
	is_int(rc, 0, "mcd_conf_load reads it");
	if (rc)
		diag("%s", err);
	ok(!strcmp(c.path, path) && c.nnodes == 16 && c.ngroups == 3,
	   "path, nodes and groups");
	mcd_conf_free(&c);

	/* a NUL that only a file can carry */
	ok(write(fd, "[nodes]\n\0\n", 10) == 10, "NUL appended");
	rc = mcd_conf_load(path, &c, err);
	snprintf(want, sizeof(want), "%s:27: NUL byte in column 1: not a text file?",
		 path);
	ok(rc == -1 && !strcmp(err, want), "NUL in a file: %s", err);
	close(fd);
	unlink(path);

	rc = mcd_conf_load(path, &c, err);
	snprintf(want, sizeof(want), "%s: No such file or directory", path);
	ok(rc == -1 && !strcmp(err, want) && zeroed(&c),
	   "missing file: %s", err);
	rc = mcd_conf_load("/", &c, err);
	ok(rc == -1 && !strcmp(err, "/: Is a directory"), "directory: %s", err);
}

/* The example installed as documentation stays valid (run from the top). */
static void test_example(void)
{
	static const char path[] = "daemon/mcastd.conf.example";
	char err[MCD_CONF_ERR_MAX] = "", want[32];
	struct mcd_conf c;
	unsigned int i, bad = 0;
	int rc;

	if (access(path, R_OK)) {
		ok(1, "# skip %s: not found from here", path);
		return;
	}
	rc = mcd_conf_load(path, &c, err);
	is_int(rc, 0, "%s parses", path);
	if (rc) {
		diag("%s", err);
		return;
	}
	for (i = 0; i < c.nnodes; i++) {
		struct in6_addr a;

		snprintf(want, sizeof(want), "10.77.0.%u", i + 1);
		a = v4(want);
		bad += c.nodes[i].id != i ||
		       memcmp(&c.nodes[i].addr, &a, sizeof(a));
	}
	ok(c.nnodes == 16 && !bad && c.torus.nodes == 16 &&
	   c.torus.links == MC_LINKS_UNI,
	   "example: 4x4 uni torus, node i at 10.77.0.i+1");
	mcd_conf_free(&c);
}

/* Pieces the fuzzer splices in: the parser's delimiters and edge values. */
static const char *const tokens[] = {
	"\n", "[", "]", "=", ",", "-", ":", ".", "#", ";", " ", "\t", "\r",
	"0", "1", "3", "4", "65535", "65536", "4294967296", "99999999999",
	"[cluster]\n", "[nodes]\n", "[groups]\n", "static", "dynamic",
	"torus:4x4", ":bi", "x", "ms", "s", "::", "ffff", "::ffff:",
	"10.77.0.", "fd00::", "(", ")", "\xc3\xa9", "\xff", "\0", "0,0-3",
	"= static 0,0 0,1\n", "port = 7448\n", "algorithm = mu-torus:2\n",
};

static size_t mutate(struct rng *r, char *buf, size_t len, size_t cap)
{
	size_t at = len ? rng_below(r, len) : 0, n;
	char piece[40];
	const char *tok;

	switch (rng_below(r, 5)) {
	case 0:			/* one byte, any value */
		if (len)
			buf[at] = rng_below(r, 256);
		break;
	case 1:			/* a token */
		tok = tokens[rng_below(r, sizeof(tokens) / sizeof(tokens[0]))];
		n = *tok ? strlen(tok) : 1;
		if (len + n > cap)
			break;
		memmove(buf + at + n, buf + at, len - at);
		memcpy(buf + at, tok, n);
		len += n;
		break;
	case 2:			/* cut a piece */
		n = rng_below(r, 16) + 1;
		if (at + n > len)
			n = len - at;
		memmove(buf + at, buf + at + n, len - at - n);
		len -= n;
		break;
	case 3:			/* copy a piece elsewhere */
		n = rng_below(r, sizeof(piece)) + 1;
		if (at + n > len || len + n > cap)
			break;
		memcpy(piece, buf + at, n);
		at = rng_below(r, len + 1);
		memmove(buf + at + n, buf + at, len - at);
		memcpy(buf + at, piece, n);
		len += n;
		break;
	default:		/* a digit for another */
		if (len && buf[at] >= '0' && buf[at] <= '9')
			buf[at] = '0' + rng_below(r, 10);
		break;
	}
	return len;
}

/* What a successful parse promises. */
static bool consistent(const struct mcd_conf *c)
{
	uint32_t i, j;

	if (!c->torus.nodes || !c->nnodes || c->nnodes > c->torus.nodes ||
	    !c->port || c->port == c->control_port ||
	    c->suspect_ms <= c->heartbeat_ms || !c->dead_ms || !c->sync_ms)
		return false;
	for (i = 0; i < c->nnodes; i++) {
		if (c->nodes[i].id >= c->torus.nodes ||
		    (i && c->nodes[i].id <= c->nodes[i - 1].id) ||
		    mcd_conf_node(c, c->nodes[i].id) != &c->nodes[i] ||
		    mcd_conf_node_by_addr(c, &c->nodes[i].addr) != &c->nodes[i])
			return false;
	}
	for (i = 0; i < c->ngroups; i++) {
		const struct mcd_conf_group *g = &c->groups[i];

		if (!g->id || (i && g->id <= c->groups[i - 1].id) ||
		    g->fixed != !!g->n)
			return false;
		for (j = 0; j < g->n; j++) {
			if (!mcd_conf_node(c, g->members[j]) ||
			    (j && g->members[j] <= g->members[j - 1]))
				return false;
		}
	}
	return true;
}

static void test_fuzz(void)
{
	enum { ROUNDS = 4000, CAP = 8192 };
	struct rng r = { 0x6d636173746463ull };
	char *buf = xmalloc(CAP), err[MCD_CONF_ERR_MAX];
	unsigned int i, k, passed = 0, bad_err = 0, bad_conf = 0;
	struct mcd_conf c;

	for (i = 0; i < ROUNDS; i++) {
		size_t len = sizeof(good) - 1;
		unsigned int muts = 1 + rng_below(&r, i % 4 ? 3 : 12);

		memcpy(buf, good, len);
		for (k = 0; k < muts; k++)
			len = mutate(&r, buf, len, CAP);
		memset(err, 0x55, sizeof(err));
		if (!mcd_conf_parse_mem(buf, len, "fuzz.conf", &c, err)) {
			passed++;
			bad_conf += !consistent(&c);
			mcd_conf_free(&c);
			continue;
		}
		/* one line, NUL-ended, naming the file */
		if (!memchr(err, '\0', sizeof(err)) ||
		    strncmp(err, "fuzz.conf:", 10) || strchr(err, '\n') ||
		    !zeroed(&c)) {
			if (!bad_err++)
				diag("round %u: bad error \"%.100s\"", i, err);
		}
	}
	diag("fuzz: %u of %u mutated configs still parse", passed, ROUNDS);
	is_int(bad_err, 0, "every failure is one line naming the file, conf freed");
	is_int(bad_conf, 0, "every success is consistent");
	ok(passed > 0 && passed < ROUNDS, "the fuzzer hits both outcomes");
	free(buf);
}

/*
 * topology = switch:FILE: the hosts' ranks from the topology file (found
 * from this file's path), host ids as the nodes' coordinates.
 */
static void test_switch(void)
{
	const char *me = __FILE__, *end = strstr(me, "tests/unit/");
	char text[1024], err[MCD_CONF_ERR_MAX];
	struct mcd_conf c;
	int rc;

	snprintf(text, sizeof(text),
		 "[cluster]\ntopology = switch:%.*sdocs/topologies/fat-tree-16-rr.topo\n"
		 "[nodes]\n0-15 = 10.77.0.1-16\n[groups]\n7 = static 1 4 2\n",
		 end ? (int)(end - me) : 0, me);
	rc = mcd_conf_parse(text, "sw.conf", &c, err);
	ok(!rc && c.torus.nodes == 16 && c.torus.rank && c.nnodes == 16 &&
	   c.torus.unrank[1] == 4 && c.ngroups == 1,
	   "topology = switch:FILE: 16 hosts ordered by rank (host 4 second) (%s)",
	   rc ? err : "ok");
	if (!rc)
		mcd_conf_free(&c);
	rc = mcd_conf_parse("[cluster]\ntopology = switch:/nonexistent.topo\n",
			    "sw.conf", &c, err);
	ok(rc && strstr(err, "sw.conf:2: /nonexistent.topo: No such file"),
	   "a missing topology file: %s", err);
}

int main(void)
{
	test_good();
	test_switch();
	test_defaults();
	test_syntax_errors();
	test_cluster_errors();
	test_node_errors();
	test_group_errors();
	test_cross_errors();
	test_cube();
	test_rb();
	test_text_errors();
	test_lookups();
	test_many();
	test_load();
	test_example();
	test_fuzz();
	return done_testing();
}
