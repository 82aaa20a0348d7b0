# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Reads the serial console log of one test VM boot (tests/vm/guest/init
# prints the markers) and writes records for tests/vm/run.sh, which numbers
# them into one TAP stream:
#   T <TAB> ok|not ok <TAB> description
#   D <TAB> # diagnostic
#
# Variables (-v): ver (kernel version, prefixed to every description so the
# results of several kernels stay apart), mark (the marker prefix), bad (ERE
# of kernel log lines that fail the boot), qrc (QEMU's exit status; 124 is
# the host timeout), timeout (its length), logfile (the log's path, for
# diagnostics).  POSIX awk: Debian's default is mawk.

function rec(status, desc) {
	printf "T\t%s\t[%s] %s\n", status, ver, desc
}

function diag(s) {
	printf "D\t# %s\n", s
}

# A test's TAP must be complete: a plan, as many results as planned, and a
# zero exit status (a crash or timeout after the last `ok` still fails).
function end_test(cut) {
	if (cut)
		rec("not ok", name ": output cut off (guest died during it?)")
	else if (planned < 0)
		rec("not ok", name ": printed a plan")
	else if (planned != n)
		rec("not ok", name ": ran " n " of " planned " planned tests")
	else if (rc != 0 && failed == 0)
		rec("not ok", name ": exited with status " rc \
		    (rc == 143 ? " (killed by the guest test timeout)" : ""))
	name = ""
}

function tap_line(	st, d) {
	if ($0 ~ /^(not )?ok([ \t]|$)/) {
		st = ($0 ~ /^not/) ? "not ok" : "ok"
		d = $0
		sub(/^(not )?ok[ \t]*[0-9]*[ \t]*(-[ \t]*)?/, "", d)
		n++
		if (st == "not ok")
			failed++
		rec(st, name ": " d)
	} else if ($0 ~ /^1\.\.[0-9]+/) {
		planned = $0
		sub(/^1\.\./, "", planned)
		planned += 0
		if (planned == 0) {
			d = $0
			sub(/^1\.\.0[ \t]*(#[ \t]*)?([Ss][Kk][Ii][Pp][^ \t]*[ \t]*)?/, "", d)
			rec("ok", name ": skipped # SKIP " d)
		}
	} else if ($0 ~ /^Bail out!/) {
		failed++
		rec("not ok", name ": " $0)
	} else if ($0 ~ /^#/) {
		printf "D\t%s\n", $0
	} else if ($0 != "") {
		diag($0)
	}
}

# Serial lines end in CR; the firmware also prints terminal escapes.
{
	sub(/\r$/, "")
	gsub(/\033\[[0-9;?]*[A-Za-z]|\033c/, "")
	tail[NR % 30] = $0
}

$0 == mark " TESTS-BEGIN" { intests = 1; next }
$0 == mark " TESTS-END" {
	if (name != "")
		end_test(1)
	intests = 0
	next
}
$0 == mark " DMESG-BEGIN" { indmesg = 1; next }
$0 == mark " DMESG-END" { indmesg = 0; dmesg_done = 1; next }
$0 == mark " DONE" { done = 1; next }
index($0, mark " running ") == 1 {
	running = substr($0, length(mark " running ") + 1)
	next
}
# "ran NAME in N s": one diagnostic line lists them all at the end
index($0, mark " ran ") == 1 {
	times = times (times == "" ? "" : ", ") $(NF - 3) " " $(NF - 1) " s"
	next
}

intests && index($0, mark " TEST ") == 1 {
	if (name != "")
		end_test(1)
	name = substr($0, length(mark " TEST ") + 1)
	sub(/\.t$/, "", name)
	n = 0
	failed = 0
	planned = -1
	next
}
intests && index($0, mark " TEST-END ") == 1 {
	rc = $NF
	sub(/^rc=/, "", rc)
	rc += 0
	end_test(0)
	next
}
intests && name != "" { tap_line(); next }

# The kernel log: the dmesg section if the guest got that far, else what
# the console showed (only messages up to loglevel 4 there).
indmesg {
	if ($0 ~ bad)
		badk[++nbadk] = $0
	next
}
$0 ~ bad { badc[++nbadc] = $0 }

END {
	if (name != "")
		end_test(1)
	if (times != "")
		diag("test times: " times)
	if (done) {
		rec("ok", "guest ran all tests and powered off")
	} else {
		rec("not ok", "guest ran all tests and powered off")
		if (qrc == 124)
			why = "the boot timed out after " timeout " s"
		else
			why = "QEMU exit status " qrc
		if (running != "")
			why = why ", during " running
		diag("no end marker (" why "); last console lines:")
		for (i = NR - 29; i <= NR; i++)
			if (i > 0)
				diag("  " tail[i % 30])
	}

	if (!dmesg_done) {
		for (i = 1; i <= nbadc; i++)
			badk[++nbadk] = badc[i]
	}
	if (nbadk == 0) {
		rec("ok", "guest kernel log clean")
		if (!dmesg_done)
			diag("no dmesg dump: checked what the console showed (loglevel 4)")
	} else {
		rec("not ok", "guest kernel log clean")
		diag("the kernel log has " nbadk " bad line(s) (full log: " logfile "):")
		for (i = 1; i <= nbadk && i <= 50; i++)
			diag("  " badk[i])
	}
}
