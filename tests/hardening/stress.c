// SPDX-License-Identifier: GPL-2.0
/*
 * Stress test of the persistent mce_record perf event.
 *
 * For a bounded time (-t SECONDS, default 60), at the same time:
 *  - reader threads (-r N per CPU, default 2) for every CPU repeatedly attach
 *    to the persistent event of that CPU, map its buffer read-only, read the
 *    count, walk the records, check the ID ioctl and that a changing ioctl is
 *    refused, then close (sometimes before unmapping);
 *  - one thread injects corrected MCEs through mce-inject ("sw"), each with a
 *    sequence number in the addr field, alternately pinned to each CPU, and
 *    follows all per-CPU buffers (a long-lived reader: its descriptors and
 *    mappings stay open across CPU hotplug) until the record shows up
 *    (which also paces the injections: the MCE genpool holds ~32 records);
 *  - one thread takes CPU 1 offline and online again.
 *
 * Afterwards every injected sequence number must have been found exactly
 * once.  A follower that was lapped (data_head moved more than the buffer
 * size since it last looked) lost data: that loss is reported, and missing
 * records are accepted only up to what the laps can explain.  When nothing
 * wrapped, the buffers are also parsed again from the start with new
 * descriptors and must hold every record exactly once.
 *
 * Build: gcc -O2 -pthread -I<kernel build>/usr/include -o stress stress.c
 * Run as root in the test guest.  Exit 0 pass, 1 fail, 4 skip.
 * Final line:
 *   stress: injected N, recovered M, lost L (reported R), duplicates D, reader errors E
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "common.h"

#define PMU_DIR		"/sys/bus/event_source/devices/persistent"
#define EVENT		"mce_record"
#define INJ		"/sys/kernel/debug/mce-inject"
#define FORMAT1		"/sys/kernel/tracing/events/mce/mce_record/format"
#define FORMAT2		"/sys/kernel/debug/tracing/events/mce/mce_record/format"
#define HOTPLUG_CPU	1
#define MAX_CPUS	64
#define MAX_SEQ		(1 << 20)
#define KSFT_SKIP	4

/* Configuration */
static int duration = 60;
static int readers_per_cpu = 2;
static int collect_every = 1;	/* follow the buffers every N injections */
static int verbose;

/* What the kernel told us */
static int pmu_type, event_id, nr_cpus;
static size_t bufsize;
static long page;
static uint64_t tp_config;	/* trace event id: common_type of the records */
static int off_addr = 32, off_misc = 40, off_type = 0;

static volatile int stop;
static uint32_t nonce;		/* tags this run's records (addr bits 32..47) */
#define ADDR_TAG	0x5e00000000000000ULL
#define MISC_TAG	0x86ULL

/* Counters (updated with __atomic builtins where shared) */
static unsigned long reader_iters, reader_errors, reader_refused;
static unsigned long reader_walks, walk_records;
static unsigned long hp_cycles, hp_errors;
static unsigned long inj_ok, inj_errors, inj_timeouts;
static unsigned long corrupt;	/* malformed records */
static unsigned long laps, lapped_bytes;
static unsigned long foreign;	/* mce_record samples of other runs/tests */

/* Hotplug state for the readers: generation is odd while CPU 1 is not
 * stably online (between the write of 0 and the return of the write of 1). */
static unsigned long hp_gen;

static unsigned char *found;	/* per sequence number: times found */
static int *found_cpu;		/* buffer where it was found */
static int *inj_cpu;		/* CPU the injector was pinned to */

static void logmsg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fflush(stdout);
}

static int write_text(const char *path, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	int fd, len, ret = 0;

	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, buf, len) != len)
		ret = -errno ? -errno : -EIO;
	close(fd);
	return ret;
}

static int format_offset(const char *fmt, const char *field)
{
	char pat[64];
	const char *p;
	int off;

	snprintf(pat, sizeof(pat), " %s;\toffset:", field);
	p = strstr(fmt, pat);
	if (!p || sscanf(p + strlen(pat), "%d", &off) != 1)
		return -1;
	return off;
}

