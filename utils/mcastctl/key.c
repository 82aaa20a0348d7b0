// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mcastctl node set key...: the node's cluster keys (MCAST_CMD_KEY_SET),
 * from key files (utils/lib/keyfile.c).
 * The kernel never gives a key back; node show says which ids it has.
 */
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>

#include "keyfile.h"
#include "mcastctl.h"
#include "nl.h"
#include "parse.h"

static int read_key(const char *what, const char *path, unsigned char *key)
{
	char err[PARSE_ERR_MAX];
	bool open;

	if (key_file_read(path, key, &open, err))
		return input_err(what, "%s", err);
	if (open)
		fprintf(stderr, "mcastctl: %s: warning: others than its owner can read %s (chmod 600 it)\n",
			what, path);
	return 0;
}

struct key_req {
	const char *file;	/* key FILE or key-next FILE */
	bool none, use, drop;
	u32 id;
};

/* The words after "node set" into @r. */
static int parse_key_args(const char *what, int argc, char **argv,
			  struct key_req *r)
{
	const char *id_s = NULL, *op = argv[1];
	int i;

	if (argc < 3)
		return usage_err(what, "%s needs a value", op);
	for (i = 3; i < argc; i += 2) {
		if (strcmp(argv[i], "key-id"))
			return usage_err(what, "unexpected \"%.64s\" after %s (key-id N; set the key on its own)",
					 argv[i], op);
		if (i + 1 >= argc || id_s)
			return usage_err(what, "key-id needs one value");
		id_s = argv[i + 1];
	}
	r->id = 1;
	if (!strcmp(op, "key") && !strcmp(argv[2], "none")) {
		r->none = true;
	} else if (!strcmp(op, "key") || !strcmp(op, "key-next")) {
		r->file = argv[2];
		r->use = !strcmp(op, "key");
		if (!id_s && !r->use)
			return usage_err(what, "key-next needs key-id N (not the id in use)");
	} else if (!strcmp(op, "key-use") || !strcmp(op, "key-drop")) {
		id_s = argv[2];
		r->use = !strcmp(op, "key-use");
		r->drop = !r->use;
	} else {
		return usage_err(what, "unknown keyword \"%.64s\" (key, key-next, key-use, key-drop)",
				 op);
	}
	if (id_s && (parse_u32(id_s, 255, &r->id) || !r->id))
		return input_err(what, "key-id: expected 1 to 255");
	return 0;
}

int node_set_key(int argc, char **argv)
{
	const char *what = "node set key";
	unsigned char key[MCAST_KEY_LEN];
	struct key_req r = { 0 };
	struct ctl_nl nl;
	struct nl_msg *msg;
	struct nlattr *nest;
	int err, bad;

	err = parse_key_args(what, argc, argv, &r);
	if (!err && r.file)
		err = read_key(what, r.file, key);
	if (err)
		return err;
	err = ctl_nl_open(&nl, what);
	if (err)
		goto out;
	msg = ctl_nl_msg(&nl, MCAST_CMD_KEY_SET, false, 0);
	if (!msg) {
		ctl_nl_close(&nl);
		err = nomem(what);
		goto out;
	}
	nest = nla_nest_start(msg, MCAST_A_KEY);
	bad = !nest || (r.none && nla_put_flag(msg, MCAST_KEY_A_NONE)) ||
	      (!r.none && nla_put_u8(msg, MCAST_KEY_A_ID, r.id)) ||
	      (r.file && nla_put(msg, MCAST_KEY_A_SECRET, MCAST_KEY_LEN, key)) ||
	      (r.use && nla_put_flag(msg, MCAST_KEY_A_USE)) ||
	      (r.drop && nla_put_flag(msg, MCAST_KEY_A_DROP));
	if (bad) {
		nlmsg_free(msg);
		ctl_nl_close(&nl);
		err = nomem(what);
		goto out;
	}
	nla_nest_end(msg, nest);
	err = ctl_nl_request(&nl, msg, NULL, NULL);
	ctl_nl_close(&nl);
out:
	explicit_bzero(key, sizeof(key));
	return err;
}
