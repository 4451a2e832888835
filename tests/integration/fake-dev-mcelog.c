/* SPDX-License-Identifier: MIT */
/*
 * LD_PRELOAD shim for tests/integration/dev-mcelog.sh: a /dev/mcelog for
 * kernels without one (Debian's).  Opening FAKE_DEV_MCELOG_PATH gives an
 * eventfd (so poll works) that answers the device's ioctls and, on its first
 * read, the bytes of $FAKE_DEV_MCELOG_RECORDS (records of
 * $FAKE_DEV_MCELOG_RECORD_LEN bytes); $FAKE_DEV_MCELOG_OVERFLOW=1 sets the
 * overflow flag once.  With $FAKE_DEV_MCELOG_BATCH_MS=N the device is a
 * timer instead: the first read finds it empty, then every N ms a read
 * returns the next LOG_LEN records of the file, as a kernel would that logs
 * a burst faster than the reader takes it.  The kernel side it imitates:
 * arch/x86/kernel/cpu/mce/dev-mcelog.c (full-buffer reads, ioctls).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/timerfd.h>
#include <unistd.h>

#define MCE_GET_RECORD_LEN _IOR('M', 1, int)
#define MCE_GET_LOG_LEN    _IOR('M', 2, int)
#define MCE_GETCLEAR_FLAGS _IOR('M', 3, int)
#define LOG_LEN 32

static int fake_fd = -1;
static int served, overflow_given;
static long batch_offset;   /* with FAKE_DEV_MCELOG_BATCH_MS: bytes of the file served so far */

static int fake_open(const char *path, int flags)
{
	const char *want = getenv("FAKE_DEV_MCELOG_PATH");

	if (!want || strcmp(path, want) != 0)
		return -2;
	if (fake_fd >= 0 && (flags & O_EXCL)) {
		errno = EBUSY;
		return -1;
	}
	if (getenv("FAKE_DEV_MCELOG_BATCH_MS")) {
		long ms = atol(getenv("FAKE_DEV_MCELOG_BATCH_MS"));
		struct itimerspec every = {
			.it_interval = { .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000 },
			.it_value = { .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000 },
		};

		fake_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
		if (fake_fd >= 0)
			(void) timerfd_settime(fake_fd, 0, &every, NULL);
		return fake_fd;
	}
	fake_fd = eventfd(1, EFD_NONBLOCK | EFD_CLOEXEC);
	return fake_fd;
}

#define OPEN_WRAPPER(name)                                                      \
	int name(const char *path, int flags, ...);                             \
	int name(const char *path, int flags, ...)                              \
	{                                                                        \
		static int (*real)(const char *, int, ...);                      \
		mode_t mode = 0;                                                 \
		int r = fake_open(path, flags);                                  \
		if (r != -2)                                                     \
			return r;                                                \
		if (flags & (O_CREAT | O_TMPFILE)) {                             \
			va_list ap;                                              \
			va_start(ap, flags);                                     \
			mode = va_arg(ap, mode_t);                               \
			va_end(ap);                                              \
		}                                                                \
		if (!real)                                                       \
			real = (int (*)(const char *, int, ...)) dlsym(RTLD_NEXT, #name); \
		return real(path, flags, mode);                                  \
	}
OPEN_WRAPPER(open)
OPEN_WRAPPER(open64)

int ioctl(int fd, unsigned long req, ...);
int ioctl(int fd, unsigned long req, ...)
{
	static int (*real)(int, unsigned long, ...);
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (fd >= 0 && fd == fake_fd) {
		int *v = arg;
		const char *e;

		switch (req) {
		case MCE_GET_RECORD_LEN:
			e = getenv("FAKE_DEV_MCELOG_RECORD_LEN");
			*v = e ? atoi(e) : 128;
			return 0;
		case MCE_GET_LOG_LEN:
			*v = LOG_LEN;
			return 0;
		case MCE_GETCLEAR_FLAGS:
			e = getenv("FAKE_DEV_MCELOG_OVERFLOW");
			*v = e && strcmp(e, "1") == 0 && !overflow_given++ ? 1 : 0;
			return 0;
		default:
			errno = ENOTTY;
			return -1;
		}
	}
	if (!real)
		real = (int (*)(int, unsigned long, ...)) dlsym(RTLD_NEXT, "ioctl");
	return real(fd, req, arg);
}

ssize_t read(int fd, void *buf, size_t n);
ssize_t read(int fd, void *buf, size_t n)
{
	static ssize_t (*real)(int, void *, size_t);

	if (!real)
		real = (ssize_t (*)(int, void *, size_t)) dlsym(RTLD_NEXT, "read");
	if (fd >= 0 && fd == fake_fd) {
		const char *e = getenv("FAKE_DEV_MCELOG_RECORDS"), *rl = getenv("FAKE_DEV_MCELOG_RECORD_LEN");
		size_t len = (size_t) (rl ? atoi(rl) : 128) * LOG_LEN, got = 0;
		uint64_t counter;
		FILE *f;

		/* the kernel answers only full-buffer reads */
		if (n < len) {
			errno = EINVAL;
			return -1;
		}
		(void) real(fd, &counter, sizeof(counter));   /* not readable until the next record */
		if (getenv("FAKE_DEV_MCELOG_BATCH_MS")) {
			/* The first read is what the kernel held before the reader started: nothing. */
			if (!served++ || !e)
				return 0;
			f = fopen(e, "rb");
			if (!f || fseek(f, batch_offset, SEEK_SET) < 0) {
				if (f)
					fclose(f);
				return 0;
			}
			got = fread(buf, 1, len, f);
			fclose(f);
			batch_offset += (long) got;
			return (ssize_t) got;
		}
		if (served++ || !e)
			return 0;
		f = fopen(e, "rb");
		if (!f)
			return 0;
		got = fread(buf, 1, len, f);
		fclose(f);
		return (ssize_t) got;
	}
	return real(fd, buf, n);
}
