/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <systemd/sd-event.h>
#include <unistd.h>

#include "dev-mcelog-record.h"
#include "log.h"
#include "daemon-config.h"
#include "source.h"
#include "sources.h"

#define DEV_MCELOG_PATH "/dev/mcelog"

/* arch/x86/include/uapi/asm/mce.h */
#define MCE_GET_RECORD_LEN _IOR('M', 1, int)
#define MCE_GET_LOG_LEN    _IOR('M', 2, int)
#define MCE_GETCLEAR_FLAGS _IOR('M', 3, int)
/* arch/x86/include/asm/mce.h: the flag bit the kernel sets when its buffer was full */
#define MCE_OVERFLOW 0

/* Sanity bounds on what the ioctls report: a broken driver must not make us allocate gigabytes. */
#define RECORD_LEN_MAX 4096
#define LOG_LEN_MAX    65536

struct dev_mcelog_source {
	const struct source_host *host;
	char *path;
	int fd;
	sd_event_source *io;
	size_t record_len;
	size_t log_len;
	uint8_t *buf;
	bool started;      /* the first read (records from before we started) is done */
};

static void dev_mcelog_close(void *userdata)
{
	struct dev_mcelog_source *s = userdata;

	if (!s)
		return;
	sd_event_source_disable_unref(s->io);
	if (s->fd >= 0)
		close(s->fd);
	free(s->buf);
	free(s->path);
	free(s);
}

static void check_overflow(struct dev_mcelog_source *s)
{
	int flags = 0;

	if (ioctl(s->fd, MCE_GETCLEAR_FLAGS, &flags) < 0) {
		log_debug_errno(negative_errno(), "%s: MCE_GETCLEAR_FLAGS failed: %m", s->path);
		return;
	}
	if (!(flags & (1 << MCE_OVERFLOW)))
		return;
	/* Once we are running with the tracepoint, the device's full buffer lost nothing:
	 * the tracepoint delivered those records.  Before that, the records are gone. */
	if (s->started && source_is_active(s->host, MCE_SOURCE_TRACEPOINT))
		log_debug("%s overflowed; the tracepoint has its records", s->path);
	else
		/* The kernel says only that some were dropped, not how many. */
		source_report_loss(s->host, MCE_SOURCE_DEV_MCELOG, 0, 1);
}

static void dev_mcelog_drain(void *userdata)
{
	struct dev_mcelog_source *s = userdata;
	ssize_t n;

	if (!s)
		return;
	for (;;) {
		n = read(s->fd, s->buf, s->record_len * s->log_len);
		if (n >= 0 || errno != EINTR)
			break;
	}
	if (n < 0) {
		if (errno != EAGAIN)
			log_error_errno(negative_errno(), "Failed to read %s: %m", s->path);
	} else {
		if ((size_t) n % s->record_len != 0)
			log_warning("%s returned %zd bytes, not a multiple of its record length %zu; "
				    "the partial record at the end is skipped", s->path, n, s->record_len);
		for (size_t off = 0; off + s->record_len <= (size_t) n; off += s->record_len) {
			struct mce_record rec;

			if (dev_mcelog_record_parse(s->buf + off, s->record_len, &rec) < 0)
				continue;
			/* The first read holds what the kernel logged before we started. */
			if (s->started)
				(void) source_submit(s->host, &rec);
			else
				(void) source_submit_recovered(s->host, &rec);
		}
	}
	check_overflow(s);
	s->started = true;
}

static int on_readable(sd_event_source *es, int fd, uint32_t revents, void *userdata)
{
	(void) es;
	(void) fd;
	(void) revents;
	dev_mcelog_drain(userdata);
	return 0;
}

static int open_device(const struct source_host *h, const char *path, bool required,
		       struct dev_mcelog_source **ret)
{
	struct dev_mcelog_source *s;
	int rec_len = 0, log_len = 0, r;

	s = calloc(1, sizeof(*s));
	if (!s)
		return log_error_errno(-ENOMEM, "Out of memory");
	s->fd = -1;
	s->host = h;
	s->path = strdup(path ? path : DEV_MCELOG_PATH);
	if (!s->path) {
		dev_mcelog_close(s);
		return log_error_errno(-ENOMEM, "Out of memory");
	}