static void load_layout(void)
{
	static char fmt[16384];

	if (read_text(FORMAT1, fmt, sizeof(fmt)) <= 0 &&
	    read_text(FORMAT2, fmt, sizeof(fmt)) <= 0) {
		logmsg("stress: note: no mce_record format file, using the 6.1 layout\n");
		return;
	}
	off_addr = format_offset(fmt, "addr");
	off_misc = format_offset(fmt, "misc");
	off_type = format_offset(fmt, "common_type");
	if (off_addr < 0 || off_misc < 0 || off_type < 0) {
		logmsg("stress: cannot parse the mce_record format\n");
		exit(1);
	}
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		CPU_ZERO(&set);
		CPU_SET(0, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
}

static int open_event(int cpu)
{
	return open_persistent(pmu_type, event_id, cpu);
}

/*
 * Bytes written so far.  Persistent buffers are written backward: data_head
 * counts down from 0, is the start of the newest record, and the records
 * written since a reader saw W bytes written are the W2 - W bytes at
 * -W2 (newest first), as ring_copy(data, -W2, dst, W2 - W) copies them.
 */
static uint64_t load_head(void *base)
{
	struct perf_event_mmap_page *pg = base;

	return -__atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
}

static void ring_copy(const char *data, uint64_t off, void *dst, size_t len)
{
	size_t first, pos = off & (bufsize - 1);

	first = bufsize - pos;
	if (first > len)
		first = len;
	memcpy(dst, data + pos, first);
	if (len > first)
		memcpy((char *)dst + first, data, len - first);
}

/*
 * One sample (TIME | CPU | RAW) at @rec, @size bytes in all.  Returns the
 * sequence number of this run's records, -1 for others, -2 if malformed.
 */
static long parse_sample(const unsigned char *rec, size_t size, int cpu)
{
	uint32_t scpu, raw_size;
	uint64_t addr, misc;
	uint16_t type;
	const unsigned char *raw;

	if (size < 8 + 8 + 8 + 4)
		return -2;
	memcpy(&scpu, rec + 16, 4);
	memcpy(&raw_size, rec + 24, 4);
	raw = rec + 28;
	if (28 + (size_t)raw_size > size ||
	    (size_t)off_addr + 8 > raw_size || (size_t)off_misc + 8 > raw_size)
		return -2;
	if ((int)scpu != cpu)
		return -2;
	memcpy(&type, raw + off_type, 2);
	if (type != (uint16_t)tp_config)
		return -2;
	memcpy(&addr, raw + off_addr, 8);
	memcpy(&misc, raw + off_misc, 8);
	if ((addr & 0xffff000000000000ULL) != ADDR_TAG ||
	    ((addr >> 32) & 0xffff) != nonce || misc != MISC_TAG)
		return -1;
	return addr & 0xffffffffULL;
}

/* The injector's long-lived view of every per-CPU buffer */
struct follower {
	int fd;
	void *base;
	char *data;
	uint64_t prev;
	uint64_t start;		/* data_head when we started */
	unsigned char *copy;
};

static struct follower fol[MAX_CPUS];

static void note_found(long seq, int cpu)
{
	if (seq < 0 || seq >= MAX_SEQ)
		return;
	if (found[seq] < 255)
		found[seq]++;
	if (found[seq] > 1)
		logmsg("stress: sequence %ld found again (CPU %d, first on CPU %d)\n",
		       seq, cpu, found_cpu[seq]);
	else
		found_cpu[seq] = cpu;
}

/* Read what is new in the buffer of @cpu; returns the records seen. */
static int follow(int cpu)
{
	struct follower *f = &fol[cpu];
	uint64_t head, head2, valid_from, off;
	int nr = 0;

	if (!f->base)
		return 0;
	head = load_head(f->base);
	if (head == f->prev)
		return 0;
	if (head < f->prev || head - f->prev > bufsize) {
		logmsg("stress: follower of CPU %d lapped: %" PRIu64 " bytes written"
		       ", last position %" PRIu64 ", %zu-byte buffer: %" PRIu64
		       " bytes lost\n", cpu, head, f->prev, bufsize, head - f->prev);
		laps++;
		lapped_bytes += head - f->prev;
		f->prev = head;
		return 0;
	}
	ring_copy(f->data, -head, f->copy, head - f->prev);
	/* Whatever the kernel may have overwritten while we copied is lost. */
	head2 = load_head(f->base);
	valid_from = head2 + 4096 > bufsize ? head2 + 4096 - bufsize : 0;
	if (f->prev < valid_from) {
		logmsg("stress: follower of CPU %d overtaken while copying: "
		       "%" PRIu64 " bytes lost\n", cpu, head - f->prev);
		laps++;
		lapped_bytes += head - f->prev;
		f->prev = head2;
		return 0;
	}
	off = f->prev;
	while (off < head) {
		struct perf_event_header hdr;
		unsigned char *rec = f->copy + (off - f->prev);
		long seq;

		if (head - off < sizeof(hdr)) {
			corrupt++;
			break;
		}
		memcpy(&hdr, rec, sizeof(hdr));
		if (hdr.size < sizeof(hdr) || hdr.size % 8 || off + hdr.size > head) {
			logmsg("stress: CPU %d: bad record header at %" PRIu64
			       " (type %u size %u)\n", cpu, off, hdr.type, hdr.size);
			corrupt++;
			break;
		}
		if (hdr.type == PERF_RECORD_SAMPLE) {
			seq = parse_sample(rec, hdr.size, cpu);
			if (seq == -2) {
				logmsg("stress: CPU %d: malformed sample at %" PRIu64 "\n",
				       cpu, off);
				corrupt++;
			} else if (seq == -1) {
				foreign++;
			} else {
				note_found(seq, cpu);
				nr++;
			}
		} else if (hdr.type == PERF_RECORD_LOST) {
			uint64_t lost;

			memcpy(&lost, rec + 16, 8);
			logmsg("stress: CPU %d: PERF_RECORD_LOST %" PRIu64 "\n",
			       cpu, lost);
			laps++;
		}
		off += hdr.size;
	}
	f->prev = head;
	return nr;
}

static int follow_all(void)
{
	int cpu, nr = 0;

	for (cpu = 0; cpu < nr_cpus; cpu++)
		nr += follow(cpu);
	return nr;
}

static int setup_followers(void)
{
	int cpu;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct follower *f = &fol[cpu];

		f->fd = -1;
		if (!cpu_online(cpu))
			continue;
		f->fd = open_event(cpu);
		if (f->fd < 0) {
			logmsg("stress: cannot attach to %s on CPU %d: %s\n",
			       EVENT, cpu, strerror(errno));
			return -1;
		}
		f->base = mmap(NULL, bufsize + page, PROT_READ, MAP_SHARED, f->fd, 0);
		if (f->base == MAP_FAILED) {
			logmsg("stress: cannot map %s on CPU %d: %s\n", EVENT,
			       cpu, strerror(errno));
			f->base = NULL;
			return -1;
		}
		f->data = (char *)f->base +
			  ((struct perf_event_mmap_page *)f->base)->data_offset;
		f->copy = malloc(bufsize);
		if (!f->copy)
			return -1;
		f->start = f->prev = load_head(f->base);
	}
	return 0;
}

