/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A tiny streaming JSON writer.
 *
 * Values are written straight to a FILE* as they come, so printing a plan
 * of millions of hops needs no memory beyond the nesting stack.  The
 * writer inserts commas itself: callers just open, add and close.
 */
#ifndef MCASTCTL_JSON_H
#define MCASTCTL_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH	32

struct json {
	FILE *f;
	unsigned int depth;
	bool bad;			/* misuse seen: output is not valid */
	bool after_key;			/* a key was written, its value is next */
	bool first[JSON_MAX_DEPTH + 1];	/* nothing written yet at this level */
	bool is_obj[JSON_MAX_DEPTH + 1];/* the container at this level */
};

void json_init(struct json *j, FILE *f);

void json_obj_begin(struct json *j);
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j);
void json_arr_end(struct json *j);

/* An object member's name; the next value written is its value. */
void json_key(struct json *j, const char *key);

void json_int(struct json *j, int64_t v);
void json_uint(struct json *j, uint64_t v);
void json_double(struct json *j, double v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
void json_str(struct json *j, const char *s);

/* Shorthands for "key": value. */
void json_key_int(struct json *j, const char *key, int64_t v);
void json_key_uint(struct json *j, const char *key, uint64_t v);
void json_key_str(struct json *j, const char *key, const char *s);
void json_key_bool(struct json *j, const char *key, bool v);

/*
 * End the document with a newline.  Returns 0 when every container was
 * closed, the writer was used correctly and the stream has no error.
 */
int json_finish(struct json *j);

#endif /* MCASTCTL_JSON_H */
