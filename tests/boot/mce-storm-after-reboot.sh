#!/bin/sh
# Guest side of boot 2 of the mce-reboot/storm case (scripts/check-reboot.sh),
# booted on the RAM that boot 1 (tests/boot/mce-storm-before-reboot.sh) left
# when the fatal machine check panicked it in the middle of a storm of
# corrected errors.  Checks, with perf record -a -e
# persistent/mce_record_previous/ and perf script:
#   - info/mce_record_previous.boot_id is BOOT_ID (boot 1's), release RELEASE;
#   - the fatal error is there: ADDR FATAL_ADDR, bank 4, status
#     b600000000000151, once, the last record of CPU 1's buffer (the other
#     CPU's may have later ones: it runs until the panic stops it);
#   - every other record is one that boot 1 injected: bank 4, status
#     9c00000000000042, MISC = I with 1 <= I <= MAX (MAX: the most boot 1
#     can have injected), ADDR = 0x10000000 + I * 0x1000, each I at most
#     once, each CPU's buffer in the order injected; no other line in perf
#     script's output.
# Usage: mce-storm-after-reboot.sh BOOT_ID RELEASE MAX FATAL_ADDR
# Prints "mce-storm-after: ok, N storm records ..." on success, else
# "mce-storm-after: FAIL: ..." lines (all that fail), then the result line
# "mce-storm-after: result fatal=found|missing storm=N".
set -u
PERF=${PERF:-$(pwd)/build/perf/perf}
P=/sys/bus/event_source/devices/persistent
I=$P/info/mce_record_previous
failed=0
fail() { echo "mce-storm-after: FAIL: $*"; failed=1; }
[ $# = 4 ] || { fail "usage: mce-storm-after-reboot.sh BOOT_ID RELEASE MAX FATAL_ADDR"; exit 1; }
boot_id=$1 release=$2 max=$3 fatal=$(printf '%x' "$(($4))")
[ -e $P/events/mce_record_previous ] || {
	dmesg | grep -iE 'persistent|reserve_mem|previous boot' | grep -v 'ommand line' | sed 's/^/  dmesg: /'
	fail "no $P/events/mce_record_previous: the previous boot's records are not offered"
	echo "mce-storm-after: result fatal=missing storm=0"
	exit 1
}
[ "$(cat $I.boot_id 2>&1)" = "$boot_id" ] ||
	fail "$I.boot_id is $(cat $I.boot_id 2>&1), boot 1 printed $boot_id"
[ "$(cat $I.release 2>&1)" = "$release" ] ||
	fail "$I.release is $(cat $I.release 2>&1), boot 1 ran $release"
cd /tmp || exit 1
if ! "$PERF" record -a -e persistent/mce_record_previous/ -o prev.data -- sleep 1 > prev.err 2>&1; then
	cat prev.err
	fail "perf record -e persistent/mce_record_previous/ failed"
elif ! "$PERF" script --show-lost-events -i prev.data > prev.txt 2> prev.script.err; then
	cat prev.script.err
	fail "perf script -i prev.data failed"
fi
[ -f prev.txt ] || : > prev.txt
# One line per record: what is wrong with it, or "storm I" / "fatal"; then
# a summary line "summary STORM FATAL LOST".
awk -v max="$max" -v fatal="$fatal" '
	function hex(s,   i, c, v) {	# hex digits, no 0x; -1 if not hex
		v = 0; s = tolower(s)
		if (s == "") return -1
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1))
			if (!c) return -1
			v = v * 16 + c - 1
		}
		return v
	}
	function field(name,   r) {	# the value after "name: " up to ","
		if (!match($0, name ": [^,]*")) return ""
		r = substr($0, RSTART + length(name) + 2, RLENGTH - length(name) - 2)
		return r
	}
	/PERF_RECORD_LOST/ { lost++; print "lost " $0; next }
	!/ persistent\/mce_record_previous\/: CPU: / { print "bad: not an mce_record_previous record: " substr($0, 1, 160); next }
	{
		n++
		bank = ""; status = ""; cpu = -1
		if (match($0, "\\[[0-9]+\\]")) cpu = substr($0, RSTART + 1, RLENGTH - 2) + 0
		if (match($0, "MC[0-9]+: [0-9a-f]+")) {
			split(substr($0, RSTART + 2, RLENGTH - 2), a, ": ")
			bank = a[1]; status = a[2]
		}
		addr = hex(field("ADDR")); misc = hex(field("MISC"))
		# the fatal error is the last record of its CPU (the one it came
		# on); the other CPU goes on until the panic stops it
		if (fatal_seen && cpu == fatal_cpu) print "bad: a record after the fatal error in the buffer of CPU " cpu ": " substr($0, 1, 160)
		if (addr == hex(fatal)) {
			if (bank != 4 || status != "b600000000000151")
				print "bad: the fatal error (ADDR " fatal ") with bank " bank " status " status
			else if (fatal_seen)
				print "bad: the fatal error twice"
			else if (cpu != 1)
				print "bad: the fatal error in the buffer of CPU " cpu ", it came on CPU 1"
			else { print "fatal"; fatal_seen = 1; fatal_cpu = cpu }
			next
		}
		if (bank != 4 || status != "9c00000000000042") {
			print "bad: bank " bank " status " status " was not injected: " substr($0, 1, 160); next
		}
		if (misc < 1 || misc > max || misc != int(misc)) {
			print "bad: MISC " field("MISC") " is no injected error number (1.." max "): " substr($0, 1, 160); next
		}
		if (addr != 268435456 + misc * 4096) {
			print "bad: ADDR " field("ADDR") " does not match MISC " field("MISC") " (error " misc " had ADDR " sprintf("%x", 268435456 + misc * 4096) ")"; next
		}
		if (misc in seen) { print "bad: error " misc " twice"; next }
		# the buffer of one CPU has its records in the order injected
		if (misc < lastof[cpu]) print "bad: error " misc " after error " lastof[cpu] " in the buffer of CPU " cpu " (out of injection order)"
		seen[misc] = 1; lastof[cpu] = misc; storm++; oncpu[cpu]++
		if (misc > last) last = misc
		if (!first || misc < first) first = misc
		print "storm " misc
	}
	END {
		printf "summary %d %d %d %d %d\n", storm, fatal_seen, lost, first, last
		for (c in oncpu) printf "buffer of CPU %d: %d storm records\n", c, oncpu[c]
	}
