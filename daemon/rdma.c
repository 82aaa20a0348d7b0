// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The RDMA devices and ports of this host (rdma.h): what libibverbs lists,
 * each device opened only long enough to query its ports.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "json.h"
#include "rdma.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#ifdef MCD_HAVE_IBVERBS
#include <arpa/inet.h>
#include <infiniband/verbs.h>

static const char *port_state(enum ibv_port_state s)
{
	static const char *const names[] = {
		[IBV_PORT_NOP] = "nop", [IBV_PORT_DOWN] = "down",
		[IBV_PORT_INIT] = "init", [IBV_PORT_ARMED] = "armed",
		[IBV_PORT_ACTIVE] = "active",
		[IBV_PORT_ACTIVE_DEFER] = "active_defer",
	};

	return (unsigned int)s < ARRAY_SIZE(names) ? names[s] : "unknown";
}

/* As ibv_devinfo: unspecified is InfiniBand (old kernels say nothing). */
static const char *link_layer(uint8_t ll)
{
	return ll == IBV_LINK_LAYER_ETHERNET ? "Ethernet" : "InfiniBand";
}

/* i if @v is 1 << i, else @n. */
static unsigned int bit_index(unsigned int v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n && v != 1u << i; i++)
		;
	return i;
}

/* "4X EDR": the lanes and the signalling rate, as ibstat says it. */
static void format_rate(char *buf, size_t len, uint8_t width, uint8_t speed)
{
	static const unsigned char lanes[] = { 1, 4, 8, 12, 2 };
	static const char *const speeds[] = {
		"SDR", "DDR", "QDR", "FDR10", "FDR", "EDR", "HDR", "NDR",
	};
	unsigned int w = bit_index(width, ARRAY_SIZE(lanes));
	unsigned int s = bit_index(speed, ARRAY_SIZE(speeds));

	buf[0] = 0;
	if (w < ARRAY_SIZE(lanes) && s < ARRAY_SIZE(speeds))
		snprintf(buf, len, "%uX %s", lanes[w], speeds[s]);
}

/* GID index 0 as an IPv6 address; "" if there is none (all zero). */
static void format_gid0(struct ibv_context *ctx, uint8_t port, char *buf,
			size_t len)
{
	static const uint8_t zero[16];
	union ibv_gid gid;

	buf[0] = 0;
	if (ibv_query_gid(ctx, port, 0, &gid) ||
	    !memcmp(gid.raw, zero, sizeof(zero)))
		return;
	if (!inet_ntop(AF_INET6, gid.raw, buf, len))
		buf[0] = 0;
}

/* libibverbs returns errno values, -1 with errno, or NULL with errno. */
static int verbs_err(int ret)
{
	if (ret > 0)
		return -ret;
	return errno ? -errno : -EIO;
}

/* Every port of @dev into @r, while there is room. */
static int scan_device(struct mcd_rdma *r, struct ibv_device *dev)
{
	const char *name = ibv_get_device_name(dev);
	struct mcd_rdma_port *p;
	struct ibv_device_attr da;
	struct ibv_port_attr pa;
	struct ibv_context *ctx;
	unsigned int i;
	int err;

	errno = 0;
	ctx = ibv_open_device(dev);
	if (!ctx)
		return verbs_err(-1);
	err = ibv_query_device(ctx, &da);
	if (err)
		err = verbs_err(err);
	for (i = 1; !err && i <= da.phys_port_cnt; i++) {
		if (r->nports == MCD_RDMA_MAX_PORTS) {
			err = -E2BIG;
			break;
		}
		err = ibv_query_port(ctx, i, &pa);
		if (err) {
			err = verbs_err(err);
			break;
		}
		p = &r->ports[r->nports++];
		snprintf(p->dev, sizeof(p->dev), "%s", name ? name : "?");
		p->port = i;
		p->state = port_state(pa.state);
		p->link_layer = link_layer(pa.link_layer);
		p->lid = pa.lid;
		p->mtu = 128u << pa.active_mtu;	/* IBV_MTU_256 is 1 */
		format_rate(p->rate, sizeof(p->rate), pa.active_width,
			    pa.active_speed);
		format_gid0(ctx, i, p->gid0, sizeof(p->gid0));
	}
	ibv_close_device(ctx);
	return err;
}

