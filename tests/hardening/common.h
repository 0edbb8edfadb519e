/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the hardening tests (stress.c, fuzz.c): sysfs reads,
 * CPU online state, perf_event_open() and attaching to a persistent event.
 */
#ifndef HARDENING_COMMON_H
#define HARDENING_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>

static inline int read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return n;
	buf[n] = 0;
	return n;
}

static inline long long read_num(const char *path)
{
	char buf[128];

	if (read_text(path, buf, sizeof(buf)) <= 0)
		return -1;
	return strtoll(buf, NULL, 0);
}

/* CPU 0, or a CPU whose online file is missing (cannot go offline), is online */
static inline bool cpu_online(int cpu)
{
	char path[96];

	if (cpu < 0)
		return false;
	if (cpu == 0)
		return true;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return read_num(path) != 0;
}

/* attr is a void pointer: the fuzzer passes attrs of any size */
static inline long sys_perf_event_open(void *attr, pid_t pid, int cpu,
				       int group_fd, unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* Attach to persistent event @id of the persistent PMU @type on @cpu */
static inline int open_persistent(int type, int id, int cpu)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = id;
	attr.persistent = 1;
	return sys_perf_event_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

#endif
