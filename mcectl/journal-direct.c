/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <systemd/sd-id128.h>

#include "journal-direct.h"
#include "query-walk.h"
#include "macro.h"
#include "sigbus-guard.h"

/* As many files as a directory of rotated journals plausibly holds; more: libsystemd. */
#define MAX_FILES 1024

struct mapped {
	struct journal_file f[MAX_FILES];
	void *map[MAX_FILES];
	size_t size[MAX_FILES];
	size_t n;
};

static void unmap_all(struct mapped *m)
{
	for (size_t i = 0; i < m->n; i++)
		munmap(m->map[i], m->size[i]);
	m->n = 0;
}

static int map_file(struct mapped *m, const char *path, const char **ret_reason)
{
	_cleanup_close_ int fd = -1;
	struct stat st;
	void *p;

	if (m->n == MAX_FILES) {
		*ret_reason = "too many files";
		return -EOPNOTSUPP;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		*ret_reason = "a file that cannot be opened and mapped";
		return -EOPNOTSUPP;
	}
	p = mmap(NULL, (size_t) st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		*ret_reason = "a file that cannot be mapped";
		return -EOPNOTSUPP;
	}
	m->map[m->n] = p;
	m->size[m->n] = (size_t) st.st_size;
	m->n++;
	if (sigbus_guard_add(p, (size_t) st.st_size) < 0) {
		*ret_reason = "too many files";
		return -EOPNOTSUPP;
	}
	if (journal_file_open(&m->f[m->n - 1], p, (uint64_t) st.st_size, ret_reason) < 0)
		return -EOPNOTSUPP;
	return 0;
}

static bool is_journal_name(const char *name)
{
	size_t n = strlen(name);

	return (n > 8 && streq(name + n - 8, ".journal")) || (n > 9 && streq(name + n - 9, ".journal~"));
}

/* 32 hex digits: libsystemd reads such a subdirectory too (a machine's journals). */
static bool is_id128(const char *name)
{
	if (strlen(name) != 32)
		return false;
	for (size_t i = 0; i < 32; i++)
		if (!strchr("0123456789abcdefABCDEF", name[i]))
			return false;
	return true;
}

static int map_directory(struct mapped *m, const char *directory, const char **ret_reason)
{
	DIR *d = opendir(directory);
	struct dirent *de;
	int r = 0;

	if (!d) {
		*ret_reason = "the directory cannot be read";
		return -EOPNOTSUPP;
	}
	while (r >= 0 && (de = readdir(d))) {
		char path[4096];

		if (is_id128(de->d_name)) {
			*ret_reason = "a machine's subdirectory";
			r = -EOPNOTSUPP;
		} else if (is_journal_name(de->d_name)) {
			if (snprintf(path, sizeof(path), "%s/%s", directory, de->d_name) >= (int) sizeof(path)) {
				*ret_reason = "a path too long";
				r = -EOPNOTSUPP;
			} else
				r = map_file(m, path, ret_reason);
		}
	}
	closedir(d);
	return r;
}

/*
 * Whether journald writes the trusted UID's entries to a file of this name.
 * It splits its files by UID (journald.conf(5), SplitMode=uid): system UIDs
 * (up to 999) go to system.journal, every other user's to user-UID.journal.
 * The summary counts only the trusted UID's entries, so the other users'
 * files, which libsystemd would interleave with the system ones by sequence
 * number, are left out.  Any other name: libsystemd reads them all.
 */
static bool has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int local_file_wanted(const char *name, const char *trusted_uid, bool *ret)
{
	char prefix[32];
	unsigned long uid = strtoul(trusted_uid, NULL, 10);

	if (!is_journal_name(name)) {
		*ret = false;
		return 0;
	}
	if (has_prefix(name, "system.") || has_prefix(name, "system@")) {
		*ret = true;
		return 0;
	}
	if (!has_prefix(name, "user-"))
		return -EOPNOTSUPP;
	if (uid < 1000) {
		*ret = false;
		return 0;
	}
	snprintf(prefix, sizeof(prefix), "user-%lu", uid);
	*ret = has_prefix(name, prefix) && (name[strlen(prefix)] == '.' || name[strlen(prefix)] == '@');
	return 0;
}