static int inject(long seq, int cpu)
{
	int ret;

	pin(cpu);
	ret = write_text(INJ "/flags", "sw\n");
	if (!ret)
		ret = write_text(INJ "/status", "0x8c00000000000151\n");
	if (!ret)
		ret = write_text(INJ "/addr", "0x%llx\n",
				 (unsigned long long)(ADDR_TAG |
				 ((uint64_t)nonce << 32) | (uint64_t)seq));
	if (!ret)
		ret = write_text(INJ "/misc", "0x%llx\n", MISC_TAG);
	if (!ret)
		ret = write_text(INJ "/cpu", "0\n");
	if (!ret)
		ret = write_text(INJ "/bank", "1\n");
	return ret;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long injected;

static void *injector(void *arg)
{
	long seq;

	(void)arg;
	for (seq = 0; !stop && seq < MAX_SEQ; seq++) {
		int cpu = seq % nr_cpus, ret;
		double t0;

		if (!cpu_online(cpu))
			cpu = 0;
		inj_cpu[seq] = cpu;
		ret = inject(seq, cpu);
		if (ret) {
			inj_errors++;
			if (inj_errors <= 10)
				logmsg("stress: injection %ld on CPU %d failed: %s\n",
				       seq, cpu, strerror(-ret));
			injected = seq + 1;
			continue;
		}
		inj_ok++;
		injected = seq + 1;
		if (collect_every > 1) {
			usleep(2000);
			if (seq % collect_every == 0)
				follow_all();
			continue;
		}
		/* Wait until it shows up: paces the injections. */
		t0 = now();
		while (!found[seq]) {
			follow_all();
			if (found[seq])
				break;
			if (now() - t0 > 2.0) {
				inj_timeouts++;
				if (inj_timeouts <= 20)
					logmsg("stress: sequence %ld (injected on CPU %d) "
					       "not in any buffer after 2 s\n", seq, cpu);
				break;
			}
			usleep(1000);
		}
	}
	return NULL;
}

static void *hotplug(void *arg)
{
	char path[96];

	(void)arg;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 HOTPLUG_CPU);
	while (!stop) {
		int ret;

		__atomic_add_fetch(&hp_gen, 1, __ATOMIC_SEQ_CST);	/* odd */
		ret = write_text(path, "0\n");
		if (ret) {
			hp_errors++;
			if (hp_errors <= 5)
				logmsg("stress: CPU %d offline: %s\n", HOTPLUG_CPU,
				       strerror(-ret));
		}
		usleep(20000 + rand() % 50000);
		ret = write_text(path, "1\n");
		if (ret) {
			hp_errors++;
			logmsg("stress: CPU %d online: %s\n", HOTPLUG_CPU,
			       strerror(-ret));
			usleep(100000);
			continue;	/* stays odd: not stably online */
		}
		__atomic_add_fetch(&hp_gen, 1, __ATOMIC_SEQ_CST);	/* even */
		hp_cycles++;
		usleep(50000 + rand() % 100000);
	}
	return NULL;
}

