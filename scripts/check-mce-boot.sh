#!/bin/sh
# Usage: check-mce-boot.sh RESULTS -- boot the test kernel (build/kernel) in
# the cases where the mce_record persistent event must or must not exist, run
# the persistent kselftest (build/selftests) in each, and append one result
# line per case:
#   boot     an error in CPU 1's bank 1 before boot + mce=bootlog: it is in
#            a mce_record buffer (TEST mce_at_boot)
#   off      mce=off: no mce_record (TEST mce_record_absent)
#   nomca    a CPU without MCA (-cpu max,-mca,-mce): no mce_record
#   size8k   mce=persistent=8K: buffer_size 8192 (TEST sysfs); and the
#            reserve_mem= region it is given, mce=persistent_mem=mce, is an
#            ftrace boot instance's too (trace_instance=boot@mce): refused
#            with one log line, the buffers ordinary, the instance there
#   pers_off mce=persistent=off: no mce_record
#   bad      mce=persistent=12x: a warning, the default 512 KiB
#   late8k   mce=persistent=8K, 400 errors before perf starts: perf record
#            gets the newest records of every buffer (tests/boot/late-reader.sh);
#            then perf test 'perf record options' and 'perf top on the
#            persistent ...' with buffers perf record --aio and perf top
#            are lapped in
set -u
res=$1
K=build/kernel/arch/x86/boot/bzImage
# The cases run here change nothing, but what changes the machine is
# opt-in in the kselftest (see tests/guest/run.sh): turned on as there.
BIN="PERF_TEST_MCE_INJECT=1 PERF_TEST_CPU_HOTPLUG=1 PERF_TEST_SYSCTL=1 $(pwd)/build/selftests/perf_events/persistent"
OUT=build/check/mce-boot
mkdir -p "$OUT"
ERR='1 1 0x9000000000000000 0 0 0'
EV=/sys/bus/event_source/devices/persistent

# run NAME EXPECT-GREP... -- VM.SH-OPTIONS... -- GUEST-COMMAND
run() {
	name=$1
	shift
	pats=
	while [ "$1" != -- ]; do pats="$pats$1
"
		shift
	done
	shift
	sh scripts/vm.sh --kernel "$K" --timeout 300 --out "$OUT/$name" "$@" >"$OUT/$name.txt" 2>&1
	rc=$?
	why=
	while IFS= read -r p; do
		[ -n "$p" ] || continue
		grep -qE -- "$p" "$OUT/$name.txt" || why="$why; no match for: $p"
	done <<PATS
$pats
PATS
	# a failed kselftest (not ok) fails the case
	if grep -qE '^not ok ' "$OUT/$name.txt"; then why="$why; kselftest failure"; fi
	if [ -z "$why" ]; then
		echo "PASS mce-boot/$name" >> "$res"
	else
		echo "FAIL mce-boot/$name (${why#; }; vm.sh exit $rc; log: $OUT/$name.txt)" >> "$res"
		# where CI shows only make check's output: what the guest printed
		# (vm.sh puts the console's last lines there on a hang or panic)
		echo "mce-boot/$name failed (vm.sh exit $rc); the end of $OUT/$name.txt:"
		tail -n 45 "$OUT/$name.txt"
	fi
}

info="grep MemFree /proc/meminfo; ls $EV/events/; cat $EV/info/mce_record.buffer_size 2>/dev/null || echo no-buffer"

run boot '^ok [0-9]+ global.mce_at_boot$' -- --append mce=bootlog --mce-before-boot "$ERR" -- \
	"PERSISTENT_MCE_BOOT='$ERR' $BIN -t mce_at_boot; $info"
run off '^ok [0-9]+ global.mce_record_absent$' '^no-buffer' -- --append mce=off -- \
	"$BIN -t mce_record_absent; $info"
run nomca '^ok [0-9]+ global.mce_record_absent$' '^no-buffer' -- --cpu max,-mca,-mce -- \
	"grep -c ' mca ' /proc/cpuinfo; $BIN -t mce_record_absent; $info"
run size8k '^ok [0-9]+ persistent.sysfs$' '^8192$' \
	'reserve_mem= region "mce" is used by trace_instance= on the command line too' \
	'^instance: boot$' -- \
	--append 'mce=persistent=8K reserve_mem=64K:4096:mce trace_instance=boot@mce mce=persistent_mem=mce' -- \
	"$BIN -t sysfs; $info; dmesg | grep -c 'reserve_mem= region' | sed 's/^/region lines: /'; \
	dmesg | grep 'reserve_mem= region'; ls /sys/kernel/tracing/instances | sed 's/^/instance: /'"
run pers_off '^ok [0-9]+ global.mce_record_absent$' '^no-buffer' -- --append mce=persistent=off -- \
	"$BIN -t mce_record_absent; $info"
run bad 'mce=persistent=12x: bad size, using the default' '^524288$' '^ok [0-9]+ persistent.sysfs$' -- \
	--append mce=persistent=12x -- "dmesg | grep 'mce'; $BIN -t sysfs; $info"
# ...and the perf record options and perf top tests: with buffers this
# small, their lapped cases run (the main guest's 512 KiB buffers run the
# -z case instead): perf record --aio must write a PERF_RECORD_LOST, perf
# top count the records lost in its header.
run late8k '^late-reader: ok' 'perf record options on the persistent mce_record event *: Ok' \
	'perf record --aio lapped by the kernel: [1-9][0-9]* PERF_RECORD_LOST' \
	'perf top on the persistent mce_record event *: Ok' \
	'perf top lapped by the kernel: lost: [0-9]*/[1-9]' -- \
	--append mce=persistent=8K -- "sh tests/boot/late-reader.sh; \
	cd build/linux/tools/perf && PATH=$(pwd)/build/perf:\$PATH PERF_TEST_MCE_INJECT=1 $(pwd)/build/perf/perf test -vv 'perf record options' 2>&1 | tail -n 30; \
	PATH=$(pwd)/build/perf:\$PATH PERF_TEST_MCE_INJECT=1 $(pwd)/build/perf/perf test -vv 'perf top on the persistent' 2>&1 | \
	grep -v '^ *[0-9.]*%' | tail -n 30"
