// SPDX-License-Identifier: GPL-2.0
/*
 * output-bench: cost per record of the ring-buffer output path of an
 * ordinary (non-persistent) perf event.
 *
 * A per-task event (pid 0, any CPU) with sample_period = 1 on an event
 * the loop below fires once per iteration, pinned to one CPU:
 *   tp: tracepoint task:task_rename, fired by prctl(PR_SET_NAME);
 *   pf: software event page-faults, fired by a read of an untouched
 *       anonymous page (a minor fault that maps the zero page), which
 *       madvise(MADV_DONTNEED) unmaps again.
 * Cases (one event at a time, opened and closed around each measurement):
 *   none:    the loop without any event (subtracted from the others);
 *   nobuf:   the event without a ring buffer: the sample is prepared, then
 *            perf_output_begin() finds no buffer (the path up to the
 *            output proper);
 *   fwd:     a buffer mapped read-write, written forward (as perf record
 *            does), drained every DRAIN iterations so that it never fills;
 *   bwd:     write_backward, mapped read-only: overwrite mode, no draining;
 *   fwd-min: fwd with the smallest sample (IP, TID, TIME).
 * tp's samples are those of perf record -e <tracepoint> (IP, TID, TIME,
 * CPU, PERIOD, RAW), pf's those of perf record -e page-faults (IP, TID,
 * TIME, PERIOD).  Every event case checks that the event counted exactly
 * one record per iteration and that the buffer took all of them (data_head
 * against the record size): no record lost.
 *
 * Time: the TSC.  Under QEMU -icount shift=0 it counts guest instructions
 * (1 ns each); the rate against CLOCK_MONOTONIC is printed as a check.
 *
 * Output, for a driver to merge (lines starting with '#' are comments, the
 * record sizes among them):
 *   <workload> <case> <rep> <ticks per iteration> <minus none, same rep>
 * The "none" lines have 0 in the last column.
 *
 * Usage: output-bench [-r reps (5)] [-n tp_iters (20480)]
 *                     [-p pf_iters (5120)] [-c cpu (0)] [-w tp|pf|all]
 * Iterations: multiples of DRAIN (64).
 * Root (tracefs; samples with kernel IPs; buffers beyond the mlock limit).
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <x86intrin.h>

#define RB_PAGES	128	/* data pages: 512 KiB */
#define DRAIN		64	/* fwd: iterations between two drains */
#define WARMUP		64
#define PF_PAGES	64	/* pf: pages the loop faults in turn */

static long page_size;
static char *pf_area;
static int printed[2][5];

enum { C_NONE, C_NOBUF, C_FWD, C_BWD, C_FWD_MIN, NR_CASES };
static const char *case_name[NR_CASES] = {
	"none", "nobuf", "fwd", "bwd", "fwd-min"
};

static void die(const char *what)
{
	fprintf(stderr, "output-bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void __attribute__((format(printf, 3, 4)))
fail(const char *w, const char *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "output-bench: %s %s: ", w, c);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(1);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* ns per TSC tick over about 50 ms, for the record (1.0 under icount) */
static double tick_rate(void)
{
	uint64_t t0 = now_ns(), c0 = __rdtsc(), t1, c1;

	do {
		t1 = now_ns();
		c1 = __rdtsc();
	} while (t1 - t0 < 50000000ull);
	return (double)(t1 - t0) / (double)(c1 - c0);
}

static int tp_id(void)
{
	static const char *const paths[] = {
		"/sys/kernel/tracing/events/task/task_rename/id",
		"/sys/kernel/debug/tracing/events/task/task_rename/id",
	};
	unsigned int i;
	int id;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		FILE *f = fopen(paths[i], "r");

		if (!f)
			continue;
		if (fscanf(f, "%d", &id) != 1)
			id = -1;
		fclose(f);
		if (id >= 0)
			return id;
	}
	errno = ENOENT;
	die("tracepoint task:task_rename (tracefs)");
	return -1;
}

/* one iteration of each workload: fires the event once */
static inline void iter_tp(void)
{
	if (prctl(PR_SET_NAME, (unsigned long)"output-bench", 0, 0, 0))
		die("prctl(PR_SET_NAME)");
}

static inline void iter_pf(long i)
{
	char *p = pf_area + (i % PF_PAGES) * page_size;

	(void)*(volatile char *)p;
	if (madvise(p, page_size, MADV_DONTNEED))
		die("madvise");
}

struct rb {
	struct perf_event_mmap_page *up;
	char *data;
	size_t len;
	int fd;
};

static void drain(struct rb *rb)
{
	uint64_t head = __atomic_load_n(&rb->up->data_head, __ATOMIC_ACQUIRE);

	__atomic_store_n(&rb->up->data_tail, head, __ATOMIC_RELEASE);
}

static int open_event(int tp, int c, int tpid)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	if (tp) {
		attr.type = PERF_TYPE_TRACEPOINT;
		attr.config = tpid;
		attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				   PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
				   PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW;
	} else {
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = PERF_COUNT_SW_PAGE_FAULTS;
		attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				   PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	}
	if (c == C_FWD_MIN)
		attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				   PERF_SAMPLE_TIME;
	attr.sample_period = 1;
	attr.disabled = 1;
	/* wakeups (an irq_work) once per buffer's worth of records */
	attr.watermark = 1;
	attr.wakeup_watermark = RB_PAGES * page_size;
	if (c == C_BWD)
		attr.write_backward = 1;
	fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1,
		     PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		die("perf_event_open");
	return fd;
}

