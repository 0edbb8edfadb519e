#!/bin/sh
# make check: harness self-tests, checkpatch, sparse, then one guest boot for
# KUnit + kselftests + end-to-end tests; one summary line "N passed, N failed".
set -u
R=build/check
rm -rf "$R"; mkdir -p "$R"
res=$R/results.txt
: > "$res"
step() { sh scripts/step.sh "$@"; }

step "harness self-tests" sh scripts/check-harness.sh "$res"
step "checkpatch --strict" sh scripts/check-patches.sh "$res"
step "sparse (touched dirs vs base)" sh scripts/check-sparse.sh "$res"
step "perf test (host)" sh scripts/check-perftest.sh "$res"

# One boot: KUnit at boot (kunit.enable=1), then kselftests and e2e tests.
step "guest tests (KUnit, kselftests, e2e)" sh scripts/vm.sh --timeout "${CHECK_TIMEOUT:-1200}" \
	--out "$R/guest" --append "kunit.enable=1" \
	-- sh tests/guest/run.sh build/selftests/perf_events
rc=$?
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
echo
sh scripts/results.sh "$res" tests/known-failures.txt
