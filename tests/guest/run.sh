#!/bin/sh
# Guest side of 'make check': runs in one boot, writes every result file to
# $HARNESS_OUT for the host to parse.  Usage (in the guest, from the repo):
#   sh tests/guest/run.sh SELFTEST_DIR
set -u
out=${HARNESS_OUT:?}
st=$(realpath "$1")
repo=$(pwd)
export PERF="$repo/build/perf/perf" PATH="$repo/build/perf:$PATH"
dmesg > "$out/kunit.log"
echo "guest: $(nproc) CPUs, $(uname -r), KUnit log saved"
# kselftest PATH NAME
# The persistent kselftest injects machine checks, takes CPU 1 offline and
# writes perf_event_paranoid, the side-band one applies the root cgroup2
# controllers, only when asked to: this guest is for that.
kselftest() {
	t0=$(date +%s)
	(cd /tmp && PERF_TEST_MCE_INJECT=1 PERF_TEST_CPU_HOTPLUG=1 PERF_TEST_CGROUP_PRIME=1 \
		PERF_TEST_SYSCTL=1 timeout 300 "$1") > "$out/kselftest-$2.tap" 2>&1
	echo "# exit=$?" >> "$out/kselftest-$2.tap"
	echo "guest: kselftest perf_events/$2 ($(( $(date +%s) - t0 ))s)"
}
for t in "$st"/*; do
	[ -f "$t" ] && [ -x "$t" ] || continue
	kselftest "$t" "$(basename "$t")"
done
i=0
grep -v -e '^#' -e '^$' tests/perf-tests-guest.txt | while IFS= read -r t; do
	i=$((i + 1))
	t0=$(date +%s)
	# From tools/perf, where perf finds its shell tests (tests/shell).
	# The persistent tests inject machine checks only when asked to.
	(cd build/linux/tools/perf && PERF_TEST_MCE_INJECT=1 timeout 300 \
		"$repo/build/perf/perf" test "$t") \
		> "$out/perftest-guest-$i.txt" 2>&1
	echo "guest: perf test '$t' ($(( $(date +%s) - t0 ))s)"
done
: > "$out/e2e.txt"
for t in "$repo"/tests/e2e/*.sh; do
	[ -f "$t" ] || continue
	n=$(basename "$t" .sh)
	t0=$(date +%s)
	(cd /tmp && timeout 300 sh "$t") > "$out/e2e-$n.log" 2>&1
	rc=$?
	echo "guest: e2e $n ($(( $(date +%s) - t0 ))s)"
	case $rc in
	0) echo "PASS e2e/$n" ;;
	2) echo "SKIP e2e/$n $(tail -n 1 "$out/e2e-$n.log")" ;;
	*) echo "FAIL e2e/$n exit $rc (log: e2e-$n.log)" ;;
	esac >> "$out/e2e.txt"
done
echo "guest: done"
