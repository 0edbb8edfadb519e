#!/bin/sh
# The distribution's perf, built without the persistent events series (e.g.
# Debian's perf 6.1), on the patched kernel: it cannot parse the persistent
# PMU's attr<num> format and drops that PMU, but every other PMU must keep
# working, and it reads what this series' perf records from a persistent
# event.  Guest-only (run as root): exit 0 ok, 1 failed, 2 skipped (no
# /usr/bin/perf).  DISTRO_PERF overrides the binary.
set -u
P=${DISTRO_PERF:-/usr/bin/perf}
W=$(mktemp -d /tmp/e2e-distro-perf.XXXXXX)
trap 'rm -rf "$W"' EXIT
fail() { echo "distro-perf: $*"; echo "[Failed] $*"; exit 1; }

if [ ! -x "$P" ]; then
	echo "distro-perf: no $P [Skipped]"
	exit 2
fi
echo "distro-perf: $("$P" version 2>&1)"
[ -d /sys/bus/event_source/devices/msr ] ||
	fail "no msr PMU in this guest (CONFIG_X86_MSR... / CONFIG_PERF_EVENTS_MSR?)"

"$P" list > "$W/list" 2>&1 || { cat "$W/list"; fail "perf list failed"; }
grep -q 'msr/tsc/' "$W/list" || { cat "$W/list"; fail "perf list does not list msr/tsc/"; }

"$P" stat -a -x, -e msr/tsc/ -- true > "$W/stat" 2>&1 ||
	{ cat "$W/stat"; fail "perf stat -a -e msr/tsc/ failed"; }
line=$(grep 'msr/tsc/' "$W/stat")
case $line in
[0-9]*) ;;
*) cat "$W/stat"; fail "perf stat -a -e msr/tsc/ counted nothing" ;;
esac
echo "distro-perf: perf stat: $line"

# A perf.data recorded from a persistent event by this series' perf ($PERF)
# is a plain tracepoint recording to any perf: the distribution's perf reads
# it without a warning, with the event's name, and shows its records.
INJ=/sys/kernel/debug/mce-inject
if [ -e /sys/bus/event_source/devices/persistent/events/mce_record ]; then
	NEW=${PERF:-build/perf/perf}
	[ -x "$NEW" ] || fail "no perf of this series at $NEW"
	[ -d "$INJ" ] || fail "$INJ missing (CONFIG_X86_MCE_INJECT, debugfs)"
	printf 'sw\n' > "$INJ/flags"
	echo 0x8c00000000000161 > "$INJ/status"
	echo 0x7654000 > "$INJ/addr"
	echo 1 > "$INJ/cpu"
	echo 2 > "$INJ/bank"
	"$NEW" record -a -e persistent/mce_record/ -o "$W/p.data" -- sleep 1 \
		> "$W/rec" 2>&1 || { cat "$W/rec"; fail "$NEW record of persistent/mce_record/ failed"; }
	"$P" script -i "$W/p.data" > "$W/script" 2> "$W/script.err"
	rc=$?
	[ $rc = 0 ] ||
		{ cat "$W/script.err"; fail "$P script of a persistent perf.data exited $rc"; }
	[ -s "$W/script.err" ] &&
		{ cat "$W/script.err"; fail "$P script of a persistent perf.data printed on stderr"; }
	grep -q 'mce_record.*MC2: 8c00000000000161, .*ADDR: 0000000007654000,' "$W/script" ||
		{ tail -n 5 "$W/script"; fail "$P script does not show the recorded error"; }
	echo "distro-perf: $P script: $(grep -c mce_record "$W/script") records"
	"$P" report --header-only -i "$W/p.data" > "$W/hdr" 2>&1 ||
		{ cat "$W/hdr"; fail "$P report --header-only failed"; }
	grep -q '^# event : name = persistent/mce_record/' "$W/hdr" ||
		{ cat "$W/hdr"; fail "$P report --header-only: no event description"; }
	if grep -q -e 'event desc: not available' -e 'Reserved bits' "$W/hdr"; then
		cat "$W/hdr"; fail "$P report --header-only: event descriptions dropped"
	fi
fi

# What it says about the persistent PMU, for the record (not a failure).
if [ -d /sys/bus/event_source/devices/persistent ]; then
	"$P" stat -a -e persistent/mce_record/ -- true > "$W/p" 2>&1
	echo "distro-perf: persistent/mce_record/ (expected to fail):"
	sed 's/^/  /' "$W/p"
	"$P" list 2>/dev/null | grep -q 'persistent/' &&
		echo "distro-perf: (this perf lists the persistent PMU)"
fi
echo "distro-perf: ok"
