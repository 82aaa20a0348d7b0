// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastd's control datagrams: parsing with complete validation, and
 * building.  The layout is in proto.h.
 */
#include <errno.h>
#include <string.h>

#include "proto.h"

/* A full record and the largest ANNOUNCE header fit one datagram. */
_Static_assert(MCD_HDR_LEN + 2 + MCD_REC_LEN + 4 * MCD_MAX_GROUPS <=
	       MCD_DGRAM_MAX, "a record must fit one datagram");
_Static_assert(MCD_HDR_LEN + 6 + MCD_ENT_LEN * MCD_DIGEST_MAX <=
	       MCD_DGRAM_FILL, "a digest must fit one datagram");

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

static void put16(uint8_t *p, uint16_t x)
{
	p[0] = (uint8_t)x;
	p[1] = (uint8_t)(x >> 8);
}

static void put32(uint8_t *p, uint32_t x)
{
	put16(p, (uint16_t)x);
	put16(p + 2, (uint16_t)(x >> 16));
}

static void put64(uint8_t *p, uint64_t x)
{
	put32(p, (uint32_t)x);
	put32(p + 4, (uint32_t)(x >> 32));
}

/* node, incarnation, version, state: the first 17 bytes of both forms. */
static void get_key(const uint8_t *p, struct mcd_key *k)
{
	k->node = get32(p);
	k->incarnation = get64(p + 4);
	k->version = get32(p + 12);
	k->state = p[16];
}

static void put_key(uint8_t *p, const struct mcd_key *k)
{
	put32(p, k->node);
	put64(p + 4, k->incarnation);
	put32(p + 12, k->version);
	p[16] = k->state;
}

/* One ANNOUNCE record at @p (@left bytes to the end); its length or 0. */
static size_t check_rec(const uint8_t *p, size_t left)
{
	struct mcd_key k;
	uint32_t prev = 0, g, i, ng;

	if (left < MCD_REC_LEN)
		return 0;
	get_key(p, &k);
	ng = get16(p + 18);
	if (k.incarnation == 0 || k.version == 0 || k.state < MCD_ALIVE ||
	    k.state > MCD_DEAD || p[17] || ng > MCD_MAX_GROUPS ||
	    (left - MCD_REC_LEN) / 4 < ng)
		return 0;
	for (i = 0; i < ng; i++) {
		g = get32(p + MCD_REC_LEN + 4 * i);
		if (g <= prev)	/* also refuses group 0 */
			return 0;
		prev = g;
	}
	return MCD_REC_LEN + 4 * (size_t)ng;
}

static int parse_announce(struct mcd_msg *m)
{
	const uint8_t *p = m->body;
	uint32_t i;
	size_t n;

	if (m->end - p < 2)
		return -EBADMSG;
	m->count = get16(p);
	m->body = p += 2;
	if (!m->count || m->count > MCD_MAX_NODES)
		return -EBADMSG;
	for (i = 0; i < m->count; i++) {
		n = check_rec(p, (size_t)(m->end - p));
		if (!n)
			return -EBADMSG;
		p += n;
	}
	return p == m->end ? 0 : -EBADMSG;
}

static int check_ent(const uint8_t *p)
{
	struct mcd_key k;

	get_key(p, &k);
	if (k.state > MCD_DEAD || p[17] || p[18] || p[19])
		return -EBADMSG;
	if (k.state == MCD_UNKNOWN)
		return k.incarnation || k.version ? -EBADMSG : 0;
	return k.incarnation && k.version ? 0 : -EBADMSG;
}

static int parse_digest(struct mcd_msg *m)
{
	const uint8_t *p = m->body;
	uint32_t i;

	if (m->end - p < 6)
		return -EBADMSG;
	m->first = get32(p);
	m->count = get16(p + 4);
	m->body = p += 6;
	if (m->first >= MCD_MAX_NODES || !m->count ||
	    m->count > MCD_DIGEST_MAX ||
	    (size_t)(m->end - p) != (size_t)m->count * MCD_ENT_LEN)
		return -EBADMSG;
	for (i = 0; i < m->count; i++, p += MCD_ENT_LEN)
		if (check_ent(p))
			return -EBADMSG;
	return 0;
}