struct reader_arg {
	int cpu;
	unsigned int seed;
};

static void reader_error(int cpu, const char *what, int err)
{
	unsigned long n = __atomic_add_fetch(&reader_errors, 1, __ATOMIC_RELAXED);

	if (n <= 20)
		logmsg("stress: reader of CPU %d: %s: %s\n", cpu, what,
		       err ? strerror(err) : "unexpected result");
}

/* Walk a buffer that has not wrapped; count malformed records. */
static void walk(void *base, int cpu)
{
	struct perf_event_mmap_page *pg = base;
	const char *data = (const char *)base + pg->data_offset;
	uint64_t head = load_head(base), off = 0;
	unsigned long nr = 0;

	if (head > bufsize)
		return;
	while (off < head) {
		struct perf_event_header hdr;

		ring_copy(data, off - head, &hdr, sizeof(hdr));
		if (hdr.size < sizeof(hdr) || hdr.size % 8 || off + hdr.size > head ||
		    (hdr.type != PERF_RECORD_SAMPLE && hdr.type != PERF_RECORD_LOST)) {
			reader_error(cpu, "malformed record in buffer", 0);
			return;
		}
		if (hdr.type == PERF_RECORD_SAMPLE) {
			uint32_t scpu;

			ring_copy(data, off - head + 16, &scpu, 4);
			if ((int)scpu != cpu) {
				reader_error(cpu, "sample of another CPU", 0);
				return;
			}
		}
		nr++;
		off += hdr.size;
	}
	__atomic_add_fetch(&reader_walks, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&walk_records, nr, __ATOMIC_RELAXED);
}

