#!/bin/sh
# Boot a kernel under QEMU with the host's / as a read-only 9p root, run one
# shell command in the guest as root, print its output, and exit with its
# status.  124: the guest hung past --timeout.  255: the guest died without a
# status (panic).  125: usage or harness error.  126: QEMU itself died of a
# signal (a crash of the emulator, not of the guest).
#
# Usage: vm.sh [--kernel BZIMAGE] [--smp N] [--mem MB] [--timeout S]
#              [--append ARGS] [--out DIR] [--accel tcg|kvm|auto] [--dry-run]
#              [--cpu MODEL] [--mce-before-boot 'CPU BANK STATUS MCGSTATUS ADDR MISC']
#              [--ram-file FILE] [--mce-on MARKER '[-b] CPU BANK STATUS MCGSTATUS ADDR MISC']
#              -- COMMAND...
# --ram-file: the guest's RAM lives in FILE (created if missing), so the next
# run with the same FILE starts with what this one left in RAM, as a warm
# reboot does (for reserve_mem= regions).  FILE must be outside /tmp-like
# tmpfs only if it is to survive the harness; its size is --mem.
# --cpu: the QEMU -cpu model (default max under TCG, host under KVM), e.g.
# 'max,-mca,-mce' for a CPU without machine check architecture.
# --mce-before-boot (repeatable): put a machine check error into the MCA bank
# BANK of vCPU CPU with QEMU's monitor command "mce" before the guest runs
# (QEMU starts stopped, -S, and continues after the injections; numbers as
# QEMU takes them, e.g. 0x9000000000000000 for a valid corrected error).  The
# monitor's answers go to OUT/monitor.out.
# --mce-on MARKER '[-b] CPU BANK STATUS MCGSTATUS ADDR MISC': while the guest
# runs, as soon as the command's output (OUT/output.log) has a line holding
# MARKER (a fixed string), send the monitor command "mce ..." once (-b: QEMU
# broadcasts a machine check to the other vCPUs as well, as real hardware
# does for a fatal error).  Watched until --timeout; the monitor is the same
# as for --mce-before-boot.  If the marker never came, vm.sh says so on
# stderr (OUT/mce-on.sent is written when the command was sent).
# In the guest: cwd as on the host; /tmp, /run, /var/tmp, /root are tmpfs,
# with this repository shared again at its own path when it lies under one of
# them (a clone in /root or /tmp); $HARNESS_OUT is a writable directory that
# is --out on the host.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KERNEL=${VM_KERNEL:-$ROOT/build/kernel/arch/x86/boot/bzImage}
SMP=${VM_SMP:-2}
MEM=${VM_MEM:-1024}
TIMEOUT=${VM_TIMEOUT:-300}
ACCEL=${VM_ACCEL:-tcg}
APPEND=${VM_APPEND:-}
OUT=
DRY=0
CPU=
MCE=
RAMFILE=
ONMARK=
ONMCE=
usage() { echo "usage: vm.sh [--kernel K] [--smp N] [--mem MB] [--timeout S] [--append A] [--out DIR] [--accel tcg|kvm|auto] [--dry-run] [--cpu MODEL] [--mce-before-boot 'CPU BANK STATUS MCGSTATUS ADDR MISC'] [--ram-file FILE] [--mce-on MARKER '[-b] CPU BANK STATUS MCGSTATUS ADDR MISC'] -- CMD..." >&2; exit 125; }
# mce_arg '[-b] CPU BANK STATUS MCGSTATUS ADDR MISC': six numbers, or usage;
# sets MCELINE to the monitor command
mce_arg() {
	set -f
	# shellcheck disable=SC2086
	set -- $1
	set +f
	b=
	if [ "${1:-}" = -b ]; then b='-b '; shift; fi
	[ $# = 6 ] || usage
	for n in "$@"; do
		case $n in
		0[xX]?*) case ${n#??} in *[!0-9a-fA-F]*) usage ;; esac ;;
		'' | *[!0-9]*) usage ;;
		esac
	done
	MCELINE="mce $b$*"
}
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) KERNEL=$2; shift 2 ;;
	--smp) SMP=$2; shift 2 ;;
	--mem) MEM=$2; shift 2 ;;
	--timeout) TIMEOUT=$2; shift 2 ;;
	--append) APPEND="$APPEND $2"; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--accel) ACCEL=$2; shift 2 ;;
	--dry-run) DRY=1; shift ;;
	--cpu) CPU=$2; shift 2 ;;
	--ram-file) RAMFILE=$2; shift 2 ;;
	--mce-before-boot) mce_arg "$2"; MCE="$MCE$MCELINE
