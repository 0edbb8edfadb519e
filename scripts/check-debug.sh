#!/bin/sh
# make check-debug: one boot of the debug kernel (config/debug.config: KASAN,
# lockdep, PROVE_RCU, UBSAN, kmemleak, debug objects, ...) that runs the KUnit
# suites at boot, the perf_events kselftests, the persistent-event stress
# test and the attr fuzzer, scans for kernel memory leaks; then the machine
# check reboot cases (scripts/check-reboot.sh) on the debug kernel; and then
# fails if any test failed or a kernel log holds a splat.  The reboot cases
# "panic", "maxcpus" (boot 1), "loop" (boots 1 and 3) and "storm" (each
# trial) panic on purpose with a fatal machine check: in those console logs
# (panic-1, maxcpus-1, loop-1, loop-3, stormN-1) the
# panic line "Kernel panic - not syncing: Fatal [local ]machine check" and
# its "---[ end Kernel panic ... ]---" line are expected and not counted
# (check-reboot.sh fails the case when they are missing); any other splat
# line there counts (the panic's backtrace lines, "Call Trace:" and the
# frames, match no splat pattern).
#
# Usage: sh scripts/check-debug.sh            (from the repository root)
# Environment (defaults in brackets):
#   DEBUG_KERNEL     bzImage of the debug kernel [build/debug/arch/x86/boot/bzImage]
#   SELFTESTS        perf_events kselftest binaries [build/selftests/perf_events]
#   HARDENING_SRC    directory with stress.c and fuzz.c [tests/hardening]
#   UAPI_INCLUDE     UAPI headers with attr.persistent [build/kernel/usr/include]
#   CHECK_DEBUG_OUT  results directory [build/check-debug]
#   STRESS_SECONDS [60]  FUZZ_ITERATIONS [100000]  FUZZ_SECONDS [600]
#   FUZZ_SEED [derived from the date]  CHECK_DEBUG_TIMEOUT [3000] (seconds)
#   CHECK_DEBUG_REBOOT_TIMEOUT [900] (seconds per reboot-case boot)
# Prints the counts it checked and the kernel log scan, ends with
# "check-debug: N passed, N failed, splats found: N"; exits 1 on any failure
# or splat, 125 on a setup error.
#
# Guest side (run by vm.sh): check-debug.sh --guest SELFTEST_DIR BIN_DIR
#	STRESS_SECONDS FUZZ_ITERATIONS FUZZ_SECONDS FUZZ_SEED
set -u

