// SPDX-License-Identifier: GPL-2.0
/*
 * sideband-bench: cost of side-band record delivery against the number of
 * uninterested CPU-wide perf events.
 *
 * Workloads, pinned to one CPU:
 *   switch: two threads ping-pong a byte over a pair of pipes; one CPU-wide
 *           event per CPU wants context_switch records (with a ring
 *           buffer), plus N CPU-wide events per CPU that want only comm.
 *   mmap:   mmap()+munmap() of an executable file mapping; one CPU-wide
 *           event per CPU wants mmap records (with a ring buffer), plus N
 *           that want only comm.
 *
 * For every repetition, all N values are measured in turn (alternating),
 * and the median over the repetitions is reported in ns per operation
 * (one context switch, or one mmap+munmap pair).
 *
 * Output, one line per workload and N, for a driver to merge:
 *   <workload> <N> <median ns/op> <T(N)/T(0)> <rep1> <rep2> ...
 * Lines starting with '#' are comments.
 *
 * Usage: sideband-bench [-r reps] [-n N,N,...] [-w switch|mmap|all]
 *                       [-t target_ms] [-c cpu]
 * Needs CPU-wide events: root, or perf_event_paranoid <= 0.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

#define MAX_N		8
#define MAX_REPS	64
#define RB_PAGES	8	/* data pages of the interested event's buffer */

static int nr_cpus;
static int bench_cpu;
static long page_size;

