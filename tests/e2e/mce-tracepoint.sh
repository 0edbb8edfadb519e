#!/bin/sh
# mce:mce_record tracepoint shows a corrected error injected through mce-inject
# Guest-only test (needs the test kernel's debugfs mce-inject): exit 0 ok,
# 1 failed.
set -u
T=/sys/kernel/tracing
INJ=/sys/kernel/debug/mce-inject
fail() { echo "mce-tracepoint: $*"; echo "[Failed]"; exit 1; }
[ -d "$INJ" ] || fail "$INJ missing (CONFIG_X86_MCE_INJECT, debugfs)"
[ -d "$T/events/mce/mce_record" ] || fail "no mce:mce_record tracepoint in $T"
echo 0 > "$T/tracing_on"
echo > "$T/trace"
echo 1 > "$T/events/mce/mce_record/enable"
echo 1 > "$T/tracing_on"
printf 'sw\n' > "$INJ/flags"
echo 0x8c00000000000151 > "$INJ/status"
echo 0x12345000 > "$INJ/addr"
echo 0x8c > "$INJ/misc"
echo 1 > "$INJ/cpu"
echo 3 > "$INJ/bank"
i=0
while ! grep -q 'MC3: 8c00000000000151' "$T/trace"; do
	i=$((i + 1))
	[ $i -lt 50 ] || { cat "$T/trace"; fail "injected MCE not seen on mce:mce_record"; }
	sleep 0.1
done
echo 0 > "$T/events/mce/mce_record/enable"
grep 'mce_record' "$T/trace" | head -n 1
# 6.12's format: "ADDR: %016Lx, MISC: %016Lx, SYND: ..." (6.1: ADDR/MISC/SYND: a/m/s)
grep -q 'ADDR: 0000000012345000, MISC: 000000000000008c,' "$T/trace" || fail "address/misc not as injected"
echo "[Success]"