"; shift 2 ;;
	--mce-on)
		[ $# -ge 3 ] && [ -n "$2" ] && [ -z "$ONMARK" ] || usage
		case $2 in *'
'*) usage ;; esac
		ONMARK=$2; mce_arg "$3"; ONMCE=$MCELINE; shift 3 ;;
	--) shift; break ;;
	*) usage ;;
	esac
done
[ $# -gt 0 ] || usage
[ -r "$KERNEL" ] || { echo "vm: no kernel at $KERNEL (run 'make kernel')" >&2; exit 125; }
command -v qemu-system-x86_64 >/dev/null || { echo "vm: qemu-system-x86_64 missing (run 'make deps')" >&2; exit 125; }

mkdir -p "$ROOT/build/vm"
if [ -z "$OUT" ]; then OUT=$(mktemp -d "$ROOT/build/vm/run.XXXXXX"); fi
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
rm -f "$OUT/rc" "$OUT/console.log" "$OUT/output.log" "$OUT/mce-on.sent"
printf '%s\n' "$*" > "$OUT/cmd"
pwd > "$OUT/cwd"
echo "$ROOT" > "$OUT/repo"

# TCG by default: KVM hangs on the project's build machines, and a probe
# costs 20 s on every clean checkout.  auto: KVM only when a bounded probe
# shows that it really boots a guest (the result is cached).
if [ "$ACCEL" = auto ]; then
	probe=$ROOT/build/vm/accel
	if [ ! -s "$probe" ]; then
		echo tcg > "$probe"
		if [ -w /dev/kvm ] && VM_ACCEL=kvm VM_TIMEOUT=20 sh "$0" --kernel "$KERNEL" --out "$ROOT/build/vm/kvm-probe" -- true >/dev/null 2>&1; then
			echo kvm > "$probe"
		fi
	fi
	ACCEL=$(cat "$probe")
fi
case $ACCEL in
kvm) accel="-accel kvm -cpu host" ;;
tcg) accel="-accel tcg,thread=multi -cpu max"
	# VM_ICOUNT (e.g. shift=0,sleep=off): guest time counts guest instructions
	# (deterministic costs for benchmarks; single-threaded TCG).
	[ -z "${VM_ICOUNT:-}" ] || accel="-accel tcg,thread=single -cpu max -icount $VM_ICOUNT" ;;
*) usage ;;
esac
if [ -n "$CPU" ]; then
	case $CPU in
	*[!A-Za-z0-9_.,=+-]*) usage ;;
	esac
	accel=$(printf '%s\n' "$accel" | sed "s/-cpu [^ ]*/-cpu $CPU/")
fi

cmdline="console=ttyS0 root=rootfs rootfstype=9p rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose ro"
# no_timer_check: under a loaded TCG host the IO-APIC timer check can fail
# and panic the boot ("IO-APIC + timer doesn't work!", seen twice)
cmdline="$cmdline init=$ROOT/scripts/guest-init.sh panic=-1 tsc=reliable no_timer_check log_buf_len=4M $APPEND"
set -- qemu-system-x86_64 $accel -smp "$SMP,sockets=$SMP" -m "$MEM" \
	-nodefaults -no-user-config -display none -no-reboot \
	-kernel "$KERNEL" -append "$cmdline" \
	-fsdev "local,id=root,path=/,security_model=none,readonly=on,multidevs=remap" \
	-device "virtio-9p-pci,fsdev=root,mount_tag=rootfs" \
	-fsdev "local,id=repo,path=$ROOT,security_model=none,readonly=on,multidevs=remap" \
	-device "virtio-9p-pci,fsdev=repo,mount_tag=repo" \
	-fsdev "local,id=out,path=$OUT,security_model=none,multidevs=remap" \
	-device "virtio-9p-pci,fsdev=out,mount_tag=harness" \
	-serial "file:$OUT/console.log" \
	-chardev "stdio,id=cmd,signal=off,logfile=$OUT/output.log" -serial chardev:cmd
