#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# systemd/mcast-metrics.service and .timer as make install-system installs
# them: the service's own shell command, run here with a stand-in
# mcastctl, writes mcast.prom for node_exporter's textfile collector
# atomically (the old file whole until the new one is renamed over it,
# the temporary one never *.prom and never left behind), and removes it
# when mcastctl fails.  systemd-analyze verify checks both units when it
# is installed.  And every metric of utils/mcastctl/statprom.c is
# documented, in docs/metrics.md and mcastctl(8), and no other.  The real
# mcastctl stats show --prometheus runs in the VM tests; its output is
# tests/unit/test_stats.c's.

set -u

cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=tests/cli/tap.sh
. tests/cli/tap.sh

root=$tmp/root
bin=$tmp/bin
dir=$tmp/textfile
mkdir -p "$bin" "$dir"
out=$(env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s --no-print-directory \
	install-system DESTDIR="$root" BINDIR="$bin" 2>&1)
ok $? "make install-system DESTDIR=... succeeds" "$out"
unit=$(find "$root" -name mcast-metrics.service)
timer=$(find "$root" -name mcast-metrics.timer)
[ -f "$unit" ] && [ -f "$timer" ]
ok $? "it installs mcast-metrics.service and mcast-metrics.timer" \
	"$(find "$root" -type f)"
if [ ! -f "$unit" ]; then
	done_testing
	exit 1
fi
! grep -q @BINDIR@ "$unit" && grep -q "^ExecStart=.*$bin/mcastctl stats show --prometheus" "$unit"
ok $? "the service runs the installed mcastctl stats show --prometheus" \
	"$(grep ExecStart "$unit")"

# The Debian directory, in all three places a drop-in has to change.
deb=/var/lib/prometheus/node-exporter
[ "$(grep -c "^Environment=MCAST_PROM_DIR=$deb$\|^ReadWritePaths=$deb$\|^ConditionPathIsDirectory=$deb$" "$unit")" -eq 3 ]
ok $? "MCAST_PROM_DIR, ReadWritePaths and the condition name $deb"
grep -q '^OnUnitActiveSec=15s$' "$timer" && grep -q '^WantedBy=timers.target$' "$timer"
ok $? "the timer runs it every 15 s, from timers.target"

if command -v systemd-analyze > /dev/null; then
	out=$(cd "$(dirname "$unit")" && systemd-analyze verify --man=no \
		./mcast-metrics.service ./mcast-metrics.timer 2>&1)
	[ -z "$out" ]
	ok $? "systemd-analyze verify: no complaint" "$out"
else
	echo "ok $((n += 1)) - systemd-analyze verify # SKIP no systemd-analyze"
fi

# ExecStart= is /bin/sh -c '...': the script, with systemd's $$ (a
# literal $) undone as systemd does.
script=$(sed -n "s|^ExecStart=/bin/sh -c '\(.*\)'$|\1|p" "$unit" | sed 's/\$\$/$/g')
[ -n "$script" ]
ok $? "ExecStart is one sh -c script" "$(grep ExecStart "$unit")"

# The stand-in: notes its arguments, what the directory holds while it
# writes, and prints FAKE_OUT in two pieces; exits FAKE_RC.
cat > "$bin/mcastctl" <<'FAKE'
#!/bin/sh
echo "$*" > "$FAKE_LOG/args"
printf '%s' "${FAKE_OUT%%;*}"
ls "$MCAST_PROM_DIR" > "$FAKE_LOG/ls"
cat "$MCAST_PROM_DIR/mcast.prom" > "$FAKE_LOG/seen" 2> /dev/null || : > "$FAKE_LOG/seen"
printf '%s\n' "${FAKE_OUT#*;}"
exit "${FAKE_RC:-0}"
FAKE
chmod 0755 "$bin/mcastctl"
log=$tmp/log
mkdir -p "$log"

run() {	# run RC OUT: the script once; its exit status
	FAKE_LOG=$log FAKE_RC=$1 FAKE_OUT=$2 MCAST_PROM_DIR=$dir \
		sh -c "$script" > "$log/stdout" 2>&1
}

one='# TYPE mcast_files gauge;mcast_files{node="1"} 2'
run 0 "$one"
rc=$?
[ $rc -eq 0 ] && [ "$(cat "$dir/mcast.prom")" = "${one%%;*}${one#*;}" ]
ok $? "success: mcast.prom is mcastctl's output" \
	"exit $rc; $(cat "$log/stdout"); $(cat "$dir/mcast.prom" 2>&1)"
[ "$(cat "$log/args")" = "stats show --prometheus" ]
ok $? "mcastctl got stats show --prometheus" "$(cat "$log/args")"
[ "$(ls "$dir")" = mcast.prom ]
ok $? "no temporary file left" "$(ls "$dir")"
tmpname=$(cat "$log/ls")
[[ $tmpname == mcast.prom.* && $tmpname != *.prom ]]
ok $? "while written it is mcast.prom.PID, not *.prom the collector reads" \
	"$tmpname"

two='# TYPE mcast_files gauge;mcast_files{node="1"} 5'
run 0 "$two"
[ "$(cat "$log/seen")" = "${one%%;*}${one#*;}" ] &&
	[ "$(cat "$dir/mcast.prom")" = "${two%%;*}${two#*;}" ]
ok $? "the old mcast.prom stays whole until the new one replaces it" \
	"seen: $(cat "$log/seen"); now: $(cat "$dir/mcast.prom")"

run 4 "$two"
rc=$?
[ $rc -ne 0 ] && [ -z "$(ls "$dir")" ]
ok $? "mcastctl fails: the unit fails, mcast.prom and the partial file removed" \
	"exit $rc; left: $(ls "$dir")"

# --- the documentation names every metric, and only those
names=$(grep -o '"mcast_[a-z_]*"' utils/mcastctl/statprom.c | tr -d '"' | sort -u)
[ "$(printf '%s\n' "$names" | wc -l)" -ge 50 ]
ok $? "statprom.c's metric names found" "$names"
for doc in docs/metrics.md utils/mcastctl/mcastctl.8; do
	missing=
	for m in $names; do
		grep -qw "$m" "$doc" || missing+=" $m"
	done
	[ -z "$missing" ]
	ok $? "$doc names every metric" "missing:$missing"
done
# shellcheck disable=SC2016 # the backquotes are markdown's
table=$(grep -o '^| `mcast_[a-z_]*`' docs/metrics.md | tr -d '|` ' | sort)
[ "$table" = "$names" ]
ok $? "docs/metrics.md's tables: each metric once, no other" \
	"$(diff <(printf '%s\n' "$table") <(printf '%s\n' "$names"))"

done_testing
tap_exit
