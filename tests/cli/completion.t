#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# bash completion (utils/completion/mcast.bash, issue 44): sourced into a
# bash, with COMP_WORDS/COMP_CWORD set as readline would, _mcast_complete
# must offer mcastctl's commands, each command's verbs, keywords, values
# and options, plan's options, and mcastd's and mcastmon's options; and
# what it offers must be what the usages document (the commands of
# mcastctl --help, the verbs of each COMMAND --help, every --option of
# plan --help), since both come from the parser's tables.  After an
# option that takes a value it offers nothing, so bash completes files.
#
# MCASTCTL, MCASTD, MCASTMON name the binaries (default build/...).

set -u

orig=$PWD
cd "$(dirname "$0")/../.." || exit 1
abs() { case $1 in /*) echo "$1" ;; *) echo "$orig/$1" ;; esac; }
MCASTCTL=$(abs "${MCASTCTL:-$PWD/build/mcastctl}")
MCASTD=$(abs "${MCASTD:-$PWD/build/mcastd}")
MCASTMON=$(abs "${MCASTMON:-$PWD/build/mcastmon}")
SCRIPT=$PWD/utils/completion/mcast.bash
for b in "$MCASTCTL" "$MCASTD" "$MCASTMON"; do
	if [ ! -x "$b" ]; then
		echo "Bail out! no binary at $b (set MCASTCTL, MCASTD, MCASTMON)"
		exit 1
	fi
done
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# the programs by the names the user types, as bash would find them
mkdir "$T/bin"
ln -s "$MCASTCTL" "$T/bin/mcastctl"
ln -s "$MCASTD" "$T/bin/mcastd"
ln -s "$MCASTMON" "$T/bin/mcastmon"

n=0
failed=0
ok() { # STATUS DESC [DIAG]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		[ -z "${3:-}" ] || printf '%s\n' "$3" | sed 's/^/# /'
		failed=$((failed + 1))
	fi
}

# offers WORD...: what a fresh bash with the script sourced puts in
# COMPREPLY for the line WORD... (the last word the one being completed),
# sorted, one a line.
offers() {
	PATH="$T/bin:$PATH" bash --norc --noprofile -c '
		source "$1" || exit 1
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		prev=
		[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
		_mcast_complete "$1" "${COMP_WORDS[COMP_CWORD]}" "$prev"
		[ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}"
	' bash "$SCRIPT" "$@" | sort
}

# words "LIST": its blank-separated words, sorted, one a line
words() { tr ' ' '\n' <<< "$1" | sed '/^$/d' | sort; }
# flat "LINES": on one line, for a diagnostic
flat() { tr '\n' ' ' <<< "$1"; }

# expect DESC "WORD ..." LINE...: exactly those words for LINE
expect() {
	local desc=$1 want got
	want=$(words "$2")
	shift 2
	got=$(offers "$@")
	[ "$got" = "$want" ]
	ok $? "$desc" "line: $*"$'\n'"want: $(flat "$want")"$'\n'"got:  $(flat "$got")"
}

# same DESC "LIST1" "LIST2": the same set of words
same() {
	local a b
	a=$(words "$2" | uniq)
	b=$(words "$3" | uniq)
	[ "$a" = "$b" ]
	ok $? "$1" "documented: $(flat "$a")"$'\n'"offered:    $(flat "$b")"
}

# -- the script itself
bash --norc --noprofile -c 'source "$1" && complete -p mcastctl mcastd mcastmon' \
	bash "$SCRIPT" > "$T/complete" 2>&1
[ "$(grep -c -- '-o default -F _mcast_complete' "$T/complete")" = 3 ]
ok $? "the script registers _mcast_complete for mcastctl, mcastd, mcastmon" \
	"$(cat "$T/complete")"
if command -v shellcheck > /dev/null; then
	out=$(shellcheck -s bash "$SCRIPT" 2>&1)
	ok $? "the script is shellcheck-clean" "$out"
else
	ok 0 "the script is shellcheck-clean # SKIP no shellcheck"
fi

# -- mcastctl: commands
cmds=$("$MCASTCTL" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
[ -n "$cmds" ]
ok $? "mcastctl --help lists commands" "$cmds"
got=$(offers mcastctl "" | grep -v '^-' | grep -vx help)
same "mcastctl <TAB>: every command of mcastctl --help" "$cmds" "$got"
expect "mcastctl <TAB>: the options before a command" \
	"-j --json -force -batch --help --version" mcastctl -
expect "mcastctl n<TAB>: node" "node" mcastctl n
expect "mcastctl -j st<TAB>: stats (after -j)" "stats" mcastctl -j st
expect "mcastctl help <TAB>: the commands" "$cmds" mcastctl help ""
expect "mcastctl -batch <TAB>: a file (nothing offered)" "" mcastctl -batch ""

# -- mcastctl: each command's verbs, as its usage names them
for c in node peer group stats cluster; do
	doc=$("$MCASTCTL" "$c" --help | sed -n "s/^.*mcastctl $c \([a-z-]*\).*/\1/p")
	got=$(offers mcastctl "$c" "" | grep -vx help)
	same "mcastctl $c <TAB>: the verbs of mcastctl $c --help" "$doc" "$got"
done
expect "mcastctl group s<TAB>" "set show" mcastctl group s

# -- keywords, values, options of a verb
expect "mcastctl node set tr<TAB>" "transport" mcastctl node set tr
expect "mcastctl node set key<TAB>" "key key-drop key-id key-next key-use" \
	mcastctl node set key
expect "mcastctl node set transport <TAB>: its values" "tcp udp" \
	mcastctl node set transport ""
expect "mcastctl node set coord <TAB>: a value, nothing offered" "" \
	mcastctl node set coord ""
expect "mcastctl node set algorithm mu<TAB>" "mu-torus" \
	mcastctl node set algorithm mu
expect "mcastctl peer show -<TAB>" "-s --stats -j --json" mcastctl peer show -
expect "mcastctl peer add 1,2 <TAB>" "id addr port" mcastctl peer add 1,2 ""
expect "mcastctl group set 5 managed <TAB>" "0 1" mcastctl group set 5 managed ""
expect "mcastctl group set 5 <TAB>" "epoch managed members" \
	mcastctl group set 5 ""
expect "mcastctl stats show --p<TAB>" "--prometheus" mcastctl stats show --p
expect "mcastctl cluster show <TAB>" "socket -j --json" mcastctl cluster show ""
expect "mcastctl frob <TAB>: nothing" "" mcastctl frob ""

# -- plan: its options are the planners' getopt tables, as documented
doc=$("$MCASTCTL" plan --help | grep -o -- '--[a-z][a-z-]*' | sort -u)
got=$(offers mcastctl plan --)
same "mcastctl plan --<TAB>: every option of mcastctl plan --help" "$doc" "$got"
expect "mcastctl plan --de<TAB>" "--dest --dests-file" mcastctl plan --de
expect "mcastctl plan -t <TAB>: a value, nothing offered" "" \
	mcastctl plan -t ""
expect "mcastctl plan --dests-file <TAB>: a file, nothing offered" "" \
	mcastctl plan --dests-file ""
expect "mcastctl plan -t torus:4x4 --tr<TAB>: after a value" "--tree" \
	mcastctl plan -t torus:4x4 --tr

# -- mcastd, mcastmon: their options, at least those the usages name
doc=$("$MCASTD" --help | grep -o -- '--[a-z][a-z-]*' | sort -u)
got=$(offers mcastd --)
missing=$(comm -23 <(echo "$doc") <(echo "$got"))
[ -n "$doc" ] && [ -z "$missing" ]
ok $? "mcastd --<TAB>: every option of mcastd --help" "missing: $missing"
expect "mcastd --c<TAB>" "--check --config" mcastd --c
expect "mcastd -c <TAB>: a file, nothing offered" "" mcastd -c ""
expect "mcastmon --<TAB>" "--count --help --json --version" mcastmon --
expect "mcastmon --count <TAB>: a value, nothing offered" "" \
	mcastmon --count ""

echo "1..$n"
[ "$failed" -eq 0 ]
