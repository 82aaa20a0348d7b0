/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * config.c's command-line and output helpers, shared with stats.c.
 */
#ifndef MCASTCTL_CONFIG_H
#define MCASTCTL_CONFIG_H

#include <stdbool.h>
#include <stdio.h>

#include "json.h"
#include "mcastctl.h"

bool is_help(const char *s);

/*
 * Removes every @shrt or @lng from argv[1..] (then sets *on) and returns
 * the new argc: a show command's options may come anywhere after its verb.
 */
int take_flag(int argc, char **argv, const char *shrt, const char *lng,
	      bool *on);
/* -j, --json (or mcastctl -j before the object) */
int take_json(int argc, char **argv, bool *json);
int parse_group_id(const char *what, const char *s, uint32_t *id);

/*
 * JSON goes to memory first and to stdout only when the whole answer
 * arrived: an error never leaves half a document behind.
 */
struct jout {
	struct json j;
	FILE *f;
	char *buf;
	size_t len;
};

int jout_begin(struct jout *o, const char *what);
int jout_end(struct jout *o, const char *what, int err);

#endif
