#!/bin/sh
# Usage: check-reboot.sh RESULTS [OUTDIR] -- machine check records across a
# reboot (issue 13): two QEMU runs on one RAM file (vm.sh --ram-file, as a
# warm reboot keeps RAM) with the mce_record buffers in a reserve_mem= region;
# appends one result line per case:
#   panic   boot 1: three corrected errors (tests/boot/mce-before-reboot.sh),
#           then the host injects a fatal machine check (vm.sh --mce-on) and
#           the guest panics (vm.sh exit 255, the expected outcome); boot 2:
#           persistent/mce_record_previous/ has the three and the fatal one
#           last, boot_id/release/kaslr_offset of boot 1
#           (tests/boot/mce-after-reboot.sh)
#   maxcpus as panic, but boot 2 runs with maxcpus=1: CPU 1, which took
#           the fatal error, is not online, and its records are offered in
#           CPU 0's buffer, with a line in the log saying so
#   reboot  the same, but boot 1 ends in a plain warm reboot: "reboot -f",
#           the reboot(2) system call (vm.sh exit 255: no exit status)
#   header  boot 1 as for reboot; the host then flips a byte of the area
#           header in the RAM file: boot 2 takes it from its copy (one log
#           line says so) and offers boot 1's records as for reboot
#           (tests/boot/mce-after-reboot.sh); the host then flips the same
#           byte of the header and of its copy: boot 3 has no
#           mce_record_previous and one log line saying why (header
#           checksum mismatch, the copy too, its room counted as free)
#   page    the same, but a byte in the middle of the record of the second
#           error: boot 2 offers mce_record_previous with the first and the
#           third, the second reported as lost (perf script
#           --show-lost-events), and nothing else
#   plain   a boot without reserve_mem=/persistent_mem=: no
#           mce_record_previous
#   loop    five boots (crash loops): boot 1 panics as in panic; boot 2
#           records nothing and reboots; boot 3 still offers boot 1's
#           errors, the fatal one included, with boot 1's boot_id, and
#           panics the same way; boot 4 offers both, boot 3's as
#           mce_record_previous and boot 1's as mce_record_previous_2, and
#           root releases boot 1 (info/mce_record_previous_2.released); boot 5 offers boot 3's
#           only (tests/boot/mce-kept-boots.sh)
#   storm/N trial N (1..REBOOT_STORM_TRIALS): boot 1
#           (tests/boot/mce-storm-before-reboot.sh) runs a storm of
#           corrected errors on CPU 1 (mce-inject, each with its own MISC
#           and ADDR), and the host injects the fatal machine check on
#           CPU 1 (ADDR 0x5555000) while the storm runs (vm.sh --mce-on on
#           the storm's marker; the storm stops only in the panic, or after
#           120 s with a FAIL line); boot 2
#           (tests/boot/mce-storm-after-reboot.sh): mce_record_previous has
#           the fatal error, last, and every other record is one boot 1
#           injected, once, in order; one result line per trial with the
#           number of storm records found and the RIP the fatal error
#           interrupted.  The console is quiet during the storm (see
#           tests/boot/mce-storm-before-reboot.sh): the panic line is looked
#           for in boot 1's kernel log in the RAM file.  The known bug it
#           is after: a fatal error that finds CPU 1 writing a record (the
#           persistent buffer's nest count held) loses the records
#           mce_panic() traces, the fatal one included.
# Environment: REBOOT_KERNEL (bzImage, default build/kernel's),
# REBOOT_TIMEOUT (seconds per boot, default 300), REBOOT_MEM (guest RAM in
# MB, default 512: the size of the RAM file), REBOOT_STORM_TRIALS (trials of
# the storm case, default 3; make check-debug runs 5), REBOOT_STORM_CONSOLE (quiet, the default:
# the console log level is 0 during the storm; loud: as it is; see
# tests/boot/mce-storm-before-reboot.sh), REBOOT_CASES (the cases to run,
# default "panic maxcpus reboot header page plain loop storm").  OUTDIR (default
# build/check/reboot) keeps each boot's vm.sh directory (OUTDIR/CASE-N/,
# console.log there) and output (OUTDIR/CASE-N.txt); the RAM file is a
# temporary file in OUTDIR, removed afterwards.
set -u
res=$1
OUT=${2:-build/check/reboot}
K=${REBOOT_KERNEL:-build/kernel/arch/x86/boot/bzImage}
T=${REBOOT_TIMEOUT:-300}
M=${REBOOT_MEM:-512}
A="reserve_mem=1M:4096:mce mce=persistent_mem=mce mce=persistent=64K panic=1"
N=${REBOOT_STORM_TRIALS:-3}
CASES=${REBOOT_CASES:-panic maxcpus reboot header page plain loop storm}
MARK='mce-before-reboot: ready for the fatal error'
# bank 4 of CPU 1: valid, uncorrected, processor context corrupt, ADDR valid;
# MCG_STATUS RIPV|MCIP.  No -b: the guest's CPU (-cpu max under TCG) is
# AMD's, whose machine checks are all local, and one #MC on one vCPU is
# enough for the kernel to panic ("Fatal local machine check").
FATAL='1 4 0xb600000000000151 0x5 0x4444000 0'
rm -rf "$OUT"
mkdir -p "$OUT"
# every case's boot 2 (and boot 1 of panic and reboot) runs build/perf/perf
if [ ! -x build/perf/perf ]; then
	for c in $CASES; do
		[ "$c" = storm ] && c=storm/1
		echo "FAIL mce-reboot/$c (no build/perf/perf: run 'make perf' first)" >> "$res"
	done
	echo "check-reboot: no build/perf/perf (make perf): no case run" >&2
	exit 1
