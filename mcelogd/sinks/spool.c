/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "macro.h"
#include "journal-export.h"
#include "spool-walk.h"
#include "spool.h"

#define SPOOL_FILE "journal.spool"

struct spool {
	char dir[1024];
	char path[1024 + sizeof("/" SPOOL_FILE)];
	int fd;
	uint64_t entries;
	uint64_t bytes;
	/*
	 * Bytes at the start of the file that journald already took but that
	 * are still there, because cutting them off failed (a full disk):
	 * never sent again in this run.
	 */
	uint64_t head;
	/* The last shrink found no entry that may leave, and none was added since. */
	bool none_droppable;
	struct spool_repair repair;
};

static int count_entry(const struct iovec *iov, unsigned n, void *userdata)
{
	(void) iov;
	(void) n;
	(*(uint64_t *) userdata)++;
	return 0;
}

static int file_size(int fd, uint64_t *ret)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return negative_errno();
	*ret = (uint64_t) st.st_size;
	return 0;
}

static int write_all(int fd, const uint8_t *buf, size_t len)
{
	while (len > 0) {
		ssize_t k = write(fd, buf, len);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? negative_errno() : -EIO;
		buf += k;
		len -= (size_t) k;
	}
	return 0;
}

/* One entry, in our own encoding, at the end of fd. */
static int write_entry(int fd, const struct iovec *iov, unsigned n)
{
	size_t need = journal_export_encode(iov, n, NULL, 0);
	_cleanup_free_ uint8_t *buf = malloc(need);

	if (!buf)
		return -ENOMEM;
	journal_export_encode(iov, n, buf, need);
	return write_all(fd, buf, need);
}

/* Copies the bytes of from_fd from offset on to the end of to_fd, a window at a time. */
static int copy_rest(int from_fd, uint64_t offset, int to_fd)
{
	_cleanup_free_ uint8_t *buf = malloc(SPOOL_WINDOW_BYTES);

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t k = spool_read_at(from_fd, buf, SPOOL_WINDOW_BYTES, offset);
		int r;

		if (k <= 0)
			return (int) k;
		r = write_all(to_fd, buf, (size_t) k);
		if (r < 0)
			return r;
		offset += (uint64_t) k;
	}
}

/* The replacement spool, written beside it ("journal.spool.new") before it is renamed over it. */
static int open_new(const struct spool *s, int *ret_fd)
{
	char tmp[sizeof(s->path) + 4];
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.new", s->path);
	fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC | O_NOCTTY, 0600);
	if (fd < 0)
		return negative_errno();
	*ret_fd = fd;
	return 0;
}

static void discard_new(const struct spool *s, int fd)
{
	char tmp[sizeof(s->path) + 4];

	snprintf(tmp, sizeof(tmp), "%s.new", s->path);
	close(fd);
	(void) unlink(tmp);
}

/*
 * The replacement becomes the spool: synced, renamed over it, and the
 * rename synced too (the directory), so that after a crash the spool is
 * either the old file or the new one.  Takes fd in every case.
 */
static int commit_new(struct spool *s, int fd)
{
	char tmp[sizeof(s->path) + 4];
	int dfd, r = 0;

	snprintf(tmp, sizeof(tmp), "%s.new", s->path);
	if (fdatasync(fd) < 0 || rename(tmp, s->path) < 0) {
		r = negative_errno();
		discard_new(s, fd);
		return r;
	}
	close(s->fd);
	s->fd = fd;
	s->head = 0;
	dfd = open(s->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		(void) fsync(dfd);
		close(dfd);
	}
	return 0;
}

struct copy_ctx {
	int fd;
	uint64_t kept;
};

/* spool_walk() callback: copies each entry to the end of another file. */
static int copy_entry(const struct iovec *iov, unsigned n, void *userdata)
{
	struct copy_ctx *c = userdata;
	int r = write_entry(c->fd, iov, n);

	if (r >= 0)
		c->kept++;
	return r;
}

/* Keeps the original beside the spool, under a name nothing else uses. */
static int set_aside(struct spool *s)
{
	long long now = (long long) time(NULL);

	for (unsigned k = 0; k < 100; k++) {
		if (k == 0)
			snprintf(s->repair.set_aside, sizeof(s->repair.set_aside), "%s.damaged-%lld", s->path, now);
		else
			snprintf(s->repair.set_aside, sizeof(s->repair.set_aside), "%s.damaged-%lld.%u", s->path,
				 now, k);
		if (link(s->path, s->repair.set_aside) >= 0)
			return 0;
		if (errno != EEXIST)
			return negative_errno();
	}
	return -EEXIST;
}

/*
 * The spool does not read as entries from byte bad_at on.  Past its last
 * entry that is an append cut short by a crash, never acknowledged: it goes.
 * Anything else is damage to entries that were acknowledged: the file is
 * kept aside as it is, and the spool keeps every entry that still reads.
 */
static int repair(struct spool *s, uint64_t bad_at)
{
	struct copy_ctx c = { .fd = -1 };
	uint64_t size, end;
	int64_t next;
	int r;

	r = file_size(s->fd, &size);
	if (r < 0)
		return r;
	next = spool_resync(s->fd, bad_at);
	if (next == -ENOENT) {
		s->repair.torn_bytes = size - bad_at;
		if (ftruncate(s->fd, (off_t) bad_at) < 0 || fdatasync(s->fd) < 0)
			return negative_errno();
		return 0;
	}
	if (next < 0)
		return (int) next;
	s->repair.damaged_at = bad_at;
	r = set_aside(s);
	if (r < 0)
		return r;
	r = open_new(s, &c.fd);
	if (r < 0)
		return r;
	r = spool_walk(s->fd, 0, copy_entry, &c, &end);
	while (r == -EBADMSG) {
		next = spool_resync(s->fd, end);
		if (next == -ENOENT) {
			r = 0;
			break;
		}
		r = next < 0 ? (int) next : spool_walk(s->fd, (uint64_t) next, copy_entry, &c, &end);
	}
	if (r < 0) {
		discard_new(s, c.fd);
		return r;
	}
	s->repair.kept = c.kept;
	return commit_new(s, c.fd);
}