static int parse_pull(struct mcd_msg *m)
{
	const uint8_t *p = m->body;

	if (m->end - p < 2)
		return -EBADMSG;
	m->count = get16(p);
	m->body = p + 2;
	if (!m->count || m->count > MCD_MAX_NODES ||
	    (size_t)(m->end - m->body) != (size_t)m->count * 4)
		return -EBADMSG;
	return 0;
}

static int parse_heartbeat(struct mcd_msg *m)
{
	if (m->end - m->body != 4)
		return -EBADMSG;
	m->version = get32(m->body);
	m->body = m->end;
	return m->version ? 0 : -EBADMSG;
}

static int parse_stats_pull(struct mcd_msg *m)
{
	const uint8_t *p = m->body;

	if (m->end - p != MCD_STATS_BODY)
		return -EBADMSG;
	m->query = get32(p);
	for (p += 4; p < m->end; p++)
		if (*p)
			return -EBADMSG;
	m->body = m->end;
	return m->query ? 0 : -EBADMSG;
}

static int parse_stats(struct mcd_msg *m)
{
	const uint8_t *p = m->body;

	if (m->end - p < 6)
		return -EBADMSG;
	m->query = get32(p);
	m->count = get16(p + 4);
	m->body = p + 6;
	if (!m->query || !m->count || m->count > MCD_STATS_MAX ||
	    (size_t)(m->end - m->body) != (size_t)m->count * 8)
		return -EBADMSG;
	return 0;
}

uint64_t mcd_stats_value(const struct mcd_msg *m, uint32_t i)
{
	return i < m->count ? get64(m->body + 8 * (size_t)i) : MCD_STATS_NONE;
}

int mcd_msg_parse(const void *buf, size_t len, struct mcd_msg *m)
{
	const uint8_t *p = buf;

	memset(m, 0, sizeof(*m));
	if (!p || len < MCD_HDR_LEN || len > MCD_DGRAM_MAX ||
	    memcmp(p, MCD_PROTO_MAGIC, 4) || p[4] != MCD_PROTO_VERSION ||
	    get16(p + 6))
		return -EBADMSG;
	m->type = p[5];
	m->from = get32(p + 8);
	m->incarnation = get64(p + 12);
	m->body = p + MCD_HDR_LEN;
	m->end = p + len;
	if (!m->incarnation)
		return -EBADMSG;
	switch (m->type) {
	case MCD_MSG_ANNOUNCE:
		return parse_announce(m);
	case MCD_MSG_DIGEST:
		return parse_digest(m);
	case MCD_MSG_PULL:
		return parse_pull(m);
	case MCD_MSG_HEARTBEAT:
		return parse_heartbeat(m);
	case MCD_MSG_STATS_PULL:
		return parse_stats_pull(m);
	case MCD_MSG_STATS:
		return parse_stats(m);
	}
	return -EBADMSG;
}

void mcd_msg_cursor(const struct mcd_msg *m, struct mcd_cursor *c)
{
	c->p = m->body;
	c->left = m->count;
}

bool mcd_next_rec(struct mcd_cursor *c, struct mcd_rec_in *r)
{
	if (!c->left)
		return false;
	get_key(c->p, &r->key);
	r->ngroups = get16(c->p + 18);
	r->groups = c->p + MCD_REC_LEN;
	c->p += MCD_REC_LEN + 4 * (size_t)r->ngroups;
	c->left--;
	return true;
}

uint32_t mcd_rec_group(const struct mcd_rec_in *r, uint32_t i)
{
	return get32(r->groups + 4 * (size_t)i);
}

bool mcd_next_ent(struct mcd_cursor *c, struct mcd_key *k)
{
	if (!c->left)
		return false;
	get_key(c->p, k);
	c->p += MCD_ENT_LEN;
	c->left--;
	return true;
}

