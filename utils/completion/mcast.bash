# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# bash completion for mcastctl, mcastd and mcastmon (issue 44).
#
# The words come from the program itself: PROG --complete WORD... prints
# what may follow WORD... (the line so far) from the tables its parser
# uses, so this file lists no command and no option of its own.  When it
# prints nothing (a value, a FILE), bash completes file names (-o default).
#
# Installed as completions/mcastctl, with mcastd and mcastmon linked to it.

_mcast_complete()
{
	local cur=${COMP_WORDS[COMP_CWORD]} words

	words=$("$1" --complete "${COMP_WORDS[@]:1:COMP_CWORD-1}" 2> /dev/null) ||
		return 0
	mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
}

complete -o default -F _mcast_complete mcastctl mcastd mcastmon