int mcd_rdma_scan(struct mcd_rdma *r)
{
	struct ibv_device **list;
	int n, i, err;

	memset(r, 0, sizeof(*r));
	r->available = true;
	errno = 0;
	list = ibv_get_device_list(&n);
	if (!list) {
		/* ENOSYS: no RDMA in this kernel (ib_uverbs not loaded) */
		if (errno == ENOSYS)
			return 0;
		err = verbs_err(-1);
		snprintf(r->err, sizeof(r->err), "ibv_get_device_list: %s",
			 strerror(-err));
		return err;
	}
	for (i = 0; i < n; i++) {
		err = scan_device(r, list[i]);
		if (err == -E2BIG) {
			snprintf(r->err, sizeof(r->err),
				 "more than %d ports: only the first listed",
				 MCD_RDMA_MAX_PORTS);
			break;
		}
		/* the others are still worth listing */
		if (err)
			snprintf(r->err, sizeof(r->err), "%s: %s",
				 ibv_get_device_name(list[i]), strerror(-err));
	}
	ibv_free_device_list(list);
	return r->nports;
}

#else /* !MCD_HAVE_IBVERBS */

int mcd_rdma_scan(struct mcd_rdma *r)
{
	memset(r, 0, sizeof(*r));
	return 0;
}

#endif /* MCD_HAVE_IBVERBS */

/* "rdma" and its padding line the devices up with the nodes' coordinates. */
#define RDMA_TAG	"rdma         "

void mcd_rdma_format(const struct mcd_rdma_port *p, char *buf, size_t len)
{
	char lid[16] = "";

	/* a LID means something on InfiniBand only */
	if (strcmp(p->link_layer, "Ethernet"))
		snprintf(lid, sizeof(lid), " lid %u", p->lid);
	snprintf(buf, len, "%s port %u %s %s%s mtu %" PRIu32 "%s%s%s%s",
		 p->dev, p->port, p->state, p->link_layer, lid, p->mtu,
		 p->rate[0] ? " rate " : "", p->rate,
		 p->gid0[0] ? " gid " : "", p->gid0);
}

static void show_port_json(struct json *j, const struct mcd_rdma_port *p)
{
	json_obj_begin(j);
	json_key_str(j, "device", p->dev);
	json_key_uint(j, "port", p->port);
	json_key_str(j, "state", p->state);
	json_key_str(j, "link_layer", p->link_layer);
	json_key_uint(j, "lid", p->lid);
	json_key_uint(j, "mtu", p->mtu);
	json_key(j, "rate");
	if (p->rate[0])
		json_str(j, p->rate);
	else
		json_null(j);
	json_key(j, "gid");
	if (p->gid0[0])
		json_str(j, p->gid0);
	else
		json_null(j);
	json_obj_end(j);
}

void mcd_rdma_show(const struct mcd_rdma *r, struct json *j, FILE *f)
{
	char buf[MCD_RDMA_STR_MAX];
	unsigned int i;

	if (j) {
		json_key(j, "rdma");
		if (!r->available) {
			json_null(j);
			return;
		}
		json_arr_begin(j);
		for (i = 0; i < r->nports; i++)
			show_port_json(j, &r->ports[i]);
		json_arr_end(j);
		return;
	}
	if (!r->available) {
		fputs(RDMA_TAG "not built in (libibverbs)\n", f);
		return;
	}
	if (!r->nports)
		fputs(RDMA_TAG "none\n", f);
	for (i = 0; i < r->nports; i++) {
		mcd_rdma_format(&r->ports[i], buf, sizeof(buf));
		fprintf(f, RDMA_TAG "%s\n", buf);
	}
}
