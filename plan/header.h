/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Worm headers.
 *
 * Multi-destination header (Fig 5.9): the destination addresses in visiting
 * order, the last one written twice to end the list.  Compound header
 * (Fig 6.2): after each destination address u_i, a count w_i and the w_i
 * addresses of the piece u_i becomes responsible for (u_i itself left
 * out); the last destination address is written twice to end the header.
 *
 * Every field is a 32-bit big-endian word; an address is a node index.
 * Decoders never read past @len and reject a truncated list, an address
 * outside the torus, and a count larger than what is left.
 */
#ifndef MC_HEADER_H
#define MC_HEADER_H

#include "mc_types.h"

#define MC_HDR_WORD	4

/* Encoded sizes in bytes. */
static inline size_t mc_hdr_md_size(u32 ndest)
{
	return (size_t)(ndest + 1) * MC_HDR_WORD;
}

/* Encode @ndest (>= 1) addresses into @buf (@cap bytes); *@used = bytes. */
int mc_hdr_md_encode(u8 *buf, size_t cap, const u32 *dest, u32 ndest,
		     size_t *used);

/*
 * Decode a header from @buf (@len bytes) of a torus with @nodes nodes into
 * @dest (room for @max).  *@ndest = destinations, *@used = header bytes
 * (the body starts there).  -EBADMSG on malformed input, -ENOSPC if @max
 * is too small.
 */
int mc_hdr_md_decode(const u8 *buf, size_t len, u32 nodes, u32 *dest, u32 max,
		     u32 *ndest, size_t *used);

struct mc_hdr_entry {
	u32 node;	/* destination u_i */
	u32 count;	/* w_i */
	u32 first;	/* its list: piece[first..first+count-1] */
};

static inline size_t mc_hdr_compound_size(u32 nent, u32 npiece)
{
	return (size_t)(2 * nent + npiece + 1) * MC_HDR_WORD;
}

/* Encode @nent (>= 1) entries whose lists are in @piece. */
int mc_hdr_compound_encode(u8 *buf, size_t cap,
			   const struct mc_hdr_entry *ent, u32 nent,
			   const u32 *piece, size_t *used);

int mc_hdr_compound_decode(const u8 *buf, size_t len, u32 nodes,
			   struct mc_hdr_entry *ent, u32 max_ent,
			   u32 *piece, u32 max_piece, u32 *nent,
			   size_t *used);

#endif /* MC_HEADER_H */
