#!/bin/sh
# Every make target builds what its scripts use: make -n TARGET (nothing is
# run) must reach the build script of each build output the target's
# scripts read (build/kernel: kernel.sh, build/perf/perf: perf.sh,
# build/selftests: selftests.sh).  Caught: check-debug did not build perf,
# which its reboot cases run in the guest (build/perf/perf: not found).
set -u
failed=0
# TARGET: the build scripts it must reach
while read -r t need; do
	out=$(make -n "$t" 2>&1) || { echo "make -n $t failed: $(echo "$out" | tail -n 1)"; failed=1; continue; }
	for s in $need; do
		if ! printf '%s\n' "$out" | grep -q "scripts/$s"; then
			echo "make $t does not build what scripts/$s builds (its scripts use it)"
			failed=1
		fi
	done
done <<'LIST'
demo kernel.sh perf.sh selftests.sh
check kernel.sh perf.sh selftests.sh
check-debug kernel.sh perf.sh selftests.sh
bench kernel.sh
bench-mce kernel.sh
bench-output kernel.sh
compare-ftrace kernel.sh perf.sh
check-configs kernel.sh
vm kernel.sh
LIST
[ $failed = 0 ] && echo "every target builds what it uses"
exit $failed