fi
# the storm case's injector, built here for the guest (the host's / is its root)
STORM=$(realpath "$OUT")/mce-storm
case " $CASES " in
*" storm "*)
	if ! gcc -O2 -Wall -o "$STORM" tests/boot/mce-storm.c > "$OUT/mce-storm.log" 2>&1; then
		cat "$OUT/mce-storm.log" >&2
		echo "FAIL mce-reboot/storm/1 (cannot build tests/boot/mce-storm.c: $OUT/mce-storm.log)" >> "$res"
		CASES=$(echo " $CASES " | sed 's/ storm / /')
	fi
	;;
esac
RAM=$(mktemp "$OUT/ram.XXXXXX")
trap 'rm -f "$RAM"' EXIT
trap 'exit 125' INT TERM

vm() { # NAME VM.SH-ARGS...: one boot; output in OUT/NAME.txt, status in $rc
	n=$1
	shift
	# QEMU crashed (vm.sh 126), not the guest: the boot once more, on
	# the same RAM file (what the crashed run left there can only make
	# the case fail, never pass)
	for _try in 1 2; do
		rc=0
		sh scripts/vm.sh --kernel "$K" --mem "$M" --timeout "$T" --out "$OUT/$n" "$@" \
			> "$OUT/$n.txt" 2>&1 || rc=$?
		[ "$rc" = 126 ] && [ $_try = 1 ] || return 0
		rm -rf "$OUT/$n.qemu-crash" && mv "$OUT/$n" "$OUT/$n.qemu-crash" &&
			mv "$OUT/$n.txt" "$OUT/$n.qemu-crash.txt" || return 0
		echo "check-reboot: $n: QEMU crashed ($OUT/$n.qemu-crash.txt): booted again" >&2
	done
}
# result CASE WHY [DETAIL [LOGS]]: a PASS line, or a FAIL line with what
# failed, and the tail of the guest output of each boot on stdout; DETAIL
# goes into either line, LOGS (default CASE) names the boots' outputs
# (OUT/LOGS-N.txt, OUT/LOGS-N/console.log)
result() {
	d=${3:+$3; } l=${4:-$1}
	if [ -z "$2" ]; then
		echo "PASS mce-reboot/$1${3:+ ($3)}" >> "$res"
		return
	fi
	echo "FAIL mce-reboot/$1 (${2#; }; ${d}logs: $OUT/$l-*.txt, $OUT/$l-*/console.log)" >> "$res"
	echo "mce-reboot/$1: ${2#; }"
	for f in "$OUT/$l"-*.txt; do
		[ -f "$f" ] || continue
		echo "  --- last lines of $f:"
		tail -n 25 "$f" | cut -c1-200 | sed 's/^/  | /'
	done
}
# kernel_said BOOT: what the kernel said about the command line and the
# reserved region, for failure messages
kernel_said() {
	grep -hE 'mce argument .* ignored|reserve_mem|persistent|previous boot' "$OUT/$1/console.log" 2>/dev/null |
		grep -v 'ommand line' | head -n 3 | sed 's/^\[[^]]*\] //' | tr '\n' '|' | sed 's/|$//; s/|/ | /g'
}

