// SPDX-License-Identifier: GPL-2.0
/*
 * mce-record-bench: time per machine-check record on the MCE path, up to
 * the record being in the buffer of the persistent mce_record event.
 *
 * Injects corrected errors with /sys/kernel/debug/mce-inject (sw, status
 * 0x9c00000000000042, a distinct addr each, misc 0, cpu 0, bank 1) and
 * watches data_head of the persistent event's buffer on CPU 0 (read-only
 * mapping; written backward: -data_head bytes written so far).
 *
 * A batch: SCHED_FIFO, so that the MCE work item (a kworker) cannot run
 * while the batch is injected; t0, N injections (the records wait in the
 * MCE gen pool: N at most 64, the pool holds 80), t1; then back to
 * SCHED_OTHER and sched_yield() until the N records are in the buffer, t2.
 *   inject = t1 - t0: the injection path alone
 *   total  = t2 - t0: injection + mce_gen_pool_process -> trace_mce_record
 *            -> perf (buffer write, and the checksum in reserved memory)
 * Per repetition, B batches; the median over the repetitions of ns/record.
 *
 * -f STATS: no persistent event (a kernel without them, e.g. the base with
 * mce:mce_record enabled in an ftrace instance): the records are counted
 * in the ftrace per-CPU stats file STATS of CPU 0 (entries + overrun, e.g.
 * /sys/kernel/tracing/per_cpu/cpu0/stats), read with pread() each time the
 * wait below polls, which costs far more than reading data_head.  So both
 * modes also time one poll with nothing to wait for (the poll, sched_yield(),
 * the clock) and print "net": total less the polls of the batch at that
 * cost (the last poll of a batch has no sched_yield(): that takes off
 * about 10 ns per record too many).
 *
 * Output (lines starting with '#' are comments):
 *   record_size <bytes>                     (-f: 1, records are counted)
 *   inject <median ns/record> <rep1> <rep2> ...
 *   total  <median ns/record> <rep1> <rep2> ...
 *   drain  <median ns/record> <rep1> ...     (total - inject, per rep)
 *   poll   <ns per poll> <polls per batch, mean over all batches>
 *   net    <median ns/record> <rep1> ...     (total - the polls, per rep)
 *
 * Usage: mce-record-bench [-n N] [-b batches] [-r reps] [-f STATS]
 * Root; one CPU (the records must land in CPU 0's buffer: boot with one).
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "../tests/hardening/common.h"

#define PMU	"/sys/bus/event_source/devices/persistent"
#define INJ	"/sys/kernel/debug/mce-inject"
#define MAX_REPS 64

static int fd_flags, fd_status, fd_addr, fd_misc, fd_cpu, fd_bank;
static volatile struct perf_event_mmap_page *pg;
static int stats_fd = -1;	/* -f: ftrace stats of CPU 0 instead of pg */
static long polls;		/* calls of written() in wait_for() */
static uint64_t next_addr = 0x7e000;