# --mce-before-boot, --mce-on: QEMU reads monitor commands from a FIFO that
# this shell holds open read-write (so that neither side blocks).  Before
# boot QEMU starts stopped (-S): the injections, then "cont".  --mce-on: a
# background watcher writes its command when the marker shows.  QEMU's
# answers go to monitor.out, a plain file.
if [ -n "$MCE$ONMCE" ]; then
	rm -f "$OUT/monitor.in" "$OUT/monitor.out"
	mkfifo "$OUT/monitor.in"
	: >"$OUT/monitor.out"
	set -- "$@" -chardev "pipe,id=mon,path=$OUT/monitor" -mon chardev=mon,mode=readline
	[ -z "$MCE" ] || set -- "$@" -S
fi
if [ -n "$RAMFILE" ]; then
	case $MEM in *[!0-9]*) usage ;; esac
	set -- "$@" -object "memory-backend-file,id=ram,size=${MEM}M,mem-path=$RAMFILE,share=on" \
		-machine memory-backend=ram
fi
echo "$*" > "$OUT/qemu-cmd"
if [ "$DRY" = 1 ]; then
	[ -z "$MCE" ] || printf '%scont\n' "$MCE"
	[ -z "$ONMCE" ] || printf 'on "%s": %s\n' "$ONMARK" "$ONMCE"
	echo "$*"
	exit 0
fi

# mce_on_watch: until the marker shows in the command's output (at most
# TIMEOUT seconds), then the monitor command, once
mce_on_watch() {
	end=$(( $(date +%s) + TIMEOUT ))
	while [ "$(date +%s)" -lt "$end" ]; do
		if grep -qF -- "$ONMARK" "$OUT/output.log" 2>/dev/null; then
			printf '%s\n' "$ONMCE" >&3
			printf '%s\n' "$ONMCE" >"$OUT/mce-on.sent"
			return 0
		fi
		sleep 0.2
	done
}

rc=0
if [ -n "$MCE$ONMCE" ]; then
	exec 3<>"$OUT/monitor.in"
	[ -z "$MCE" ] || printf '%scont\n' "$MCE" >&3
	watch=
	if [ -n "$ONMCE" ]; then
		mce_on_watch &
		watch=$!
	fi
	timeout -k 5 "$TIMEOUT" "$@" </dev/null 3>&- || rc=$?
	if [ -n "$watch" ]; then
		kill "$watch" 2>/dev/null || true
		wait "$watch" 2>/dev/null || true
		[ -s "$OUT/mce-on.sent" ] ||
			echo "vm: --mce-on: the marker '$ONMARK' never showed in the command's output ($OUT/output.log); no machine check injected" >&2
	fi
	exec 3>&-
	rm -f "$OUT/monitor.in"
	if tr -d '\033' <"$OUT/monitor.out" | grep -iE 'error|invalid|not supported|unknown|usage' >"$OUT/monitor.err"; then
		echo "vm: QEMU monitor reported an error ($OUT/monitor.out):" >&2
		head -n 5 "$OUT/monitor.err" >&2
	fi
	rm -f "$OUT/monitor.err"
else
	timeout -k 5 "$TIMEOUT" "$@" </dev/null || rc=$?
fi
splats='Kernel panic|BUG:|WARNING:|Oops|KASAN:|UBSAN:|possible circular locking|suspicious RCU usage|sleeping function called from invalid context|rcu_sched self-detected stall|unreferenced object'
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	echo "vm: guest hang: no exit after ${TIMEOUT}s, QEMU killed; last console lines ($OUT/console.log):" >&2
	tail -n 40 "$OUT/console.log" >&2
	exit 124
fi
# QEMU itself killed by a signal (timeout's status 128 + N; 137 is its
# KILL after the timeout): QEMU's fault, not the guest's
if [ ! -s "$OUT/rc" ] && [ "$rc" -gt 128 ] && [ "$rc" -lt 160 ]; then
	echo "vm: QEMU itself died of signal $((rc - 128)) (status $rc), not the guest; last console lines ($OUT/console.log):" >&2
	tail -n 20 "$OUT/console.log" >&2
	exit 126
fi
if [ ! -s "$OUT/rc" ]; then
	echo "vm: guest died without an exit status (QEMU status $rc); kernel messages ($OUT/console.log):" >&2
	grep -E "$splats" "$OUT/console.log" | head -n 20 >&2 || true
	echo "vm: last console lines:" >&2
	tail -n 40 "$OUT/console.log" >&2
	exit 255
fi
if grep -qE "$splats" "$OUT/console.log"; then
	echo "vm: note: kernel log has warnings ($OUT/console.log):" >&2
	grep -E "$splats" "$OUT/console.log" | head -n 10 >&2
fi
exit "$(cat "$OUT/rc")"
