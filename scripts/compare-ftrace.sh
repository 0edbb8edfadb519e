#!/bin/sh
# make compare-ftrace: machine check records in ftrace instances of the stock
# kernel beside persistent events of the patched one, on the same guest
# (2 vCPUs, 512 MB), one table.  Four setups, one column each:
#   top   stock kernel (build/base), trace_event=mce:mce_record: the top
#         ftrace instance, ordinary memory
#   boot  stock kernel, a boot-mapped instance in a reserve_mem= region:
#         reserve_mem=48K:4096:trace trace_instance=boot@trace,mce:mce_record
#   pers  patched kernel (build/kernel), persistent mce_record, ordinary
#         pages
#   pmem  patched kernel, its buffers in a reserve_mem= region
#         (mce=persistent_mem=mce)
# Per-CPU buffers of the same size: 4 ftrace pages of 4080 bytes of data
# (top: trace_buf_size=16320; boot: what the 48K region gives 2 CPUs), and
# 16 KB persistent buffers.
# Per setup, on one RAM file (vm.sh --ram-file: a warm reboot keeps RAM):
#   boot 1 (tests/compare/first-boot.sh): rows 1-3, then the host injects a
#          fatal machine check (vm.sh --mce-on) and the guest panics;
#   boot 2 (tests/compare/after-panic.sh): row 4; for boot and pmem also
#          three errors to damage, then reboot -f;
#   boot and pmem: the host flips one byte of the record of addr 0x2222000
#          in the region in the RAM file (see damage()), then
#   boot 3 (tests/compare/after-damage.sh): row 5;
#   and one QEMU -icount boot on one vCPU: row 7, instructions per error
#          (bench/mce-record-bench.c; -f: counted in the ftrace stats).
# And a control for row 4 (control()): the boot instance on the patched
# kernel, whose mce_panic() traces the errors it reports; a line under the
# table.
# Every cell is read from this run's guest output (row 6 is text); a cell
# that cannot be measured says why.  Uses the kernels and perf that exist
# (build/kernel, build/perf: make kernel perf); builds the stock kernel
# with scripts/base-tree.sh.  Output: build/compare-ftrace/ (SETUP-N.txt
# each boot's output, SETUP-N/console.log, table.txt).
# Environment: COMPARE_TIMEOUT (seconds per boot, default 300),
# COMPARE_SETUPS (the columns to measure, default "top boot pers pmem"; the
# others' cells then say that they were not measured).
set -u
O=build/compare-ftrace
T=${COMPARE_TIMEOUT:-300}
M=512
PATCHED=build/kernel/arch/x86/boot/bzImage
STOCK=build/base/obj/arch/x86/boot/bzImage
t0=$(date +%s)
log() { echo "[$(date +%H:%M:%S)] $*"; }
die() { echo "compare-ftrace: $*" >&2; exit 1; }
for f in $PATCHED build/perf/perf build/kernel/usr/include/linux/perf_event.h; do
	[ -e $f ] || die "no $f (run 'make kernel perf' first)"
done
sh scripts/step.sh "stock kernel (build/base)" sh scripts/base-tree.sh ||
	die "scripts/base-tree.sh failed: no stock kernel"
[ -r $STOCK ] || die "no $STOCK after scripts/base-tree.sh"
rm -rf $O
mkdir -p $O/cells
BENCH=$(pwd)/$O/mce-record-bench
gcc -O2 -Wall -isystem build/kernel/usr/include -o "$BENCH" bench/mce-record-bench.c > $O/bench-build.log 2>&1 ||
	{ cat $O/bench-build.log >&2; die "cannot build bench/mce-record-bench.c ($O/bench-build.log)"; }
trap 'rm -f $O/ram-*' EXIT
trap 'exit 125' INT TERM

