// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open() fuzzer aimed at the persistent PMU.
 *
 * Seeded (-s SEED, printed) and bounded (-n ITERATIONS, default 100000;
 * -t SECONDS).  Every iteration builds a random attr: random size (too small,
 * every published size, exact, too large with a zero or a non-zero tail,
 * larger than a page), type (mostly the persistent PMU's), config (mostly
 * the mce_record id), flag words with the persistent bit and others, sample
 * types, read formats and the other fields either zero (an attr that only
 * names the event, as attaching requires), valid or random; places it
 * normally, in a read-only page or across an inaccessible page; calls
 * perf_event_open() with pid/cpu/group_fd/flags combinations including
 * invalid ones (group_fd: a persistent event, an ordinary event, a file that
 * is not an event, a closed descriptor).  Then random ioctls, mmap() lengths,
 * protections, flags and offsets, mprotect() and read() on whatever opened
 * (or on helper descriptors), and everything is closed again.
 *
 * Every failing call must fail with an errno of the documented set:
 * Documentation/admin-guide/perf/persistent.rst (ENOENT, EINVAL, ENODEV,
 * EACCES; EACCES for perf ioctls but ID and PERSISTENT_READ (0, or EFAULT
 * for a bad pointer, as ID), ENOTTY for other ioctls, EBADF for a
 * reader fd as a SET_OUTPUT target, EACCES for writable mappings, EINVAL for other
 * mappings) on the persistent paths, perf_event_open(2), ioctl(2), mmap(2)
 * and read(2) for the rest.  Where the outcome follows from the
 * documentation alone (e.g. a changing ioctl on a persistent event, a
 * writable mapping, a persistent attach whose naming fields are all valid),
 * the exact result is checked too.  Anything else is reported with the attr.
 *
 * Final line:
 *   fuzz: seed S, iterations N, distinct errnos K (list), unexpected U
 * Exit 0 when U is 0, 1 otherwise, 4 when there is no persistent PMU.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
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
#include <sys/resource.h>
#include <sys/syscall.h>

#include "common.h"

#define PMU_DIR		"/sys/bus/event_source/devices/persistent"
#define EVENT		"mce_record"
#define KSFT_SKIP	4
#define ATTR_KSIZE	((int)sizeof(struct perf_event_attr))	/* 136 on 6.12 */
/* The flag's bit in u64 number 5 of the attr, from the UAPI bitfield. */
static int persistent_bit;

#define MAX_SHOWN	25

static uint64_t rng;

static uint64_t rnd(void)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1DULL;
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static bool chance(int percent)
{
	return (int)below(100) < percent;
}

/* What the kernel told us */
static int ptype, pid_self, nr_cpus;
static long long mce_id;
static size_t bufsize;
static long page;
static unsigned char ref_attr[ATTR_KSIZE];	/* mce_record's attr, written back */

/* Helper descriptors, open for the whole run */
static int h_persist = -1, h_sw = -1, h_null = -1, h_closed = -1;

/* Memory for attrs and bad pointers */
static unsigned char *area;	/* 4 pages: RW, RW, RO, NONE */
#define RO_PAGE		(area + 2 * page)
#define NONE_PAGE	(area + 3 * page)

/* Results */
static unsigned long iterations, unexpected, notes, opened, opened_persistent;
static unsigned long calls, fails;
static unsigned long errno_seen[200];
static unsigned long writeback_checked;

static void seen(int err)
{
	if (err > 0 && err < 200)
		errno_seen[err]++;
}

typedef unsigned __int128 eset;
#define BIT(e) ((eset)1 << (e))
/* Errnos documented for each kind of call */
static const eset open_persistent_ok =	/* persistent.rst + attr copy */
	BIT(ENOENT) | BIT(EINVAL) | BIT(ENODEV) | BIT(EACCES) | BIT(E2BIG) |
	BIT(EFAULT) | BIT(EMFILE);
static const eset open_generic_ok =		/* perf_event_open(2) */
	BIT(E2BIG) | BIT(EACCES) | BIT(EBADF) | BIT(EBUSY) | BIT(EFAULT) |
	BIT(EINTR) | BIT(EINVAL) | BIT(EMFILE) | BIT(ENODEV) | BIT(ENOENT) |
	BIT(ENOSPC) | BIT(ENOSYS) | BIT(EOPNOTSUPP) | BIT(EOVERFLOW) |
	BIT(EPERM) | BIT(ESRCH);
static const eset ioctl_generic_ok =	/* ioctl(2), perf_event_open(2) */
	BIT(EBADF) | BIT(EFAULT) | BIT(EINVAL) | BIT(ENOTTY) | BIT(EACCES) |
	BIT(EPERM) | BIT(EOPNOTSUPP) | BIT(ENOENT) | BIT(ENOSPC) | BIT(E2BIG) |
	BIT(EBUSY) | BIT(ENODEV);
