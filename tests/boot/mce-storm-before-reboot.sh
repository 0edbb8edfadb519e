#!/bin/sh
# Guest side of boot 1 of the mce-reboot/storm case (scripts/check-reboot.sh):
# a storm of corrected errors on CPU 1, with the fatal machine check landing
# on CPU 1 while it runs.
#
# The storm is STORM (tests/boot/mce-storm.c, built by check-reboot.sh),
# pinned to CPU 1: it injects corrected errors through debugfs mce-inject
# ("sw": mce_log() on the injecting CPU, so the MCE work item that writes
# the mce_record records runs on CPU 1 as well) as fast as it can.  Error
# number I (1, 2, ...) has bank 4, status 0x9c00000000000042, MISC = I and
# ADDR = 0x10000000 + I * 0x1000: each record names the injection it comes
# from, and ADDR and MISC must agree.  Every 64 errors it prints
# "mce-storm: injected I" (I so far; the next 64 are being injected: at
# most I + 64 are injected in all).  After START errors (default 512) it
# prints the marker "mce-storm: ready for the fatal error" and goes on: the
# host injects the fatal machine check on CPU 1 (vm.sh --mce-on) while the
# storm runs, and the guest panics.  The storm stops by itself only after
# LIMIT seconds (default 120, with a "mce-storm: FAIL: ..." line): reaching
# the end of this script is a failure.
#
# CONSOLE=quiet (the default) sets the console log level to 0 before the
# storm (/proc/sys/kernel/printk): the "[Hardware Error]" lines of the
# corrected errors then go to the kernel log only, not to the serial
# console, as on a machine where a RAS daemon takes them.  Printed, they
# take most of CPU 1's time (the fatal machine check landed in printk or
# serial8250_console_write in every try), and it seldom finds CPU 1 writing
# a record.  The console stays quiet in the panic too (panic() makes a
# console verbose only when its level is not 0): the panic line is then in
# the kernel log in RAM only, where check-reboot.sh looks for it.
# CONSOLE=loud leaves the log level as it is.
#
# Usage: [CONSOLE=quiet|loud] mce-storm-before-reboot.sh STORM [START [LIMIT]]
# Prints this boot's boot_id and release for boot 2 to compare.
set -u
INJ=/sys/kernel/debug/mce-inject
STORM=${1:-}
START=${2:-512}
LIMIT=${3:-120}
fail() { echo "mce-storm: FAIL: $*"; exit 1; }
echo "mce-storm: boot_id $(cat /proc/sys/kernel/random/boot_id)"
echo "mce-storm: release $(uname -r)"
[ -x "$STORM" ] || fail "usage: mce-storm-before-reboot.sh STORM [START [LIMIT]] (no storm program '$STORM')"
[ -d "$INJ" ] || fail "$INJ missing (CONFIG_X86_MCE_INJECT, debugfs)"
[ "$(nproc)" -ge 2 ] || fail "needs 2 CPUs, has $(nproc)"
case ${CONSOLE:-quiet} in
quiet) echo 0 > /proc/sys/kernel/printk || fail "cannot set the console log level to 0" ;;
loud) ;;
*) fail "CONSOLE=$CONSOLE: quiet or loud" ;;
esac
echo "mce-storm: console log level $(cut -f1 /proc/sys/kernel/printk) (${CONSOLE:-quiet})"
"$STORM" 1 "$START" 64 "$LIMIT"
fail "the storm ended (exit $?): no fatal machine check came"
