/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Cluster key files: the 32 bytes raw, or as 64 hex digits (a newline may
 * follow), as `head -c 32 /dev/urandom` or `openssl rand -hex 32` make
 * them.  mcastctl node set key and mcastd read them.
 */
#ifndef MCAST_LIB_KEYFILE_H
#define MCAST_LIB_KEYFILE_H

#include <stdbool.h>
#include <linux/mcast.h>

/*
 * Reads @path into @key.  0, or -errno with what was wrong in @err
 * (PARSE_ERR_MAX bytes).  *@open_to_others: others than the owner may
 * read the file (a warning for the caller to give).
 */
int key_file_read(const char *path, unsigned char key[MCAST_KEY_LEN],
		  bool *open_to_others, char *err);

#endif /* MCAST_LIB_KEYFILE_H */