static const eset mmap_generic_ok =		/* mmap(2) */
	BIT(EACCES) | BIT(EINVAL) | BIT(ENOMEM) | BIT(EPERM) | BIT(EOVERFLOW) |
	BIT(ENODEV) | BIT(EBUSY) | BIT(EAGAIN);
static const eset read_generic_ok =		/* read(2), perf_event_open(2) */
	BIT(ENOSPC) | BIT(EFAULT) | BIT(EINVAL) | BIT(EAGAIN) | BIT(EINTR);

/* The call being made, for reports */
struct call {
	unsigned char *attr;	/* where the attr is */
	int asize;		/* bytes of it we wrote (for the dump) */
	int placement;		/* 0 normal, 1 read-only page, 2 across NONE, 3 NULL */
	pid_t pid;
	int cpu, group_fd;
	const char *group_kind;
	unsigned long flags;
};

static void dump_call(const struct call *c)
{
	struct perf_event_attr a;
	int i, n;

	printf("  perf_event_open(attr %s, pid %d, cpu %d, group_fd %d (%s), flags %#lx)\n",
	       (const char *[]){"rw", "read-only page", "before a PROT_NONE page", "NULL"}[c->placement],
	       c->pid, c->cpu, c->group_fd, c->group_kind, c->flags);
	if (c->placement == 3)
		return;
	memset(&a, 0, sizeof(a));
	n = c->asize < ATTR_KSIZE ? c->asize : ATTR_KSIZE;
	memcpy(&a, c->attr, n);
	printf("  attr: size %u type %u config %#llx sample_period %#llx sample_type %#llx "
	       "read_format %#llx flags %#llx (persistent %d)\n",
	       a.size, a.type, (unsigned long long)a.config,
	       (unsigned long long)a.sample_period, (unsigned long long)a.sample_type,
	       (unsigned long long)a.read_format,
	       (unsigned long long)((uint64_t *)&a)[5], (int)a.persistent);
	printf("  attr bytes (%d):", c->asize);
	for (i = 0; i < c->asize && i < 160; i++)
		printf("%s%02x", i % 32 ? (i % 8 ? "" : " ") : "\n   ", c->attr[i]);
	printf("\n");
}

static const struct call *cur;

/* Print one "fuzz: <tag>" line with the current call, if any. */
static void vsay(const char *tag, const char *what, const char *fmt, va_list ap)
{
	printf("fuzz: %s (iteration %lu)%s%s: ", tag, iterations, what ? " " : "",
	       what ? what : "");
	vprintf(fmt, ap);
	printf("\n");
	if (cur)
		dump_call(cur);
	fflush(stdout);
}

static void report(const char *what, const char *fmt, ...)
{
	va_list ap;

	if (++unexpected > MAX_SHOWN)
		return;
	va_start(ap, fmt);
	vsay("UNEXPECTED", what, fmt, ap);
	va_end(ap);
}

static void note(const char *fmt, ...)
{
	va_list ap;

	if (++notes > 3)
		return;
	va_start(ap, fmt);
	vsay("note", NULL, fmt, ap);
	va_end(ap);
}