SETUPS=${COMPARE_SETUPS:-top boot pers pmem}
BOOTERR='1 1 0x9000000000000000 0 0 0'	# CPU 1 bank 1, corrected, before boot
MARK='compare: ready for the fatal error'
FATAL='1 4 0xb600000000000151 0x5 0x4444000 0'	# as check-reboot.sh's
TR=/sys/kernel/tracing
# setup NAME: its kernel K, command line A, readers R1 (boot 1) and R2
# (later boots), whether it has a region to damage (D), the bench's -f
setup() {
	case $1 in
	top) K=$STOCK R1=ftrace:$TR R2=$R1 D='' F="-f $TR/per_cpu/cpu0/stats"
		A="trace_event=mce:mce_record trace_buf_size=16320" ;;
	boot) K=$STOCK R1=ftrace:$TR/instances/boot R2=$R1 D=damage F="-f $TR/instances/boot/per_cpu/cpu0/stats"
		A="reserve_mem=48K:4096:trace trace_instance=boot@trace,mce:mce_record" ;;
	pers) K=$PATCHED R1=perf:mce_record R2=perf:mce_record_previous D='' F=''
		A="mce=persistent=16K" ;;
	pmem) K=$PATCHED R1=perf:mce_record R2=perf:mce_record_previous D=damage F=
		A="reserve_mem=1M:4096:mce mce=persistent_mem=mce mce=persistent=16K" ;;
	esac
	A="mce=bootlog panic=1 $A"
}
ERRS=$O/errors
: > $ERRS
err() { echo "$*" >> $ERRS; echo "compare-ftrace: $*" >&2; }
# vm NAME VM.SH-ARGS...: one boot of the current setup; output NAME.txt, status rc
vm() {
	n=$1
	shift
	rc=0
	sh scripts/vm.sh --kernel "$K" --mem $M --timeout "$T" --append "$A" --out "$O/$n" "$@" \
		> "$O/$n.txt" 2>&1 || rc=$?
}
# got NAME KEY: the value of the guest's line "compare: KEY VALUE" in NAME.txt
got() { sed -n "s/^compare: $2 //p" "$O/$1.txt" | head -n 1; }
# cell ROW SETUP TEXT
cell() { printf '%s\n' "$3" > "$O/cells/$1-$2"; }
# guest_errors NAME: the guest's "compare: error" lines, as errors
guest_errors() {
	sed -n 's/^compare: error: //p; s/^compare: \(.* failed\)$/\1/p' "$O/$1.txt" |
		while IFS= read -r l; do err "$1: $l ($O/$1.txt)"; done
}

# flip OFFSET: invert one byte of the RAM file (as check-reboot.sh)
flip() {
	b=$(od -An -tu1 -j "$1" -N1 "$RAM" | tr -d ' ')
	# shellcheck disable=SC2059
	printf "$(printf '\\%03o' $((b ^ 255)))" |
		dd of="$RAM" bs=1 seek="$1" count=1 conv=notrunc 2>/dev/null
}
u32() { od -An -tu4 -j "$1" -N4 "$RAM" | tr -d ' '; }
# regions: "START END" (file offsets = guest physical addresses) of what
# the setup keeps in its reserved region.  boot: the boot instance's
# region as the kernel logged it in boot 2 ("mapped boot instance boot at
# physical memory 0x... of size 0x...").  pmem: each area of the region,
# from its header (page-aligned magic ppmemor1; slots, data pages and
# control pages at +24, +28, +32, as in check-reboot.sh).
regions() {
	if [ "$1" = boot ]; then
		sed -n 's/.*mapped boot instance boot at physical memory \(0x[0-9a-f]*\) of size \(0x[0-9a-f]*\).*/\1 \2/p' \
			"$O/boot-2/console.log" | tail -n 1 | while read -r s z; do echo $((s)) $((s + z)); done
	else
		grep -obUa ppmemor1 "$RAM" | cut -d: -f1 | while read -r h; do
			[ $((h % 4096)) = 0 ] || continue
			echo "$h $((h + (1 + $(u32 $((h + 24))) * ($(u32 $((h + 32))) + 1 + $(u32 $((h + 28))))) * 4096))"
		done
	fi
}
# damage SETUP: flip the byte 0x22 of the record of addr 0x2222000 (the
# u64 00 20 22 02 00 00 00 00 in the record's raw data, the same in an
# ftrace entry and a perf sample) where it lies in the region, so that
# it reads 0x2dd2000; exactly one such place must be found
damage() {
	regions "$1" > $O/$1-regions
	LC_ALL=C grep -obUaP '\x00\x20\x22\x02\x00\x00\x00\x00' "$RAM" | cut -d: -f1 |
		while read -r o; do
			while read -r lo hi; do
				[ "$o" -ge "$lo" ] && [ "$o" -lt "$hi" ] && echo "$o"
			done < $O/$1-regions
		done > $O/$1-matches
	if [ ! -s $O/$1-regions ]; then
		err "$1: no reserved region found in the RAM file after boot 2"
		return 1
	fi
	if [ "$(wc -l < $O/$1-matches)" != 1 ]; then
		err "$1: the record of addr 0x2222000 found $(wc -l < $O/$1-matches) times in the region ($O/$1-regions), expected once"
		return 1
	fi
	o=$(cat $O/$1-matches)
	flip $((o + 2))
	echo "$1: flipped the byte at physical address $(printf 0x%x $((o + 2))) (region $(awk '{ printf("%s0x%x-0x%x", (NR > 1 ? ", " : ""), $1, $2) }' $O/$1-regions))" | tee $O/$1-flipped
}

