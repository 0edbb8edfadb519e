#!/bin/sh
# vm.sh --mce-on MARKER 'CPU BANK STATUS MCGSTATUS ADDR MISC' injects a
# machine check while the guest runs, once the command's output shows
# MARKER: a fatal one (uncorrected, processor context corrupt) panics the
# stock kernel (vm.sh exit 255, "Kernel panic - not syncing:" and the
# machine check on the console); the same command without the option runs
# to its end; bad arguments are a usage error.
set -eu
O=build/check/harness/vm-mce-on
FATAL='1 4 0xb600000000000151 0x5 0x1000 0'
CMD='echo inject-now; sleep 30; echo survived'
CMD5='echo inject-now; sleep 5; echo survived'
for bad in "'' '$FATAL'" "m '1 4 0xb6 0x5 0x1000'" "m '1 4 0xb6 0x5 0x1000 zz'" "m"; do
	rc=0
	eval "sh scripts/vm.sh --mce-on $bad --dry-run -- true" >/dev/null 2>&1 || rc=$?
	[ $rc = 125 ] || { echo "--mce-on $bad: exit $rc, expected 125"; exit 1; }
done
sh scripts/vm.sh --mce-on m "-b $FATAL" --dry-run -- true | grep -q "^on \"m\": mce -b $FATAL$"
rc=0
out=$(sh scripts/vm.sh --timeout 120 --append panic=1 --out "$O/on" --mce-on inject-now "$FATAL" -- "$CMD" 2>&1) || rc=$?
echo "$out"
[ $rc = 255 ] || { echo "with --mce-on: exit $rc, expected 255 (panic)"; exit 1; }
grep -qx "mce $FATAL" "$O/on/mce-on.sent"
echo "$out" | grep -q 'Kernel panic - not syncing: Fatal .*machine check'
echo "$out" | grep -q 'Machine Check Exception: 5 Bank 4: b600000000000151'
if echo "$out" | grep -qx survived; then echo "with --mce-on: the command ran to its end"; exit 1; fi
# a marker that never shows: nothing injected, and vm.sh says so
rc=0
out=$(sh scripts/vm.sh --timeout 120 --out "$O/never" --mce-on no-such-marker "$FATAL" -- 'echo ran' 2>&1) || rc=$?
echo "$out"
[ $rc = 0 ] || { echo "marker never shown: exit $rc, expected 0"; exit 1; }
echo "$out" | grep -q "marker 'no-such-marker' never showed"
rc=0
out=$(sh scripts/vm.sh --timeout 120 --append panic=1 -- "$CMD5" 2>&1) || rc=$?
echo "$out"
[ $rc = 0 ] || { echo "without --mce-on: exit $rc, expected 0"; exit 1; }
echo "$out" | grep -qx survived