# twice CASE: boot 1 then boot 2 on the same RAM file
twice() {
	c=$1
	why=
	: > "$RAM"
	if [ "$c" != reboot ]; then
		vm "$c-1" --ram-file "$RAM" --append "$A" --mce-on "$MARK" "$FATAL" -- \
			sh tests/boot/mce-before-reboot.sh panic
		# the guest dies in the panic: vm.sh's 255 is the expected outcome
		[ "$rc" = 255 ] || why="$why; boot 1: vm.sh exit $rc, expected 255 (died in the machine-check panic)"
		[ -s "$OUT/$c-1/mce-on.sent" ] || why="$why; boot 1: the marker never came, no fatal error injected"
		grep -q 'Kernel panic - not syncing: Fatal .*machine check' "$OUT/$c-1/console.log" ||
			why="$why; boot 1: no machine-check panic on the console ($(grep -m1 'Kernel panic' "$OUT/$c-1/console.log" || echo 'no panic at all'))"
	else
		vm "$c-1" --ram-file "$RAM" --append "$A" -- sh tests/boot/mce-before-reboot.sh reboot
		# reboot(2) ends the guest without an exit status: vm.sh's 255
		[ "$rc" = 255 ] || why="$why; boot 1: vm.sh exit $rc, expected 255 (rebooted by reboot -f)"
		grep -q 'reboot: Restarting system' "$OUT/$c-1/console.log" ||
			why="$why; boot 1: no 'reboot: Restarting system' on the console"
		! grep -q 'Kernel panic' "$OUT/$c-1/console.log" ||
			why="$why; boot 1: $(grep -m1 'Kernel panic' "$OUT/$c-1/console.log")"
	fi
	grep -q '^mce-before-reboot: ok' "$OUT/$c-1.txt" ||
		why="$why; boot 1: $(grep -m1 'mce-before-reboot: FAIL' "$OUT/$c-1.txt" || echo 'corrected errors not read back')"
	boot1_id
	fatal=0x4444000 a2=$A
	[ "$c" = reboot ] && fatal=
	[ "$c" = maxcpus ] && a2="$A maxcpus=1"
	vm "$c-2" --ram-file "$RAM" --append "$a2" -- sh tests/boot/mce-after-reboot.sh "$id" "$rel" $fatal
	[ "$rc" = 0 ] || why="$why; boot 2: vm.sh exit $rc"
	if [ "$c" = maxcpus ]; then
		grep -q 'dmesg:.* mce_record_previous: CPU 1 of boot [0-9a-f-]* is not online: its [1-9][0-9]* records are in the buffer of CPU 0$' "$OUT/$c-2.txt" ||
			why="$why; boot 2: no log line saying CPU 1's records are in CPU 0's buffer"
		# the fatal error still says the CPU it was taken on
		grep 'ADDR: 0*4444000,' "$OUT/$c-2.txt" | grep -q '\[001\]' ||
			why="$why; boot 2: the fatal error's record does not show CPU 1 ([001]) in perf script"
	fi
	if ! grep -q '^mce-after-reboot: ok' "$OUT/$c-2.txt"; then
		why="$why; boot 2: $(grep -m1 'mce-after-reboot: FAIL' "$OUT/$c-2.txt" || echo 'no result line')"
		said=$(kernel_said "$c-2")
		[ -z "$said" ] || why="$why; boot 2 kernel: $said"
	fi
	result "$c" "$why"
}

# boot1_id: id and rel, the boot_id and release boot 1 of case $c printed
# (none, and a reason in why, if it printed none)
boot1_id() {
	# shellcheck disable=SC2046
	set -- $(boot_of "$c-1" mce-before-reboot)
	id=$1 rel=$2
	[ "$id" != none ] && [ "$rel" != none ] || why="$why; boot 1 printed no boot_id/release"
}

