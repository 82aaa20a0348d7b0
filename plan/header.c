// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Multi-destination (Fig 5.9) and compound (Fig 6.2) worm headers.
 */
#include "header.h"

static void put_word(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static u32 get_word(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

/* A cursor over a received header that never reads past its end. */
struct hdr_cursor {
	const u8 *buf;
	size_t len;
	size_t at;
};

static int take_word(struct hdr_cursor *c, u32 *v)
{
	if (c->len - c->at < MC_HDR_WORD)
		return -EBADMSG;
	*v = get_word(c->buf + c->at);
	c->at += MC_HDR_WORD;
	return 0;
}

static int take_node(struct hdr_cursor *c, u32 nodes, u32 *v)
{
	int err = take_word(c, v);

	if (!err && *v >= nodes)
		return -EBADMSG;
	return err;
}

int mc_hdr_md_encode(u8 *buf, size_t cap, const u32 *dest, u32 ndest,
		     size_t *used)
{
	u32 i;

	if (ndest == 0)
		return -EINVAL;
	if (cap < mc_hdr_md_size(ndest))
		return -EMSGSIZE;
	for (i = 0; i < ndest; i++) {
		/* An address equal to its predecessor would end the list. */
		if (i > 0 && dest[i] == dest[i - 1])
			return -EINVAL;
		put_word(buf + i * MC_HDR_WORD, dest[i]);
	}
	put_word(buf + ndest * MC_HDR_WORD, dest[ndest - 1]);
	*used = mc_hdr_md_size(ndest);
	return 0;
}

int mc_hdr_md_decode(const u8 *buf, size_t len, u32 nodes, u32 *dest, u32 max,
		     u32 *ndest, size_t *used)
{
	struct hdr_cursor c = { buf, len, 0 };
	u32 n = 0, v, prev;
	int err;

	err = take_node(&c, nodes, &prev);
	if (err)
		return err;
	for (;;) {
		if (n >= max)
			return -ENOSPC;
		dest[n++] = prev;
		err = take_node(&c, nodes, &v);
		if (err)
			return err;
		if (v == prev)
			break;
		prev = v;
	}
	*ndest = n;
	*used = c.at;
	return 0;
}

int mc_hdr_compound_encode(u8 *buf, size_t cap,
			   const struct mc_hdr_entry *ent, u32 nent,
			   const u32 *piece, size_t *used)
{
	size_t at = 0;
	u32 i, j, npiece = 0;

	if (nent == 0)
		return -EINVAL;
	for (i = 0; i < nent; i++) {
		if (i > 0 && ent[i].node == ent[i - 1].node)
			return -EINVAL;
		npiece += ent[i].count;
	}
	if (cap < mc_hdr_compound_size(nent, npiece))
		return -EMSGSIZE;
	for (i = 0; i < nent; i++) {
		put_word(buf + at, ent[i].node);
		put_word(buf + at + MC_HDR_WORD, ent[i].count);
		at += 2 * MC_HDR_WORD;
		for (j = 0; j < ent[i].count; j++, at += MC_HDR_WORD)
			put_word(buf + at, piece[ent[i].first + j]);
	}
	put_word(buf + at, ent[nent - 1].node);
	*used = at + MC_HDR_WORD;
	return 0;
}

/* One entry's count and list; the count cannot exceed what is left. */
static int take_piece(struct hdr_cursor *c, u32 nodes, struct mc_hdr_entry *e,
		      u32 *piece, u32 max_piece, u32 *npiece)
{
	u32 j;
	int err = take_word(c, &e->count);

	if (err)
		return err;
	if (e->count > (c->len - c->at) / MC_HDR_WORD)
		return -EBADMSG;
	if (e->count > max_piece - *npiece)
		return -ENOSPC;
	e->first = *npiece;
	for (j = 0; j < e->count; j++) {
		err = take_node(c, nodes, &piece[*npiece]);
		if (err)
			return err;
		(*npiece)++;
	}
	return 0;
}

int mc_hdr_compound_decode(const u8 *buf, size_t len, u32 nodes,
			   struct mc_hdr_entry *ent, u32 max_ent,
			   u32 *piece, u32 max_piece, u32 *nent,
			   size_t *used)
{
	struct hdr_cursor c = { buf, len, 0 };
	u32 n = 0, npiece = 0, v;
	int err;

	err = take_node(&c, nodes, &v);
	while (!err) {
		if (n > 0 && v == ent[n - 1].node)
			break;
		if (n >= max_ent)
			return -ENOSPC;
		ent[n].node = v;
		err = take_piece(&c, nodes, &ent[n], piece, max_piece, &npiece);
		n++;
		if (!err)
			err = take_node(&c, nodes, &v);
	}
	if (err)
		return err;
	*nent = n;
	*used = c.at;
	return 0;
}