bool mcd_next_node(struct mcd_cursor *c, uint32_t *node)
{
	if (!c->left)
		return false;
	*node = get32(c->p);
	c->p += 4;
	c->left--;
	return true;
}

void mcd_wbuf_begin(struct mcd_wbuf *w, enum mcd_msg_type type,
		    uint32_t from, uint64_t incarnation, uint32_t arg)
{
	uint8_t *p = w->buf;

	memcpy(p, MCD_PROTO_MAGIC, 4);
	p[4] = MCD_PROTO_VERSION;
	p[5] = (uint8_t)type;
	put16(p + 6, 0);
	put32(p + 8, from);
	put64(p + 12, incarnation);
	w->len = MCD_HDR_LEN;
	w->count = 0;
	w->type = (uint8_t)type;
	switch (type) {
	case MCD_MSG_DIGEST:
		put32(p + w->len, arg);
		w->len += 6;	/* first, count */
		break;
	case MCD_MSG_HEARTBEAT:
		put32(p + w->len, arg);
		w->len += 4;
		break;
	case MCD_MSG_STATS_PULL:
		put32(p + w->len, arg);
		memset(p + w->len + 4, 0, MCD_STATS_BODY - 4);
		w->len += MCD_STATS_BODY;
		break;
	case MCD_MSG_STATS:
		put32(p + w->len, arg);
		w->len += 6;	/* query, count */
		break;
	default:
		w->len += 2;	/* count */
		break;
	}
}

int mcd_wbuf_add_rec(struct mcd_wbuf *w, const struct mcd_key *k,
		     const uint32_t *groups, uint16_t ngroups)
{
	size_t need = MCD_REC_LEN + 4 * (size_t)ngroups;
	uint8_t *p = w->buf + w->len;
	uint32_t i;

	/* records share MCD_DGRAM_FILL; a larger one goes alone */
	if (w->type != MCD_MSG_ANNOUNCE || MCD_DGRAM_MAX - w->len < need ||
	    (w->count && w->len + need > MCD_DGRAM_FILL) ||
	    w->count >= MCD_MAX_NODES)
		return -ENOSPC;
	put_key(p, k);
	p[17] = 0;
	put16(p + 18, ngroups);
	for (i = 0; i < ngroups; i++)
		put32(p + MCD_REC_LEN + 4 * i, groups[i]);
	w->len += need;
	w->count++;
	return 0;
}

int mcd_wbuf_add_ent(struct mcd_wbuf *w, const struct mcd_key *k)
{
	uint8_t *p = w->buf + w->len;

	if (w->type != MCD_MSG_DIGEST || w->count >= MCD_DIGEST_MAX)
		return -ENOSPC;
	put_key(p, k);
	memset(p + 17, 0, 3);
	w->len += MCD_ENT_LEN;
	w->count++;
	return 0;
}

int mcd_wbuf_add_node(struct mcd_wbuf *w, uint32_t node)
{
	if (w->type != MCD_MSG_PULL || MCD_DGRAM_FILL - w->len < 4 ||
	    w->count >= MCD_MAX_NODES)
		return -ENOSPC;
	put32(w->buf + w->len, node);
	w->len += 4;
	w->count++;
	return 0;
}

int mcd_wbuf_add_value(struct mcd_wbuf *w, uint64_t value)
{
	if (w->type != MCD_MSG_STATS || w->count >= MCD_STATS_MAX)
		return -ENOSPC;
	put64(w->buf + w->len, value);
	w->len += 8;
	w->count++;
	return 0;
}

size_t mcd_wbuf_end(struct mcd_wbuf *w)
{
	if (w->type == MCD_MSG_DIGEST || w->type == MCD_MSG_STATS)
		put16(w->buf + MCD_HDR_LEN + 4, (uint16_t)w->count);
	else if (w->type != MCD_MSG_HEARTBEAT &&
		 w->type != MCD_MSG_STATS_PULL)
		put16(w->buf + MCD_HDR_LEN, (uint16_t)w->count);
	return w->len;
}