static const char *ename(int e)
{
	static char buf[24];
	static const char *names[] = {
		[EPERM] = "EPERM", [ENOENT] = "ENOENT", [ESRCH] = "ESRCH",
		[EINTR] = "EINTR", [EIO] = "EIO", [E2BIG] = "E2BIG",
		[EBADF] = "EBADF", [EAGAIN] = "EAGAIN", [ENOMEM] = "ENOMEM",
		[EACCES] = "EACCES", [EFAULT] = "EFAULT", [EBUSY] = "EBUSY",
		[EEXIST] = "EEXIST", [ENODEV] = "ENODEV", [EINVAL] = "EINVAL",
		[ENFILE] = "ENFILE", [EMFILE] = "EMFILE", [ENOTTY] = "ENOTTY",
		[ENOSPC] = "ENOSPC", [ESPIPE] = "ESPIPE", [ERANGE] = "ERANGE",
		[ENOSYS] = "ENOSYS", [EOVERFLOW] = "EOVERFLOW",
		[EOPNOTSUPP] = "EOPNOTSUPP",
	};

	if (e == 0)
		return "success";
	if (e > 0 && e < (int)(sizeof(names) / sizeof(names[0])) && names[e])
		return names[e];
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

/* A call failed with @err (0: succeeded); check it against @allowed. */
static void check_errno(const char *what, int err, eset allowed)
{
	calls++;
	if (!err)
		return;
	fails++;
	seen(err);
	if (err >= 128 || !(allowed & BIT(err)))
		report(what, "%s is not a documented error", ename(err));
}

/* @err must be exactly @want */
static void check_exact(const char *what, int err, int want)
{
	if (err != want)
		report(what, "got %s, the documentation says %s", ename(err), ename(want));
}

/* Online and within the CPUs the fuzzer knows */
static bool cpu_usable(int cpu)
{
	return cpu < nr_cpus && cpu_online(cpu);
}

/* Random values with a bias to interesting ones */
static uint64_t rnd_u64(void)
{
	switch (below(8)) {
	case 0: return 0;
	case 1: return 1;
	case 2: return ~0ULL;
	case 3: return 1ULL << below(64);
	case 4: return below(256);
	case 5: return (uint64_t)INT32_MAX + below(3);
	default: return rnd();
	}
}

/* Fields other than the naming ones: @valid keeps them acceptable to
 * perf_copy_attr() (which the documentation says ignores them). */
static void fill_other_fields(struct perf_event_attr *a, bool valid)
{
	uint64_t *w = (uint64_t *)a;

	if (chance(30))
		return;	/* all zero */
	a->sample_period = rnd_u64();
	if (valid) {
		a->sample_type = rnd() & (PERF_SAMPLE_MAX - 1) &
			~(PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |
			  PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_INTR |
			  PERF_SAMPLE_WEIGHT_STRUCT);
		a->read_format = rnd() & (PERF_FORMAT_MAX - 1);
		w[5] = rnd() & ((1ULL << 37) - 1);	/* up to sigtrap, excluded */
		if (!a->inherit)
			a->inherit_thread = 0;
		if (a->enable_on_exec)
			a->remove_on_exec = 0;
	} else {
		a->sample_type = chance(50) ? rnd_u64() : rnd() & (PERF_SAMPLE_MAX - 1);
		a->read_format = chance(50) ? rnd_u64() : rnd() & (PERF_FORMAT_MAX - 1);
		w[5] = chance(50) ? rnd() : rnd() & ((1ULL << 39) - 1);
	}
	a->wakeup_events = rnd_u64();
	a->bp_type = below(8);
	a->config1 = rnd_u64();
	a->config2 = rnd_u64();
	a->branch_sample_type = valid ? 0 : rnd_u64();
	a->sample_regs_user = valid ? 0 : rnd_u64();
	a->sample_stack_user = valid ? 0 : rnd_u64();
	a->clockid = chance(50) ? (int)below(16) - 1 : (int)rnd();
	a->sample_regs_intr = valid ? 0 : rnd_u64();
	a->aux_watermark = rnd_u64();
	a->sample_max_stack = chance(50) ? below(200) : rnd();
	if (!valid) {
		a->__reserved_2 = chance(80) ? 0 : rnd();
		a->__reserved_3 = chance(80) ? 0 : rnd();
	}
	a->aux_sample_size = rnd_u64();
	a->sig_data = rnd_u64();
}

/*
 * Build the attr at c->attr; returns the prediction for a persistent call
 * (errno, 0 for success, -1 when unknown).
 */
static int make_attr(unsigned char *buf, int *size_out,
		     bool *valid_other)
{
	struct perf_event_attr *a = (struct perf_event_attr *)buf;
	uint64_t *w = (uint64_t *)buf;
	int size, k;

	memset(buf, 0, 2 * page);
	/* half the attrs only name the event, as an attach must */
	*valid_other = chance(50);
	if (chance(50))
		fill_other_fields(a, *valid_other);

	/* type */
	k = below(100);
	if (k < 65)
		a->type = ptype;
	else if (k < 72)
		a->type = PERF_TYPE_TRACEPOINT;
	else if (k < 78)
		a->type = PERF_TYPE_SOFTWARE;
	else if (k < 82)
		a->type = ptype + 1;
	else if (k < 90)
		a->type = below(ptype + 4);
	else
		a->type = rnd();

	/* config */
	k = below(100);
	if (k < 60)
		a->config = mce_id;
	else if (k < 70)
		a->config = 0;
	else if (k < 75)
		a->config = mce_id + 1;
	else if (k < 80)
		a->config = (uint64_t)INT32_MAX + 1 + below(2);
	else if (k < 85)
		a->config = (uint64_t)mce_id | (1ULL << (32 + below(32)));
	else
		a->config = rnd_u64();

	/* persistent bit */
	if (chance(80))
		w[5] |= 1ULL << persistent_bit;
	else
		w[5] &= ~(1ULL << persistent_bit);
	if (chance(10))
		w[5] |= 1ULL << (39 + below(25));	/* reserved */

	/* size */
	k = below(100);
	if (k < 35)
		size = ATTR_KSIZE;
	else if (k < 45)
		size = 0;
	else if (k < 55)
		size = 1 + below(PERF_ATTR_SIZE_VER0 - 1);
	else if (k < 70)
		size = (int[]){64, 72, 80, 96, 104, 112, 120}[below(7)];
	else if (k < 80)
		size = ATTR_KSIZE + 1 + below(page - ATTR_KSIZE - 1);	/* zero tail */
	else if (k < 90) {
		size = ATTR_KSIZE + 1 + below(page - ATTR_KSIZE - 1);	/* non-zero tail */
		buf[ATTR_KSIZE + below(size - ATTR_KSIZE)] = 1 + below(255);
	} else if (k < 95)
		size = page + 1 + below(page);
	else
		size = below(1U << 31) + (chance(50) ? 0 : 0x80000000U);
	a->size = size;
	*size_out = size;
	/* bytes before size: the wiped fields a short attr leaves out are
	 * zero anyway, the copy only looks at the first @size bytes */
	return 0;
}

/* Expected result of a persistent attach (attr.persistent set), or -1 */
static int predict_persistent(const struct call *c, const unsigned char *buf)
{
	const struct perf_event_attr *a = (const void *)buf;
	const uint64_t *w = (const uint64_t *)buf;
	uint32_t size = a->size;
	int i;

	if (c->flags & ~(PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT |
			 PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC))
		return EINVAL;
	if (c->placement == 3)
		return EFAULT;
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > (uint32_t)page)
		return E2BIG;
	if (c->placement == 2 && size > (uint32_t)(NONE_PAGE - c->attr))
		return -1;	/* EFAULT or E2BIG, depending on where */
	for (i = ATTR_KSIZE; i < (int)size; i++)
		if (buf[i])
			return E2BIG;
	/* the copy sees only @size bytes */
	if (size < (uint32_t)ATTR_KSIZE) {
		/* persistent bit is in the flags word at 40..47: always in */
	}
	if (!((w[5] >> persistent_bit) & 1))
		return -1;
	/* the attr only names the event: any other bit set is EINVAL */
	for (i = 16; i < (int)size && i < ATTR_KSIZE; i++) {
		unsigned char byte = buf[i];

		if (i == 40 + persistent_bit / 8)
			byte &= ~(1U << (persistent_bit % 8));
		if (byte)
			return EINVAL;
	}
	if (a->type != (uint32_t)ptype)
		return EINVAL;
	if (c->pid != -1 || c->group_fd != -1 || (c->flags & ~PERF_FLAG_FD_CLOEXEC))
		return EINVAL;
	if (c->cpu < 0)
		return EINVAL;
	if (a->config != (uint64_t)mce_id)
		return ENOENT;	/* only one persistent event on this kernel */
	if (!cpu_usable(c->cpu))
		return ENODEV;
	if (c->placement == 1 || c->placement == 2)
		return EFAULT;	/* the attr is written back to a read-only page */
	return 0;
}

