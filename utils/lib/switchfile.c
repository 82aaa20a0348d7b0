// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Switched-cluster topology files (see switchfile.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "switchfile.h"

#define NONE		MC_NO_NODE
#define HASH_SIZE	4096	/* a power of two, over 2 * MC_SW_MAX_SWITCHES */
#define MAX_TOKENS	4	/* a keyword, two arguments, one too many */
#define QUOTE_TOK_MAX	80	/* longer tokens are cut in messages */

struct tok {
	const char *s;
	size_t len;
};

struct pstate {
	struct switchfile *f;
	const char *file;
	char *err;
	u32 ns, nl;
	u32 *host_line;		/* node id -> its host line, 0 if none */
	u32 top;		/* highest node id + 1 */
	u32 top_line;
	char *root;		/* the root line's switch name */
	u32 root_line;
	u32 hash[HASH_SIZE];	/* switch + 1, 0 for an empty slot */
};

static int perr(struct pstate *st, u32 line, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* "FILE:LINE: ..." (or "FILE: ..." for line 0); returns @rc. */
static int perr(struct pstate *st, u32 line, int rc, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = line ? snprintf(st->err, PARSE_ERR_MAX, "%s:%u: ", st->file, line) :
		   snprintf(st->err, PARSE_ERR_MAX, "%s: ", st->file);
	if (n < 0 || n >= PARSE_ERR_MAX)
		return rc;
	va_start(ap, fmt);
	vsnprintf(st->err + n, PARSE_ERR_MAX - n, fmt, ap);
	va_end(ap);
	return rc;
}

/* A token quoted for a message: cut short, printable. */
static const char *quote(const struct tok *t, char *buf, size_t size)
{
	char tmp[QUOTE_TOK_MAX + 1];
	size_t n = t->len < QUOTE_TOK_MAX ? t->len : QUOTE_TOK_MAX;

	memcpy(tmp, t->s, n);
	tmp[n] = '\0';
	return printable(tmp, buf, size);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_name(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

static bool tok_is(const struct tok *t, const char *word)
{
	return t->len == strlen(word) && !memcmp(t->s, word, t->len);
}

/*
 * Split [p, end) into words, up to a '#'.  Returns how many (the first
 * MAX_TOKENS kept in @t), or -1 with *@bad at a character that is neither
 * space nor part of a name.
 */
static int tokenize(const char *p, const char *end, struct tok *t,
		    const char **bad)
{
	int n = 0;

	while (p < end && *p != '#') {
		const char *s = p;

		if (is_space(*p)) {
			p++;
			continue;
		}
		if (!is_name(*p)) {
			*bad = p;
			return -1;
		}
		while (p < end && is_name(*p))
			p++;
		if (n < MAX_TOKENS)
			t[n] = (struct tok){ s, (size_t)(p - s) };
		n++;
	}
	return n;
}

static u32 hash_tok(const struct tok *t)
{
	u32 h = 2166136261u;
	size_t i;

	for (i = 0; i < t->len; i++)
		h = (h ^ (unsigned char)t->s[i]) * 16777619u;
	return h;
}

/* The hash slot of @t: its switch's, or the empty one it would take. */
static u32 *slot(struct pstate *st, const struct tok *t)
{
	u32 i = hash_tok(t) & (HASH_SIZE - 1), *e;

	for (;; i = (i + 1) & (HASH_SIZE - 1)) {
		e = &st->hash[i];
		if (!*e || (strlen(st->f->name[*e - 1]) == t->len &&
			    !memcmp(st->f->name[*e - 1], t->s, t->len)))
			return e;
	}
}

/* The switch named @t into *@sw, added if new. */
static int get_switch(struct pstate *st, const struct tok *t, u32 line,
		      u32 *sw)
{
	u32 *e = slot(st, t);
	char q[72];

	if (!*e) {
		if (st->ns == MC_SW_MAX_SWITCHES)
			return perr(st, line, -E2BIG, "switch \"%s\": more than %u switches",
				    quote(t, q, sizeof(q)), MC_SW_MAX_SWITCHES);
		st->f->name[st->ns] = strndup(t->s, t->len);
		if (!st->f->name[st->ns])
			return perr(st, line, -ENOMEM, "out of memory");
		st->f->line[st->ns] = line;
		*e = ++st->ns;
	}
	*sw = *e - 1;
	return 0;
}

static int extra(struct pstate *st, u32 line, const struct tok *t,
		 const char *what)
{
	char q[72];

	return perr(st, line, -EINVAL, "unexpected \"%s\" after %s",
		    quote(t, q, sizeof(q)), what);
}

static int do_link(struct pstate *st, const struct tok *t, int n, u32 line)
{
	char q[72];
	u32 a, b;
	int rc;

	if (n < 3)
		return perr(st, line, -EINVAL, "link needs two switch names (link A B)");
	if (n > 3)
		return extra(st, line, &t[3], "link A B");
	if (t[1].len == t[2].len && !memcmp(t[1].s, t[2].s, t[1].len))
		return perr(st, line, -EINVAL, "link \"%s\" to itself: a link joins two switches",
			    quote(&t[1], q, sizeof(q)));
	if (st->nl == MC_SW_MAX_LINKS)
		return perr(st, line, -E2BIG, "more than %u links",
			    MC_SW_MAX_LINKS);
	rc = get_switch(st, &t[1], line, &a);
	if (!rc)
		rc = get_switch(st, &t[2], line, &b);
	if (!rc)
		st->f->link[st->nl++] = (struct mc_sw_link){ a, b };
	return rc;
}

static int do_host(struct pstate *st, const struct tok *t, int n, u32 line)
{
	char q[72], num[12];
	u32 id, sw;
	int e = -EINVAL;
	size_t i;

	if (n < 2)
		return perr(st, line, -EINVAL, "host needs a node id and a switch (host N SWITCH)");
	if (t[1].len < sizeof(num)) {
		memcpy(num, t[1].s, t[1].len);
		num[t[1].len] = '\0';
		e = parse_u32(num, MC_SW_MAX_HOSTS - 1, &id);
	} else {
		for (i = 0; i < t[1].len && t[1].s[i] >= '0' && t[1].s[i] <= '9';)
			i++;
		if (i == t[1].len)
			e = -ERANGE;
	}
	if (e == -ERANGE)
		return perr(st, line, -E2BIG, "host %s: node ids must be below %u",
			    quote(&t[1], q, sizeof(q)), MC_SW_MAX_HOSTS);
	if (e)
		return perr(st, line, -EINVAL, "host \"%s\": a node id is a number 0, 1, 2, ...",
			    quote(&t[1], q, sizeof(q)));
	if (n < 3)
		return perr(st, line, -EINVAL, "host %u: missing the switch (host N SWITCH)",
			    id);
	if (n > 3)
		return extra(st, line, &t[3], "host N SWITCH");
	if (st->host_line[id])
		return perr(st, line, -EINVAL, "host %u is attached twice (line %u)",
			    id, st->host_line[id]);
	e = get_switch(st, &t[2], line, &sw);
	if (e)
		return e;
	st->f->host_switch[id] = sw;
	st->host_line[id] = line;
	if (id + 1 > st->top) {
		st->top = id + 1;
		st->top_line = line;
	}
	return 0;
}

static int do_root(struct pstate *st, const struct tok *t, int n, u32 line)
{
	if (n < 2)
		return perr(st, line, -EINVAL, "root needs a switch name (root SWITCH)");
	if (n > 2)
		return extra(st, line, &t[2], "root SWITCH");
	if (st->root)
		return perr(st, line, -EINVAL, "root is given twice (line %u)",
			    st->root_line);
	st->root = strndup(t[1].s, t[1].len);
	if (!st->root)
		return perr(st, line, -ENOMEM, "out of memory");
	st->root_line = line;
	return 0;
}

static int parse_line(struct pstate *st, const char *p, const char *end,
		      u32 line)
{
	struct tok t[MAX_TOKENS];
	const char *bad = NULL;
	int n = tokenize(p, end, t, &bad);
	char q[72];

	if (n < 0) {
		unsigned char c = *bad;

		if (c > 0x20 && c < 0x7f)
			return perr(st, line, -EINVAL, "unexpected character '%c' (names are letters, digits, '_', '.', '-')",
				    c);
		return perr(st, line, -EINVAL, "unexpected byte 0x%02x", c);
	}
	if (n == 0)
		return 0;
	if (tok_is(&t[0], "link"))
		return do_link(st, t, n, line);
	if (tok_is(&t[0], "host"))
		return do_host(st, t, n, line);
	if (tok_is(&t[0], "root"))
		return do_root(st, t, n, line);
	return perr(st, line, -EINVAL, "unknown keyword \"%s\" (link, host or root)",
		    quote(&t[0], q, sizeof(q)));
}

/* What a file must have besides good lines: hosts 0..H-1, a real root. */
static int check_whole(struct pstate *st, u32 *root)
{
	struct tok t;
	u32 id, *e;
	char q[72];

	if (st->ns == 0)
		return perr(st, 0, -EINVAL, "no link or host line: nothing to build");
	if (st->top == 0)
		return perr(st, 0, -EINVAL, "no host line: a cluster needs hosts (host N SWITCH)");
	for (id = 0; id < st->top; id++)
		if (!st->host_line[id])
			return perr(st, st->top_line, -EINVAL,
				    "host %u: node ids must run 0..%u without a gap, and %u is missing",
				    st->top - 1, st->top - 1, id);
	*root = MC_SW_ROOT_CENTER;
	if (!st->root)
		return 0;
	t.s = st->root;
	t.len = strlen(st->root);
	e = slot(st, &t);
	if (!*e)
		return perr(st, st->root_line, -EINVAL,
			    "root \"%s\" is not a switch: no link or host line names it",
			    quote(&t, q, sizeof(q)));
	*root = *e - 1;
	return 0;
}

static int build(struct pstate *st, u32 root)
{
	struct switchfile *f = st->f;
	const char *why = NULL;
	char qa[72], qb[72];
	u32 from;

	f->g.nswitches = st->ns;
	f->g.nhosts = st->top;
	f->g.nlinks = st->nl;
	f->g.link = f->link;
	f->g.host_switch = f->host_switch;
	f->g.root = root;
	f->mem = calloc(mc_sw_graph_words(st->ns, st->top, st->nl),
			sizeof(u32));
	if (!f->mem)
		return perr(st, 0, -ENOMEM, "out of memory");
	if (!mc_sw_build(&f->g, f->mem, &why))
		return 0;
	if (f->g.bad >= st->ns)
		return perr(st, 0, -EINVAL, "%s", why ? why : "invalid topology");
	/* The only failure a parsed file can have: connectivity. */
	from = root == MC_SW_ROOT_CENTER ? 0 : root;
	printable(f->name[f->g.bad], qa, sizeof(qa));
	printable(f->name[from], qb, sizeof(qb));
	return perr(st, f->line[f->g.bad], -EINVAL,
		    "switch \"%s\" is not connected to switch \"%s\": no chain of links joins them",
		    qa, qb);
}

void switchfile_free(struct switchfile *f)
{
	u32 i;

	if (f->name)
		for (i = 0; i < MC_SW_MAX_SWITCHES; i++)
			free(f->name[i]);
	free(f->name);
	free(f->line);
	free(f->link);
	free(f->host_switch);
	free(f->mem);
	memset(f, 0, sizeof(*f));
}

static int alloc(struct switchfile *f)
{
	memset(f, 0, sizeof(*f));
	f->name = calloc(MC_SW_MAX_SWITCHES, sizeof(*f->name));
	f->line = calloc(MC_SW_MAX_SWITCHES, sizeof(u32));
	f->link = calloc(MC_SW_MAX_LINKS, sizeof(*f->link));
	f->host_switch = calloc(MC_SW_MAX_HOSTS, sizeof(u32));
	return f->name && f->line && f->link && f->host_switch ? 0 : -ENOMEM;
}

int switchfile_parse(struct switchfile *f, const char *file, const char *text,
		     size_t len, char *err)
{
	struct pstate *st = calloc(1, sizeof(*st));
	const char *p = text, *end = text + len, *nl;
	u32 line = 0, root = 0;
	int rc = -ENOMEM;

	memset(f, 0, sizeof(*f));
	if (st)
		st->host_line = calloc(MC_SW_MAX_HOSTS, sizeof(u32));
	if (!st || !st->host_line || alloc(f)) {
		snprintf(err, PARSE_ERR_MAX, "%s: out of memory", file);
		goto out;
	}
	st->f = f;
	st->file = file;
	st->err = err;
	for (rc = 0; !rc && p < end; p = nl ? nl + 1 : end) {
		nl = memchr(p, '\n', end - p);
		rc = parse_line(st, p, nl ? nl : end, ++line);
	}
	if (!rc)
		rc = check_whole(st, &root);
	if (!rc)
		rc = build(st, root);
out:
	if (st) {
		free(st->host_line);
		free(st->root);
	}
	free(st);
	if (rc)
		switchfile_free(f);
	return rc;
}

int switchfile_load(struct switchfile *f, const char *path, char *err)
{
	size_t len = 0, cap = 4096, n;
	char *buf = malloc(cap), *nbuf, q[80];
	FILE *in;
	int rc;

	memset(f, 0, sizeof(*f));
	printable(path, q, sizeof(q));
	if (!buf) {
		snprintf(err, PARSE_ERR_MAX, "%s: out of memory", q);
		return -ENOMEM;
	}
	in = fopen(path, "r");
	if (!in) {
		rc = -errno;
		snprintf(err, PARSE_ERR_MAX, "%s: %s", q, strerror(errno));
		free(buf);
		return rc;
	}
	while ((n = fread(buf + len, 1, cap - len, in)) > 0) {
		len += n;
		if (len < cap)
			continue;
		nbuf = realloc(buf, cap * 2);
		if (!nbuf)
			break;
		buf = nbuf;
		cap *= 2;
	}
	if (ferror(in) || len == cap) {
		rc = ferror(in) ? -EIO : -ENOMEM;
		snprintf(err, PARSE_ERR_MAX, "%s: %s", q,
			 ferror(in) ? "read error" : "out of memory");
		fclose(in);
		free(buf);
		return rc;
	}
	fclose(in);
	rc = switchfile_parse(f, path, buf, len, err);
	free(buf);
	return rc;
}

u32 switchfile_find(const struct switchfile *f, const char *name)
{
	u32 i;

	for (i = 0; i < f->g.nswitches; i++)
		if (!strcmp(f->name[i], name))
			return i;
	return NONE;
}

const char *switchfile_vertex_name(const struct switchfile *f, u32 v,
				   char *buf, size_t size)
{
	if (v < f->g.nswitches)
		snprintf(buf, size, "%s", f->name[v]);
	else if (v < f->g.nverts)
		snprintf(buf, size, "%u", v - f->g.nswitches);
	else
		snprintf(buf, size, "?");
	return buf;
}