int spool_open(const char *dir, struct spool **ret)
{
	_cleanup_free_ struct spool *s = calloc(1, sizeof(*s));
	uint64_t end;
	int r;

	if (!s)
		return -ENOMEM;
	if ((size_t) snprintf(s->dir, sizeof(s->dir), "%s", dir) >= sizeof(s->dir))
		return -ENAMETOOLONG;
	snprintf(s->path, sizeof(s->path), "%s/" SPOOL_FILE, dir);
	s->fd = open(s->path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0600);
	if (s->fd < 0)
		return negative_errno();
	r = spool_walk(s->fd, 0, count_entry, &s->entries, &end);
	if (r == -EBADMSG) {
		s->entries = 0;
		r = repair(s, end);
		if (r >= 0)
			r = spool_walk(s->fd, 0, count_entry, &s->entries, &end);
	}
	if (r >= 0)
		r = file_size(s->fd, &s->bytes);
	if (r < 0) {
		close(s->fd);
		return r;
	}
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

const struct spool_repair *spool_repaired(const struct spool *s)
{
	return &s->repair;
}

int spool_append(struct spool *s, const struct iovec *iov, unsigned n)
{
	int r = spool_append_kept(s, iov, n);

	if (r >= 0)
		s->none_droppable = false;
	return r;
}

int spool_append_kept(struct spool *s, const struct iovec *iov, unsigned n)
{
	size_t need = journal_export_encode(iov, n, NULL, 0);
	uint64_t size = s->head + s->bytes;
	int r;

	r = write_entry(s->fd, iov, n);
	if (r < 0) {
		/* Never leave half an entry: the next one would be misread. */
		(void) ftruncate(s->fd, (off_t) size);
		return r;
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
	bool refused;
};

static int replay_one(const struct iovec *iov, unsigned n, void *userdata)
{
	struct replay_ctx *c = userdata;
	int r = c->send(iov, n, c->userdata);

	if (r >= 0)
		c->sent++;
	else
		c->refused = true;
	return r;
}

/* The bytes from offset from on are the whole spool; the rest goes (what journald took). */
static int keep_rest(struct spool *s, uint64_t from)
{
	int fd, r;

	if (from == s->head + s->bytes) {
		if (ftruncate(s->fd, 0) < 0 || fdatasync(s->fd) < 0)
			return negative_errno();
		s->head = 0;
		return 0;
	}
	r = open_new(s, &fd);
	if (r < 0)
		return r;
	r = copy_rest(s->fd, from, fd);
	if (r < 0) {
		discard_new(s, fd);
		return r;
	}
	return commit_new(s, fd);
}

int spool_scan(struct spool *s, journal_export_fn fn, void *userdata)
{
	uint64_t end;
	int r;

	if (s->entries == 0)
		return 0;
	r = spool_walk(s->fd, s->head, fn, userdata, &end);
	/* A damaged tail holds nothing we can match. */
	return r < 0 && r != -EBADMSG ? r : 0;
}

int spool_replay(struct spool *s, spool_send_fn send, void *userdata, int *ret_cut_error)
{
	struct replay_ctx c = { .send = send, .userdata = userdata };
	uint64_t end;
	int r;

	*ret_cut_error = 0;
	if (s->entries == 0)
		return 0;
	r = spool_walk(s->fd, s->head, replay_one, &c, &end);
	if (r < 0 && r != -EBADMSG && !c.refused && c.sent == 0)
		return r;
	if (c.sent == 0)
		return 0;
	/* journald has them: they count as gone whether or not the file can be cut. */
	s->entries -= c.sent <= s->entries ? c.sent : s->entries;
	s->bytes -= end - s->head;
	s->head = end;
	*ret_cut_error = keep_rest(s, end);
	return (int) c.sent;
}

struct shrink_ctx {
	spool_droppable_fn droppable;
	void *userdata;
	uint64_t excess;         /* bytes still to free */
	int fd;                  /* the entries that stay, in order */
	uint64_t kept;
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
		return 0;
	}
	c->kept++;
	return write_entry(c->fd, iov, n);
}

int spool_shrink(struct spool *s, uint64_t max_bytes, spool_droppable_fn droppable, void *userdata)
{
	struct shrink_ctx c = { .droppable = droppable, .userdata = userdata };
	uint64_t end, size;
	int r;

	if (s->bytes <= max_bytes || s->none_droppable)
		return 0;
	c.excess = s->bytes - max_bytes;
	r = open_new(s, &c.fd);
	if (r < 0)
		return r;
	r = spool_walk(s->fd, s->head, shrink_one, &c, &end);
	/* A damaged tail stays, after what was kept, for a person to look at. */
	if (r == -EBADMSG)
		r = copy_rest(s->fd, end, c.fd);
	if (r >= 0 && c.dropped == 0) {
		s->none_droppable = true;
		r = -ECANCELED;
	}
	if (r >= 0)
		r = file_size(c.fd, &size);
	if (r < 0) {
		discard_new(s, c.fd);
		return r == -ECANCELED ? 0 : r;
	}
	r = commit_new(s, c.fd);
	if (r < 0)
		return r;
	s->entries = c.kept;
	s->bytes = size;
	return (int) c.dropped;
}