static void check_writeback(const struct call *c, const unsigned char *before,
			    int size_in)
{
	const unsigned char *buf = c->attr;
	uint32_t size = size_in ? size_in : PERF_ATTR_SIZE_VER0;
	uint32_t n = size < (uint32_t)ATTR_KSIZE ? size : ATTR_KSIZE, got;
	uint32_t i;

	writeback_checked++;
	memcpy(&got, buf + 4, 4);
	if (got != n)
		report("attach", "attr.size written back is %u, expected %u", got, n);
	for (i = 0; i < n; i++) {
		if (i >= 4 && i < 8)
			continue;
		if (buf[i] != ref_attr[i]) {
			report("attach", "attr byte %u written back is %#x, the first attach got %#x",
			       i, buf[i], ref_attr[i]);
			break;
		}
	}
	for (i = n; i < 2 * (uint32_t)page; i++) {
		if (buf[i] != before[i]) {
			report("attach", "byte %u past the written-back attr changed", i);
			break;
		}
	}
}

/* ioctls */
static unsigned long rnd_ioctl_cmd(void)
{
	static const unsigned long cmds[] = {
		PERF_EVENT_IOC_ENABLE, PERF_EVENT_IOC_DISABLE,
		PERF_EVENT_IOC_REFRESH, PERF_EVENT_IOC_RESET,
		PERF_EVENT_IOC_PERIOD, PERF_EVENT_IOC_SET_OUTPUT,
		PERF_EVENT_IOC_SET_FILTER, PERF_EVENT_IOC_ID,
		PERF_EVENT_IOC_SET_BPF, PERF_EVENT_IOC_PAUSE_OUTPUT,
		PERF_EVENT_IOC_QUERY_BPF, PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
		PERF_EVENT_IOC_PERSISTENT_READ,
	};
	unsigned long cmd;

	if (chance(85))
		return cmds[below(sizeof(cmds) / sizeof(cmds[0]))];
	/* perf's ioctl type with other numbers/sizes, or anything not
	 * handled by the VFS itself ('T' FIO*, 'X', 'f', 0x94 are) */
	do {
		cmd = chance(50) ? _IOC(below(4), '$', below(32), below(256)) : (uint32_t)rnd();
	} while (((cmd >> 8) & 0xff) == 'T' || ((cmd >> 8) & 0xff) == 'X' ||
		 ((cmd >> 8) & 0xff) == 'f' || ((cmd >> 8) & 0xff) == 0x94 ||
		 cmd == 1 || cmd == 2);	/* FIBMAP, FIGETBSZ */
	return cmd;
}

