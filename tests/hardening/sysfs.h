/* SPDX-License-Identifier: GPL-2.0 */
/* Small sysfs helpers shared by the hardening tests (stress.c, fuzz.c). */
#ifndef HARDENING_SYSFS_H
#define HARDENING_SYSFS_H

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

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

#endif
