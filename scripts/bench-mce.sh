#!/bin/sh
# make bench-mce: time per machine-check record on the MCE path
# (bench/mce-record-bench.c) with the persistent mce_record buffers in
# ordinary pages (mce=persistent=64K) and in a reserve_mem= region
# (mce=persistent_mem=, each record also checksums the page(s) it wrote).
# QEMU -icount (1 ns = 1 guest instruction: deterministic), one vCPU; the
# two boots take turns, BENCH_MCE_ROUNDS (3) each; medians over the boots.
set -eu
B=build/bench-mce
rounds=${BENCH_MCE_ROUNDS:-3}
mkdir -p "$B"
gcc -O2 -Wall -isystem build/kernel/usr/include -o "$B/mce-record-bench" bench/mce-record-bench.c
rm -f "$B"/ordinary-*.txt "$B"/reserve_mem-*.txt
r=1
while [ "$r" -le "$rounds" ]; do
	for k in ordinary reserve_mem; do
		case $k in
		ordinary) app="mce=persistent=64K" ;;
		reserve_mem) app="reserve_mem=1M:4096:mce mce=persistent_mem=mce mce=persistent=64K" ;;
		esac
		echo "[$(date +%H:%M:%S)] round $r/$rounds: $k ..."
		# a boot takes about 15 s; an icount guest has been seen to hang
		# before its first console line (host loaded): one more try then
		try=1
		until VM_ICOUNT=shift=0,sleep=off sh scripts/vm.sh --accel tcg --smp 1 \
			--timeout "${BENCH_MCE_TIMEOUT:-120}" --append "$app" --out "$B/vm-$k" -- \
			"$B/mce-record-bench -r 3 -b 16" > "$B/$k-$r.txt"; do
			rc=$?
			if [ "$rc" != 124 ] || [ "$try" -ge 2 ]; then
				echo "bench-mce: failed on the $k boot ($B/vm-$k/console.log)" >&2
				exit 1
			fi
			echo "bench-mce: the $k boot hung, once more" >&2
			try=$((try + 1))
		done
		# the buffers really are in the region (and only in that boot)
		if grep -q 'perf/persistent: mce_record: .*reserve_mem= region "mce"' "$B/vm-$k/console.log"; then
			[ $k = reserve_mem ] || { echo "bench-mce: $k boot used the reserve_mem= region" >&2; exit 1; }
		else
			[ $k = ordinary ] || { echo "bench-mce: $k boot: buffers not in the reserve_mem= region" >&2; exit 1; }
		fi
	done
	r=$((r + 1))
done
echo
echo "bench-mce: ns per machine-check record, icount clock (1 ns = 1 guest instruction),"
echo "$(sed -n 's/^# \([0-9]* reps x [0-9]* batches x [0-9]* records\).*/\1/p' "$B/ordinary-1.txt" | head -n 1) per boot; median of $rounds boots"
# total: injection to record in the buffer; inject: the injection path alone
awk '
	function median(s, n,   i, j, t, a) {
		for (i = 1; i <= n; i++) a[i] = s[i]
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	FNR == 1 { split(FILENAME, f, "/"); k = f[3]; sub(/-[0-9]+\.txt$/, "", k) }
	$1 == "total" { t[k, ++nt[k]] = $2; reps[k] = reps[k] " " $2 }
	$1 == "inject" { i[k, ++ni[k]] = $2 }
	END {
		split("ordinary reserve_mem", ks, " ")
		for (x = 1; x <= 2; x++) {
			k = ks[x]
			for (n = 1; n <= nt[k]; n++) v[n] = t[k, n]
			mt[k] = median(v, nt[k])
			for (n = 1; n <= ni[k]; n++) v[n] = i[k, n]
			mi[k] = median(v, ni[k])
		}
		printf "%-14s %12s %12s %12s   %s\n", "buffer pages", "total", "inject", "drain", "reps (total)"
		for (x = 1; x <= 2; x++) {
			k = ks[x]
			printf "%-14s %12.1f %12.1f %12.1f  %s\n", k, mt[k], mi[k], mt[k] - mi[k], reps[k]
		}
		a = "ordinary"; b = "reserve_mem"
		printf "%-14s %12.1f %12.1f %12.1f   (%.3fx total)\n", "difference", mt[b] - mt[a], mi[b] - mi[a], (mt[b] - mi[b]) - (mt[a] - mi[a]), mt[b] / mt[a]
	}' "$B"/ordinary-*.txt "$B"/reserve_mem-*.txt | tee "$B/table.txt"
