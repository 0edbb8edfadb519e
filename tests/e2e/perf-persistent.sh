#!/bin/sh
# perf record/script/top/stat/list on the persistent mce_record event
# Guest-only test (needs the test kernel's persistent PMU and debugfs
# mce-inject, run as root from the repository root): exit 0 ok, 1 failed.
# PERF overrides the perf binary (default build/perf/perf).
set -u
PERF=${PERF:-build/perf/perf}
PMU=/sys/bus/event_source/devices/persistent
INJ=/sys/kernel/debug/mce-inject
EV=persistent/mce_record/
W=$(mktemp -d /tmp/e2e-perf-persistent.XXXXXX)
trap 'rm -rf "$W"' EXIT
fail() { echo "perf-persistent: $*"; echo "[Failed] $*"; exit 1; }

[ -x "$PERF" ] || fail "no perf at $PERF"
[ -d "$INJ" ] || fail "$INJ missing (CONFIG_X86_MCE_INJECT, debugfs)"
[ -e "$PMU/events/mce_record" ] || fail "no persistent mce_record event in $PMU"

# inject STATUS ADDR BANK: a corrected error on CPU 1
inject() {
	printf 'sw\n' > "$INJ/flags"
	echo "$1" > "$INJ/status"
	echo "$2" > "$INJ/addr"
	echo 1 > "$INJ/cpu"
	echo "$3" > "$INJ/bank"
}
# seen FILE STATUS ADDR BANK: perf script output shows that error
seen() {
	grep -q "MC$4: ${2#0x}, .*ADDR: $(printf '%016x' "$3")," "$1"
}

# 1. An error logged before any perf runs, one while two perf record
#    sessions run: each session sees both.
inject 0x8c00000000000151 0x12345000 3
sleep 1
(sleep 2; inject 0x8c00000000000152 0x6789a000 4) &
"$PERF" record -a -e $EV -o "$W/a.data" -- sleep 4 > "$W/a.log" 2>&1 &
pa=$!
"$PERF" record -C 0,1 -e $EV -o "$W/b.data" -- sleep 4 > "$W/b.log" 2>&1 || {
	cat "$W/b.log"; fail "perf record -C failed"; }
wait $pa || { cat "$W/a.log"; fail "perf record -a failed"; }
wait
for s in a b; do
	"$PERF" script -i "$W/$s.data" > "$W/$s.script" 2>&1 ||
		{ cat "$W/$s.script"; fail "perf script failed"; }
	seen "$W/$s.script" 0x8c00000000000151 0x12345000 3 ||
		{ cat "$W/$s.script"; fail "session $s: MCE logged before perf started not recorded"; }
	seen "$W/$s.script" 0x8c00000000000152 0x6789a000 4 ||
		{ cat "$W/$s.script"; fail "session $s: MCE logged while recording not recorded"; }
done
echo "perf record (two sessions) + perf script:"
grep 'MC[34]: 8c0000000000015[12]' "$W/a.script" | tail -n 2

# 2. perf top --stdio shows the records as they arrive.  Its stdin is a
#    FIFO held open (it quits on EOF), its stdout line-buffered (stdbuf) so
#    that its screens reach the file as drawn.  Once it has drawn the first,
#    one error a second is injected until one shows (perf top drops samples
#    older than its refresh delay and lets entries decay, so a single record
#    may come and go between two screens), for at most 30 s.
mkfifo "$W/top.in"
COLUMNS=512 timeout -s INT 90 stdbuf -oL "$PERF" top --stdio -d 2 -e $EV < "$W/top.in" > "$W/top.out" 2>&1 &
tp=$!
exec 3> "$W/top.in"
i=0
until grep -q PerfTop "$W/top.out" || [ $i -ge 30 ]; do sleep 1; i=$((i + 1)); done
i=0
until grep -q 'MC5: 8c00000000000153' "$W/top.out" || [ $i -ge 30 ]; do
	i=$((i + 1))
	inject 0x8c00000000000153 $((0x1000 * i)) 5
	sleep 1
done
kill -INT $tp 2>/dev/null
wait $tp
exec 3>&-
grep -q 'mce_record' "$W/top.out" || { cat "$W/top.out"; fail "perf top shows no mce_record"; }
grep -q 'MC5: 8c00000000000153' "$W/top.out" ||
	{ tail -n 20 "$W/top.out"; fail "perf top shows no mce_record record"; }
echo "perf top:"
grep 'MC5: 8c00000000000153' "$W/top.out" | tail -n 1

# 3. perf stat counts the records of its interval: the errors are injected
# by its workload, which runs once the counters are open (a background
# injection after a fixed sleep raced with perf stat's start in a busy guest).
cat > "$W/inject2.sh" <<EOS
INJ=$INJ
$(sed -n '/^inject() {$/,/^}$/p' "$0")
inject 0x8c00000000000154 0x3000 6
inject 0x8c00000000000154 0x4000 6
sleep 1
EOS
"$PERF" stat -x, -a -e $EV -- sh "$W/inject2.sh" > "$W/stat.out" 2>&1
n=$(grep 'mce_record' "$W/stat.out" | cut -d, -f1)
[ "$n" = 2 ] || { cat "$W/stat.out"; fail "perf stat counted '$n' records, not 2"; }
echo "perf stat: $n records"

# 4. perf list
"$PERF" list 2>&1 | grep -q "persistent/mce_record/.*Kernel PMU event" ||
	fail "perf list does not list persistent/mce_record/"

# 5. Error messages, one line each.
err() { # err EXPECTED-PATTERN CMD...: CMD fails and says so
	pat=$1; shift
	if "$@" > "$W/err.out" 2>&1; then
		cat "$W/err.out"; fail "'$*' did not fail"
	fi
	grep -q "$pat" "$W/err.out" || { cat "$W/err.out"; fail "'$*': no '$pat'"; }
}
err "persistent event: it is per CPU, use -a or -C" \
	"$PERF" record -e $EV -o "$W/c.data" -- true
err "persistent event: it is per CPU, use -a or -C" \
	"$PERF" record -e $EV -p 1 -o "$W/c.data" -- true
err "cannot be used together with other events" \
	"$PERF" record -a -e $EV,cpu-clock -o "$W/c.data" -- true
chmod 1777 "$W"
err "No permission to attach to the persistent event" \
	setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$PERF" record -a -e $EV -o "$W/nobody.data" -- true
echo "error messages: ok"
echo "[Success]"