guest() {
	out=${HARNESS_OUT:?}
	st=$1 bin=$2 STRESS_SECONDS=$3 FUZZ_ITERATIONS=$4 FUZZ_SECONDS=$5 FUZZ_SEED=$6
	leak=/sys/kernel/debug/kmemleak
	dmesg > "$out/kunit.log"
	echo "guest: $(nproc) CPUs, $(uname -r)"
	# Leaks from boot are kept apart, then forgotten ("clear") so that the
	# final scan shows what the tests leaked.
	if [ -w "$leak" ]; then
		echo "guest: kmemleak scan after boot"
		echo scan > "$leak"
		cat "$leak" > "$out/kmemleak-boot.txt"
		echo clear > "$leak"
	else
		echo "guest: no $leak (CONFIG_DEBUG_KMEMLEAK, debugfs)" | tee "$out/kmemleak-boot.txt"
	fi
	for t in "$st"/*; do
		if [ ! -f "$t" ] || [ ! -x "$t" ]; then continue; fi
		n=$(basename "$t")
		echo "guest: kselftest perf_events/$n"
		# what changes the machine is opt-in (see tests/guest/run.sh)
		(cd /tmp && PERF_TEST_MCE_INJECT=1 PERF_TEST_CPU_HOTPLUG=1 \
			PERF_TEST_SYSCTL=1 PERF_TEST_CGROUP_PRIME=1 timeout 900 "$t") \
			> "$out/kselftest-$n.tap" 2>&1
		echo "# exit=$?" >> "$out/kselftest-$n.tap"
	done
	echo "guest: stress -t $STRESS_SECONDS"
	(cd /tmp && timeout $((STRESS_SECONDS * 4 + 300)) "$bin/stress" -t "$STRESS_SECONDS") \
		> "$out/stress.txt" 2>&1
	echo "# exit=$?" >> "$out/stress.txt"
	echo "guest: fuzz -s $FUZZ_SEED -n $FUZZ_ITERATIONS -t $FUZZ_SECONDS"
	(cd /tmp && timeout $((FUZZ_SECONDS + 300)) "$bin/fuzz" -s "$FUZZ_SEED" \
		-n "$FUZZ_ITERATIONS" -t "$FUZZ_SECONDS") > "$out/fuzz.txt" 2>&1
	echo "# exit=$?" >> "$out/fuzz.txt"
	if [ -w "$leak" ]; then
		# Objects are reported once they are a few seconds old and
		# unreferenced in two scans.
		echo "guest: kmemleak scans"
		sleep 6
		echo scan > "$leak"
		sleep 6
		echo scan > "$leak"
		cat "$leak" > "$out/kmemleak.txt"
	fi
	dmesg > "$out/dmesg.txt"
	echo "guest: done"
}

if [ "${1:-}" = --guest ]; then
	shift
	guest "$@"
	exit 0
fi

count() { if [ -f "$2" ]; then grep -c "$1" "$2"; else echo "?"; fi; }
SELF=$(realpath "$0")
ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$ROOT" || exit 125
K=${DEBUG_KERNEL:-build/debug/arch/x86/boot/bzImage}
ST=${SELFTESTS:-build/selftests/perf_events}
SRC=${HARDENING_SRC:-tests/hardening}
INC=${UAPI_INCLUDE:-build/kernel/usr/include}
R=${CHECK_DEBUG_OUT:-build/check-debug}
STRESS_SECONDS=${STRESS_SECONDS:-60}
FUZZ_ITERATIONS=${FUZZ_ITERATIONS:-100000}
FUZZ_SECONDS=${FUZZ_SECONDS:-600}
FUZZ_SEED=${FUZZ_SEED:-$(date +%Y%m%d)}

[ -r "$K" ] || { echo "check-debug: no debug kernel at $K (build it with config/debug.config)" >&2; exit 125; }
[ -d "$ST" ] || { echo "check-debug: no kselftests in $ST (make selftests)" >&2; exit 125; }
[ -x build/perf/perf ] || { echo "check-debug: no build/perf/perf (make perf): the reboot cases run it in the guest" >&2; exit 125; }
for f in stress fuzz; do
	[ -r "$SRC/$f.c" ] || { echo "check-debug: no $SRC/$f.c" >&2; exit 125; }
done
rm -rf "$R"; mkdir -p "$R/bin" || exit 125
R=$(realpath "$R"); ST=$(realpath "$ST")
res=$R/results.txt
: > "$res"

for f in stress fuzz; do
	if ! gcc -O2 -pthread -Wall -I"$INC" -o "$R/bin/$f" "$SRC/$f.c" > "$R/bin/$f.log" 2>&1; then
		cat "$R/bin/$f.log" >&2
		echo "check-debug: cannot build $SRC/$f.c" >&2
		exit 125
	fi
done

t0=$(date +%s)
echo "[$(date +%H:%M:%S)] check-debug: booting $K (stress ${STRESS_SECONDS}s, fuzz $FUZZ_ITERATIONS iterations or ${FUZZ_SECONDS}s, seed $FUZZ_SEED)"
sh scripts/vm.sh --kernel "$K" --mem 2048 --timeout "${CHECK_DEBUG_TIMEOUT:-3000}" \
	--out "$R/guest" --append "kunit.enable=1 mce=persistent=128K" \
	-- sh "$SELF" --guest "$ST" "$R/bin" \
	"$STRESS_SECONDS" "$FUZZ_ITERATIONS" "$FUZZ_SECONDS" "$FUZZ_SEED" > "$R/guest.txt" 2>&1
rc=$?
echo "[$(date +%H:%M:%S)] check-debug: guest done in $(( $(date +%s) - t0 ))s (vm.sh exit $rc)"
G=$R/guest
[ $rc = 0 ] || echo "FAIL check-debug/guest-boot (vm.sh exit $rc, see $G/console.log)" >> "$res"

# Machine check records across a reboot, on the debug kernel: its own
# result lines (mce-reboot/...), console logs in $R/reboot/*/
t0=$(date +%s)
echo "[$(date +%H:%M:%S)] check-debug: machine check reboot cases (16 boots, and 2 for each of the ${REBOOT_STORM_TRIALS:-5} storm trials)"
# The storm case with its console loud: a quiet console (check-reboot.sh's
# default, for the odds of the fatal error finding CPU 1 writing a record)
# would hide the splats of its first boots from the scan below.
REBOOT_KERNEL=$K REBOOT_MEM=1024 REBOOT_TIMEOUT=${CHECK_DEBUG_REBOOT_TIMEOUT:-900} \
	REBOOT_STORM_TRIALS=${REBOOT_STORM_TRIALS:-5} REBOOT_STORM_CONSOLE=${REBOOT_STORM_CONSOLE:-loud} \
	sh scripts/check-reboot.sh "$res" "$R/reboot"
echo "[$(date +%H:%M:%S)] check-debug: reboot cases done in $(( $(date +%s) - t0 ))s"

# KUnit (at boot), kselftests, stress, fuzz: PASS|FAIL|SKIP lines
sh scripts/kunit2results.sh "$G/kunit.log" >> "$res"
nst=0
for t in "$G"/kselftest-*.tap; do
	[ -f "$t" ] || continue
	nst=$((nst + 1))
	n=${t##*/kselftest-}; n=${n%.tap}
	sh scripts/tap2results.sh "perf_events/$n/" "$t" >> "$res"
done
[ $nst -gt 0 ] || echo "FAIL perf_events (no kselftest output from the guest)" >> "$res"
for f in stress fuzz; do
	line=$(grep "^$f: " "$G/$f.txt" 2>/dev/null | tail -n 1)
	ex=$(sed -n 's/^# exit=//p' "$G/$f.txt" 2>/dev/null)
	case ${ex:-none} in
	0) echo "PASS hardening/$f $line" ;;
	4) echo "SKIP hardening/$f $line" ;;
	*) echo "FAIL hardening/$f exit ${ex:-none}: $line (log: $G/$f.txt)" ;;
	esac >> "$res"
