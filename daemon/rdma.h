/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The RDMA devices and ports of this host, as libibverbs lists them, for
 * mcastctl cluster show.  Optional at build time (MCD_HAVE_IBVERBS): the
 * structures are the same either way, so only rdma.c depends on it.
 */
#ifndef MCASTD_RDMA_H
#define MCASTD_RDMA_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define MCD_RDMA_MAX_PORTS	32

struct json;

struct mcd_rdma_port {
	char dev[64];			/* ibv_get_device_name() */
	uint8_t port;			/* from 1 */
	const char *state;		/* "active", "down", "init", ... */
	const char *link_layer;		/* "InfiniBand", "Ethernet" */
	uint16_t lid;			/* InfiniBand only */
	uint32_t mtu;			/* the active MTU, bytes */
	char rate[16];			/* "4X EDR"; "" if unknown */
	char gid0[48];			/* GID index 0; "" if none */
};

struct mcd_rdma {
	bool available;			/* built with libibverbs */
	unsigned int nports;
	struct mcd_rdma_port ports[MCD_RDMA_MAX_PORTS];
	char err[128];			/* what failed, if anything did */
};

/*
 * Lists every port of every device into @r.  Returns the number of ports,
 * or -errno when libibverbs could not list the devices (@r->err says why);
 * a device that cannot be opened is skipped and noted in @r->err.
 * Without libibverbs: 0, and @r->available is false.
 */
int mcd_rdma_scan(struct mcd_rdma *r);

/* "rxe0 port 1 active Ethernet mtu 1024 rate 1X QDR gid fe80::..." */
#define MCD_RDMA_STR_MAX	256
void mcd_rdma_format(const struct mcd_rdma_port *p, char *buf, size_t len);

/* One text line per port, or the JSON key "rdma" (@j not NULL). */
void mcd_rdma_show(const struct mcd_rdma *r, struct json *j, FILE *f);

#endif /* MCASTD_RDMA_H */