# region_at: file offset of the region header boot 1 left in the RAM file:
# the page-aligned magic "ppmemor1" (guest RAM is the file, from 0)
region_at() {
	grep -obUa ppmemor1 "$RAM" | awk -F: '$1 % 4096 == 0 { o = $1 } END { print o }'
}
# u32 OFFSET: a native-endian u32 of the RAM file
u32() { od -An -tu4 -j "$1" -N4 "$RAM" | tr -d ' '; }
# flip OFFSET: invert one byte of the RAM file
flip() {
	b=$(od -An -tu1 -j "$1" -N1 "$RAM" | tr -d ' ')
	# shellcheck disable=SC2059
	printf "$(printf '\\%03o' $((b ^ 255)))" |
		dd of="$RAM" bs=1 seek="$1" count=1 conv=notrunc 2>/dev/null
}

# damaged CASE: boot 1 reboots, the host damages what it left, boot 2
damaged() {
	c=$1
	why=
	: > "$RAM"
	vm "$c-1" --ram-file "$RAM" --append "$A" -- sh tests/boot/mce-before-reboot.sh reboot
	[ "$rc" = 255 ] || why="$why; boot 1: vm.sh exit $rc, expected 255 (rebooted by reboot -f)"
	grep -q '^mce-before-reboot: ok' "$OUT/$c-1.txt" || why="$why; boot 1: corrected errors not read back"
	h=$(region_at)
	if [ -z "$h" ]; then
		result "$c" "$why; no region header (magic ppmemor1) in the RAM file after boot 1"
		return
	fi
	P=/sys/bus/event_source/devices/persistent
	if [ "$c" = header ]; then
		boot1_id
		# the area's size; its copy is in the second half of its page
		flip $((h + 16))
		vm "$c-2" --ram-file "$RAM" --append "$A" -- sh tests/boot/mce-after-reboot.sh "$id" "$rel"
		[ "$rc" = 0 ] || why="$why; boot 2: vm.sh exit $rc"
		grep -q '^mce-after-reboot: ok' "$OUT/$c-2.txt" ||
			why="$why; boot 2, the header flipped: $(grep -m1 'mce-after-reboot: FAIL' "$OUT/$c-2.txt" || echo 'no result line')"
		grep -q "dmesg:.* reserve_mem= region \"mce\": the header of the area of mce_record of boot $id at offset 0x[0-9a-f]* does not check, its copy does: written again from it\$" "$OUT/$c-2.txt" ||
			why="$why; boot 2: no log line saying the header was taken from its copy"
		# written again: the header page's two halves are the same
		cmp -s -n 2048 -i "$h:$((h + 2048))" "$RAM" "$RAM" ||
			why="$why; boot 2 did not write the header again from its copy"
		# boot 2 recorded nothing: its own area is not kept, boot 3
		# has no previous boot to offer
		flip $((h + 16))
		flip $((h + 2048 + 16))
		vm "$c-3" --ram-file "$RAM" --append "$A" -- \
			"ls -1 $P/events; dmesg | grep -v harness-init | grep -c 'previous boot'; dmesg | grep 'previous boot'"
		[ "$rc" = 0 ] || why="$why; boot 3: vm.sh exit $rc"
		grep -qx mce_record "$OUT/$c-3.txt" || why="$why; boot 3: no mce_record"
		! grep -q mce_record_previous "$OUT/$c-3.txt" ||
			why="$why; boot 3 offers mce_record_previous from a damaged header and copy"
		grep -qx 1 "$OUT/$c-3.txt" || why="$why; boot 3: not exactly one log line about the previous boot"
		grep -q "no records of a previous boot in reserve_mem= region \"mce\": header checksum mismatch, in its copy too: the area's room counts as free\$" "$OUT/$c-3.txt" ||
			why="$why; boot 3: no log line saying the header and its copy do not check, and the room is free"
	else
		slots=$(u32 $((h + 24))) np=$(u32 $((h + 28))) meta=$(u32 $((h + 32)))
		# the middle of the record of 0x2222000: the byte 0x22 of its
		# addr (the u64 00 20 22 02 00 00 00 00), found once in the area
		o=$(LC_ALL=C grep -obUaP '\x00\x20\x22\x02\x00\x00\x00\x00' "$RAM" | cut -d: -f1 |
			awk -v lo="$h" -v hi=$((h + (1 + slots * (meta + 1 + np)) * 4096)) '$1 >= lo && $1 < hi')
		if [ "$(echo "$o" | grep -c .)" != 1 ]; then
			result "$c" "$why; the record of 0x2222000 found $(echo "$o" | grep -c .) times in the area, expected once"
			return
		fi
		flip $((o + 2))
		vm "$c-2" --ram-file "$RAM" --append "$A" -- \
			"ls -1 $P/events; cd /tmp && $PWD/build/perf/perf record -a -e persistent/mce_record_previous/ -o p.data -- sleep 1 && $PWD/build/perf/perf script --show-lost-events -i p.data > s.txt 2>&1; cat s.txt; dmesg | grep 'previous boot'"
		[ "$rc" = 0 ] || why="$why; boot 2: vm.sh exit $rc"
		# the flipped byte is byte 62 of a record of 152 (records
		# start 8-aligned): its line of 64 holds no other record's
		# byte, but may hold its header (the loss then an upper
		# bound, which the log says)
		grep -qx mce_record_previous "$OUT/$c-2.txt" ||
			why="$why; boot 2: no mce_record_previous (a damaged byte must lose its record only)"
		! grep -qE 'ADDR: 0*(2222000|2dd2000),' "$OUT/$c-2.txt" ||
			why="$why; boot 2 shows the record of the damaged byte"
		grep -qE 'ADDR: 0*1111000,' "$OUT/$c-2.txt" && grep -qE 'ADDR: 0*3333000,' "$OUT/$c-2.txt" ||
			why="$why; boot 2 does not show the records that share no line with the damaged byte"
		grep -q "PERF_RECORD_LOST lost [0-9]" "$OUT/$c-2.txt" ||
			why="$why; boot 2: the damaged record is not reported as lost"
		# perf record's summary names the kernel, not perf's overload
		! grep -q 'Check IO/CPU overload' "$OUT/$c-2.txt" ||
			why="$why; boot 2: perf blames IO/CPU overload for records the kernel could not keep"
		grep -q 'Persistent event: records the kernel dropped' "$OUT/$c-2.txt" ||
			why="$why; boot 2: perf does not say the lost records are the kernel's"
	fi
	result "$c" "$why"
}

