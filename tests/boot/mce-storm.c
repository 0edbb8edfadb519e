// SPDX-License-Identifier: GPL-2.0
/*
 * mce-storm: a storm of corrected machine check errors on one CPU, through
 * debugfs mce-inject ("sw" injection: mce_log() on the injecting CPU, so the
 * MCE work item that writes the records runs on that CPU too), as dense as
 * a loop of five write(2)s per error allows; the guest side of the
 * mce-reboot/storm case (tests/boot/mce-storm-before-reboot.sh).
 *
 * Error number I (1, 2, ...): bank 4, status 0x9c00000000000042 (valid,
 * corrected, MISC and ADDR valid), MISC = I, ADDR = 0x10000000 + I * 0x1000,
 * extcpu CPU.  Every STEP errors it prints "mce-storm: injected I" (I
 * injected so far; the next STEP are being injected); after START errors
 * (a multiple of STEP) it prints "mce-storm: ready for the fatal error" and
 * goes on.  It stops only after LIMIT seconds, with a FAIL line and exit 1
 * (the fatal machine check that ends it is the host's), or on an error.
 *
 * Usage: mce-storm CPU START STEP LIMIT
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define INJ "/sys/kernel/debug/mce-inject/"

static void say(const char *fmt, unsigned long a, unsigned long b)
{
	char line[200];
	int n = snprintf(line, sizeof(line), fmt, a, b);

	/* unbuffered: the host waits for these lines */
	if (write(1, line, n) != n)
		exit(1);
}

static int open_inj(const char *name)
{
	int fd = open(name, O_WRONLY);

	if (fd < 0) {
		printf("mce-storm: FAIL: open %s: %s\n", name, strerror(errno));
		exit(1);
	}
	return fd;
}

static void put(int fd, const char *name, unsigned long long v, unsigned long i)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%#llx\n", v);

	/* the files are not seekable: write(2), not pwrite(2) */
	if (write(fd, buf, n) != n) {
		printf("mce-storm: FAIL: error %lu: write %#llx to %s: %s\n", i,
		       v, name, strerror(errno));
		exit(1);
	}
}

int main(int argc, char **argv)
{
	unsigned long cpu, start, step, limit, i;
	int status, addr, misc, xcpu, bank, flags;
	cpu_set_t set;
	time_t end;

	if (argc != 5) {
		printf("mce-storm: FAIL: usage: mce-storm CPU START STEP LIMIT\n");
		return 1;
	}
	cpu = strtoul(argv[1], NULL, 0);
	start = strtoul(argv[2], NULL, 0);
	step = strtoul(argv[3], NULL, 0);
	limit = strtoul(argv[4], NULL, 0);
	if (!step || start % step) {
		printf("mce-storm: FAIL: START %lu is not a multiple of STEP %lu\n", start, step);
		return 1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) || sched_getcpu() != (int)cpu) {
		printf("mce-storm: FAIL: cannot run on CPU %lu: %s\n", cpu, strerror(errno));
		return 1;
	}
	/*
	 * SCHED_IDLE: the MCE work item's kworker, woken by each error (irq
	 * work, then schedule_work() on this CPU), preempts the storm at once
	 * and writes the record before the next error comes.  At the normal
	 * policy the storm kept the CPU, the MCE records pool (80) filled and
	 * most errors were dropped, and the CPU was mostly not writing a record.
	 */
	if (sched_setscheduler(0, SCHED_IDLE, &(struct sched_param){ 0 })) {
		printf("mce-storm: FAIL: sched_setscheduler SCHED_IDLE: %s\n", strerror(errno));
		return 1;
	}
	flags = open(INJ "flags", O_WRONLY);
	if (flags < 0 || write(flags, "sw\n", 3) != 3) {
		printf("mce-storm: FAIL: cannot select sw injection in " INJ "flags: %s\n",
		       strerror(errno));
		return 1;
	}
	close(flags);
	status = open_inj(INJ "status");
	addr = open_inj(INJ "addr");
	misc = open_inj(INJ "misc");
	xcpu = open_inj(INJ "cpu");
	bank = open_inj(INJ "bank");
	say("mce-storm: storm on CPU %lu, errors from 1, progress every %lu\n", cpu, step);
	end = time(NULL) + limit;
	for (i = 1; ; i++) {
		/* mce-inject resets all fields after each error (bank last) */
		put(status, "status", 0x9c00000000000042ULL, i);
		put(addr, "addr", 0x10000000ULL + i * 0x1000, i);
		put(misc, "misc", i, i);
		put(xcpu, "cpu", cpu, i);
		put(bank, "bank", 4, i);
		if (i % step)
			continue;
		say("mce-storm: injected %lu\n", i, 0);
		if (i == start)
			say("mce-storm: ready for the fatal error\n", 0, 0);
		if (time(NULL) >= end) {
			say("mce-storm: FAIL: no fatal machine check within %lu s (%lu errors injected)\n",
			    limit, i);
			return 1;
		}
	}
}
