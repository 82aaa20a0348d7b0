// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Switched-cluster topology files (utils/lib/switchfile.h): a file with
 * comments, blank lines, tabs and CRLF read back; each error kind with its
 * exact message, file and line; the limits; a file that cannot be opened;
 * the example topologies of docs/topologies parse, number their vertices
 * as their comments say, and plan broadcasts that pass the checkers.
 */
#include <string.h>

#include "tap.h"
#include "parse.h"
#include "switchfile.h"

static int parse_str(struct switchfile *f, const char *text, char *err)
{
	err[0] = '\0';
	return switchfile_parse(f, "t.topo", text, strlen(text), err);
}

/* @text must fail with exactly @want. */
static void bad(const char *text, const char *want, const char *what)
{
	char err[PARSE_ERR_MAX];
	struct switchfile f;
	int rc = parse_str(&f, text, err);

	ok(rc < 0 && !strcmp(err, want) && f.name == NULL, "%s: %s", what,
	   want);
	if (rc >= 0 || strcmp(err, want))
		diag("rc %d, got: %s", rc, err);
	switchfile_free(&f);
}

static void test_good(void)
{
	static const char text[] =
		"# a comment line\n"
		"\n"
		"   \t\n"
		"link\tA  b-2.x # a comment after a statement\r\n"
		"link b-2.x C\r\n"
		"link A b-2.x   # parallel\n"
		"host 1 C\n"
		"host 0 A#no space before the comment\n"
		"  host 2\tb-2.x\n"
		"root C";		/* no newline at the end */
	char err[PARSE_ERR_MAX], buf[32];
	struct switchfile f;
	int rc = parse_str(&f, text, err);

	ok(rc == 0, "good file parses (%s)", rc ? err : "-");
	if (rc)
		return;
	ok(f.g.nswitches == 3 && f.g.nhosts == 3 && f.g.nlinks == 3,
	   "good file: 3 switches, 3 hosts, 3 links (got %u, %u, %u)",
	   f.g.nswitches, f.g.nhosts, f.g.nlinks);
	ok(!strcmp(f.name[0], "A") && !strcmp(f.name[1], "b-2.x") &&
	   !strcmp(f.name[2], "C") && f.line[0] == 4 && f.line[2] == 5,
	   "good file: switches numbered by first appearance, with their lines");
	ok(f.link[0].a == 0 && f.link[0].b == 1 && f.link[1].a == 1 &&
	   f.link[1].b == 2 && f.link[2].a == 0 && f.link[2].b == 1,
	   "good file: links in file order, the parallel one kept");
	ok(f.host_switch[0] == 0 && f.host_switch[1] == 2 &&
	   f.host_switch[2] == 1, "good file: hosts on their switches");
	ok(f.g.root == 2 && f.g.nverts == 6 && f.g.id[2] == 6,
	   "good file: root C, postorder ID 6 of 6");
	ok(mc_sw_edge_is_tree(&f.g, 0) && !mc_sw_edge_is_tree(&f.g, 2),
	   "good file: the first of the parallel links is the tree edge");
	ok(switchfile_find(&f, "b-2.x") == 1 && switchfile_find(&f, "B") == MC_NO_NODE,
	   "switchfile_find: by exact name");
	ok(!strcmp(switchfile_vertex_name(&f, 1, buf, sizeof(buf)), "b-2.x") &&
	   !strcmp(switchfile_vertex_name(&f, 3 + 2, buf, sizeof(buf)), "2"),
	   "switchfile_vertex_name: switches by name, hosts by node id");
	switchfile_free(&f);
}

static char *repeat_lines(u32 n, const char *fmt, u32 extra_hosts)
{
	size_t cap = (size_t)n * 40 + 64, o = 0;
	char *s = xmalloc(cap);
	u32 i;

	for (i = 0; i < n; i++)
		o += snprintf(s + o, cap - o, fmt, i, i + 1);
	if (extra_hosts)
		o += snprintf(s + o, cap - o, "host 0 s0\n");
	s[o] = '\0';
	return s;
}