static unsigned long rnd_ioctl_arg(unsigned long cmd, int *kind)
{
	static char filter[64];

	*kind = below(6);
	switch (*kind) {
	case 0: return 0;
	case 1: return (unsigned long)area;			/* valid memory */
	case 2: return (unsigned long)NONE_PAGE;
	case 3: return h_persist;
	case 4:
		if (cmd == PERF_EVENT_IOC_SET_FILTER) {
			snprintf(filter, sizeof(filter), "%s", chance(50) ?
				 "bank == 1" : "addr > 0x1000 && (");
			return (unsigned long)filter;
		}
		return h_sw;
	default: return rnd_u64();
	}
}

static void exercise_ioctl(int fd, bool persistent)
{
	unsigned long cmd = rnd_ioctl_cmd();
	int kind, err;
	unsigned long arg = rnd_ioctl_arg(cmd, &kind);

	if (cmd == PERF_EVENT_IOC_SET_OUTPUT && kind == 1)
		arg = h_persist;
	err = ioctl(fd, cmd, arg) ? errno : 0;
	if (persistent) {
		if (cmd == PERF_EVENT_IOC_ID)
			check_exact("ioctl(ID) on a persistent event", err,
				    kind == 1 ? 0 : EFAULT);
		else if (cmd == PERF_EVENT_IOC_PERSISTENT_READ)
			check_exact("ioctl(PERSISTENT_READ) on a persistent event",
				    err, kind == 1 ? 0 : EFAULT);
		else if (((cmd >> 8) & 0xff) != '$') {
			/* not a perf ioctl: persistent.rst says ENOTTY */
			check_exact("non-perf ioctl on a persistent event", err, ENOTTY);
			if (err != ENOTTY)
				printf("  ioctl cmd %#lx arg %#lx\n", cmd, arg);
		} else {
			/* every other perf ioctl, QUERY_BPF included: EACCES */
			check_exact("changing ioctl on a persistent event", err, EACCES);
			if (err != EACCES)
				printf("  ioctl cmd %#lx arg %#lx\n", cmd, arg);
		}
		calls++;
		if (err) {
			fails++;
			seen(err);
		}
		return;
	}
	check_errno("ioctl", err, ioctl_generic_ok);
	/* a reader fd is not a perf event fd to SET_OUTPUT: EBADF */
	if (cmd == PERF_EVENT_IOC_SET_OUTPUT && fd != h_persist &&
	    arg == (unsigned long)h_persist && err != EBADF)
		report("ioctl(SET_OUTPUT) into a persistent buffer", "got %s, expected EBADF",
		       ename(err));
}

