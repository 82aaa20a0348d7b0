// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A tiny streaming JSON writer (see json.h).
 */
#include <inttypes.h>
#include <math.h>

#include "json.h"

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->bad = false;
	j->after_key = false;
	j->first[0] = true;
}

/* Whether the innermost open container is an object (else an array). */
static bool in_object(const struct json *j)
{
	return j->depth > 0 && j->is_obj[j->depth];
}

/*
 * Everything written is a value, a key, or a container end; each decides
 * here whether it needs a comma, and whether it is allowed at all.
 */
static void before_value(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (in_object(j) || (j->depth == 0 && !j->first[0])) {
		/* an object member without a key, or a second document */
		j->bad = true;
		return;
	}
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
}

static void open_container(struct json *j, bool obj)
{
	before_value(j);
	if (j->depth == JSON_MAX_DEPTH) {
		j->bad = true;
		return;
	}
	fputc(obj ? '{' : '[', j->f);
	j->depth++;
	j->is_obj[j->depth] = obj;
	j->first[j->depth] = true;
}

static void close_container(struct json *j, bool obj)
{
	if (j->depth == 0 || j->is_obj[j->depth] != obj || j->after_key) {
		j->bad = true;
		return;
	}
	j->depth--;
	fputc(obj ? '}' : ']', j->f);
}

void json_obj_begin(struct json *j)
{
	open_container(j, true);
}

void json_obj_end(struct json *j)
{
	close_container(j, true);
}

void json_arr_begin(struct json *j)
{
	open_container(j, false);
}

void json_arr_end(struct json *j)
{
	close_container(j, false);
}

/* RFC 8259 section 7: quote, backslash and control characters escaped. */
static void write_string(FILE *f, const char *s)
{
	const unsigned char *p;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void json_key(struct json *j, const char *key)
{
	if (!in_object(j) || j->after_key) {
		j->bad = true;
		return;
	}
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
	write_string(j->f, key);
	fputc(':', j->f);
	j->after_key = true;
}

void json_int(struct json *j, int64_t v)
{
	before_value(j);
	fprintf(j->f, "%" PRId64, v);
}

void json_uint(struct json *j, uint64_t v)
{
	before_value(j);
	fprintf(j->f, "%" PRIu64, v);
}

void json_double(struct json *j, double v)
{
	before_value(j);
	/* JSON has no NaN or infinity */
	if (isfinite(v))
		fprintf(j->f, "%.10g", v);
	else
		fputs("null", j->f);
}

void json_bool(struct json *j, bool v)
{
	before_value(j);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j)
{
	before_value(j);
	fputs("null", j->f);
}

void json_str(struct json *j, const char *s)
{
	before_value(j);
	write_string(j->f, s);
}

void json_key_int(struct json *j, const char *key, int64_t v)
{
	json_key(j, key);
	json_int(j, v);
}

void json_key_uint(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_uint(j, v);
}

void json_key_str(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_str(j, s);
}

void json_key_bool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}

int json_finish(struct json *j)
{
	if (j->depth != 0 || j->after_key || j->first[0])
		j->bad = true;
	fputc('\n', j->f);
	return j->bad || ferror(j->f) ? -1 : 0;
}