static void test_errors(void)
{
	char *s, want[PARSE_ERR_MAX];

	bad("link a b\nswtich a b\n",
	    "t.topo:2: unknown keyword \"swtich\" (link, host or root)",
	    "unknown keyword");
	bad("LINK a b\n", "t.topo:1: unknown keyword \"LINK\" (link, host or root)",
	    "keywords are lower case");
	bad("link a\n", "t.topo:1: link needs two switch names (link A B)",
	    "link with one switch");
	bad("\nlink\n", "t.topo:2: link needs two switch names (link A B)",
	    "link with none");
	bad("host\n", "t.topo:1: host needs a node id and a switch (host N SWITCH)",
	    "host without arguments");
	bad("host 3 # a\n", "t.topo:1: host 3: missing the switch (host N SWITCH)",
	    "host without its switch");
	bad("link a b\nroot\n", "t.topo:2: root needs a switch name (root SWITCH)",
	    "root without a switch");
	bad("link a b c\n", "t.topo:1: unexpected \"c\" after link A B",
	    "trailing word after a link");
	bad("host 0 a b\n", "t.topo:1: unexpected \"b\" after host N SWITCH",
	    "trailing word after a host");
	bad("root a b\n", "t.topo:1: unexpected \"b\" after root SWITCH",
	    "trailing word after root");
	bad("link a b;\n",
	    "t.topo:1: unexpected character ';' (names are letters, digits, '_', '.', '-')",
	    "trailing punctuation");
	bad("link a/b c\n",
	    "t.topo:1: unexpected character '/' (names are letters, digits, '_', '.', '-')",
	    "a character no name has");
	bad("link a\x01 b\n", "t.topo:1: unexpected byte 0x01", "a control byte");
	bad("link a a\n", "t.topo:1: link \"a\" to itself: a link joins two switches",
	    "a self-loop");
	bad("link a b\nhost 0 a\nhost 1 b\n\nhost 0 b\n",
	    "t.topo:5: host 0 is attached twice (line 2)", "a host attached twice");
	bad("link a b\nhost 0 a\nhost 0 a\n",
	    "t.topo:3: host 0 is attached twice (line 2)",
	    "a host line repeated");
	bad("host x a\n", "t.topo:1: host \"x\": a node id is a number 0, 1, 2, ...",
	    "a node id that is not a number");
	bad("host -1 a\n", "t.topo:1: host \"-1\": a node id is a number 0, 1, 2, ...",
	    "a negative node id");
	bad("host 4096 a\n", "t.topo:1: host 4096: node ids must be below 4096",
	    "node id at the limit");
	bad("host 123456789012345678901 a\n",
	    "t.topo:1: host 123456789012345678901: node ids must be below 4096",
	    "a node id of 21 digits");
	bad("root a\nlink a b\nhost 0 a\nroot b\n",
	    "t.topo:4: root is given twice (line 1)", "root given twice");
	bad("link a b\nhost 0 a\nroot c\n",
	    "t.topo:3: root \"c\" is not a switch: no link or host line names it",
	    "root that names no switch");
	bad("link a b\nhost 0 a\nhost 3 b\nhost 1 a\n",
	    "t.topo:3: host 3: node ids must run 0..3 without a gap, and 2 is missing",
	    "node ids with a gap");
	bad("link a b\nhost 1 a\n",
	    "t.topo:2: host 1: node ids must run 0..1 without a gap, and 0 is missing",
	    "node ids not from 0");
	bad("link a b\nlink c d\nhost 0 a\nhost 1 c\n",
	    "t.topo:2: switch \"c\" is not connected to switch \"a\": no chain of links joins them",
	    "two components");
	bad("link a b\nlink c d\nhost 0 a\nhost 1 c\nroot d\n",
	    "t.topo:1: switch \"a\" is not connected to switch \"d\": no chain of links joins them",
	    "two components, from the root");
	bad("link a b\nhost 0 a\nhost 1 z\n",
	    "t.topo:3: switch \"z\" is not connected to switch \"a\": no chain of links joins them",
	    "a switch with hosts and no link");
	bad("link a b\n", "t.topo: no host line: a cluster needs hosts (host N SWITCH)",
	    "no host");
	bad("# nothing\n\n", "t.topo: no link or host line: nothing to build",
	    "nothing but comments");
	bad("", "t.topo: no link or host line: nothing to build", "an empty file");
	bad("a_keyword_far_too_long_to_quote_in_full_0123456789012345678901234567890123456789\n",
	    "t.topo:1: unknown keyword \"a_keyword_far_too_long_to_quote_in_full_012345678901234567890123...\" (link, host or root)",
	    "a long word is cut in the message");
	/* limits */
	s = repeat_lines(MC_SW_MAX_SWITCHES, "link s%u s%u\n", 1);
	snprintf(want, sizeof(want), "t.topo:%u: switch \"s%u\": more than %u switches",
		 MC_SW_MAX_SWITCHES, MC_SW_MAX_SWITCHES, MC_SW_MAX_SWITCHES);
	bad(s, want, "more than 1024 switches");
	free(s);
	s = repeat_lines(MC_SW_MAX_LINKS + 1, "link a b # %u %u\n", 0);
	snprintf(want, sizeof(want), "t.topo:%u: more than %u links",
		 MC_SW_MAX_LINKS + 1, MC_SW_MAX_LINKS);
	bad(s, want, "more than 8192 links");
	free(s);
}

static void test_limits_ok(void)
{
	char *s = repeat_lines(MC_SW_MAX_SWITCHES - 1, "link s%u s%u\n", 1);
	char err[PARSE_ERR_MAX];
	struct switchfile f;
	int rc = parse_str(&f, s, err);

	ok(rc == 0 && f.g.nswitches == MC_SW_MAX_SWITCHES &&
	   f.g.root == switchfile_find(&f, "s511") &&
	   f.g.height == MC_SW_MAX_SWITCHES / 2,
	   "1024 switches in a line: parses, the root is the center s511, height 512 (%s)",
	   rc ? err : "-");
	switchfile_free(&f);
	free(s);
}

