/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "macro.h"
#include "journal-export.h"
#include "spool.h"

#define SPOOL_FILE "journal.spool"
/* A spool is read whole at a replay; this bounds what a damaged one makes us read. */
#define SPOOL_READ_MAX (256u << 20)

struct spool {
	char path[1024];
	int fd;
	uint64_t entries;
	uint64_t bytes;
};

static int count_entry(const struct iovec *iov, unsigned n, void *userdata)
{
	(void) iov;
	(void) n;
	(*(uint64_t *) userdata)++;
	return 0;
}

static int read_all(int fd, uint8_t **ret, size_t *ret_len)
{
	struct stat st;
	uint8_t *buf;
	size_t got = 0;

	if (fstat(fd, &st) < 0)
		return negative_errno();
	if ((uint64_t) st.st_size > SPOOL_READ_MAX)
		return -EFBIG;
	buf = malloc((size_t) st.st_size + 1);
	if (!buf)
		return -ENOMEM;
	while (got < (size_t) st.st_size) {
		ssize_t k = pread(fd, buf + got, (size_t) st.st_size - got, (off_t) got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			free(buf);
			return k < 0 ? negative_errno() : -EIO;
		}
		got += (size_t) k;
	}
	*ret = buf;
	*ret_len = got;
	return 0;
}

int spool_open(const char *dir, struct spool **ret)
{
	_cleanup_free_ struct spool *s = calloc(1, sizeof(*s));
	_cleanup_free_ uint8_t *data = NULL;
	size_t len = 0, good = 0;
	int r;

	if (!s)
		return -ENOMEM;
	if ((size_t) snprintf(s->path, sizeof(s->path), "%s/" SPOOL_FILE, dir) >= sizeof(s->path))
		return -ENAMETOOLONG;
	s->fd = open(s->path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0600);
	if (s->fd < 0)
		return negative_errno();
	r = read_all(s->fd, &data, &len);
	if (r >= 0) {
		r = journal_export_decode(data, len, count_entry, &s->entries, &good);
		/* A cut-short last entry (a crash mid-append) was never acknowledged: drop it. */
		if (r == -EBADMSG) {
			r = ftruncate(s->fd, (off_t) good) < 0 ? negative_errno() : 0;
			len = good;
		}
	}
	if (r < 0) {
		close(s->fd);
		return r;
	}
	s->bytes = len;
	*ret = TAKE_PTR(s);
	return 0;
}

void spool_close(struct spool *s)
{
	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}

uint64_t spool_entries(const struct spool *s)
{
	return s ? s->entries : 0;
}

uint64_t spool_bytes(const struct spool *s)
{
	return s ? s->bytes : 0;
}

const char *spool_path(const struct spool *s)
{
	return s->path;
}

int spool_append(struct spool *s, const struct iovec *iov, unsigned n)
{
	size_t need = journal_export_encode(iov, n, NULL, 0);
	_cleanup_free_ uint8_t *buf = malloc(need);
	size_t done = 0;

	if (!buf)
		return -ENOMEM;
	journal_export_encode(iov, n, buf, need);
	while (done < need) {
		ssize_t k = write(s->fd, buf + done, need - done);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			int r = k < 0 ? negative_errno() : -EIO;

			/* Never leave half an entry: the next one would be misread. */
			(void) ftruncate(s->fd, (off_t) s->bytes);
			return r;
		}
		done += (size_t) k;
	}
	if (fdatasync(s->fd) < 0)
		return negative_errno();
	s->entries++;
	s->bytes += need;
	return 0;
}

struct replay_ctx {
	spool_send_fn send;
	void *userdata;
	unsigned sent;
};

static int replay_one(const struct iovec *iov, unsigned n, void *userdata)
{
	struct replay_ctx *c = userdata;
	int r = c->send(iov, n, c->userdata);

	if (r >= 0)
		c->sent++;
	return r;
}

/* Keeps data[from..len) as the whole spool: written beside it, then renamed over it. */
static int keep_rest(struct spool *s, const uint8_t *data, size_t from, size_t len)
{
	char tmp[sizeof(s->path) + 8];
	int fd, r = 0;

	if (from == len) {
		if (ftruncate(s->fd, 0) < 0 || fdatasync(s->fd) < 0)
			return negative_errno();
		return 0;
	}
	snprintf(tmp, sizeof(tmp), "%s.new", s->path);
	/* Read and written from now on, as the spool itself. */
	fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0600);
	if (fd < 0)
		return negative_errno();
	if (write(fd, data + from, len - from) != (ssize_t) (len - from) || fdatasync(fd) < 0 ||
	    rename(tmp, s->path) < 0)
		r = negative_errno();
	if (r < 0) {
		close(fd);
		(void) unlink(tmp);
		return r;
	}
	close(s->fd);
	s->fd = fd;
	/* O_APPEND for the appends that follow. */
	if (fcntl(fd, F_SETFL, O_APPEND) < 0)
		return negative_errno();
	return 0;
}

