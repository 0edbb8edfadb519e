#!/bin/sh
# Guest side of the mce-boot case late8k (booted with mce=persistent=8K, about
# 53 mce_record records per CPU buffer): 400 corrected errors wrap the buffers
# many times before any tool runs (a record lands in the buffer of the CPU
# that ran the MCE work item, so how many each buffer gets varies); perf
# record started afterwards must still get the newest records of every buffer
# that wrapped, whole, down to the buffer size less the reader's margin (one
# record and 128 bytes) and one record, and say in one line that older ones
# were overwritten.  Exit 0 on success.
set -u
INJ=/sys/kernel/debug/mce-inject
PERF=${PERF:-$(pwd)/build/perf/perf}
D=/sys/bus/event_source/devices/persistent/info/mce_record
fail() { echo "late-reader: $*"; exit 1; }
size=$(cat $D.buffer_size) || fail "no mce_record persistent event"
n=400
i=1
while [ $i -le $n ]; do
	# The MCE records pool holds about 80 records: when the injections
	# outrun the work item that drains it, records are dropped ("MCE
	# records pool full!").  That does not matter for the older ones, but
	# the newest, which must be found, goes in once the pool has drained.
	[ $i -lt $n ] || sleep 1
	echo sw > $INJ/flags && echo 0x9c00000000000042 > $INJ/status &&
		printf '0x%x\n' $((0x5e000 + i)) > $INJ/addr && echo 0 > $INJ/misc &&
		echo $((i % 2)) > $INJ/cpu && echo 1 > $INJ/bank || fail "injection $i failed"
	i=$((i + 1))
done
sleep 1
cd /tmp || exit 1
# -vvv: libperf says (at its debug level) which buffers had records
# overwritten before it read them
"$PERF" record -vvv -a -e persistent/mce_record/ -o late.data -- sleep 1 2> late.err ||
	{ cat late.err; fail "perf record failed"; }
grep '^\[ perf record' late.err
"$PERF" script -i late.data > late.txt 2> late.script.err || fail "perf script failed"
grep -q 'Check IO/CPU overload' late.err late.script.err && fail "perf blames itself for records overwritten before it started"
grep -q 'overwritten before perf attached' late.err || fail "perf record did not say that older records were overwritten"
# 152-byte records: what one buffer must keep at least
min=$(( (size - 2 * 152 - 128) / 152 ))
wrapped=0
for cpu in 0 1; do
	grep "\[00$cpu\]" late.txt | sed -n 's/.*ADDR: \([0-9a-f]*\),.*/\1/p' > "addr.$cpu"
	c=$(wc -l < "addr.$cpu")
	[ "$(sort -u "addr.$cpu" | wc -l)" = "$c" ] || fail "CPU $cpu: a record twice"
	if grep -q "persistent buffer of CPU $cpu: [0-9]* bytes overwritten" late.err; then
		wrapped=$((wrapped + 1))
		echo "late-reader: buffer of CPU $cpu wrapped: $c records, at least $min expected"
		[ "$c" -ge "$min" ] || fail "CPU $cpu: only $c records"
	else
		echo "late-reader: buffer of CPU $cpu did not wrap: $c records"
	fi
done
# 400 records of 152 bytes do not fit into two 8 KiB buffers
[ $wrapped -gt 0 ] || fail "no buffer wrapped"
printf '%x\n' $((0x5e000 + n)) > newest
grep -q "ADDR: 0*$(cat newest)," late.txt ||
	fail "the newest error (addr $(cat newest)) is missing"
echo "late-reader: ok, $(wc -l < late.txt) records"
