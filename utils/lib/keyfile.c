// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Cluster key files (keyfile.h).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "keyfile.h"
#include "parse.h"

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

/* 64 hex digits (then at most a newline) into @key. */
static bool parse_hex_key(const unsigned char *buf, size_t n,
			  unsigned char *key)
{
	size_t i;

	while (n > 64 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		n--;
	if (n != 2 * MCAST_KEY_LEN)
		return false;
	for (i = 0; i < n; i++)
		if (!isxdigit(buf[i]))
			return false;
	for (i = 0; i < MCAST_KEY_LEN; i++)
		key[i] = hexval(buf[2 * i]) << 4 | hexval(buf[2 * i + 1]);
	return true;
}

int key_file_read(const char *path, unsigned char key[MCAST_KEY_LEN],
		  bool *open_to_others, char *err)
{
	unsigned char buf[2 * MCAST_KEY_LEN + 4];
	struct stat st;
	size_t n = 0;
	ssize_t r;
	int fd, ret = 0;

	*open_to_others = false;
	/* read(2), not stdio: no buffer of the key's bytes left unwiped */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, PARSE_ERR_MAX, "%s: %s", path, strerror(errno));
		return ret;
	}
	while (n < sizeof(buf)) {
		r = read(fd, buf + n, sizeof(buf) - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	if (fstat(fd, &st))
		st.st_mode = 0;
	close(fd);
	if (n == MCAST_KEY_LEN) {
		memcpy(key, buf, MCAST_KEY_LEN);
	} else if (!parse_hex_key(buf, n, key)) {
		snprintf(err, PARSE_ERR_MAX, "%s: expected %d bytes, or %d hex digits",
			 path, MCAST_KEY_LEN, 2 * MCAST_KEY_LEN);
		ret = -EINVAL;
	}
	explicit_bzero(buf, sizeof(buf));
	*open_to_others = st.st_mode & 0077;
	return ret;
}