static int perf_open(struct perf_event_attr *attr, int cpu)
{
	return syscall(__NR_perf_event_open, attr, -1, cpu, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

static void dummy_attr(struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_SOFTWARE;
	attr->size = sizeof(*attr);
	attr->config = PERF_COUNT_SW_DUMMY;
	attr->sample_id_all = 1;
	attr->sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
}

static void die(const char *what)
{
	fprintf(stderr, "sideband-bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* The interested events: one per CPU, with a read-only (overwrite) buffer. */
struct interested {
	int fd[CPU_SETSIZE];
	void *rb[CPU_SETSIZE];
};

static void open_interested(struct interested *in, int workload_switch)
{
	struct perf_event_attr attr;
	size_t len = (RB_PAGES + 1) * page_size;
	int cpu;

	dummy_attr(&attr);
	if (workload_switch)
		attr.context_switch = 1;
	else
		attr.mmap = 1;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		in->fd[cpu] = perf_open(&attr, cpu);
		if (in->fd[cpu] < 0)
			die("perf_event_open (interested event)");
		/* PROT_READ only: overwrite mode, never stalls, never fills */
		in->rb[cpu] = mmap(NULL, len, PROT_READ, MAP_SHARED,
				   in->fd[cpu], 0);
		if (in->rb[cpu] == MAP_FAILED)
			die("mmap of the ring buffer");
	}
}

static void close_interested(struct interested *in)
{
	size_t len = (RB_PAGES + 1) * page_size;
	int cpu;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		munmap(in->rb[cpu], len);
		close(in->fd[cpu]);
	}
}

/* N uninterested (comm-only) events per CPU; no buffer needed. */
static int *open_comm_only(int n)
{
	struct perf_event_attr attr;
	int *fds = calloc((size_t)n * nr_cpus + 1, sizeof(int));
	int cpu, i, k = 0;

	if (!fds)
		die("calloc");
	dummy_attr(&attr);
	attr.comm = 1;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		for (i = 0; i < n; i++) {
			fds[k] = perf_open(&attr, cpu);
			if (fds[k] < 0)
				die("perf_event_open (comm-only event)");
			k++;
		}
	}
	fds[k] = -1;
	return fds;
}

static void close_all(int *fds)
{
	int i;

	for (i = 0; fds[i] >= 0; i++)
		close(fds[i]);
	free(fds);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * Time with the TSC where there is one: a TCG guest often fails to
 * calibrate it and falls back to a jiffies clocksource, whose 4 ms steps
 * would swamp the differences we measure. The TSC is calibrated once
 * against CLOCK_MONOTONIC over about a second, between two steps of the
 * clock, so that even a jiffies clock gives the rate to well under 1%.
 */
static double ns_per_tick = 1.0;

static uint64_t ticks(void)
{
#ifdef HAVE_TSC
	return __rdtsc();
#else
	return now_ns();
#endif
}

static uint64_t next_clock_step(uint64_t *tsc)
{
	uint64_t t0 = now_ns(), t;

	while ((t = now_ns()) == t0)
		;
	*tsc = ticks();
	return t;
}

static void calibrate_ticks(void)
{
#ifdef HAVE_TSC
	uint64_t t0, t1, c0, c1;

	t0 = next_clock_step(&c0);
	do {
		t1 = next_clock_step(&c1);
	} while (t1 - t0 < 1000000000ull);
	ns_per_tick = (double)(t1 - t0) / (double)(c1 - c0);
#endif
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

/* switch workload: ping-pong over two pipes between two pinned threads */
struct pingpong {
	int to_peer[2], to_main[2];
	long iters;
};

static void *peer(void *arg)
{
	struct pingpong *pp = arg;
	char c;
	long i;

	pin(bench_cpu);
	for (i = 0; i < pp->iters; i++) {
		if (read(pp->to_peer[0], &c, 1) != 1 ||
		    write(pp->to_main[1], &c, 1) != 1)
			die("peer pipe");
	}
	return NULL;
}

/* ns per context switch: each round trip is two switches on the CPU */
static double run_switch(long iters)
{
	struct pingpong pp = { .iters = iters + 1 };	/* + warm-up */
	pthread_t thr;
	uint64_t t0, t1;
	char c = 0;
	long i;

	if (pipe(pp.to_peer) || pipe(pp.to_main))
		die("pipe");
	if (pthread_create(&thr, NULL, peer, &pp))
		die("pthread_create");

	/* one warm-up round trip */
	if (write(pp.to_peer[1], &c, 1) != 1 || read(pp.to_main[0], &c, 1) != 1)
		die("pipe");

	t0 = ticks();
	for (i = 0; i < iters; i++) {
		if (write(pp.to_peer[1], &c, 1) != 1 ||
		    read(pp.to_main[0], &c, 1) != 1)
			die("pipe");
	}
	t1 = ticks();

	pthread_join(thr, NULL);
	close(pp.to_peer[0]);
	close(pp.to_peer[1]);
	close(pp.to_main[0]);
	close(pp.to_main[1]);
	return (double)(t1 - t0) * ns_per_tick / (2.0 * iters);
}

/* mmap workload: ns per mmap+munmap of an executable file mapping */
static double run_mmap(long iters)
{
	uint64_t t0, t1;
	long i;
	int fd;

	fd = open("/proc/self/exe", O_RDONLY);
	if (fd < 0)
		die("open /proc/self/exe");

	t0 = ticks();
	for (i = 0; i < iters; i++) {
		void *p = mmap(NULL, page_size, PROT_READ | PROT_EXEC,
			       MAP_PRIVATE, fd, 0);

		if (p == MAP_FAILED)
			die("mmap");
		munmap(p, page_size);
	}
	t1 = ticks();
	close(fd);
	return (double)(t1 - t0) * ns_per_tick / iters;
}

static double run(int workload_switch, long iters)
{
	return workload_switch ? run_switch(iters) : run_mmap(iters);
}

/* Iterations so that one measurement at N = 0 takes about target_ms. */
static long calibrate(int workload_switch, int target_ms)
{
	long iters = 100;

	for (;;) {
		double ns = run(workload_switch, iters) * iters *
			    (workload_switch ? 2 : 1);

		if (ns >= target_ms * 1e6 / 4 || iters >= 100000000)
			return (long)(iters * (target_ms * 1e6 / ns)) + 1;
		iters *= 4;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
	double s[MAX_REPS];

	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static void bench(const char *name, int workload_switch, const int *ns,
		  int nr_n, int reps, int target_ms)
{
	double t[MAX_N][MAX_REPS], med[MAX_N];
	struct interested in;
	long iters;
	int r, i;

	pin(bench_cpu);
	open_interested(&in, workload_switch);
	iters = calibrate(workload_switch, target_ms);
	printf("# %s: %ld operations per measurement\n", name, iters);

	for (r = 0; r < reps; r++) {
		for (i = 0; i < nr_n; i++) {
			/* alternate the order of N between repetitions */
			int j = r % 2 ? nr_n - 1 - i : i;
			int *fds = open_comm_only(ns[j]);

			t[j][r] = run(workload_switch, iters);
			close_all(fds);
		}
	}
	close_interested(&in);

	for (i = 0; i < nr_n; i++)
		med[i] = median(t[i], reps);
	for (i = 0; i < nr_n; i++) {
		printf("%s %d %.1f %.3f", name, ns[i], med[i], med[i] / med[0]);
		for (r = 0; r < reps; r++)
			printf(" %.1f", t[i][r]);
		printf("\n");
	}
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int ns[MAX_N] = { 0, 64, 256, 1024 }, nr_n = 4;
	int reps = 11, target_ms = 100, opt;
	const char *workload = "all";
	struct utsname u;
	struct rlimit rl;
	char *tok;

	while ((opt = getopt(argc, argv, "r:n:w:t:c:")) != -1) {
		switch (opt) {
		case 'r':
			reps = atoi(optarg);
			break;
		case 'n':
			nr_n = 0;
			for (tok = strtok(optarg, ","); tok && nr_n < MAX_N;
			     tok = strtok(NULL, ","))
				ns[nr_n++] = atoi(tok);
			break;
		case 'w':
			workload = optarg;
			break;
		case 't':
			target_ms = atoi(optarg);
			break;
		case 'c':
			bench_cpu = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-r reps] [-n N,N,...] [-w switch|mmap|all] [-t ms] [-c cpu]\n",
				argv[0]);
			return 2;
		}
	}
	if (reps < 1 || reps > MAX_REPS || nr_n < 1 || target_ms < 1) {
		fprintf(stderr, "sideband-bench: bad arguments\n");
		return 2;
	}

	page_size = sysconf(_SC_PAGESIZE);
	nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (nr_cpus > CPU_SETSIZE)
		nr_cpus = CPU_SETSIZE;

	/* one fd per event: (max N + 1) per CPU */
	rl.rlim_cur = rl.rlim_max = 0;
	getrlimit(RLIMIT_NOFILE, &rl);
	for (opt = 0; opt < nr_n; opt++) {
		rlim_t need = (rlim_t)(ns[opt] + 2) * nr_cpus + 64;

		if (rl.rlim_cur < need) {
			rl.rlim_cur = need;
			if (rl.rlim_max < need)
				rl.rlim_max = need;
			if (setrlimit(RLIMIT_NOFILE, &rl))
				die("setrlimit(RLIMIT_NOFILE)");
		}
	}

	pin(bench_cpu);
	calibrate_ticks();
	uname(&u);
	printf("# sideband-bench: kernel %s %s, %d CPUs, cpu %d, %d reps\n",
	       u.release, u.version, nr_cpus, bench_cpu, reps);
	printf("# timer: %s, %.4f ns per tick\n",
#ifdef HAVE_TSC
	       "TSC",
#else
	       "CLOCK_MONOTONIC",
#endif
	       ns_per_tick);
	printf("# workload N median_ns_per_op T(N)/T(0) per-rep...\n");

	if (!strcmp(workload, "all") || !strcmp(workload, "switch"))
		bench("switch", 1, ns, nr_n, reps, target_ms);
	if (!strcmp(workload, "all") || !strcmp(workload, "mmap"))
		bench("mmap", 0, ns, nr_n, reps, target_ms);
	return 0;
}
