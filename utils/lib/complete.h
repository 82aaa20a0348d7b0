/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Shell completion from the programs' own getopt_long tables: the hidden
 * first argument --complete makes mcastctl, mcastd and mcastmon print the
 * words that may come next, one a line, for utils/completion/mcast.bash.
 * The tables the parsers use are the only list of options.
 */
#ifndef MCAST_COMPLETE_H
#define MCAST_COMPLETE_H

#include <getopt.h>
#include <stdbool.h>

#define COMPLETE_ARG "--complete"

/*
 * @words (@n of them) are the words typed so far after the program (or
 * after mcastctl's command).  Prints every --long option of the tables
 * @tabs (NULL-terminated; an option in two tables once), or nothing when
 * the last word is an option that takes a value: the shell then completes
 * a file name.
 */
void complete_opts(const struct option *const *tabs, int n, char **words);

/* Whether @word is an option of @tabs that takes a value. */
bool complete_takes_value(const struct option *const *tabs, const char *word);

#endif