/* Reads the whole spool into *data and hands its entries to fn; -EBADMSG: a damaged tail. */
static int decode_all(struct spool *s, journal_export_fn fn, void *userdata, uint8_t **data, size_t *len,
		      size_t *consumed)
{
	int r = read_all(s->fd, data, len);

	if (r < 0)
		return r;
	return journal_export_decode(*data, *len, fn, userdata, consumed);
}

int spool_scan(struct spool *s, journal_export_fn fn, void *userdata)
{
	_cleanup_free_ uint8_t *data = NULL;
	size_t len = 0, consumed = 0;
	int r;

	if (s->entries == 0)
		return 0;
	r = decode_all(s, fn, userdata, &data, &len, &consumed);
	/* A damaged tail holds nothing we can match. */
	return r < 0 && r != -EBADMSG ? r : 0;
}

int spool_replay(struct spool *s, spool_send_fn send, void *userdata)
{
	_cleanup_free_ uint8_t *data = NULL;
	struct replay_ctx c = { .send = send, .userdata = userdata };
	size_t len = 0, consumed = 0;
	int r;

	if (s->entries == 0)
		return 0;
	r = decode_all(s, replay_one, &c, &data, &len, &consumed);
	if (r < 0 && r != -EBADMSG)
		return r;
	if (c.sent == 0)
		return 0;
	/* What was sent leaves; a malformed tail stays for a person to look at. */
	r = keep_rest(s, data, consumed, len);
	if (r < 0)
		return r;
	s->entries -= c.sent <= s->entries ? c.sent : s->entries;
	s->bytes = len - consumed;
	return (int) c.sent;
}

struct shrink_ctx {
	spool_droppable_fn droppable;
	void *userdata;
	uint64_t excess;         /* bytes still to free */
	size_t at;               /* where the current entry starts */
	uint8_t *out;            /* the entries that stay, in order */
	size_t out_len;
	const uint8_t *data;
	unsigned dropped;
};

static int shrink_one(const struct iovec *iov, unsigned n, void *userdata)
{
	struct shrink_ctx *c = userdata;
	/* The spool holds only what journal_export_encode() wrote: re-encoding gives its size. */
	size_t size = journal_export_encode(iov, n, NULL, 0);

	if (c->excess > 0 && c->droppable(iov, n, c->userdata)) {
		c->excess = c->excess > size ? c->excess - size : 0;
		c->dropped++;
	} else {
		memcpy(c->out + c->out_len, c->data + c->at, size);
		c->out_len += size;
	}
	c->at += size;
	return 0;
}

int spool_shrink(struct spool *s, uint64_t max_bytes, spool_droppable_fn droppable, void *userdata)
{
	_cleanup_free_ uint8_t *data = NULL, *out = NULL;
	struct shrink_ctx c;
	size_t len = 0, consumed = 0, tail;
	uint64_t entries = 0;
	int r;

	if (s->bytes <= max_bytes)
		return 0;
	r = read_all(s->fd, &data, &len);
	if (r < 0)
		return r;
	out = malloc(len + 1);
	if (!out)
		return -ENOMEM;
	c = (struct shrink_ctx) { .droppable = droppable, .userdata = userdata, .excess = len - max_bytes,
				  .out = out, .data = data };
	r = journal_export_decode(data, len, shrink_one, &c, &consumed);
	if (r < 0 && r != -EBADMSG)
		return r;
	if (c.at != consumed)
		return -EBADMSG;   /* not our own encoding: leave it as it is */
	if (c.dropped == 0)
		return 0;
	/* A damaged tail stays, after what was kept, for a person to look at. */
	tail = len - consumed;
	memcpy(out + c.out_len, data + consumed, tail);
	r = keep_rest(s, out, 0, c.out_len + tail);
	if (r < 0)
		return r;
	(void) journal_export_decode(out, c.out_len, count_entry, &entries, &consumed);
	s->entries = entries;
	s->bytes = c.out_len + tail;
	return (int) c.dropped;
}
