#!/bin/sh
# make bench: the side-band delivery benchmark (bench/sideband-bench.c) on
# the unpatched base kernel and on the patched kernel, in one run; prints one
# table and plots ns/op against N for both kernels (build/bench/*.svg).
set -eu
B=build/bench
mkdir -p "$B"
REPS=${BENCH_REPS:-7}
gcc -O2 -Wall -pthread -isystem build/kernel/usr/include -o "$B/sideband-bench" bench/sideband-bench.c
sh scripts/step.sh "base kernel (build/base)" sh scripts/base-tree.sh
for k in base patched; do
	case $k in
	base) img=build/base/obj/arch/x86/boot/bzImage ;;
	patched) img=build/kernel/arch/x86/boot/bzImage ;;
	esac
	echo "[$(date +%H:%M:%S)] benchmark on the $k kernel ..."
	sh scripts/vm.sh --kernel "$img" \
		--timeout "${BENCH_TIMEOUT:-1500}" --out "$B/vm-$k" -- \
		"$B/sideband-bench -r $REPS" > "$B/$k.txt" ||
		{ echo "bench: the benchmark failed on the $k kernel ($B/vm-$k/console.log)" >&2; exit 1; }
done
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