static void test_load_errors(void)
{
	char err[PARSE_ERR_MAX];
	struct switchfile f;
	int rc = switchfile_load(&f, "/nonexistent/cluster.topo", err);

	ok(rc == -ENOENT &&
	   !strcmp(err, "/nonexistent/cluster.topo: No such file or directory"),
	   "a missing file: -ENOENT and its name (%s)", err);
	switchfile_free(&f);
}

/* docs/topologies, found from this file's path (make: relative to top). */
static const char *doc(const char *name)
{
	static char buf[512];
	const char *me = __FILE__, *end = strstr(me, "tests/unit/");

	snprintf(buf, sizeof(buf), "%.*sdocs/topologies/%s",
		 end ? (int)(end - me) : 0, me, name);
	return buf;
}

/* Broadcast from every host under every policy: all checkers pass. */
static bool broadcasts_pass(const struct mc_sw_graph *g)
{
	u32 h = g->nhosts, src, i, n, p;
	u32 *dst = xcalloc(h, sizeof(u32));
	struct mc_sw_schedule s;
	struct mc_sw_check_result res;
	bool good = true;
	u32 *ws;

	memset(&s, 0, sizeof(s));
	s.order = xcalloc(h, sizeof(u32));
	s.send = xcalloc(h, sizeof(*s.send));
	s.route_cap = (u32)mc_sw_route_words(g, h);
	s.route = xcalloc(s.route_cap, sizeof(u32));
	s.g = g;
	for (src = 0; src < h; src++) {
		for (p = 0; p < 3; p++) {
			for (i = 0, n = 0; i < h; i++)
				if (i != src)
					dst[n++] = g->nswitches + i;
			if (mc_sw_plan(&s, g, p, g->nswitches + src, dst, n, NULL))
				return false;
			ws = xcalloc(mc_sw_check_ws_words(&s), sizeof(u32));
			good &= !mc_sw_check_cover(&s, ws, &res) &&
				!mc_sw_check_routes(&s, &res) &&
				!mc_sw_check_contention(&s, ws, &res);
			free(ws);
		}
	}
	free(s.order);
	free(s.send);
	free(s.route);
	free(dst);
	return good;
}

static void test_docs(void)
{
	static const u32 fig1_id[8] = { 8, 2, 3, 7, 5, 1, 4, 6 };
	char err[PARSE_ERR_MAX];
	struct switchfile f;
	u32 v, badid = 0;
	int rc;

	rc = switchfile_load(&f, doc("fat-tree-16.topo"), err);
	ok(rc == 0, "docs/topologies/fat-tree-16.topo parses (%s)", rc ? err : "-");
	if (!rc) {
		ok(f.g.nswitches == 6 && f.g.nhosts == 16 && f.g.nlinks == 8 &&
		   f.g.root == switchfile_find(&f, "spine0") && f.g.height == 2,
		   "fat tree: 6 switches, 16 hosts, 8 links, root spine0, height 2");
		ok(f.g.parent[switchfile_find(&f, "leaf3")] == switchfile_find(&f, "spine0") &&
		   f.g.parent[switchfile_find(&f, "spine1")] == switchfile_find(&f, "leaf0"),
		   "fat tree: leaves hang off spine0, spine1 off leaf0");
		ok(broadcasts_pass(&f.g), "fat tree: broadcast from every host, every policy, passes the checkers");
	}
	switchfile_free(&f);
	rc = switchfile_load(&f, doc("paper-fig1.topo"), err);
	ok(rc == 0, "docs/topologies/paper-fig1.topo parses (%s)", rc ? err : "-");
	if (!rc) {
		/* switches v8 v2 v3 v7 v5 in order of appearance, then hosts */
		for (v = 0; v < 8; v++)
			badid += f.g.id[v] != fig1_id[v];
		ok(badid == 0 && !strcmp(f.name[0], "v8") && !strcmp(f.name[4], "v5"),
		   "paper Fig 1: every vertex gets the paper's postorder ID");
		ok(broadcasts_pass(&f.g), "paper Fig 1: broadcast from every host passes the checkers");
	}
	switchfile_free(&f);
	rc = switchfile_load(&f, doc("ring-6.topo"), err);
	ok(rc == 0, "docs/topologies/ring-6.topo parses (%s)", rc ? err : "-");
	if (!rc) {
		u32 e, tree = 0;

		for (e = 0; e < f.g.nlinks; e++)
			tree |= mc_sw_edge_is_tree(&f.g, e) << e;
		ok(f.g.nswitches == 6 && f.g.nhosts == 12 && f.g.nlinks == 8 &&
		   f.g.root == switchfile_find(&f, "s0") && tree == 0x6b,
		   "ring: 6 switches, 12 hosts, 8 links, root s0 by default; tree s0-s1 s1-s2 s3-s4 s5-s0 s0-s3 (links %#x)",
		   tree);
		ok(broadcasts_pass(&f.g), "ring: broadcast from every host passes the checkers");
	}
	switchfile_free(&f);
}

int main(void)
{
	test_good();
	test_errors();
	test_limits_ok();
	test_load_errors();
	test_docs();
	return done_testing();
}