done

# Kernel log scan: console, then the kmemleak reports
pat='BUG:|WARNING:|Oops|Kernel panic|KASAN|UBSAN|possible circular locking|possible recursive locking|suspicious RCU usage|inconsistent lock state|lock held when returning|bad unlock balance|sleeping function called from invalid context|rcu.*stall|INFO: task .* blocked for more than|ODEBUG|list_(add|del) corruption|refcount_t:|kmemleak: .* new suspected memory leaks|unreferenced object'
grep -E "$pat" "$G/console.log" 2>/dev/null > "$R/splats.txt"
# the reboot boots; in panic-1, maxcpus-1, loop-1 and loop-3 and in the first boot of
# every storm trial (stormN-1) the expected machine-check panic is not a
# splat
for c in "$R"/reboot/*/console.log; do
	[ -f "$c" ] || continue
	b=$(basename "$(dirname "$c")")
	case $b in
	panic-1 | maxcpus-1 | loop-1 | loop-3 | storm*-1)
		grep -E "$pat" "$c" | grep -vE 'Kernel panic - not syncing: Fatal (local )?machine check'
		;;
	*) grep -E "$pat" "$c" ;;
	esac | sed "s|^|reboot/$b: |" >> "$R/splats.txt"
done
for f in kmemleak-boot kmemleak; do
	[ -f "$G/$f.txt" ] && grep -E 'unreferenced object' "$G/$f.txt" | sed "s/^/$f: /" >> "$R/splats.txt"
done
nsplat=$(wc -l < "$R/splats.txt")
[ -f "$G/kmemleak.txt" ] || echo "FAIL check-debug/kmemleak (no scan result from the guest)" >> "$res"

echo
sh scripts/results.sh "$res" tests/known-failures.txt > "$R/summary.txt"
src=$?
grep -v ' passed, .* failed$' "$R/summary.txt"
echo "check-debug: tests run $(count '^[A-Z]' "$res") (KUnit $(count ' kunit/' "$res"), kselftests $(count ' perf_events/' "$res"), hardening $(count ' hardening/' "$res"), reboot $(count ' mce-reboot/' "$res"))"
echo "check-debug: $(grep '^stress: injected' "$G/stress.txt" 2>/dev/null || echo 'stress: no result')"
echo "check-debug: $(grep '^fuzz: seed .* iterations' "$G/fuzz.txt" 2>/dev/null || echo 'fuzz: no result')"
echo "check-debug: kmemleak: $(count 'unreferenced object' "$G/kmemleak-boot.txt") unreferenced objects after boot, $(count 'unreferenced object' "$G/kmemleak.txt") after the tests"
if [ "$nsplat" -gt 0 ]; then
	echo "check-debug: kernel log scan: $nsplat splat lines ($R/splats.txt, $G/console.log):"
	head -n 20 "$R/splats.txt" | sed 's/^/  /'
else
	echo "check-debug: kernel log scan: clean ($(wc -l < "$G/console.log" 2>/dev/null || echo 0) console lines, $(cat "$R"/reboot/*/console.log 2>/dev/null | wc -l) in the reboot cases' boots; the expected machine-check panics in reboot/panic-1, reboot/maxcpus-1, reboot/loop-1, reboot/loop-3 and reboot/storm*-1 not counted)"
fi
echo "check-debug: $(tail -n 1 "$R/summary.txt"), splats found: $nsplat"
[ $src = 0 ] && [ "$nsplat" = 0 ]
