// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * --complete: the options of getopt_long tables, for shell completion.
 */
#include <stdio.h>
#include <string.h>

#include "complete.h"

/* @o's entry for @word: "--name", or "-c" with c its short option. */
static bool matches(const struct option *o, const char *word)
{
	if (word[0] != '-')
		return false;
	if (word[1] == '-')
		return !strcmp(word + 2, o->name);
	return o->flag == NULL && o->val == (unsigned char)word[1] &&
	       word[1] && !word[2];
}

bool complete_takes_value(const struct option *const *tabs, const char *word)
{
	const struct option *o;

	for (; *tabs; tabs++) {
		for (o = *tabs; o->name; o++) {
			if (matches(o, word))
				return o->has_arg == required_argument;
		}
	}
	return false;
}

/* Whether an earlier table than @tab (in @tabs) has @name already. */
static bool seen(const struct option *const *tabs,
		 const struct option *const *tab, const char *name)
{
	const struct option *o;

	for (; tabs < tab; tabs++) {
		for (o = *tabs; o->name; o++) {
			if (!strcmp(o->name, name))
				return true;
		}
	}
	return false;
}

void complete_opts(const struct option *const *tabs, int n, char **words)
{
	const struct option *const *tab;
	const struct option *o;

	if (n > 0 && complete_takes_value(tabs, words[n - 1]))
		return;
	for (tab = tabs; *tab; tab++) {
		for (o = *tab; o->name; o++) {
			if (!seen(tabs, tab, o->name))
				printf("--%s\n", o->name);
		}
	}
}