static void *reader(void *argp)
{
	struct reader_arg *arg = argp;
	int cpu = arg->cpu;
	unsigned long iter;

	for (iter = 0; !stop; iter++) {
		unsigned long gen0, gen1;
		struct perf_event_mmap_page *pg;
		uint64_t count, id;
		void *base;
		int fd, r = rand_r(&arg->seed);

		if (cpu != 0 || r % 4 == 0)
			pin(cpu);
		gen0 = __atomic_load_n(&hp_gen, __ATOMIC_SEQ_CST);
		fd = open_event(cpu);
		if (fd < 0) {
			int err = errno;

			gen1 = __atomic_load_n(&hp_gen, __ATOMIC_SEQ_CST);
			/* ENODEV only while the CPU is (going) offline */
			if (err == ENODEV && cpu == HOTPLUG_CPU &&
			    (gen0 != gen1 || (gen0 & 1))) {
				__atomic_add_fetch(&reader_refused, 1, __ATOMIC_RELAXED);
				usleep(1000);
				continue;
			}
			reader_error(cpu, "perf_event_open", err);
			usleep(10000);
			continue;
		}
		__atomic_add_fetch(&reader_iters, 1, __ATOMIC_RELAXED);
		base = mmap(NULL, bufsize + page, PROT_READ, MAP_SHARED, fd, 0);
		if (base == MAP_FAILED) {
			reader_error(cpu, "mmap", errno);
			close(fd);
			continue;
		}
		pg = base;
		if (pg->data_size != bufsize || pg->data_offset != (uint64_t)page)
			reader_error(cpu, "control page data_size/data_offset", 0);
		if (read(fd, &count, sizeof(count)) != sizeof(count))
			reader_error(cpu, "read", errno);
		if (r % 8 == 0)
			walk(base, cpu);
		if (ioctl(fd, PERF_EVENT_IOC_ID, &id))
			reader_error(cpu, "ioctl(ID)", errno);
		if (r % 16 == 1) {
			errno = 0;
			if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) != -1 || errno != EACCES)
				reader_error(cpu, "ioctl(DISABLE) not refused with EACCES", errno);
		}
		if (r % 2) {
			/* the mapping outlives the descriptor */
			if (close(fd))
				reader_error(cpu, "close", errno);
			(void)load_head(base);
			if (munmap(base, bufsize + page))
				reader_error(cpu, "munmap", errno);
		} else {
			/* the descriptor still works after munmap */
			if (munmap(base, bufsize + page))
				reader_error(cpu, "munmap", errno);
			if (read(fd, &count, sizeof(count)) != sizeof(count))
				reader_error(cpu, "read after munmap", errno);
			if (close(fd))
				reader_error(cpu, "close", errno);
		}
	}
	return NULL;
}