# run SETUP: its boots, its cells for rows 1 to 5
run() {
	s=$1
	setup "$s"
	RAM=$O/ram-$s
	: > "$RAM"
	log "$s: boot 1 (rows 1-3, then the fatal machine check) ..."
	vm $s-1 --ram-file "$RAM" --mce-before-boot "$BOOTERR" --mce-on "$MARK" "$FATAL" -- \
		sh tests/compare/first-boot.sh "$R1"
	guest_errors $s-1
	[ "$rc" = 255 ] || err "$s-1: vm.sh exit $rc, expected 255 (the machine-check panic) ($O/$s-1.txt)"
	grep -q 'Kernel panic - not syncing: Fatal .*machine check' "$O/$s-1/console.log" ||
		err "$s-1: no machine-check panic on the console ($O/$s-1/console.log)"
	v=$(got $s-1 row1)
	r=
	[ "$s" != top ] || [ "$(got $s-1 clock-reset)" = 0 ] ||
		r="; the buffer was reset at boot: sched_clock unstable, trace clock switched to \"global\""
	case $v in
	'1 of 1') cell 1 $s "found (1 of 1)$r" ;;
	'0 of 1') cell 1 $s "not found (0 of 1)$r" ;;
	*) err "$s-1: no row1 result ($O/$s-1.txt)" ;;
	esac
	v=$(got $s-1 row2)
	st=$(got $s-1 stats)
	# shellcheck disable=SC2086
	[ -z "$st" ] || st=$(set -- $st; echo " (CPU 0 stats: entries $1, overrun $2)")
	[ -n "$v" ] && cell 2 $s "$(echo "$v" | sed 's/: none$/ kept/; s/: / kept: #/; s/,/, #/g')$st" || err "$s-1: no row2 result ($O/$s-1.txt)"
	if [ "${R1%%:*}" = ftrace ]; then
		t=$(got $s-1 'row3 trace') p=$(got $s-1 'row3 trace_pipe')
		[ -n "$t" ] && [ -n "$p" ] || err "$s-1: no row3 result ($O/$s-1.txt)"
		set -- $t
		t="trace: $1 and $2 of 20"
		set -- $p
		e=
		case " $1 $2 " in *' EBUSY '*) e=" (EBUSY: could not open it)" ;; esac
		cell 3 $s "$t; trace_pipe: $1 and $2 of 20$e; trace after them: ${8:-?}"
	else
		v=$(got $s-1 'row3 perf')
		[ -n "$v" ] || err "$s-1: no row3 result ($O/$s-1.txt)"
		set -- $v
		cell 3 $s "perf record: $1 and $2 of 20"
	fi
	b=$(got $s-1 buffer)
	echo "$s: $(echo "$A" | sed 's/mce=bootlog panic=1 //'), per-CPU buffer ${b:-?}" >> $O/setups

	log "$s: boot 2 (row 4${D:+, then errors to damage}) ..."
	vm $s-2 --ram-file "$RAM" -- sh tests/compare/after-panic.sh "$R2" $D
	guest_errors $s-2
	want=0
	[ -z "$D" ] || want=255	# reboot -f: no exit status
	[ "$rc" = $want ] || err "$s-2: vm.sh exit $rc, expected $want ($O/$s-2.txt)"
	v=$(got $s-2 row4)
	case $v in
	'no-event '*) cell 4 $s "fatal: no; no ${R2#*:} event" ;;
	fatal\ *)
		set -- $v
		if [ "$2" -gt 0 ]; then f="fatal: yes (last: $4)"; else f="fatal: no"; fi
		cell 4 $s "$f; first boot's records: $6 (of $8 shown)" ;;
	*) err "$s-2: no row4 result ($O/$s-2.txt)" ;;
	esac
	if [ -z "$D" ]; then
		cell 5 $s "n/a: no reserved region (row 4: nothing kept)"
		return
	fi
	damage $s || return
	log "$s: boot 3 (row 5) ..."
	vm $s-3 --ram-file "$RAM" -- sh tests/compare/after-damage.sh "$R2"
	guest_errors $s-3
	[ "$rc" = 0 ] || err "$s-3: vm.sh exit $rc ($O/$s-3.txt)"
	v=$(got $s-3 row5)
	l=$(got $s-3 'row5 log' | sed 's/ (boot id [^)]*)//; s|^perf/persistent: ||; s/^mce_record: //')
	case $v in
	shown\ *)
		set -- $v
		c="$(($2 + $3 + $4)) of 3 intact"
		[ "$6" = 0 ] || c="$c + $6 wrong (addr 2dd2000 for 2222000)"
		[ "$8" = 0 ] && c="$c; no loss reported" || c="$c; PERF_RECORD_LOST: $8 lost"
		cell 5 $s "$c; log: ${l:-nothing}" ;;
	'no-event '*) cell 5 $s "no ${R2#*:} event; log: ${l:-nothing}" ;;
	*) err "$s-3: no row5 result ($O/$s-3.txt)" ;;
	esac
}

