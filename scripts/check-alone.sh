#!/bin/sh
# Usage: check-alone.sh DIR SERIES -- DIR/linux holds the base with only the
# patches of SERIES (check-bisect.sh, after that series' last patch): build
# its kernel (DIR/obj) and the perf_events kselftests it adds or changes,
# boot the kernel and run them (the guest is for that: what the tests may
# change only when asked to, they are asked to).  Passes only if every one
# of them ran and passed: a skip, a failure or a hang fails.
set -u
D=$1 S=$2
die() { echo "check-alone: series $S: $*" >&2; exit 1; }
CONFIG_CHECK=0 HEADERS=1 sh scripts/kernel.sh "$D/linux" "$D/obj" config/guest.config ||
	die "the kernel does not build"
sh scripts/selftests.sh "$D/linux" "$D/selftests" "$D/obj" || die "the kselftests do not build"
tests=$(git -C "$D/linux" diff --name-only base..HEAD -- 'tools/testing/selftests/perf_events/*.c' |
	xargs -r -n1 basename | sed 's/\.c$//')
[ -n "$tests" ] || die "changes no perf_events kselftest"
st=$(realpath "$D/selftests/perf_events")
rm -rf "$D/alone"; mkdir -p "$D/alone"
rc=0
for t in $tests; do
	[ -x "$st/$t" ] || die "kselftest $t was not built"
	sh scripts/vm.sh --kernel "$D/obj/arch/x86/boot/bzImage" --timeout 300 \
		--out "$D/alone/$t" -- sh -c "cd /tmp && PERF_TEST_CGROUP_PRIME=1 $st/$t" \
		> "$D/alone/$t.tap" 2>&1
	r=$?
	totals=$(grep '^# Totals:' "$D/alone/$t.tap")
	echo "check-alone: series $S: $t: exit $r, ${totals:-no totals}"
	case $totals in
	*" fail:0 "*" skip:0 error:0") [ $r = 0 ] || rc=1 ;;
	*) rc=1 ;;
	esac
done
[ $rc = 0 ] || die "a kselftest failed, skipped or did not finish (output in $D/alone/)"
echo "check-alone: series $S alone on the base: $(echo $tests) passed"