# storm TRIAL: boot 1 dies in a fatal machine check that lands on CPU 1
# during a storm of corrected errors on CPU 1; boot 2 must offer the fatal
# error and nothing but what boot 1 injected
SMARK='mce-storm: ready for the fatal error'
SFATAL='1 4 0xb600000000000151 0x5 0x5555000 0'
SCONSOLE=${REBOOT_STORM_CONSOLE:-quiet}
storm() {
	c=storm$1
	why=
	: > "$RAM"
	vm "$c-1" --ram-file "$RAM" --append "$A" --mce-on "$SMARK" "$SFATAL" -- \
		env CONSOLE="$SCONSOLE" sh tests/boot/mce-storm-before-reboot.sh "$STORM"
	[ "$rc" = 255 ] || why="$why; boot 1: vm.sh exit $rc, expected 255 (died in the machine-check panic)"
	[ -s "$OUT/$c-1/mce-on.sent" ] || why="$why; boot 1: the storm's marker never came, no fatal error injected"
	# a quiet console (the default) shows no panic: boot 1's kernel log,
	# in the RAM file it left (zeroed before), must have the panic line
	# (and where the fatal error found CPU 1: its RIP line)
	if [ "$SCONSOLE" = loud ]; then
		klog=$OUT/$c-1/console.log
	else
		klog=$OUT/$c-1/klog.txt
		grep -aoE 'Kernel panic - not syncing: Fatal (local )?machine check|RIP !INEXACT! [0-9a-f]+:<[0-9a-f]+>( \{[^}]*\})?' \
			"$RAM" > "$klog"
	fi
	grep -qE 'Kernel panic - not syncing: Fatal (local )?machine check' "$klog" ||
		why="$why; boot 1: no machine-check panic in its kernel log ($klog: $(grep -m1 'Kernel panic' "$klog" || echo 'no panic at all'))"
	landed=$(sed -n 's/.*RIP !INEXACT! \([0-9a-f]*:<[0-9a-f]*>.*\)/\1/p' "$klog" | sed 's/ *$//' | tail -n 1)
	! grep -q '^mce-storm: FAIL' "$OUT/$c-1.txt" ||
		why="$why; boot 1: $(grep -m1 '^mce-storm: FAIL' "$OUT/$c-1.txt")"
	# the storm's progress: errors injected by its last line, and by the
	# marker; at most one step (64) more than its last line
	inj=$(sed -n 's/^mce-storm: injected \([0-9]*\)$/\1/p' "$OUT/$c-1.txt" | tail -n 1)
	atmark=$(sed -n "/$SMARK/q; s/^mce-storm: injected \\([0-9]*\\)\$/\\1/p" "$OUT/$c-1.txt" | tail -n 1)
	id=$(sed -n 's/^mce-storm: boot_id \([0-9a-f-]*\).*/\1/p' "$OUT/$c-1.txt" | head -n 1)
	rel=$(sed -n 's/^mce-storm: release \([^ ]*\).*/\1/p' "$OUT/$c-1.txt" | head -n 1)
	if [ -z "$id" ] || [ -z "$rel" ] || [ -z "$inj" ]; then
		why="$why; boot 1 printed no boot_id/release/storm progress"
		id=${id:-none} rel=${rel:-none} inj=${inj:-0}
	fi
	r=
	if [ ! -s "$OUT/$c-1/mce-on.sent" ]; then
		why="$why; boot 2 not run (no fatal error in boot 1)"
	else
		vm "$c-2" --ram-file "$RAM" --append "$A" -- \
			sh tests/boot/mce-storm-after-reboot.sh "$id" "$rel" $((inj + 64)) 0x5555000
		[ "$rc" = 0 ] || why="$why; boot 2: vm.sh exit $rc$(grep -m1 -o 'Kernel panic - .*' "$OUT/$c-2/console.log" | sed 's/^/: /')"
		r=$(sed -n 's/^mce-storm-after: result //p' "$OUT/$c-2.txt")
	fi
	case $r in *fatal=missing*) missing=$((missing + 1)) ;; esac
	if [ -s "$OUT/$c-1/mce-on.sent" ] && ! grep -q '^mce-storm-after: ok' "$OUT/$c-2.txt"; then
		fl=$(grep '^mce-storm-after: FAIL' "$OUT/$c-2.txt" | sed 's/^mce-storm-after: FAIL: //' | tr '\n' ';' | sed 's/;$//; s/;/; /g')
		why="$why; boot 2: ${fl:-no result line (mce-storm-after-reboot.sh did not finish)}"
		said=$(kernel_said "$c-2")
		[ -z "$said" ] || why="$why; boot 2 kernel: $said"
	fi
	found=$(printf '%s\n' "$r" | sed -n 's/.*storm=\([0-9]*\).*/\1/p')
	lost=$(printf '%s\n' "$r" | sed -n 's/.*lost=\([0-9]*\).*/\1/p')
	what="${found:-no} storm records of at most $((inj + 64)) injected (${atmark:-?} by the marker, $inj by the storm's last line), ${lost:-?} lost records, the fatal error came at RIP ${landed:-?}"
	echo "mce-reboot/storm/$1: $what, $r"
	[ -n "$why" ] || what="$what; the fatal error last"
	result "storm/$1" "$why" "$what" "$c"
}