static void die(const char *what)
{
	fprintf(stderr, "mce-record-bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int open_inj(const char *name)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), INJ "/%s", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		die(path);
	return fd;
}

static void put(int fd, const char *s)
{
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		die("mce-inject write");
}

/* One corrected error, as tests/boot/late-reader.sh injects it. */
static void inject(void)
{
	char a[32];

	snprintf(a, sizeof(a), "0x%llx\n", (unsigned long long)next_addr++);
	put(fd_flags, "sw\n");
	put(fd_status, "0x9c00000000000042\n");
	put(fd_addr, a);
	put(fd_misc, "0\n");
	put(fd_cpu, "0\n");
	put(fd_bank, "1\n");	/* injects */
}

/* Bytes in the persistent buffer so far, or (-f) records in the ftrace one */
static int64_t written(void)
{
	char buf[512], *e, *o;
	ssize_t n;

	if (stats_fd < 0)
		return -(int64_t)__atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	n = pread(stats_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		die("read of the ftrace stats file");
	buf[n] = 0;
	e = strstr(buf, "entries: ");
	o = strstr(buf, "overrun: ");
	if (!e || !o) {
		fprintf(stderr, "mce-record-bench: no entries:/overrun: in the stats file\n");
		exit(1);
	}
	return strtoll(e + 9, NULL, 10) + strtoll(o + 9, NULL, 10);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void set_fifo(int on)
{
	struct sched_param sp = { .sched_priority = on ? 50 : 0 };

	if (sched_setscheduler(0, on ? SCHED_FIFO : SCHED_OTHER, &sp))
		die("sched_setscheduler");
}

/* Until -data_head reaches @want, yielding to the kworker; 10 s at most. */
static void wait_for(int64_t want)
{
	uint64_t end = now_ns() + 10000000000ULL;

	while (polls++, written() < want) {
		sched_yield();
		if (now_ns() > end) {
			fprintf(stderr, "mce-record-bench: records missing: %lld of %lld bytes written\n",
				(long long)written(), (long long)want);
			exit(1);
		}
	}
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void print(const char *name, double *v, int n)
{
	double s[MAX_REPS];
	int i;

	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp);
	printf("%s %.1f", name, n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2);
	for (i = 0; i < n; i++)
		printf(" %.1f", v[i]);
	printf("\n");
}

int main(int argc, char **argv)
{
	int n = 64, batches = 16, reps = 3, opt, i, b, r, fd;
	double inj[MAX_REPS], tot[MAX_REPS], drn[MAX_REPS], net[MAX_REPS];
	double poll_ns;
	long all_polls = 0;
	const char *stats = NULL;
	long page = sysconf(_SC_PAGESIZE), size, config;
	char buf[256], *p;
	int type;
	int64_t rec, w;
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "n:b:r:f:")) != -1) {
		switch (opt) {
		case 'n': n = atoi(optarg); break;
		case 'b': batches = atoi(optarg); break;
		case 'r': reps = atoi(optarg); break;
		case 'f': stats = optarg; break;
		default:
			fprintf(stderr, "usage: mce-record-bench [-n N<=64] [-b batches] [-r reps] [-f STATS]\n");
			return 2;
		}
	}
	if (n < 1 || n > 64 || batches < 1 || reps < 1 || reps > MAX_REPS) {
		fprintf(stderr, "mce-record-bench: bad -n, -b or -r\n");
		return 2;
	}

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");

	if (stats) {
		stats_fd = open(stats, O_RDONLY);
		if (stats_fd < 0)
			die(stats);
		goto inj;
	}
	/* The persistent event, as its sysfs files describe it. */
	type = read_num(PMU "/type");
	if (read_text(PMU "/events/mce_record", buf, sizeof(buf)) <= 0 ||
	    !(p = strstr(buf, "config=")))
		die(PMU "/events/mce_record: no config=");
	config = strtol(p + 7, NULL, 0);
	size = read_num(PMU "/info/mce_record.buffer_size");
	if (type < 0 || size <= 0)
		die(PMU ": type or info/mce_record.buffer_size");
	fd = open_persistent(type, config, 0);
	if (fd < 0)
		die("perf_event_open(persistent/mce_record/, cpu 0)");
	pg = mmap(NULL, page + size, PROT_READ, MAP_SHARED, fd, 0);
	if (pg == MAP_FAILED)
		die("mmap");
	printf("# buffer_size %ld, type %d, config %ld\n", size, type, config);

inj:
	fd_flags = open_inj("flags");
	fd_status = open_inj("status");
	fd_addr = open_inj("addr");
	fd_misc = open_inj("misc");
	fd_cpu = open_inj("cpu");
	fd_bank = open_inj("bank");

	/* The record size: one injection, then data_head's change. */
	w = written();
	inject();
	{
		uint64_t end = now_ns() + 10000000000ULL;

		while (written() == w) {
			sched_yield();
			if (now_ns() > end) {
				fprintf(stderr, "mce-record-bench: no record in the buffer of CPU 0\n");
				return 1;
			}
		}
	}
	usleep(10000);
	rec = written() - w;
	printf("record_size %lld\n", (long long)rec);

	/* One poll of wait_for() with nothing to wait for */
	{
		uint64_t t0 = now_ns();

		for (i = 0; i < 256; i++) {
			(void)written();
			sched_yield();
			(void)now_ns();
		}
		poll_ns = (double)(now_ns() - t0) / 256;
	}

	/* One warm-up batch, then the repetitions. */
	for (r = -1; r < reps; r++) {
		uint64_t ti = 0, tt = 0;

		polls = 0;
		for (b = 0; b < batches; b++) {
			uint64_t t0, t1, t2;

			w = written();
			set_fifo(1);
			t0 = now_ns();
			for (i = 0; i < n; i++)
				inject();
			t1 = now_ns();
			set_fifo(0);
			wait_for(w + n * rec);
			t2 = now_ns();
			ti += t1 - t0;
			tt += t2 - t0;
			if (written() != w + n * rec) {
				usleep(10000);
				fprintf(stderr, "mce-record-bench: %lld bytes written, %lld expected\n",
					(long long)(written() - w), (long long)(n * rec));
				return 1;
			}
		}
		if (r < 0)
			continue;
		inj[r] = (double)ti / (batches * n);
		tot[r] = (double)tt / (batches * n);
		drn[r] = tot[r] - inj[r];
		net[r] = tot[r] - polls * poll_ns / (batches * n);
		all_polls += polls;
	}
	printf("# %d reps x %d batches x %d records, ns per record\n", reps, batches, n);
	print("inject", inj, reps);
	print("total", tot, reps);
	print("drain", drn, reps);
	printf("poll %.1f %.2f\n", poll_ns, (double)all_polls / (reps * batches));
	print("net", net, reps);
	return 0;
}