/* Parse every buffer from the start with new descriptors; 0 if done. */
static int final_parse(unsigned long *recovered, unsigned long *dups)
{
	unsigned char *cnt = calloc(MAX_SEQ, 1);
	unsigned char *copy = malloc(bufsize);
	int cpu;

	*recovered = *dups = 0;
	if (!cnt || !copy)
		return -1;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		uint64_t head, off = 0;
		void *base;
		int fd = open_event(cpu);

		if (fd < 0) {
			logmsg("stress: final parse: cannot attach to CPU %d: %s\n",
			       cpu, strerror(errno));
			return -1;
		}
		base = mmap(NULL, bufsize + page, PROT_READ, MAP_SHARED, fd, 0);
		if (base == MAP_FAILED) {
			logmsg("stress: final parse: cannot map CPU %d: %s\n",
			       cpu, strerror(errno));
			close(fd);
			return -1;
		}
		head = load_head(base);
		if (head > bufsize) {
			logmsg("stress: final parse: CPU %d buffer has wrapped "
			       "(%" PRIu64 " bytes written), not parsed from the start\n",
			       cpu, head);
			munmap(base, bufsize + page);
			close(fd);
			free(cnt);
			free(copy);
			return 1;
		}
		ring_copy((char *)base + page, -head, copy, head);
		while (off < head) {
			struct perf_event_header hdr;
			long seq;

			memcpy(&hdr, copy + off, sizeof(hdr));
			if (hdr.size < sizeof(hdr) || hdr.size % 8 || off + hdr.size > head) {
				corrupt++;
				break;
			}
			if (hdr.type == PERF_RECORD_SAMPLE) {
				seq = parse_sample(copy + off, hdr.size, cpu);
				if (seq >= 0 && seq < MAX_SEQ && cnt[seq] < 255)
					cnt[seq]++;
				else if (seq == -2)
					corrupt++;
			}
			off += hdr.size;
		}
		munmap(base, bufsize + page);
		close(fd);
	}
	for (long s = 0; s < injected; s++) {
		if (cnt[s])
			(*recovered)++;
		if (cnt[s] > 1)
			*dups += cnt[s] - 1;
		if (!found[s] && cnt[s])
			logmsg("stress: final parse found sequence %ld the follower missed\n", s);
		if (found[s] && !cnt[s])
			logmsg("stress: sequence %ld seen by the follower is gone from the buffers\n", s);
	}
	free(cnt);
	free(copy);
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: stress [-t SECONDS] [-r READERS_PER_CPU] [-c COLLECT_EVERY] [-v]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	pthread_t inj_thread, hp_thread, rd[MAX_CPUS * 16];
	struct reader_arg rargs[MAX_CPUS * 16];
	unsigned long recovered = 0, dups = 0, lost, explained, rec_size = 160;
	unsigned long f_recovered, f_dups;
	int opt, cpu, i, nr_readers = 0, have_hp, ok;
	char buf[128];
	double t_start;

	while ((opt = getopt(argc, argv, "t:r:c:v")) != -1) {
		switch (opt) {
		case 't': duration = atoi(optarg); break;
		case 'r': readers_per_cpu = atoi(optarg); break;
		case 'c': collect_every = atoi(optarg); break;
		case 'v': verbose = 1; break;
		default: usage();
		}
	}
	if (duration <= 0 || readers_per_cpu < 0 || readers_per_cpu > 16 ||
	    collect_every < 1)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	page = sysconf(_SC_PAGESIZE);
	nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	if (nr_cpus > MAX_CPUS)
		nr_cpus = MAX_CPUS;

	pmu_type = read_num(PMU_DIR "/type");
	if (pmu_type < 0 || read_text(PMU_DIR "/events/" EVENT, buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "persistent,config=%d", &event_id) != 1) {
		printf("stress: SKIP: no persistent %s event\n", EVENT);
		return KSFT_SKIP;
	}
	if (access(INJ "/bank", W_OK)) {
		printf("stress: SKIP: no %s (CONFIG_X86_MCE_INJECT, debugfs, root)\n", INJ);
		return KSFT_SKIP;
	}
	bufsize = read_num(PMU_DIR "/info/" EVENT ".buffer_size");
	tp_config = read_num(PMU_DIR "/info/" EVENT ".config");
	if ((long)bufsize <= 0 || bufsize & (bufsize - 1)) {
		printf("stress: bad buffer_size %zu\n", bufsize);
		return 1;
	}
	load_layout();
	nonce = (getpid() ^ time(NULL)) & 0xffff;
	srand(nonce);
	found = calloc(MAX_SEQ, 1);
	found_cpu = calloc(MAX_SEQ, sizeof(int));
	inj_cpu = calloc(MAX_SEQ, sizeof(int));
	if (!found || !found_cpu || !inj_cpu)
		return 1;
	logmsg("stress: %d CPUs, %s id %d, %zu-byte buffers, %d s, %d readers per CPU, tag 0x%04x\n",
	       nr_cpus, EVENT, event_id, bufsize, duration, readers_per_cpu, nonce);

	snprintf(buf, sizeof(buf), "/sys/devices/system/cpu/cpu%d/online", HOTPLUG_CPU);
	have_hp = nr_cpus > HOTPLUG_CPU && access(buf, W_OK) == 0;
	if (have_hp)
		write_text(buf, "1\n");
	else
		logmsg("stress: note: CPU %d cannot be hotplugged, no hotplug thread\n",
		       HOTPLUG_CPU);

	if (setup_followers())
		return 1;

	t_start = now();
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		for (i = 0; i < readers_per_cpu; i++) {
			rargs[nr_readers].cpu = cpu;
			rargs[nr_readers].seed = nonce * 131 + nr_readers;
			if (pthread_create(&rd[nr_readers], NULL, reader, &rargs[nr_readers]))
				return 1;
			nr_readers++;
		}
	}
	if (pthread_create(&inj_thread, NULL, injector, NULL))
		return 1;
	if (have_hp && pthread_create(&hp_thread, NULL, hotplug, NULL))
		return 1;

	while (now() - t_start < duration)
		usleep(100000);
	stop = 1;
	pthread_join(inj_thread, NULL);
	if (have_hp)
		pthread_join(hp_thread, NULL);
	for (i = 0; i < nr_readers; i++)
		pthread_join(rd[i], NULL);
	if (have_hp && write_text(buf, "1\n"))
		logmsg("stress: cannot bring CPU %d back online\n", HOTPLUG_CPU);

	/* Let the last records arrive, then follow the buffers a last time. */
	for (i = 0; i < 50; i++) {
		follow_all();
		if (injected && found[injected - 1])
			break;
		usleep(20000);
	}
	follow_all();

	for (long s = 0; s < injected; s++) {
		if (found[s])
			recovered++;
		if (found[s] > 1)
			dups += found[s] - 1;
	}
	/* injections that failed were not injected */
	lost = inj_ok > recovered ? inj_ok - recovered : 0;
	for (long s = 0, shown = 0; s < injected && shown < 20; s++) {
		if (!found[s]) {
			logmsg("stress: sequence %ld (injected on CPU %d) missing\n",
			       s, inj_cpu[s]);
			shown++;
		}
	}
	/* Losses the laps can explain (a record is at least ~150 bytes). */
	explained = laps ? lapped_bytes / 128 + laps : 0;
	logmsg("stress: %.0f s, reader attaches %lu (refused while CPU %d offline %lu, "
	       "buffer walks %lu with %lu records), hotplug cycles %lu (errors %lu), "
	       "injection errors %lu, not seen within 2 s %lu, laps %lu (%lu bytes), "
	       "malformed records %lu, records of other runs %lu\n",
	       now() - t_start, reader_iters, HOTPLUG_CPU, reader_refused,
	       reader_walks, walk_records, hp_cycles, hp_errors, inj_errors,
	       inj_timeouts, laps, lapped_bytes, corrupt, foreign);

	ok = final_parse(&f_recovered, &f_dups);
	if (ok == 0) {
		logmsg("stress: final parse of all buffers from the start: %lu of %lu "
		       "sequence numbers, %lu duplicates\n", f_recovered, inj_ok, f_dups);
		if (f_recovered != recovered || f_dups) {
			logmsg("stress: final parse disagrees with the follower\n");
			corrupt++;
		}
	} else if (ok < 0) {
		corrupt++;
	}
	(void)rec_size;

	printf("stress: injected %lu, recovered %lu, lost %lu (reported %lu), duplicates %lu, reader errors %lu\n",
	       inj_ok, recovered, lost, lost < explained ? lost : explained,
	       dups, reader_errors);
	ok = inj_ok > 0 && dups == 0 && reader_errors == 0 && corrupt == 0 &&
	     inj_errors == 0 && lost <= explained &&
	     (!have_hp || hp_cycles > 0);
	return ok ? 0 : 1;
}