' prev.txt > prev.check
# shellcheck disable=SC2046 # five numbers
set -- $(sed -n 's/^summary //p' prev.check)
storm=${1:-0} fseen=${2:-0} lost=${3:-0} first=${4:-0} last=${5:-0}
if grep -q '^bad: ' prev.check; then
	nbad=$(grep -c '^bad: ' prev.check)
	fail "$nbad records that boot 1 did not inject as such, the first: $(grep -m1 '^bad: ' prev.check | sed 's/^bad: //')"
	grep '^bad: ' prev.check | head -n 10 | sed 's/^/  /'
fi
[ "$fseen" = 1 ] || fail "the fatal error (ADDR 0x$fatal, status b600000000000151) is not in mce_record_previous ($storm storm records there, the last error $last)"
[ "$storm" -gt 0 ] || fail "no storm record in mce_record_previous"
said=$(dmesg | sed -n 's/.*mce_record: \([0-9]*\) records of the previous boot.*/\1/p' | head -n 1)
echo "mce-storm-after: the kernel offers ${said:-?} records of the previous boot; $(wc -l < prev.txt) lines of perf script: $storm storm records (errors $first..$last of at most $max injected), fatal error $([ "$fseen" = 1 ] && echo found || echo missing), $lost PERF_RECORD_LOST"
grep '^buffer of CPU' prev.check | sed 's/^/  /'
grep -m1 PERF_RECORD_LOST prev.txt | cut -c1-200 | sed 's/^/  /'
tail -n 2 prev.txt | cut -c1-200 | sed 's/^/  last: /'
echo "mce-storm-after: result fatal=$([ "$fseen" = 1 ] && echo found || echo missing) storm=$storm lost=$lost"
[ $failed = 0 ] && echo "mce-storm-after: ok, $storm storm records, errors $first..$last, the fatal error last"
exit $failed
