#!/bin/sh
# Usage: check-harness.sh RESULTS -- run tests/harness/*.sh (exit 0 = pass)
# and append one result line each, in the order of their names.
#
# Two lanes run at once: the tests that boot a guest (vm-*), one guest at a
# time, and all the others (git trees, kernel configuration, make -n).  A
# TCG boot keeps about one core busy and the other lane's git and kconfig
# work the other core: run one after the other they took 277 s (vm-* 112 s;
# export-roundtrip 97 s and config-dropped 49 s of the rest), in two lanes
# 230 s with another session's checkpatch and kernel build beside them.  No
# two guests at once, so the guests' time bounds see about the load of before.
# Every test writes only to its own mktemp directory, log and vm.sh --out.
set -u
res=$1
H=build/check/harness
mkdir -p "$H"
rm -f "$H"/*.result

# lane guest|host: run that lane's tests in name order, one result file each
lane() {
	for t in tests/harness/*.sh; do
		n=$(basename "$t" .sh)
		case $n in
		vm-*) [ "$1" = guest ] || continue ;;
		*) [ "$1" = host ] || continue ;;
		esac
		if sh "$t" > "$H/$n.log" 2>&1; then
			echo "PASS harness/$n" > "$H/$n.result"
		else
			echo "FAIL harness/$n (log: $H/$n.log)" > "$H/$n.result"
		fi
	done
}
lane guest < /dev/null &
guests=$!
lane host
wait "$guests"

for t in tests/harness/*.sh; do
	n=$(basename "$t" .sh)
	if [ ! -f "$H/$n.result" ]; then
		echo "FAIL harness/$n (no result: log $H/$n.log)" >> "$res"
		continue
	fi
	cat "$H/$n.result" >> "$res"
	case $(cat "$H/$n.result") in
	FAIL*) tail -n 5 "$H/$n.log" | sed 's/^/  | /' ;;
	esac
done
