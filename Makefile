# Persistent perf events for Linux: build the series, test it under QEMU.
# See README.md.  Everything generated lives under build/.  The kernel
# source the series applies to (Debian package and version) is named by the
# cover letter's "Base:" line (scripts/base.sh).

SHELL := /bin/sh
B := build
LINUX := $(B)/linux
BZIMAGE := $(B)/kernel/arch/x86/boot/bzImage
PERF := $(B)/perf/perf
SELFTESTS := $(B)/selftests/perf_events

.PHONY: all deps tree export kernel perf selftests vm shell demo check \
	check-bisect check-bisect-ci check-configs bench bench-mce bench-output compare-ftrace check-debug clean

all: kernel perf

deps:
	@mkdir -p $(B)
	@sh scripts/deps.sh

tree: deps
	@sh scripts/tree.sh

export:
	@sh scripts/export.sh

kernel: tree
	@sh scripts/step.sh "kernel" sh scripts/kernel.sh $(LINUX) $(B)/kernel config/guest.config

perf: tree
	@sh scripts/step.sh "perf" sh scripts/perf.sh $(LINUX) $(B)/perf

selftests: kernel
	@sh scripts/step.sh "selftests" sh scripts/selftests.sh $(LINUX) $(B)/selftests $(B)/kernel

# make vm CMD='uname -a'
vm: kernel
	@sh scripts/vm.sh -- $(or $(CMD),uname -a)

demo: kernel perf selftests
	@sh scripts/demo.sh

check: kernel perf selftests
	@sh scripts/check.sh

check-bisect: tree
	@sh scripts/check-bisect.sh

# What .ci/run runs: every patch builds the queue's files, every series
# end the whole kernel and perf (HEAD's: make check's builds, hence the
# prerequisites); see scripts/check-bisect.sh.
check-bisect-ci: kernel perf selftests
	@sh scripts/check-bisect.sh --ci

# Other configurations: TRACEPOINTS=n, X86_MCE=n, SMP=n, the series' options
# off (whole vmlinux each), allmodconfig + W=1 and sparse against the base.
check-configs: kernel
	@DEPS_EXTRA=python3-dev sh scripts/deps.sh
	@sh scripts/check-configs.sh

bench: kernel
	@sh scripts/bench.sh

# Time per machine-check record, persistent buffers in ordinary pages and in
# a reserve_mem= region (checksummed); QEMU -icount, a table.
bench-mce: kernel
	@sh scripts/bench-mce.sh

# Cost per record of the ring-buffer output path of ordinary (non-persistent)
# events, base kernel against patched; QEMU -icount, a table with patched/base.
bench-output: kernel
	@sh scripts/bench-output.sh

# Machine check records in ftrace instances of the stock kernel (top,
# reserve_mem= boot-mapped) beside persistent events (ordinary pages,
# reserve_mem=), one table; builds the stock kernel (scripts/base-tree.sh).
compare-ftrace: kernel perf
	@sh scripts/compare-ftrace.sh

# Debug kernel (KASAN, lockdep, UBSAN, kmemleak...): KUnit, kselftests, the
# stress test and the attr fuzzer, the machine check reboot cases (their
# guest scripts run build/perf/perf), then a scan of the kernel logs for
# splats.
check-debug: selftests perf
	@sh scripts/step.sh "debug kernel" sh scripts/kernel.sh $(LINUX) $(B)/debug config/guest.config config/debug.config
	@sh scripts/check-debug.sh

clean:
	rm -rf $(B)/kernel $(B)/perf $(B)/selftests $(B)/vm $(B)/check