# boot_of CASE-N SCRIPT: the boot_id and release that SCRIPT printed in boot
# CASE-N ("SCRIPT: boot_id ID", "SCRIPT: release REL"), or "none none"
boot_of() {
	i=$(sed -n "s/^$2: boot_id \([0-9a-f-]*\).*/\1/p" "$OUT/$1.txt" | head -n 1)
	r=$(sed -n "s/^$2: release \([^ ]*\).*/\1/p" "$OUT/$1.txt" | head -n 1)
	echo "${i:-none} ${r:-none}"
}
# panicked CASE-N: boot CASE-N died in the fatal machine check
panicked() {
	[ "$rc" = 255 ] || why="$why; boot ${1##*-}: vm.sh exit $rc, expected 255 (died in the machine-check panic)"
	[ -s "$OUT/$1/mce-on.sent" ] || why="$why; boot ${1##*-}: the marker never came, no fatal error injected"
	grep -q 'Kernel panic - not syncing: Fatal .*machine check' "$OUT/$1/console.log" ||
		why="$why; boot ${1##*-}: no machine-check panic on the console"
	grep -q '^mce-before-reboot: ok' "$OUT/$1.txt" ||
		why="$why; boot ${1##*-}: corrected errors not read back"
}
# rebooted CASE-N SCRIPT: boot CASE-N passed SCRIPT's checks, then reboot -f
rebooted() {
	[ "$rc" = 255 ] || why="$why; boot ${1##*-}: vm.sh exit $rc, expected 255 (reboot -f)"
	fl=$(grep "^$2: FAIL" "$OUT/$1.txt" | sed "s/^$2: FAIL: //" | tr '\n' ';' | sed 's/;$//; s/;/; /g')
	[ -z "$fl" ] || why="$why; boot ${1##*-}: $fl"
	grep -q "^$2: rebooting" "$OUT/$1.txt" || why="$why; boot ${1##*-}: $2 did not get to its reboot"
}
# loop: a crash loop (boot 1 panics, boot 2 records nothing and reboots),
# boot 3 still offers boot 1's records and panics too, boot 4 offers both
# and root releases boot 1, boot 5 offers boot 3's only
loop() {
	c=loop
	why=
	: > "$RAM"
	vm $c-1 --ram-file "$RAM" --append "$A" --mce-on "$MARK" "$FATAL" -- \
		sh tests/boot/mce-before-reboot.sh panic
	panicked $c-1
	set -- $(boot_of $c-1 mce-before-reboot)
	id1=$1 rel=$2
	vm $c-2 --ram-file "$RAM" --append "$A" -- sh tests/boot/mce-kept-boots.sh empty "$id1"
	rebooted $c-2 mce-kept-boots
	vm $c-3 --ram-file "$RAM" --append "$A" --mce-on "$MARK" "$FATAL" -- \
		"sh tests/boot/mce-after-reboot.sh $id1 $rel 0x4444000; sh tests/boot/mce-before-reboot.sh panic"
	grep -q '^mce-after-reboot: ok' "$OUT/$c-3.txt" ||
		why="$why; boot 3 (after an empty boot 2): $(grep -m1 'mce-after-reboot: FAIL' "$OUT/$c-3.txt" || echo 'no result line')"
	panicked $c-3
	set -- $(boot_of $c-3 mce-before-reboot)
	id3=$1
	vm $c-4 --ram-file "$RAM" --append "$A" -- \
		"sh tests/boot/mce-after-reboot.sh $id3 $rel 0x4444000; EVENT=mce_record_previous_2 sh tests/boot/mce-after-reboot.sh $id1 $rel 0x4444000; sh tests/boot/mce-kept-boots.sh release $id1 $id3"
	n=$(grep -c '^mce-after-reboot: ok' "$OUT/$c-4.txt")
	[ "$n" = 2 ] ||
		why="$why; boot 4: $((2 - n)) of boot 3's and boot 1's records not offered whole ($(grep 'mce-after-reboot: FAIL' "$OUT/$c-4.txt" | tr '\n' ' '))"
	rebooted $c-4 mce-kept-boots
	vm $c-5 --ram-file "$RAM" --append "$A" -- sh tests/boot/mce-kept-boots.sh gone "$id1" "$id3"
	[ "$rc" = 0 ] || why="$why; boot 5: vm.sh exit $rc"
	grep -q '^mce-kept-boots: ok' "$OUT/$c-5.txt" ||
		why="$why; boot 5 (after the release): $(grep 'mce-kept-boots: FAIL' "$OUT/$c-5.txt" | sed 's/^mce-kept-boots: FAIL: //' | tr '\n' ';' || echo 'no result line')"
	result $c "$why"
}

for c in $CASES; do
	case $c in
	panic | maxcpus | reboot) twice "$c" ;;
	loop) loop ;;
	header | page) damaged "$c" ;;
	plain)
		# no reserve_mem=, no mce=persistent_mem=
		vm plain-1 --append "mce=persistent=64K panic=1" -- \
			"ls /sys/bus/event_source/devices/persistent/events/; ls /sys/bus/event_source/devices/persistent/info/"
		why=
		[ "$rc" = 0 ] || why="$why; vm.sh exit $rc"
		grep -qx mce_record "$OUT/plain-1.txt" || why="$why; no mce_record event"
		! grep -q mce_record_previous "$OUT/plain-1.txt" || why="$why; mce_record_previous without reserve_mem="
		result plain "$why"
		;;
	storm)
		missing=0
		t=1
		while [ "$t" -le "$N" ]; do
			storm "$t"
			t=$((t + 1))
		done
		echo "mce-reboot/storm: $N trials, the fatal error missing from mce_record_previous in $missing"
		;;
	*) echo "FAIL mce-reboot/$c (no such case)" >> "$res" ;;
	esac
done