# control: the ftrace boot instance on the patched kernel (its mce_panic()
# traces the errors it reports; mce=persistent=off: no persistent event),
# row 4 only: is the fatal error there after the panic?
control() {
	K=$PATCHED R2=ftrace:$TR/instances/boot
	A="mce=bootlog panic=1 mce=persistent=off reserve_mem=48K:4096:trace trace_instance=boot@trace,mce:mce_record"
	RAM=$O/ram-control
	: > "$RAM"
	log "control: the boot instance on the patched kernel, boot 1 (the fatal machine check) ..."
	vm control-1 --ram-file "$RAM" --mce-on "$MARK" "$FATAL" -- "echo '$MARK'; sleep 60"
	[ "$rc" = 255 ] || err "control-1: vm.sh exit $rc, expected 255 (the machine-check panic) ($O/control-1.txt)"
	log "control: boot 2 (row 4) ..."
	vm control-2 --ram-file "$RAM" -- sh tests/compare/after-panic.sh "$R2"
	guest_errors control-2
	[ "$rc" = 0 ] || err "control-2: vm.sh exit $rc ($O/control-2.txt)"
	rm -f "$RAM"
	set -- $(got control-2 row4)
	[ "${1:-}" = fatal ] || { err "control-2: no row4 result ($O/control-2.txt)"; return; }
	if [ "$2" -gt 0 ]; then f="yes (last: $4)"; else f=no; fi
	echo "row 4, control: the boot instance (as boot) on the patched kernel, mce=persistent=off: fatal: $f" > $O/control
}

