#!/bin/sh
# make bench-output: cost per record of the ring-buffer output path of an
# ordinary (non-persistent) perf event (bench/output-bench.c), on the
# unpatched base kernel and on the patched kernel, in one run; prints a
# table with patched/base.
#
# QEMU -icount shift=0 (1 ns = 1 guest instruction: deterministic), one
# vCPU; the kernels take turns (base, patched, base, ...),
# BENCH_OUTPUT_ROUNDS (3) boots each, BENCH_OUTPUT_REPS (3) repetitions per
# boot; medians over all repetitions of a kernel.  A record's cost is the
# time per iteration of the loop with the event minus that of the same loop
# without it, in the same repetition.  The two kernel images are copied
# first, so that a rebuild of build/kernel during the run changes nothing.
set -eu
B=build/bench-output
rounds=${BENCH_OUTPUT_ROUNDS:-3}
reps=${BENCH_OUTPUT_REPS:-3}
limit=${BENCH_OUTPUT_LIMIT:-1.005}
mkdir -p "$B"
gcc -O2 -Wall -isystem build/kernel/usr/include -o "$B/output-bench" bench/output-bench.c
sh scripts/step.sh "base kernel (build/base)" sh scripts/base-tree.sh
cp build/base/obj/arch/x86/boot/bzImage "$B/bzImage-base"
cp build/kernel/arch/x86/boot/bzImage "$B/bzImage-patched"
rm -f "$B"/base-*.txt "$B"/patched-*.txt
r=1
while [ "$r" -le "$rounds" ]; do
	for k in base patched; do
		echo "[$(date +%H:%M:%S)] round $r/$rounds: $k kernel ..."
		# a boot takes about 30 s; an icount guest has been seen to hang
		# before its first console line (host loaded): one more try then
		try=1
		until VM_ICOUNT=shift=0,sleep=off sh scripts/vm.sh --accel tcg --smp 1 \
			--kernel "$B/bzImage-$k" --timeout "${BENCH_OUTPUT_TIMEOUT:-240}" \
			--out "$B/vm-$k" -- "$B/output-bench -r $reps" > "$B/$k-$r.txt"; do
			rc=$?
			if [ "$rc" != 124 ] || [ "$try" -ge 2 ]; then
				echo "bench-output: failed on the $k kernel ($B/vm-$k/console.log)" >&2
				exit 1
			fi
			echo "bench-output: the $k boot hung, once more" >&2
			try=$((try + 1))
		done
	done
	r=$((r + 1))
done
echo
echo "bench-output: guest ns (= instructions) per loop iteration and per record (iteration minus"
echo "the loop without the event), icount clock; $rounds boots x $reps repetitions per kernel, medians"
echo "base:    $(sed -n 's/^# output-bench: kernel \(.*\), cpu.*/\1/p' "$B/base-1.txt")"
echo "patched: $(sed -n 's/^# output-bench: kernel \(.*\), cpu.*/\1/p' "$B/patched-1.txt")"
# lines: <workload> <case> <rep> <ns/iteration> <ns/record>
awk -v limit="$limit" '
	function median(s, n,   i, j, t, a) {
		for (i = 1; i <= n; i++) a[i] = s[i]
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	FNR == 1 { k = FILENAME ~ /\/base-[0-9]+\.txt$/ ? "base" : "patched" }
	/^#/ || NF != 5 || $3 !~ /^[0-9]+$/ { next }
	{
		key = $1 " " $2
		if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
		n = ++cnt[k, key]
		it[k, key, n] = $4; rec[k, key, n] = $5
	}
	END {
		printf "%-3s %-8s | %9s %9s | %9s %9s | %8s %12s\n", "", "case", "base", "", "patched", "", "", ""
		printf "%-3s %-8s | %9s %9s | %9s %9s | %8s %12s\n", "", "", "ns/iter", "ns/rec", "ns/iter", "ns/rec", "diff", "patched/base"
		over = 0
		for (x = 1; x <= nk; x++) {
			key = order[x]; split(key, a, " ")
			for (y = 1; y <= 2; y++) {
				kk = y == 1 ? "base" : "patched"
				n = cnt[kk, key]
				for (i = 1; i <= n; i++) v[i] = it[kk, key, i]
				mi[kk] = median(v, n)
				lo = hi = rec[kk, key, 1]
				for (i = 1; i <= n; i++) {
					v[i] = rec[kk, key, i]
					if (v[i] < lo) lo = v[i]
					if (v[i] > hi) hi = v[i]
				}
				mr[kk] = median(v, n)
				if (mr[kk] > 0 && (hi - lo) / mr[kk] > spread) spread = (hi - lo) / mr[kk]
			}
			if (a[2] == "none") {
				printf "%-3s %-8s | %9.1f %9s | %9.1f %9s | %8s %12s\n", a[1], a[2], mi["base"], "-", mi["patched"], "-", "", ""
				continue
			}
			ratio = mr["patched"] / mr["base"]
			mark = ""
			if (ratio > limit + 0) { mark = " *"; over++ }
			printf "%-3s %-8s | %9.1f %9.1f | %9.1f %9.1f | %+8.1f %12.4f%s\n", a[1], a[2], mi["base"], mr["base"], mi["patched"], mr["patched"], mr["patched"] - mr["base"], ratio, mark
		}
		printf "largest spread of a row'"'"'s ns/rec over its repetitions: %.2f%%\n", 100 * spread
		if (over)
			printf "* patched/base above the goal of %s\n", limit
		else
			printf "every row within the goal of patched/base <= %s\n", limit
	}' "$B"/base-*.txt "$B"/patched-*.txt | tee "$B/table.txt"