static void exercise_mmap(int fd, bool persistent)
{
	static const int prots[] = {
		PROT_READ, PROT_READ | PROT_WRITE, PROT_WRITE, PROT_NONE,
		PROT_READ | PROT_EXEC, PROT_READ | PROT_WRITE | PROT_EXEC,
	};
	size_t exact = bufsize + page, len;
	int prot, flags, k, err, want = -1;
	off_t off = 0;
	void *p;

	k = below(100);
	if (k < 40)
		len = exact;
	else if (k < 50)
		len = exact - below(page);	/* rounds up to exact */
	else if (k < 60)
		len = page;
	else if (k < 65)
		len = 0;
	else if (k < 70)
		len = bufsize;
	else if (k < 75)
		len = exact + page;
	else if (k < 80)
		len = 2 * bufsize + page;
	else if (k < 85)
		len = (1 + (1 << below(8))) * page;
	else if (k < 90)
		len = rnd() & ((1ULL << 40) - 1);
	else
		len = rnd();
	prot = chance(50) ? PROT_READ : prots[below(6)];
	flags = chance(75) ? MAP_SHARED : MAP_PRIVATE;
	if (chance(15))
		off = chance(50) ? page * (off_t)(1 + below(4)) : (off_t)rnd_u64();

	p = mmap(NULL, len, prot, flags, fd, off);
	err = p == MAP_FAILED ? errno : 0;
	check_errno("mmap", err, mmap_generic_ok);

	if (persistent && off == 0 && len > 0 && len < (1ULL << 28) &&
	    !(prot & PROT_EXEC)) {
		size_t rlen = (len + page - 1) & ~(size_t)(page - 1);

		if (flags == MAP_SHARED && (prot & PROT_WRITE))
			want = EACCES;
		else if (flags == MAP_PRIVATE && (prot & PROT_WRITE))
			want = EACCES;
		else if (rlen != exact)
			want = EINVAL;
		else if (flags == MAP_PRIVATE)
			want = EINVAL;
		else if (rlen == exact && (prot & PROT_READ))
			want = 0;
		if (want >= 0 && err != want)
			report("mmap of a persistent buffer",
			       "len %zu prot %#x flags %#x offset 0: got %s, documented %s",
			       len, prot, flags, ename(err), ename(want));
	}
	if (persistent && off != 0 && !err)
		report("mmap of a persistent buffer", "offset %#llx succeeded",
		       (unsigned long long)off);
	if (err)
		return;
	if (persistent) {
		struct perf_event_mmap_page *pg = p;

		if (len >= exact && (prot & PROT_READ) &&
		    (pg->data_size != bufsize || pg->data_offset != (uint64_t)page))
			report("mmap of a persistent buffer",
			       "control page data_offset %llu data_size %llu",
			       (unsigned long long)pg->data_offset,
			       (unsigned long long)pg->data_size);
		err = mprotect(p, len, PROT_READ | PROT_WRITE) ? errno : 0;
		if (err != EACCES)
			report("mprotect(PROT_WRITE) of a persistent buffer",
			       "got %s, documented EACCES", ename(err));
		calls++;
		fails += !!err;
		seen(err);
	}
	munmap(p, len);
}

static void exercise_read(int fd, bool persistent)
{
	static const size_t sizes[] = { 0, 1, 7, 8, 16, 4096 };
	size_t n = sizes[below(6)];
	void *dst = chance(85) ? (void *)area : chance(50) ? NULL : (void *)NONE_PAGE;
	ssize_t r;
	int err;

	if (n > (size_t)page)
		n = page;
	r = read(fd, dst, n);
	err = r < 0 ? errno : 0;
	check_errno("read", err, read_generic_ok);
	if (persistent) {
		int want = n < 8 ? ENOSPC : dst == (void *)area ? 0 : EFAULT;

		if (err != want)
			report("read of a persistent event", "%zu bytes: got %s, expected %s",
			       n, ename(err), ename(want));
		else if (!err && r != 8)
			report("read of a persistent event", "returned %zd, expected 8", r);
	}
}