# cost SETUP: row 7, one -icount boot on one vCPU
cost() {
	s=$1
	setup "$s"
	log "$s: -icount boot (row 7) ..."
	rc=0
	VM_ICOUNT=shift=0,sleep=off sh scripts/vm.sh --kernel "$K" --smp 1 --mem $M --timeout "$T" \
		--append "$A" --out "$O/$s-cost" -- "$BENCH -r 3 -b 8 $F" > "$O/$s-cost.txt" 2>&1 || rc=$?
	[ "$rc" = 0 ] || { err "$s-cost: vm.sh exit $rc ($O/$s-cost.txt)"; return; }
	net=$(sed -n 's/^net \([0-9.]*\) .*/\1/p' "$O/$s-cost.txt")
	tot=$(sed -n 's/^total \([0-9.]*\) .*/\1/p' "$O/$s-cost.txt")
	set -- $(sed -n 's/^poll //p' "$O/$s-cost.txt")
	if [ -z "$net" ] || [ -z "$tot" ]; then
		err "$s-cost: no result from mce-record-bench ($O/$s-cost.txt)"
		return
	fi
	cell 7 $s "$(printf '%.0f' "$net") net; $(printf '%.0f' "$tot") with the bench's polls ($(printf '%.1f' "$2") x $(printf '%.0f' "$1") per 64 errors)"
}

for s in $SETUPS; do run $s; done
[ -n "${COMPARE_SETUPS:-}" ] || control
for s in $SETUPS; do cost $s; done
cell 6 top "tracefs trace, trace_pipe (one reader, consumes), per_cpu/*/trace_pipe_raw; trace-cmd; rasdaemon reads trace_pipe_raw of an instance of its own, made when it starts"
cell 6 boot "the same files under instances/boot (trace-cmd -B boot); not rasdaemon (its own instance)"
cell 6 pers "perf record, script, report, top -e persistent/mce_record/ (the series' perf); perf_event_open() + read-only mmap"
cell 6 pmem "as pers; the previous boot's records: persistent/mce_record_previous/"

# the table: cells wrapped to 26 columns
{
	echo "	top: stock, ftrace top instance (trace_event=)	boot: stock, ftrace boot-mapped instance (reserve_mem=)	pers: patched, persistent mce_record	pmem: patched, persistent in reserve_mem= (mce=persistent_mem=)"
	i=1
	for r in "1 error before boot, read after boot" "2 400 errors, then a reader" \
		"3 two readers at once" "4 fatal #MC, next boot" "5 byte flipped in a record" \
		"6 readers' tools" "7 instructions per error (icount)"; do
		line=$r
		for s in top boot pers pmem; do
			c=$(cat "$O/cells/$i-$s" 2>/dev/null) || c="error: not measured (see above)"
			line="$line	$c"
		done
		echo "$line"
		i=$((i + 1))
	done
} | awk -F '\t' -v w=26 '
	function wrap(s, col,   n, words, i, line, k) {
		n = split(s, words, " "); k = 0; line = ""
		for (i = 1; i <= n; i++) {
			if (line != "" && length(line) + 1 + length(words[i]) > w) { cellln[col, ++k] = line; line = words[i] }
			else line = line == "" ? words[i] : line " " words[i]
		}
		if (line != "") cellln[col, ++k] = line
		return k
	}
	{
		h = 0
		for (c = 1; c <= NF; c++) { k = wrap($c, c); nl[c] = k; if (k > h) h = k }
		for (l = 1; l <= h; l++) {
			out = ""
			for (c = 1; c <= NF; c++) out = out sprintf(c < NF ? "%-" w "s | " : "%s", l <= nl[c] ? cellln[c, l] : "")
			sub(/ +$/, "", out)
			print out
		}
		if (NR == 1) { s = ""; for (c = 1; c <= NF; c++) s = s sprintf(c < NF ? "%s-+-" : "%s", sprintf("%" w "s", "")); gsub(/ /, "-", s); print s }
		else if (NR > 1) print ""
	}' > $O/table.txt
{
	echo
	echo "setups (all: mce=bootlog panic=1, 2 vCPUs, $M MB; row 7: one vCPU, -icount):"
	cat $O/setups 2>/dev/null
	cat $O/*-flipped 2>/dev/null
	cat $O/control 2>/dev/null
} >> $O/table.txt
echo
cat $O/table.txt
echo
echo "compare-ftrace: $(( $(date +%s) - t0 )) s; boots' output in $O/"
if [ -s $ERRS ]; then
	echo "compare-ftrace: $(wc -l < $ERRS) error(s):" >&2
	cat $ERRS >&2
	exit 1
fi