/* ticks per iteration of workload tp (1) or pf (0) in case c */
static double measure(int tp, int c, long iters, int tpid)
{
	const char *w = tp ? "tp" : "pf";
	struct rb rb = { .fd = -1 };
	uint64_t t0, t1, count = 0, bytes, size = 0;
	long i, j;

	if (c != C_NONE) {
		rb.fd = open_event(tp, c, tpid);
		if (c != C_NOBUF) {
			rb.len = (RB_PAGES + 1) * page_size;
			rb.up = mmap(NULL, rb.len, PROT_READ |
				     (c == C_BWD ? 0 : PROT_WRITE),
				     MAP_SHARED, rb.fd, 0);
			if (rb.up == MAP_FAILED)
				die("mmap of the ring buffer");
			rb.data = (char *)rb.up + page_size;
			/*
			 * Fault the mapping in now: pf counts every fault of
			 * the task, these included
			 */
			for (i = 0; i < RB_PAGES; i++)
				(void)*(volatile char *)(rb.data + i * page_size);
			if (c != C_BWD)
				drain(&rb);
			else
				(void)*(volatile __u64 *)&rb.up->data_head;
		}
		if (ioctl(rb.fd, PERF_EVENT_IOC_ENABLE, 0))
			die("PERF_EVENT_IOC_ENABLE");
	}

	/* warm-up; then the size of a record, from the first one */
	for (i = 0; i < WARMUP; i++) {
		if (tp)
			iter_tp();
		else
			iter_pf(i);
	}
	if (rb.up) {
		struct perf_event_header *h;
		uint64_t head = __atomic_load_n(&rb.up->data_head,
						__ATOMIC_ACQUIRE);

		/* fwd: the oldest at 0; bwd: the newest at -bytes */
		h = (void *)(rb.data + (head & (RB_PAGES * page_size - 1)));
		if (c != C_BWD) {
			h = (void *)rb.data;
			drain(&rb);
		}
		if (h->type != PERF_RECORD_SAMPLE)
			fail(w, case_name[c], "record type %u, not a sample",
			     h->type);
		size = h->size;
		if (!printed[tp][c]) {
			printf("# %s %s: %llu-byte records\n", w, case_name[c],
			       (unsigned long long)size);
			printed[tp][c] = 1;
		}
	}

	/* fwd: the same inner loops, a drain after every DRAIN iterations */
	if ((c == C_FWD || c == C_FWD_MIN) && tp) {
		t0 = __rdtsc();
		for (i = 0; i < iters; i += DRAIN) {
			for (j = 0; j < DRAIN; j++)
				iter_tp();
			drain(&rb);
		}
		t1 = __rdtsc();
	} else if (c == C_FWD || c == C_FWD_MIN) {
		t0 = __rdtsc();
		for (i = 0; i < iters; i += DRAIN) {
			for (j = 0; j < DRAIN; j++)
				iter_pf(i + j);
			drain(&rb);
		}
		t1 = __rdtsc();
	} else if (tp) {
		t0 = __rdtsc();
		for (i = 0; i < iters; i++)
			iter_tp();
		t1 = __rdtsc();
	} else {
		t0 = __rdtsc();
		for (i = 0; i < iters; i++)
			iter_pf(i);
		t1 = __rdtsc();
	}

	if (c != C_NONE) {
		if (ioctl(rb.fd, PERF_EVENT_IOC_DISABLE, 0))
			die("PERF_EVENT_IOC_DISABLE");
		if (read(rb.fd, &count, sizeof(count)) != sizeof(count))
			die("read of the event count");
		if (count != (uint64_t)(iters + WARMUP))
			fail(w, case_name[c], "count %llu, expected %ld",
			     (unsigned long long)count, iters + WARMUP);
	}
	if (rb.up) {
		bytes = __atomic_load_n(&rb.up->data_head, __ATOMIC_ACQUIRE);
		if (c == C_BWD)
			bytes = -bytes;
		if (bytes != count * size)
			fail(w, case_name[c],
			     "%llu bytes in the buffer, expected %llu",
			     (unsigned long long)bytes,
			     (unsigned long long)(count * size));
		munmap(rb.up, rb.len);
	}
	if (rb.fd >= 0)
		close(rb.fd);
	return (double)(t1 - t0) / iters;
}

