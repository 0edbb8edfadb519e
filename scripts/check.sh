#!/bin/sh
# make check: harness self-tests, then checkpatch, sparse and perf test on the
# host while one guest boot runs KUnit + kselftests + end-to-end tests; one
# summary line "N passed, N failed".
set -u
R=build/check
rm -rf "$R"; mkdir -p "$R"
res=$R/results.txt
: > "$res"
step() { sh scripts/step.sh "$@"; }

step "harness self-tests" sh scripts/check-harness.sh "$res"

# One boot: KUnit at boot (kunit.enable=1), then kselftests and e2e tests.
# Most of it is waiting for the mmap kselftest's timeouts (see
# tests/guest/run.sh), so it runs in the background beside the host-side
# stages; its lines are printed when it has ended.
step "guest tests (KUnit, kselftests, e2e; beside the next stages)" \
	sh scripts/vm.sh --timeout "${CHECK_TIMEOUT:-1200}" \
	--out "$R/guest" --append "kunit.enable=1" \
	-- sh tests/guest/run.sh build/selftests/perf_events > "$R/guest-stage.log" 2>&1 &
guest=$!

step "checkpatch --strict" sh scripts/check-patches.sh "$res"
step "sparse (touched dirs vs base)" sh scripts/check-sparse.sh "$res"
step "perf test (host)" sh scripts/check-perftest.sh "$res"
step "libperf unit tests (host)" sh scripts/check-libperf.sh "$res"

wait "$guest"
rc=$?
cat "$R/guest-stage.log"
if [ $rc != 0 ]; then
	echo "FAIL guest-boot (vm.sh exit $rc, see $R/guest/console.log)" >> "$res"
fi
sh scripts/kunit2results.sh "$R/guest/kunit.log" >> "$res"
for t in "$R"/guest/kselftest-*.tap; do
	[ -f "$t" ] || continue
	n=${t##*/kselftest-}; n=${n%.tap}
	sh scripts/tap2results.sh "perf_events/$n/" "$t" >> "$res"
done
for t in "$R"/guest/perftest-guest-*.txt; do
	[ -f "$t" ] && sh scripts/perftest2results.sh "$t" >> "$res"
done
[ -f "$R/guest/e2e.txt" ] && cat "$R/guest/e2e.txt" >> "$res"
# Boots with other command lines and CPUs: where mce_record must be.
step "machine check boot cases" sh scripts/check-mce-boot.sh "$res"
# Two boots on one RAM file: the previous boot's machine check records,
# after a fatal machine check and after a warm reboot.
step "machine check records across a reboot" sh scripts/check-reboot.sh "$res"
echo
sh scripts/results.sh "$res" tests/known-failures.txt