/*
 * The local journal as sd_journal_open(SD_JOURNAL_LOCAL_ONLY) finds it: this
 * machine's files under /run/log/journal and /var/log/journal, of which
 * only those that can hold the trusted UID's entries.
 */
static int map_local(struct mapped *m, const char *trusted_uid, const char **ret_reason)
{
	static const char *const roots[] = { "/run/log/journal", "/var/log/journal" };
	sd_id128_t machine;
	char id[SD_ID128_STRING_MAX];
	int r;

	r = sd_id128_get_machine(&machine);
	if (r < 0) {
		*ret_reason = "no machine id";
		return -EOPNOTSUPP;
	}
	sd_id128_to_string(machine, id);
	for (size_t i = 0; i < ELEMENTSOF(roots); i++) {
		char dir[256];
		DIR *d;
		struct dirent *de;

		snprintf(dir, sizeof(dir), "%s/%s", roots[i], id);
		d = opendir(dir);
		if (!d) {
			if (errno == ENOENT)
				continue;
			*ret_reason = "a journal directory that cannot be read";
			return -EOPNOTSUPP;
		}
		r = 0;
		while (r >= 0 && (de = readdir(d))) {
			char path[512];
			bool wanted;

			r = local_file_wanted(de->d_name, trusted_uid, &wanted);
			if (r < 0)
				*ret_reason = "a local journal file neither system nor a user's";
			else if (wanted) {
				snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
				r = map_file(m, path, ret_reason);
			}
		}
		closedir(d);
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * libzstd, loaded when a compressed payload is first needed: libsystemd
 * links it, so wherever the journal can hold zstd payloads it is there, and
 * mcectl does not depend on its headers to build.
 */
struct zstd {
	bool tried;
	void *lib, *dctx;
	size_t (*decompress)(void *dctx, void *dst, size_t dst_size, const void *src, size_t src_size);
	unsigned long long (*content_size)(const void *src, size_t size);
	unsigned (*is_error)(size_t code);
	void (*free_dctx)(void *dctx);
	uint8_t *buf;
	size_t buf_size;
};

static bool zstd_load(struct zstd *z)
{
	void *(*create)(void);

	if (z->tried)
		return z->dctx;
	z->tried = true;
	z->lib = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!z->lib)
		return false;
	create = (void *(*)(void)) dlsym(z->lib, "ZSTD_createDCtx");
	z->decompress = (size_t (*)(void *, void *, size_t, const void *, size_t)) dlsym(z->lib, "ZSTD_decompressDCtx");
	z->content_size = (unsigned long long (*)(const void *, size_t)) dlsym(z->lib, "ZSTD_getFrameContentSize");
	z->is_error = (unsigned (*)(size_t)) dlsym(z->lib, "ZSTD_isError");
	z->free_dctx = (void (*)(void *)) dlsym(z->lib, "ZSTD_freeDCtx");
	if (create && z->decompress && z->content_size && z->is_error && z->free_dctx)
		z->dctx = create();
	return z->dctx;
}

static void zstd_done(struct zstd *z)
{
	if (z->dctx)
		z->free_dctx(z->dctx);
	if (z->lib)
		dlclose(z->lib);
	free(z->buf);
}

/* Payloads larger than this are not what mcelogd writes: libsystemd reads those. */
#define DECOMPRESSED_MAX (1024 * 1024)

static int decompress(void *userdata, enum journal_compression c, const uint8_t *src, uint64_t size,
		      const uint8_t **ret, size_t *ret_size)
{
	struct zstd *z = userdata;
	unsigned long long n;
	size_t got;

	if (c != JOURNAL_ZSTD || !zstd_load(z))
		return -EPROTONOSUPPORT;
	n = z->content_size(src, (size_t) size);
	/* (The unknown and error answers are the largest values: refused here too.) */
	if (n > DECOMPRESSED_MAX)
		return -EBADMSG;
	if (n + 1 > z->buf_size) {
		uint8_t *p = realloc(z->buf, (size_t) n + 1);

		if (!p)
			return -ENOMEM;
		z->buf = p;
		z->buf_size = (size_t) n + 1;
	}
	got = z->decompress(z->dctx, z->buf, (size_t) n, src, (size_t) size);
	if (z->is_error(got) || got != n)
		return -EBADMSG;
	*ret = z->buf;
	*ret_size = got;
	return 0;
}

/* One thread's share of the files. */
struct part {
	const struct journal_file *const *files;
	size_t n;
	const struct summary_walk_args *a;
	struct summary *s;
	struct summary_walk_result res;
	int r;
};

static void *walk_part(void *userdata)
{
	struct part *p = userdata;
	struct summary_walk_args a = *p->a;
	struct zstd z = {};

	/* The pages are all read, in order: one request for them beats a fault each,
	 * made by the thread that reads them (the other thread's run meanwhile). */
	for (size_t i = 0; i < p->n; i++)
		(void) madvise((void *) p->files[i]->map, p->files[i]->size, MADV_POPULATE_READ);
	/* A decompression context of its own: libzstd's are not shared between threads. */
	a.decompress = decompress;
	a.userdata = &z;
	p->r = summary_walk(p->files, p->n, &a, p->s, &p->res);
	zstd_done(&z);
	return NULL;
}

/* Fewer entries than this are counted faster than a thread starts. */
#define SPLIT_MIN_ENTRIES 50000

/*
 * The files counted in two parts at once, when there are several: the later
 * files by a second thread into a part merged after (summary_walk_merge).
 */
static int walk_files(const struct journal_file *const *order, size_t n, const struct summary_walk_args *a,
		      enum summary_by by, struct summary *s, struct summary_walk_result *res)
{
	const char *one = getenv("MCECTL_SUMMARY_ONE_PASS");
	struct part first = { .files = order, .n = n, .a = a, .s = s }, second = { .a = a };
	uint64_t total = 0, half = 0;
	pthread_t thread;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		total += order[i]->n_entries;
	/* Where the entries before are nearest half of them. */
	while (k < n && half + order[k]->n_entries / 2 < total / 2)
		half += order[k++]->n_entries;
	/* With --until, the entries after the window count only if marked late: a
	 * second part could not know where the window ended before it. */
	if ((one && one[0]) || a->have_until || total < SPLIT_MIN_ENTRIES || k == 0 || k == n) {
		walk_part(&first);
		*res = first.res;
		return first.r;
	}
	first.n = k;
	second.files = order + k;
	second.n = n - k;
	second.s = summary_new_part(by);
	if (!second.s)
		return -ENOMEM;
	if (pthread_create(&thread, NULL, walk_part, &second) != 0) {
		summary_free(second.s);
		first.n = n;
		walk_part(&first);
		*res = first.res;
		return first.r;
	}
	walk_part(&first);
	(void) pthread_join(thread, NULL);
	*res = first.res;
	if (first.r >= 0 && second.r < 0 && !first.res.past_until) {
		first.r = second.r;
		res->reason = second.res.reason;
	}
	if (first.r >= 0)
		first.r = summary_walk_merge(a, s, res, second.s, &second.res);
	summary_free(second.s);
	return first.r;
}

/* The files named (or the local journal's), mapped and checked, in libsystemd's order. */
static int map_named(struct mapped *m, const char *directory, const char *const *files, const char *trusted_uid,
		     const struct journal_file **order, size_t *ret_n, const char **ret_reason)
{
	int r = 0;

	if (directory)
		r = map_directory(m, directory, ret_reason);
	else if (files && files[0])
		for (size_t i = 0; r >= 0 && files[i]; i++)
			r = map_file(m, files[i], ret_reason);
	else
		r = map_local(m, trusted_uid, ret_reason);
	if (r >= 0)
		r = summary_walk_order(m->f, m->n, order, ret_n, ret_reason);
	return r;
}

int summary_direct(const char *directory, const char *const *files, const struct summary_walk_args *a,
		   enum summary_by by, struct summary *s, unsigned *ret_damaged)
{
	const char *mode = getenv("MCECTL_JOURNAL_READER");
	bool debug = mode && streq(mode, "debug");
	_cleanup_free_ struct mapped *m = NULL;
	_cleanup_free_ const struct journal_file **order = NULL;
	struct summary_walk_result res = {};
	const char *reason = NULL;
	size_t n_files = 0, n = 0;
	int r = 0;

	if (mode && streq(mode, "libsystemd"))
		return -EOPNOTSUPP;
	m = calloc(1, sizeof(*m));
	order = calloc(MAX_FILES, sizeof(*order));
	if (!m || !order)
		return -ENOMEM;
	/* A file may shrink while it is read: what was read then is thrown away, libsystemd reads. */
	r = sigbus_guard_begin();
	if (r < 0)
		return -EOPNOTSUPP;
	r = map_named(m, directory, files, a->trusted_uid, order, &n, &reason);
	if (r >= 0) {
		r = walk_files(order, n, a, by, s, &res);
		reason = res.reason;
	}
	n_files = m->n;
	unmap_all(m);
	if (sigbus_guard_tripped()) {
		reason = "a file that shrank while it was read";
		r = -EOPNOTSUPP;
	}
	sigbus_guard_end();
	if (debug) {
		if (r >= 0)
			fprintf(stderr, "mcectl summary: journal files read directly: %zu files, %" PRIu64 " entries\n",
				n_files, res.entries);
		else
			fprintf(stderr, "mcectl summary: journal files not read directly (%s): libsystemd reads them\n",
				r == -ENOMEM ? "out of memory" : reason ? reason : "?");
	}
	if (r < 0)
		return r;
	*ret_damaged = res.damaged;
	return 0;
}

int query_direct(const char *directory, const char *const *files, const struct query_walk_args *args,
		 int (*show)(void *userdata, struct query_fields *e, int64_t time), void *userdata)
{
	const char *mode = getenv("MCECTL_JOURNAL_READER");
	bool debug = mode && streq(mode, "debug");
	_cleanup_free_ struct mapped *m = NULL;
	_cleanup_free_ const struct journal_file **order = NULL;
	_cleanup_free_ struct query_hit *hits = NULL;
	_cleanup_free_ struct query_proofs *proofs = NULL;
	struct query_walk_args a = *args;
	struct query_fields e = {};
	struct zstd z = {};
	const char *reason = NULL;
	size_t n = 0, n_hits = 0, n_late = 0, shown = 0;
	int r;

	if (mode && streq(mode, "libsystemd"))
		return -EOPNOTSUPP;
	m = calloc(1, sizeof(*m));
	order = calloc(MAX_FILES, sizeof(*order));
	proofs = calloc(MAX_FILES, sizeof(*proofs));
	if (!m || !order || !proofs)
		return -ENOMEM;
	r = sigbus_guard_begin();
	if (r < 0)
		return -EOPNOTSUPP;
	/* One decompression context for the whole query, not one a payload. */
	a.decompress = decompress;
	a.userdata = &z;
	r = map_named(m, directory, files, a.trusted_uid, order, &n, &reason);
	if (r >= 0)
		r = query_walk(order, n, &a, &hits, &n_hits, &n_late, &reason);
	/* What was read before a file shrank is thrown away: libsystemd reads. */
	if (r >= 0 && sigbus_guard_tripped()) {
		reason = "a file that shrank while it was read";
		r = -EOPNOTSUPP;
	}
	if (debug) {
		if (r >= 0) {
			fprintf(stderr, "mcectl query: journal files read directly: %zu files, %zu entries shown\n",
				m->n, n_hits);
			fprintf(stderr, "mcectl query: %zu late entries of mcelogd's read\n", n_late);
		} else
			fprintf(stderr, "mcectl query: journal files not read directly (%s): libsystemd reads them\n",
				r == -ENOMEM ? "out of memory" : reason ? reason : "?");
	}
	/* From here on what is shown stays shown: a failure is an error, not a fallback. */
	if (r >= 0)
		r = show(userdata, NULL, 0);
	for (size_t i = 0; r >= 0 && i < n_hits; i++, shown++) {
		r = query_fields_read(&e, order[hits[i].file], &proofs[hits[i].file], hits[i].offset, a.decompress,
				      a.userdata, &reason);
		if (r == -EOPNOTSUPP)
			r = -EIO;   /* read once already: the file changed */
		if (r >= 0)
			r = show(userdata, &e, hits[i].time);
		if (r >= 0 && e.error)
			r = e.error;
	}
	if (shown && sigbus_guard_tripped()) {
		fprintf(stderr, "mcectl query: a journal file shrank while it was read: what was shown may be incomplete\n");
		if (r >= 0)
			r = -EIO;
	}
	query_fields_done(&e);
	zstd_done(&z);
	unmap_all(m);
	sigbus_guard_end();
	return r;
}