	s->fd = open(s->path, O_RDONLY | O_EXCL | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (s->fd < 0) {
		r = negative_errno();
		if (r == -ENOENT) {
			if (required)
				log_warning("DevMcelog=yes, but there is no %s (the kernel is built without "
					    "CONFIG_X86_MCELOG_LEGACY)", s->path);
			source_set_state(h, MCE_SOURCE_DEV_MCELOG, SOURCE_UNAVAILABLE,
						 "the kernel has no %s (CONFIG_X86_MCELOG_LEGACY)", s->path);
		} else if (r == -EBUSY) {
			log_warning("%s is already open in another program (mcelog?); not reading it",
				    s->path);
			source_set_state(h, MCE_SOURCE_DEV_MCELOG, SOURCE_UNAVAILABLE,
						 "%s is open in another program (mcelog?)", s->path);
		} else if (r == -EACCES || r == -EPERM) {
			log_warning_errno(r, "Cannot open %s: %m (the service's DeviceAllow= or "
					  "permissions)", s->path);
			source_set_state(h, MCE_SOURCE_DEV_MCELOG, SOURCE_UNAVAILABLE,
						 "no permission to open %s (see DeviceAllow= in mcelogd(8))",
						 s->path);
		} else {
			log_error_errno(r, "Cannot open %s: %m", s->path);
			source_set_state(h, MCE_SOURCE_DEV_MCELOG, SOURCE_UNAVAILABLE,
						 "cannot open %s: %s", s->path, strerror(-r));
		}
		dev_mcelog_close(s);
		return r;
	}
	if (ioctl(s->fd, MCE_GET_RECORD_LEN, &rec_len) < 0 || ioctl(s->fd, MCE_GET_LOG_LEN, &log_len) < 0) {
		r = negative_errno();
		log_warning_errno(r, "%s: cannot ask its record and buffer length: %m (needs "
				  "CAP_SYS_ADMIN)", s->path);
		source_set_state(h, MCE_SOURCE_DEV_MCELOG, SOURCE_UNAVAILABLE,
					 "cannot query %s: %s (needs CAP_SYS_ADMIN)", s->path, strerror(-r));
		dev_mcelog_close(s);
		return r;
	}
	if (rec_len < DEV_MCELOG_RECORD_MIN || rec_len > RECORD_LEN_MAX || log_len <= 0 ||
	    log_len > LOG_LEN_MAX) {
		log_error("%s reports record length %d and buffer length %d; expected %d..%d and 1..%d",
			  s->path, rec_len, log_len, DEV_MCELOG_RECORD_MIN, RECORD_LEN_MAX, LOG_LEN_MAX);
		source_set_state(h, MCE_SOURCE_DEV_MCELOG, SOURCE_UNAVAILABLE,
					 "%s reports an implausible record length %d", s->path, rec_len);
		dev_mcelog_close(s);
		return -EPROTO;
	}
	s->record_len = (size_t) rec_len;
	s->log_len = (size_t) log_len;
	s->buf = malloc(s->record_len * s->log_len);
	if (!s->buf) {
		dev_mcelog_close(s);
		return log_error_errno(-ENOMEM, "Out of memory");
	}
	r = sd_event_add_io(h->event, &s->io, s->fd, EPOLLIN, on_readable, s);
	if (r < 0) {
		log_error_errno(r, "Failed to watch %s: %m", s->path);
		source_set_state(h, MCE_SOURCE_DEV_MCELOG, SOURCE_UNAVAILABLE,
					 "cannot watch %s: %s", s->path, strerror(-r));
		dev_mcelog_close(s);
		return r;
	}
	source_set_state(h, MCE_SOURCE_DEV_MCELOG, SOURCE_ACTIVE,
				 "%s, %d-byte records, %d in its buffer%s", s->path, rec_len, log_len,
				 source_is_active(h, MCE_SOURCE_TRACEPOINT) ? "; copies of tracepoint records are dropped" : "");
	*ret = s;
	return 0;
}

static int dev_mcelog_open(const struct source_host *h, void **ret)
{
	struct dev_mcelog_source *s = NULL;
	int r;

	*ret = NULL;
	if (h->config->source_dev_mcelog == CONFIG_TRISTATE_NO) {
		source_set_state(h, MCE_SOURCE_DEV_MCELOG, SOURCE_DISABLED, "DevMcelog=no in the configuration");
		return 0;
	}
	r = open_device(h, NULL, h->config->source_dev_mcelog == CONFIG_TRISTATE_YES, &s);
	*ret = s;
	return r;
}

/* Only turning it on or off matters: auto and yes read the same device. */
static bool dev_mcelog_reload_needed(const struct mcelogd_config *old, const struct mcelogd_config *cur)
{
	return (old->source_dev_mcelog == CONFIG_TRISTATE_NO) != (cur->source_dev_mcelog == CONFIG_TRISTATE_NO);
}

const struct source_ops dev_mcelog_source_ops = {
	.name = "dev_mcelog",
	.open = dev_mcelog_open,
	.close = dev_mcelog_close,
	.drain = dev_mcelog_drain,
	.reload_needed = dev_mcelog_reload_needed,
};
