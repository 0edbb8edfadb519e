#!/bin/sh
# make check-configs: build the series in other configurations than the
# guest's and list each with its result.
# - config/matrix/*.config, each on top of tinyconfig + config/guest.config:
#   a whole vmlinux (link errors from missing stubs show up only there), and
#   the check that each option really is off;
# - allmodconfig (WERROR off, so that W=1 can run): the kernel directories
#   the series touches, patched and base, with W=1; any W=1 warning the base
#   does not have fails;
# - sparse over the same directories against the base (scripts/check-sparse.sh);
# - perf built with python, its 'import perf' test run in the guest.
# Ends with "N passed, N failed"; exit 1 on any failure.
set -u
R=build/configs
mkdir -p "$R"
res=$R/results.txt
: > "$res"
step() { sh scripts/step.sh "$@"; }
. scripts/kbuild-env.sh

for frag in config/matrix/*.config; do
	name=$(basename "$frag" .config)
	if step "config $name" env KERNEL_TARGETS=vmlinux sh scripts/kernel.sh build/linux \
			"$R/$name" config/guest.config "$frag"; then
		echo "PASS configs/$name ($(sed -n 's/^# check-configs: //p' "$frag"))" >> "$res"
	else
		echo "FAIL configs/$name (log: $R/$name/build.log)" >> "$res"
	fi
done

dirs=$(touched_dirs)
targets=$(for d in $dirs; do printf '%s/ ' "$d"; done)

# allmodconfig + W=1 for TREE (build/linux or build/base/linux) into OUT;
# the warnings, without line numbers, go to OUT/w1.txt.
allmod() {
	tree=$1 out=$2
	mkdir -p "$out"
	out=$(realpath "$out")
	mk() { kmake "$tree" "$out" "$@"; }
	# Warnings show only when a file is compiled: compile the touched
	# directories afresh every time.
	for d in $dirs; do
		[ -d "$out/$d" ] && find "$out/$d" -name '*.o' -delete
	done
	{
		mk allmodconfig &&
		"$tree/scripts/config" --file "$out/.config" --disable WERROR &&
		mk olddefconfig &&
		mk -j"$(nproc)" W=1 $targets
	} > "$out/build.log" 2>&1
	rc=$?
	grep -E ': (warning|error):' "$out/build.log" |
		sed -E 's#^(\.\./)*[^ :]*/build/(base/)?linux/##; s/:[0-9]+:[0-9]+:/:/' |
		sort -u > "$out/w1.txt"
	return $rc
}
[ -n "$dirs" ] || { echo "check-configs: the series touches no kernel C file" >&2; exit 1; }
timed() {
	t0=$(date +%s)
	echo "[$(date +%H:%M:%S)] $1 ..."
	shift
	"$@"
	rc=$?
	echo "[$(date +%H:%M:%S)] ... $(( $(date +%s) - t0 ))s, exit $rc"
	return $rc
}
if timed "allmodconfig W=1: $targets" allmod build/linux "$R/allmodconfig"; then
	echo "PASS configs/allmodconfig ($targets)" >> "$res"
else
	echo "FAIL configs/allmodconfig (log: $R/allmodconfig/build.log)" >> "$res"
fi
KERNEL_TARGETS=prepare sh scripts/base-tree.sh >/dev/null 2>&1 ||
	echo "FAIL configs/base-tree (could not set up build/base)" >> "$res"
if timed "allmodconfig W=1, base" allmod build/base/linux "$R/allmodconfig-base"; then
	new=$(comm -23 "$R/allmodconfig/w1.txt" "$R/allmodconfig-base/w1.txt")
	if [ -z "$new" ]; then
		echo "PASS configs/W=1 (no warning over base: $(wc -l < "$R/allmodconfig/w1.txt") patched, $(wc -l < "$R/allmodconfig-base/w1.txt") base)" >> "$res"
	else
		echo "FAIL configs/W=1 new warnings: $(echo "$new" | head -n 3 | tr '\n' ' ')" >> "$res"
		echo "$new"
	fi
else
	echo "FAIL configs/W=1 (the base does not build, log: $R/allmodconfig-base/build.log)" >> "$res"
fi
step "sparse (touched dirs vs base)" sh scripts/check-sparse.sh "$res"

# perf with python, as distributions build it: perf.so must load
# ('import perf' in python), run in the guest on the patched kernel.
if step "perf with python" env PERF_PYTHON=1 sh scripts/perf.sh build/linux "$R/perf-python"; then
	if sh scripts/vm.sh --timeout 300 --out "$R/vm-python" -- \
		"cd build/linux/tools/perf && PYTHONPATH=$(pwd)/$R/perf-python/python $(pwd)/$R/perf-python/perf test -v python" \
		> "$R/perf-python.log" 2>&1 &&
		grep -q "import perf' in python *: Ok" "$R/perf-python.log"; then
		echo "PASS configs/perf-python (perf test 'import perf' in python)" >> "$res"
	else
		echo "FAIL configs/perf-python ('import perf' in python, log: $R/perf-python.log)" >> "$res"
	fi
else
	echo "FAIL configs/perf-python (build, log: $R/perf-python/build.log)" >> "$res"
fi

echo
cat "$res"
pass=$(grep -c '^PASS' "$res")
fail=$(grep -c '^FAIL' "$res")
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
