#!/bin/sh
# The distribution's perf, built without the persistent events series (e.g.
# Debian's perf 6.1), on the patched kernel: it cannot parse the persistent
# PMU's attr<num> format and drops that PMU, but every other PMU must keep
# working.  Guest-only (run as root): exit 0 ok, 1 failed, 2 skipped (no
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

# What it says about the persistent PMU, for the record (not a failure).
if [ -d /sys/bus/event_source/devices/persistent ]; then
	"$P" stat -a -e persistent/mce_record/ -- true > "$W/p" 2>&1
	echo "distro-perf: persistent/mce_record/ (expected to fail):"
	sed 's/^/  /' "$W/p"
	"$P" list 2>/dev/null | grep -q 'persistent/' &&
		echo "distro-perf: (this perf lists the persistent PMU)"
fi
echo "distro-perf: ok"
