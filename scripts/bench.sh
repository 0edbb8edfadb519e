#!/bin/sh
# make bench: the side-band delivery benchmark (bench/sideband-bench.c) on
# the unpatched base kernel and on the patched kernel, in one run; prints one
# table and plots ns/op against N for both kernels (build/bench/*.svg).
set -eu
B=build/bench
mkdir -p "$B"
REPS=${BENCH_REPS:-9}
ROUNDS=${BENCH_ROUNDS:-2}
gcc -O2 -Wall -pthread -isystem build/kernel/usr/include -o "$B/sideband-bench" bench/sideband-bench.c
sh scripts/step.sh "base kernel (build/base)" sh scripts/base-tree.sh
# The two kernels take turns (base, patched, base, patched, ...), so that a
# change of load on the host hits both alike; the medians are taken over the
# repetitions of all rounds.
rm -f "$B"/base-*.txt "$B"/patched-*.txt
r=1
while [ $r -le "$ROUNDS" ]; do
	for k in base patched; do
		case $k in
		base) img=build/base/obj/arch/x86/boot/bzImage ;;
		patched) img=build/kernel/arch/x86/boot/bzImage ;;
		esac
		echo "[$(date +%H:%M:%S)] round $r/$ROUNDS: benchmark on the $k kernel ..."
		sh scripts/vm.sh --kernel "$img" \
			--timeout "${BENCH_TIMEOUT:-1500}" --out "$B/vm-$k" -- \
			"$B/sideband-bench -r $REPS" > "$B/$k-$r.txt" ||
			{ echo "bench: the benchmark failed on the $k kernel ($B/vm-$k/console.log)" >&2; exit 1; }
	done
	r=$((r + 1))
done
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
merge "$B"/base-*.txt > "$B/base.txt"
merge "$B"/patched-*.txt > "$B/patched.txt"
echo "bench: $ROUNDS rounds x $REPS repetitions per kernel, medians over all of them"
# Table: workload N | base ns/op T(N)/T(0) | patched ns/op T(N)/T(0) | patched/base
awk '
	FNR == 1 { k++ }
	/^#/ || NF < 4 || $2 !~ /^[0-9]+$/ { next }
	{ key=$1 " " $2; ns[k, key]=$3; rel[k, key]=$4; if (k == 1) order[++n]=key }
	END {
		printf "%-8s %6s | %12s %10s | %12s %10s | %13s\n", "workload", "N", "base ns/op", "T(N)/T(0)", "patched ns/op", "T(N)/T(0)", "patched/base"
		for (i = 1; i <= n; i++) {
			key=order[i]; split(key, a, " ")
			printf "%-8s %6s | %12.1f %10.3f | %12.1f %10.3f | %13.3f\n", a[1], a[2], ns[1, key], rel[1, key], ns[2, key], rel[2, key], ns[2, key] / ns[1, key]
		}
	}' "$B/base.txt" "$B/patched.txt" | tee "$B/table.txt"
for w in $(awk '!/^#/ && NF >= 4 && $2 ~ /^[0-9]+$/ {print $1}' "$B/base.txt" | sort -u); do
	grep "^$w " "$B/base.txt" > "$B/$w-base.dat"
	grep "^$w " "$B/patched.txt" > "$B/$w-patched.dat"
	gnuplot <<G
set terminal svg size 640,400
set output "$B/sideband-$w.svg"
set title "side-band delivery cost: $w workload"
set xlabel "uninterested CPU-wide events per CPU (N)"
set ylabel "ns per operation"
set key left top
plot "$B/$w-base.dat" using 2:3 with linespoints title "base 6.1.192", \
     "$B/$w-patched.dat" using 2:3 with linespoints title "patched"
G
	echo "bench: plot $B/sideband-$w.svg"
done
