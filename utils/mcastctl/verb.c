// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A command's verbs (node show, node set, ...) from one table: run_verb
 * dispatches on it and complete_verbs lists it for shell completion, so
 * a new verb cannot be missing from either.
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "mcastctl.h"

static const struct verb *find_verb(const struct verb *v, const char *name)
{
	for (; v->name; v++) {
		if (!strcmp(v->name, name))
			return v;
	}
	return NULL;
}

/* "show, add, del": the verbs, for an error message. */
static void verb_names(const struct verb *v, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	for (; v->name && len < size; v++)
		len += snprintf(buf + len, size - len, "%s%s", len ? ", " : "",
				v->name);
}

int run_verb(const char *what, const struct verb *verbs,
	     void (*usage)(FILE *f), int argc, char **argv)
{
	const struct verb *v;
	char names[128];

	/* no verb: the first (show), with argv[0] the command's name */
	if (argc < 2)
		return verbs->run(1, argv);
	v = find_verb(verbs, argv[1]);
	if (v)
		return v->run(argc - 1, argv + 1);
	if (is_help(argv[1])) {
		usage(stdout);
		return MCASTCTL_OK;
	}
	verb_names(verbs, names, sizeof(names));
	return usage_err(what, "unknown command \"%.64s\" (%s)", argv[1], names);
}

/* Prints @len bytes of @s, then a newline. */
static void put_word(const char *s, size_t len)
{
	printf("%.*s\n", (int)len, s);
}

/* Prints each "|"-separated word of @s's first @len bytes, one a line. */
static void put_values(const char *s, size_t len)
{
	const char *end = s + len, *bar;

	for (; s < end; s = bar + 1) {
		bar = memchr(s, '|', end - s);
		if (!bar)
			bar = end;
		if (bar > s)
			put_word(s, bar - s);
	}
}

/*
 * The value words of keyword @kw in @words ("kw=a|b": a and b), one a
 * line; true if @kw is a keyword that takes a value at all.
 */
static bool complete_value(const char *words, const char *kw)
{
	size_t klen = strlen(kw), n;

	for (; *words; words += n, words += strspn(words, " ")) {
		n = strcspn(words, " ");
		if (n > klen && !strncmp(words, kw, klen) && words[klen] == '=') {
			put_values(words + klen + 1, n - klen - 1);
			return true;
		}
	}
	return false;
}

/* Every keyword of @words, without its "=values". */
static void complete_keywords(const char *words)
{
	size_t n;

	for (; *words; words += n, words += strspn(words, " ")) {
		n = strcspn(words, " ");
		put_word(words, strcspn(words, "= "));
	}
}

void complete_verbs(const struct verb *verbs, int n, char **words)
{
	const struct verb *v;

	if (n == 0) {
		for (v = verbs; v->name; v++)
			put_word(v->name, strlen(v->name));
		put_word("help", 4);
		return;
	}
	v = find_verb(verbs, words[0]);
	if (!v)
		return;
	if (n > 1 && complete_value(v->words, words[n - 1]))
		return;
	complete_keywords(v->words);
}
