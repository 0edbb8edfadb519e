#!/bin/sh
# make bench: the side-band delivery benchmark (bench/sideband-bench.c) on
# the unpatched base kernel and on the patched kernel, in one run; prints a
# table and plots ns/op against N for both kernels (build/bench/*.svg).
#
# Two clocks, one table each:
# - icount (the one the limits are checked on): QEMU -icount shift=0, so
#   guest time advances 1 ns per guest instruction.  Costs are then
#   deterministic (repetitions agree to 0.5%) whatever the host does: a
#   shared 2-core TCG host gives wall-clock spreads of 2x between boots.
# - wall: plain TCG, host time; for reference, with its noise.
# Both use one vCPU (the workloads are pinned to one CPU either way; two
# vCPUs on two host cores make wall-clock timings bimodal).  The kernels take
# turns (base, patched, base, ...); medians over all repetitions of a kernel.
set -eu
B=build/bench
mkdir -p "$B"
gcc -O2 -Wall -pthread -isystem build/kernel/usr/include -o "$B/sideband-bench" bench/sideband-bench.c
sh scripts/step.sh "base kernel (build/base)" sh scripts/base-tree.sh

# Per kernel: "<workload> <N> <median ns/op> <T(N)/T(0)> <all reps...>"
merge() {
	cat "$@" | awk '
		function median(s, n,   i, j, t, a) {
			for (i = 1; i <= n; i++) a[i] = s[i]
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		/^#/ || NF < 5 || $2 !~ /^[0-9]+$/ { next }
		{
			key = $1 " " $2
			if (!(key in cnt)) order[++nk] = key
			for (i = 5; i <= NF; i++) reps[key, ++cnt[key]] = $i
		}
		END {
			for (k = 1; k <= nk; k++) {
				key = order[k]
				n = cnt[key]
				for (i = 1; i <= n; i++) v[i] = reps[key, i]
				med[key] = median(v, n)
				split(key, a, " ")
				if (a[2] == 0) base0[a[1]] = med[key]
			}
			for (k = 1; k <= nk; k++) {
				key = order[k]; split(key, a, " ")
				line = sprintf("%s %.1f %.3f", key, med[key], med[key] / base0[a[1]])
				for (i = 1; i <= cnt[key]; i++) line = line " " reps[key, i]
				print line
			}
		}'
}

# measure CLOCK ROUNDS REPS: boots, merged results, table, plots
measure() {
	clock=$1 rounds=$2 reps=$3
	rm -f "$B/$clock"-base-*.txt "$B/$clock"-patched-*.txt
	r=1
	while [ "$r" -le "$rounds" ]; do
		for k in base patched; do
			case $k in
			base) img=build/base/obj/arch/x86/boot/bzImage ;;
			patched) img=build/kernel/arch/x86/boot/bzImage ;;
			esac
			echo "[$(date +%H:%M:%S)] $clock clock, round $r/$rounds: $k kernel ..."
			icount=
			[ "$clock" = icount ] && icount=shift=0,sleep=off
			VM_ICOUNT=$icount sh scripts/vm.sh --accel tcg --kernel "$img" --smp 1 \
				--timeout "${BENCH_TIMEOUT:-1500}" --out "$B/vm-$k" -- \
				"$B/sideband-bench -r $reps" > "$B/$clock-$k-$r.txt" ||
				{ echo "bench: the benchmark failed on the $k kernel ($B/vm-$k/console.log)" >&2; exit 1; }
		done
		r=$((r + 1))
	done
	merge "$B/$clock"-base-*.txt > "$B/$clock-base.txt"
	merge "$B/$clock"-patched-*.txt > "$B/$clock-patched.txt"
	echo
	case $clock in
	icount) echo "bench: icount clock (1 ns = 1 guest instruction), $rounds rounds x $reps repetitions per kernel" ;;
	wall) echo "bench: wall clock (TCG, host time; noisy), $rounds rounds x $reps repetitions per kernel" ;;
	esac
	awk '
		FNR == 1 { k++ }
		/^#/ || NF < 4 || $2 !~ /^[0-9]+$/ { next }
		{ key=$1 " " $2; ns[k, key]=$3; rel[k, key]=$4; if (k == 1) order[++n]=key }
		END {
			printf "%-8s %6s | %12s %10s | %13s %10s | %13s\n", "workload", "N", "base ns/op", "T(N)/T(0)", "patched ns/op", "T(N)/T(0)", "patched/base"
			for (i = 1; i <= n; i++) {
				key=order[i]; split(key, a, " ")
				printf "%-8s %6s | %12.1f %10.3f | %13.1f %10.3f | %13.3f\n", a[1], a[2], ns[1, key], rel[1, key], ns[2, key], rel[2, key], ns[2, key] / ns[1, key]
			}
		}' "$B/$clock-base.txt" "$B/$clock-patched.txt" | tee "$B/table-$clock.txt"
	for w in $(awk '!/^#/ && NF >= 4 && $2 ~ /^[0-9]+$/ {print $1}' "$B/$clock-base.txt" | sort -u); do
		grep "^$w " "$B/$clock-base.txt" > "$B/$clock-$w-base.dat"
		grep "^$w " "$B/$clock-patched.txt" > "$B/$clock-$w-patched.dat"
		gnuplot <<G
set terminal svg size 640,400
set output "$B/sideband-$w-$clock.svg"
set title "side-band delivery cost, $w workload ($clock clock)"
set xlabel "uninterested CPU-wide events per CPU (N)"
set ylabel "ns per operation"
set key left top
plot "$B/$clock-$w-base.dat" using 2:3 with linespoints title "base $(sh scripts/base.sh | cut -d' ' -f2)", \
     "$B/$clock-$w-patched.dat" using 2:3 with linespoints title "patched"
G
		echo "bench: plot $B/sideband-$w-$clock.svg"
	done
}

measure icount "${BENCH_ROUNDS:-2}" "${BENCH_REPS:-5}"
[ "${BENCH_WALL:-1}" = 0 ] || measure wall "${BENCH_WALL_ROUNDS:-2}" "${BENCH_WALL_REPS:-7}"