static void bench(int tp, long iters, int reps, int tpid)
{
	const char *w = tp ? "tp" : "pf";
	double t[NR_CASES];
	int order[NR_CASES], n = 0, r, i, c;

	for (c = 0; c < NR_CASES; c++) {
		/* pf: one sample type; fwd-min only for tp */
		if (!tp && c == C_FWD_MIN)
			continue;
		order[n++] = c;
	}
	printf("# %s: %ld iterations per measurement\n", w, iters);
	for (r = 0; r < reps; r++) {
		/* alternate the order of the cases between repetitions */
		for (i = 0; i < n; i++) {
			c = order[r % 2 ? n - 1 - i : i];
			t[c] = measure(tp, c, iters, tpid);
		}
		for (i = 0; i < n; i++) {
			c = order[i];
			/* none: t[c] - t[C_NONE] is 0 */
			printf("%s %s %d %.2f %.2f\n", w, case_name[c], r,
			       t[c], t[c] - t[C_NONE]);
		}
		fflush(stdout);
	}
}

int main(int argc, char **argv)
{
	long tp_iters = 20480, pf_iters = 5120;
	int reps = 5, cpu = 0, opt, tpid = -1;
	const char *workload = "all";
	struct utsname u;

	while ((opt = getopt(argc, argv, "r:n:p:c:w:")) != -1) {
		switch (opt) {
		case 'r':
			reps = atoi(optarg);
			break;
		case 'n':
			tp_iters = atol(optarg);
			break;
		case 'p':
			pf_iters = atol(optarg);
			break;
		case 'c':
			cpu = atoi(optarg);
			break;
		case 'w':
			workload = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-r reps] [-n tp_iters] [-p pf_iters] [-c cpu] [-w tp|pf|all]\n",
				argv[0]);
			return 2;
		}
	}
	if (reps < 1 || tp_iters < DRAIN || pf_iters < DRAIN ||
	    tp_iters % DRAIN || pf_iters % DRAIN) {
		fprintf(stderr, "output-bench: bad arguments (iterations: multiples of %d)\n",
			DRAIN);
		return 2;
	}
	page_size = sysconf(_SC_PAGESIZE);
	pf_area = mmap(NULL, PF_PAGES * page_size, PROT_READ,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pf_area == MAP_FAILED)
		die("mmap of the page-fault area");

	pin(cpu);
	uname(&u);
	printf("# output-bench: kernel %s %s, cpu %d, %d reps\n",
	       u.release, u.version, cpu, reps);
	printf("# timer: TSC, %.4f ns per tick\n", tick_rate());
	printf("# workload case rep ticks/iteration minus-none\n");
	if (!strcmp(workload, "all") || !strcmp(workload, "tp")) {
		tpid = tp_id();
		bench(1, tp_iters, reps, tpid);
	}
	if (!strcmp(workload, "all") || !strcmp(workload, "pf"))
		bench(0, pf_iters, reps, tpid);
	return 0;
}