static void exercise(int fd, bool persistent)
{
	int i, n = 1 + below(4);

	for (i = 0; i < n; i++) {
		switch (below(3)) {
		case 0: exercise_ioctl(fd, persistent); break;
		case 1: exercise_mmap(fd, persistent); break;
		default: exercise_read(fd, persistent); break;
		}
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void on_signal(int sig)
{
	(void)sig;
}

static void one_iteration(void)
{
	unsigned char before[2 * 4096 + 512];
	unsigned char *buf;
	struct call c;
	bool valid_other;
	int size, want, err, fd, k;
	long r;

	memset(&c, 0, sizeof(c));
	/* where the attr lives */
	k = below(100);
	if (k < 88) {
		c.placement = 0;
		c.attr = area;
	} else if (k < 93) {
		c.placement = 1;
		c.attr = RO_PAGE;
	} else if (k < 98) {
		c.placement = 2;
		c.attr = NONE_PAGE - 8 * (1 + below(24));
	} else {
		c.placement = 3;
		c.attr = NULL;
	}
	/* build it in the RW page, then copy it where it goes */
	buf = malloc(2 * page);
	if (!buf)
		exit(1);
	make_attr(buf, &size, &valid_other);

	/* pid, cpu, group_fd, flags */
	k = below(100);
	c.pid = k < 65 ? -1 : k < 75 ? 0 : k < 80 ? pid_self : k < 85 ? 1 :
		k < 90 ? (pid_t)rnd() : k < 95 ? -2 : INT32_MIN;
	k = below(100);
	c.cpu = k < 40 ? 0 : k < 60 ? 1 : k < 70 ? -1 : k < 78 ? nr_cpus :
		k < 85 ? (int)below(nr_cpus + 2) : k < 92 ? INT32_MIN : (int)rnd();
	k = below(100);
	if (k < 65) {
		c.group_fd = -1; c.group_kind = "none";
	} else if (k < 73) {
		c.group_fd = h_persist; c.group_kind = "persistent event";
	} else if (k < 81) {
		c.group_fd = h_sw; c.group_kind = "software event";
	} else if (k < 87) {
		c.group_fd = h_null; c.group_kind = "/dev/null";
	} else if (k < 93) {
		c.group_fd = h_closed; c.group_kind = "closed fd";
	} else {
		c.group_fd = (int)rnd(); c.group_kind = "random";
	}
	k = below(100);
	c.flags = k < 55 ? 0 : k < 80 ? PERF_FLAG_FD_CLOEXEC :
		  k < 95 ? below(16) : rnd_u64();
	if (chance(15)) {
		/* a well-formed attach: the naming fields are all valid */
		struct perf_event_attr *a = (struct perf_event_attr *)buf;

		c.placement = 0;
		c.attr = area;
		a->type = ptype;
		a->config = mce_id;
		a->persistent = 1;
		if (size < 0 || size > ATTR_KSIZE) {
			memset(buf + ATTR_KSIZE, 0, 2 * page - ATTR_KSIZE);
			size = a->size = ATTR_KSIZE;
		} else if (size && size < PERF_ATTR_SIZE_VER0) {
			size = a->size = PERF_ATTR_SIZE_VER0;
		}
		c.pid = -1;
		c.group_fd = -1;
		c.group_kind = "none";
		c.cpu = below(nr_cpus);
		c.flags = chance(50) ? 0 : PERF_FLAG_FD_CLOEXEC;
	}
	c.asize = size > 0 && size <= 2 * page ? size : ATTR_KSIZE;
	if (c.asize < ATTR_KSIZE)
		c.asize = ATTR_KSIZE;

	/* place it */
	if (c.placement == 0) {
		memcpy(area, buf, 2 * page);
		memcpy(before, area, 2 * page);
	} else if (c.placement == 1) {
		mprotect(RO_PAGE, page, PROT_READ | PROT_WRITE);
		memcpy(RO_PAGE, buf, page);
		mprotect(RO_PAGE, page, PROT_READ);
	} else if (c.placement == 2) {
		size_t room = NONE_PAGE - c.attr;

		mprotect(RO_PAGE, page, PROT_READ | PROT_WRITE);
		memcpy(c.attr, buf, room);
		mprotect(RO_PAGE, page, PROT_READ);
		if (c.asize > (int)room)
			c.asize = room;
	}

	want = ((uint64_t *)buf)[5] >> persistent_bit & 1 ?
		predict_persistent(&c, buf) : -1;
	cur = &c;
	r = sys_perf_event_open(c.attr, c.pid, c.cpu, c.group_fd, c.flags);
	err = r < 0 ? errno : 0;
	fd = r < 0 ? -1 : (int)r;

	if (((uint64_t *)buf)[5] >> persistent_bit & 1) {
		int asz = ((struct perf_event_attr *)buf)->size;

		check_errno("perf_event_open with the persistent bit", err,
			    open_persistent_ok);
		if (want >= 0 && err != want)
			report("perf_event_open with the persistent bit",
			       "got %s, expected %s", ename(err), ename(want));
		if (!err && c.placement == 0)
			check_writeback(&c, before, asz);
		if (err == E2BIG && c.placement == 0) {
			uint32_t got;

			memcpy(&got, c.attr + 4, 4);
			if (got != (uint32_t)ATTR_KSIZE)
				report("perf_event_open E2BIG", "attr.size written back is %u, expected %d",
				       got, ATTR_KSIZE);
		}
	} else {
		eset allowed = open_generic_ok;

		if (c.group_fd == h_persist && err != EBADF) {
			/* a persistent event is never a group leader */
			allowed = BIT(EINVAL) | BIT(E2BIG) | BIT(EFAULT);
			if (!err)
				report("perf_event_open with a persistent group leader",
				       "succeeded");
		}
		check_errno("perf_event_open", err, allowed);
		if (c.placement == 0 && c.flags == 0 && c.pid == -1 && c.group_fd == -1 &&
		    cpu_usable(c.cpu) && ((struct perf_event_attr *)buf)->type == (uint32_t)ptype &&
		    err != EINVAL && err != E2BIG)
			note("persistent PMU type without the persistent bit: got %s "
			     "(documented EINVAL)", ename(err));
	}
	cur = NULL;
	if (fd >= 0) {
		bool persistent = ((uint64_t *)buf)[5] >> persistent_bit & 1;

		opened++;
		opened_persistent += persistent;
		/* an fd we got must work */
		if (persistent) {
			uint64_t id;

			if (ioctl(fd, PERF_EVENT_IOC_ID, &id))
				report("ioctl(ID) on a fresh persistent fd", "%s", ename(errno));
		}
		exercise(fd, persistent);
		if (close(fd))
			report("close", "%s", ename(errno));
	} else if (chance(20)) {
		exercise(chance(50) ? h_persist : h_sw, false);
	} else if (chance(25)) {
		exercise(h_persist, true);
	}
	free(buf);
}

int main(int argc, char **argv)
{
	unsigned long max_iter = 100000;
	double limit = 0, t0;
	uint64_t seed = 0;
	bool have_seed = false;
	struct perf_event_attr sw;
	char buf[128];
	int opt, i, k;

	{
		struct perf_event_attr a = { .persistent = 1 };
		uint64_t w5;

		memcpy(&w5, (char *)&a + 5 * sizeof(w5), sizeof(w5));
		persistent_bit = __builtin_ctzll(w5);
	}
	while ((opt = getopt(argc, argv, "s:n:t:")) != -1) {
		switch (opt) {
		case 's': seed = strtoull(optarg, NULL, 0); have_seed = true; break;
		case 'n': max_iter = strtoul(optarg, NULL, 0); break;
		case 't': limit = atof(optarg); break;
		default:
			fprintf(stderr, "usage: fuzz [-s SEED] [-n ITERATIONS] [-t SECONDS]\n");
			return 2;
		}
	}
	if (!have_seed) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		seed = (uint64_t)ts.tv_sec * 1000003 ^ ts.tv_nsec ^ getpid();
	}
	rng = seed ? seed : 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("fuzz: seed %llu (rerun with -s %llu)\n", (unsigned long long)seed,
	       (unsigned long long)seed);

	page = sysconf(_SC_PAGESIZE);
	nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	pid_self = getpid();
	ptype = read_num(PMU_DIR "/type");
	if (ptype < 0 || read_text(PMU_DIR "/events/" EVENT, buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "persistent,config=%lld", &mce_id) != 1) {
		printf("fuzz: SKIP: no persistent %s event\n", EVENT);
		return KSFT_SKIP;
	}
	bufsize = read_num(PMU_DIR "/info/" EVENT ".buffer_size");
	/* the event's attr, as attaching writes it back */
	memset(ref_attr, 0, sizeof(ref_attr));
	((struct perf_event_attr *)ref_attr)->size = sizeof(ref_attr);
	((struct perf_event_attr *)ref_attr)->type = ptype;
	((struct perf_event_attr *)ref_attr)->config = mce_id;
	((struct perf_event_attr *)ref_attr)->persistent = 1;
	k = sys_perf_event_open(ref_attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (k < 0) {
		printf("fuzz: cannot attach to %s: %s\n", EVENT, strerror(errno));
		return 1;
	}
	close(k);

	signal(SIGTRAP, on_signal);
	signal(SIGIO, on_signal);
	signal(SIGPROF, on_signal);
	signal(SIGPIPE, SIG_IGN);

	area = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		return 1;
	mprotect(RO_PAGE, page, PROT_READ);
	mprotect(NONE_PAGE, page, PROT_NONE);

	h_persist = open_persistent(ptype, mce_id, 0);
	memset(&sw, 0, sizeof(sw));
	sw.size = sizeof(sw);
	sw.type = PERF_TYPE_SOFTWARE;
	sw.config = PERF_COUNT_SW_DUMMY;
	sw.exclude_kernel = 1;
	h_sw = sys_perf_event_open(&sw, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	h_null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	h_closed = open("/dev/null", O_RDONLY);
	close(h_closed);
	if (h_persist < 0 || h_sw < 0 || h_null < 0) {
		printf("fuzz: cannot open the helper descriptors: %s\n", strerror(errno));
		return 1;
	}

	t0 = now();
	for (iterations = 0; iterations < max_iter; iterations++) {
		if (limit > 0 && (iterations & 63) == 0 && now() - t0 >= limit)
			break;
		one_iteration();
	}

	/* the helpers still work */
	{
		uint64_t id, count;

		if (ioctl(h_persist, PERF_EVENT_IOC_ID, &id) ||
		    read(h_persist, &count, 8) != 8)
			report("helper persistent fd", "stopped working: %s", ename(errno));
	}
	close(h_persist);
	close(h_sw);
	close(h_null);

	printf("fuzz: %.0f s, calls %lu (failed %lu), fds opened %lu (persistent %lu), "
	       "write-backs checked %lu, notes %lu\n", now() - t0, calls, fails, opened,
	       opened_persistent, writeback_checked, notes);
	k = 0;
	buf[0] = 0;
	for (i = 1; i < 200; i++)
		if (errno_seen[i])
			k++;
	printf("fuzz: seed %llu, iterations %lu, distinct errnos %d (", (unsigned long long)seed,
	       iterations, k);
	for (i = 1, opt = 0; i < 200; i++)
		if (errno_seen[i])
			printf("%s%s", opt++ ? " " : "", ename(i));
	printf("), unexpected %lu\n", unexpected);
	return unexpected ? 1 : 0;
}
