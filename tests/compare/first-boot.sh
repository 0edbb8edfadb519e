#!/bin/sh
# Guest side of the first boot of each setup of make compare-ftrace
# (scripts/compare-ftrace.sh), booted with an error in CPU 1's bank 1
# before the kernel ran (vm.sh --mce-before-boot, mce=bootlog).
# Usage: first-boot.sh ftrace:DIR | perf:EVENT   (see lib.sh)
#   row1  a reader that starts now: is the error from before boot there
#         (status 9000000000000000, bank 1, addr 0)?
#   row3  two readers at once.  ftrace: 20 errors, then two concurrent
#         readers of the trace file; then two concurrent readers of
#         trace_pipe while 20 more come, and the trace file after them.
#         perf: two perf record sessions at once while 20 errors come.
#   row2  400 errors (addrs 0x5e001..0x5e190) on CPU 0, more than its
#         buffer holds, then one reader: which of them does it get?
# The whole script runs on CPU 0 (taskset), so that every record goes to
# CPU 0's buffer.  Then it prints the marker on which the host injects the
# fatal machine check (row 4) and waits for it.
set -u
READER=$1
. "$(dirname "$0")/lib.sh"
taskset -p -c 0 $$ > /dev/null || say "error: taskset failed"
[ -d $INJ ] || say "error: no $INJ"
say "release $(uname -r)"
if [ "$KIND" = ftrace ]; then
	say "buffer $(cat "$SRC/buffer_size_kb") KB (buffer_size_kb)"
else
	say "buffer $(cat /sys/bus/event_source/devices/persistent/info/$SRC.buffer_size) bytes (info/$SRC.buffer_size)"
fi

# row 1
snapshot row1
say "row1 $(grep -c '^9000000000000000 0$' $W/row1) of 1"
# the stock kernel resets the top instance at late boot when it finds
# sched_clock unstable (the trace clock becomes "global")
say "clock-reset $(dmesg | grep -c 'Unstable clock detected, switching default tracing clock')"

# row 3
if [ "$KIND" = ftrace ]; then
	inject_range 0x3d001 20 0.1
	sleep 1
	cat "$SRC/trace" > $W/t1 & t1=$!
	cat "$SRC/trace" > $W/t2 & t2=$!
	wait $t1 $t2
	norm $W/t1 > $W/t1.n
	norm $W/t2 > $W/t2.n
	say "row3 trace $(count $W/t1.n 0x3d001 20) $(count $W/t2.n 0x3d001 20) of 20"
	cat "$SRC/trace_pipe" > $W/p1 2>&1 & p1=$!
	cat "$SRC/trace_pipe" > $W/p2 2>&1 & p2=$!
	sleep 1
	inject_range 0x3e001 20 0.1
	sleep 2
	kill $p1 $p2 2> /dev/null
	wait $p1 $p2 2> /dev/null
	# a reader that could not open it: its error (EBUSY) instead of a count
	for p in p1 p2; do
		if grep -q 'Device or resource busy' $W/$p; then
			echo EBUSY
		else
			norm $W/$p > $W/$p.n
			count $W/$p.n 0x3e001 20
		fi
	done > $W/pipe
	snapshot after-pipe
	say "row3 trace_pipe $(tr '\n' ' ' < $W/pipe)of 20, trace after them $(count $W/after-pipe 0x3e001 20)"
else
	for r in r1 r2; do
		"$PERF" record -a -e "persistent/$SRC/" -o $W/$r.data -- sleep 6 > $W/$r.rec 2>&1 &
	done
	sleep 2
	inject_range 0x3e001 20 0.1
	wait
	for r in r1 r2; do
		"$PERF" script -i $W/$r.data > $W/$r.raw 2>&1 || say "error: perf script -i $r.data failed"
		norm $W/$r.raw > $W/$r.n
	done
	say "row3 perf $(count $W/r1.n 0x3e001 20) $(count $W/r2.n 0x3e001 20) of 20"
fi

# row 2: the console quiet meanwhile (the [Hardware Error] lines of 400
# errors on the emulated UART take long)
lvl=$(cat /proc/sys/kernel/printk)
echo 1 > /proc/sys/kernel/printk
inject_range 0x5e001 399
sleep 1
# the newest after a pause: the MCE records pool (80) may have overflowed
inject 0x5e190
sleep 1
echo "$lvl" > /proc/sys/kernel/printk
if [ "$KIND" = ftrace ]; then
	# what CPU 0's buffer holds and has overwritten, by its stats
	say "stats $(sed -n 's/^\(entries\|overrun\): //p' "$SRC/per_cpu/cpu0/stats" | tr '\n' ' ')"
fi
snapshot row2
say "row2 $(count $W/row2 0x5e001 400) of 400: $(ranges $W/row2 0x5e001 400)"

# row 4: the host injects the fatal error (vm.sh --mce-on) on this line
sync
say "ready for the fatal error"
sleep 60
say "error: no fatal machine check within 60 s"
