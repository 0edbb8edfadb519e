#!/bin/sh
# make check: every test, in three lanes at once, then one summary line
# "N passed, N failed".
#   guest lane:  one guest boot that runs KUnit + kselftests + end-to-end
#                tests, then the machine check boot cases;
#   reboot lane: the machine check records across a reboot (two boots on
#                one RAM file per case);
#   host lane:   checkpatch, sparse, perf test and the libperf tests on the
#                host, then the harness self-tests.
# A TCG guest keeps about one core busy on average (it waits for its
# tests' sleeps and timeouts, and perf's startup in the guest is slow, not
# CPU-bound on the host): one after the other the lanes took 999 s with
# the cores half idle; side by side the longest lane sets the time.  Each
# lane writes its own results file and log; they are put together in this
# order at the end, so the report does not depend on which lane ends first.
set -u
R=build/check
rm -rf "$R"; mkdir -p "$R"
res=$R/results.txt
: > "$res"
step() { sh scripts/step.sh "$@"; }

guest_lane() {
	r=$R/results.guest
	: > "$r"
	# One boot: KUnit at boot (kunit.enable=1), then kselftests and e2e.
	step "guest tests (KUnit, kselftests, e2e)" \
		sh scripts/vm.sh --timeout "${CHECK_TIMEOUT:-1200}" \
		--out "$R/guest" --append "kunit.enable=1" \
		-- sh tests/guest/run.sh build/selftests/perf_events > "$R/guest-stage.log" 2>&1
	rc=$?
	if [ $rc != 0 ]; then
		echo "FAIL guest-boot (vm.sh exit $rc, see $R/guest/console.log)" >> "$r"
	fi
	sh scripts/kunit2results.sh "$R/guest/kunit.log" >> "$r"
	for t in "$R"/guest/kselftest-*.tap; do
		[ -f "$t" ] || continue
		n=${t##*/kselftest-}; n=${n%.tap}
		sh scripts/tap2results.sh "perf_events/$n/" "$t" >> "$r"
	done
	for t in "$R"/guest/perftest-guest-*.txt; do
		[ -f "$t" ] && sh scripts/perftest2results.sh "$t" >> "$r"
	done
	[ -f "$R/guest/e2e.txt" ] && cat "$R/guest/e2e.txt" >> "$r"
	# Boots with other command lines and CPUs: where mce_record must be.
	step "machine check boot cases" sh scripts/check-mce-boot.sh "$r"
}

reboot_lane() {
	r=$R/results.reboot
	: > "$r"
	# Two boots on one RAM file: the previous boot's machine check
	# records, after a fatal machine check and after a warm reboot.
	step "machine check records across a reboot" sh scripts/check-reboot.sh "$r"
}

host_lane() {
	r=$R/results.host
	: > "$r"
	step "checkpatch --strict" sh scripts/check-patches.sh "$r"
	step "sparse (touched dirs vs base)" sh scripts/check-sparse.sh "$r"
	step "perf test (host)" sh scripts/check-perftest.sh "$r"
	step "libperf unit tests (host)" sh scripts/check-libperf.sh "$r"
	step "harness self-tests" sh scripts/check-harness.sh "$r"
}

guest_lane > "$R/lane-guest.log" 2>&1 < /dev/null &
g=$!
reboot_lane > "$R/lane-reboot.log" 2>&1 < /dev/null &
b=$!
trap 'kill $g $b 2>/dev/null' INT TERM HUP
host_lane
wait $g
wait $b
trap - INT TERM HUP
cat "$R/lane-guest.log" "$R/guest-stage.log" "$R/lane-reboot.log"
for l in guest reboot host; do
	[ -f "$R/results.$l" ] || echo "FAIL lane-$l (no results: see $R/lane-$l.log)" >> "$res"
	cat "$R/results.$l" >> "$res" 2>/dev/null
done
echo
sh scripts/results.sh "$res" tests/known-failures.txt
