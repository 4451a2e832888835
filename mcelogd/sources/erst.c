/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "cper.h"
#include "daemon-config.h"
#include "erst-state.h"
#include "file-io.h"
#include "log.h"
#include "pstore-mce.h"
#include "source.h"
#include "sources.h"

#define PSTORE_PATH      "/sys/fs/pstore"
/* Where systemd-pstore.service (Storage=external, its default) moves pstore's files. */
#define SYSTEMD_PSTORE_ARCHIVE "/var/lib/systemd/pstore"
#define ERST_TABLE_PATH  "/sys/firmware/acpi/tables/ERST"
/* include/uapi/linux/magic.h */
#define PSTOREFS_MAGIC   0x6165676C
/* A pstore holds a handful of files; more than this many machine checks are read at the next start. */
#define FILES_MAX 64

struct erst_file {
	char name[256];
	struct pstore_mce_name id;
};

struct erst_run {
	const struct source_host *host;
	const char *dir;
	int dir_fd;
	bool remove;
	struct erst_state logged;
	bool state_changed;
	unsigned n_logged, n_skipped, n_bad, n_unlogged, n_removed;
};

static int compare_files(const void *a, const void *b)
{
	const struct erst_file *x = a, *y = b;

	return x->id.id < y->id.id ? -1 : x->id.id > y->id.id;
}

/* The machine-check files of the pstore directory, oldest record id first (the ids grow). */
static int list_files(struct erst_run *er, struct erst_file *files, size_t *ret_n)
{
	_cleanup_closedir_ DIR *d = NULL;
	struct dirent *de;
	size_t n = 0;
	int fd = dup(er->dir_fd);

	if (fd < 0)
		return negative_errno();
	d = fdopendir(fd);
	if (!d) {
		int r = negative_errno();

		close(fd);
		return r;
	}
	while ((de = readdir(d))) {
		struct pstore_mce_name id;

		if (pstore_mce_name_parse(de->d_name, &id) < 0)
			continue;
		if (n == FILES_MAX) {
			log_warning("%s holds more than %d machine-check files; the others are read at the next "
				    "start", er->dir, FILES_MAX);
			break;
		}
		snprintf(files[n].name, sizeof(files[n].name), "%s", de->d_name);
		files[n].id = id;
		n++;
	}
	qsort(files, n, sizeof(files[0]), compare_files);
	*ret_n = n;
	return 0;
}

static void load_state(struct erst_run *er)
{
	char path[4096];
	_cleanup_free_ char *text = NULL;
	size_t len;
	int r;

	er->logged.n = 0;
	snprintf(path, sizeof(path), "%s/%s", er->host->paths->state_directory, ERST_STATE_FILE);
	r = read_full_file(path, 64 * 1024, &text, &len);
	if (r == -ENOENT)
		return;
	if (r < 0) {
		log_warning_errno(r, "Cannot read %s (%m); the machine checks kept in ERST may be logged "
				  "again", path);
		return;
	}
	if (erst_state_parse(text, len, &er->logged) < 0) {
		log_warning("%s is not a state file this version understands; the machine checks kept in "
			    "ERST will be logged again", path);
		er->logged.n = 0;
	}
}

static int save_state(struct erst_run *er)
{
	char path[4096];
	_cleanup_free_ char *text = NULL;
	size_t len;
	int r;

	snprintf(path, sizeof(path), "%s/%s", er->host->paths->state_directory, ERST_STATE_FILE);
	r = erst_state_format(&er->logged, &text, &len);
	if (r >= 0)
		r = write_file_atomic(path, text, len, true);
	if (r < 0)
		return log_warning_errno(r, "Cannot remember in %s which ERST records were logged (%m)", path);
	er->state_changed = false;
	return 0;
}

static bool remove_file(struct erst_run *er, const char *name)
{
	if (unlinkat(er->dir_fd, name, 0) < 0) {
		int r = negative_errno();

		if (r == -ENOENT)       /* someone else (systemd-pstore) took it */
			return true;
		log_warning_errno(r, "Cannot remove %s/%s (%m); the firmware keeps the record and its store "
				  "fills%s", er->dir, name,
				  r == -EROFS || r == -EACCES || r == -EPERM ?
				  " (the service needs ReadWritePaths=/sys/fs/pstore)" : "");
		return false;
	}
	er->n_removed++;
	return true;
}

/* One file: logged once, then (ErstRemove=yes) removed.  Returns whether the file is gone. */
static bool handle_file(struct erst_run *er, const struct erst_file *f)
{
	char path[4096];
	_cleanup_free_ char *buf = NULL;
	struct erst_logged entry = { .id = f->id.id };
	struct mce_record rec;
	struct stat st;
	const char *why;
	size_t len;
	int r;

	snprintf(path, sizeof(path), "%s/%s", er->dir, f->name);
	snprintf(entry.backend, sizeof(entry.backend), "%s", f->id.backend);
	/* pstore makes only regular files: anything else (a FIFO would block the start) is not its. */
	if (fstatat(er->dir_fd, f->name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode)) {
		er->n_bad++;
		log_error("%s: not a regular file, not pstore's; not logged, left in place", path);
		return false;
	}
	r = read_full_file(path, PSTORE_MCE_MAX, &buf, &len);
	if (r == -EFBIG) {
		er->n_bad++;
		log_error("%s: longer than %d bytes, not a machine-check record; not logged, left in place",
			  path, PSTORE_MCE_MAX);
		return false;
	}
	if (r < 0) {
		er->n_bad++;
		log_error_errno(r, "Cannot read %s: %m; not logged", path);
		return false;
	}
	entry.digest = cper_region_digest(buf, len);
	if (erst_state_has(&er->logged, &entry)) {
		/* A start before this one logged it and ended before removing it. */
		log_info("%s was logged by an earlier start; not logging it again", path);
		er->n_skipped++;
		return er->remove && remove_file(er, f->name);
	}
	if (pstore_mce_parse(buf, len, MCE_SOURCE_PREVIOUS_BOOT, &rec, &why) < 0) {
		er->n_bad++;
		/* Not remembered and not removed: said again at every start, until someone who has
		 * looked at it removes it. */
		log_error("%s: %zu bytes, %s; not logged, left in place", path, len, why);
		return false;
	}
	if (source_already_logged(er->host, &rec)) {
		/* Handed to the journal in this boot by a start that ended before saving the state. */
		log_info("%s is already in the journal from an earlier start; not logging it again", path);
		er->n_skipped++;
	} else if (source_submit_recovered(er->host, &rec) < 0) {
		er->n_unlogged++;
		log_warning("%s could not be logged; it stays for the next start", path);
		return false;
	} else {
		er->n_logged++;
		log_info("%s: logged the machine check that the kernel saved (pstore backend %s, record "
			 "%llu) when it panicked in the previous boot", path, f->id.backend,
			 (unsigned long long) f->id.id);
	}
	/* Remembered before the file goes: a crash between the two never logs it twice.  Should
	 * the state not be saved, removing is still right: the record is logged, and gone it
	 * cannot be logged again. */
	erst_state_add(&er->logged, &entry);
	(void) save_state(er);
	return er->remove && remove_file(er, f->name);
}

/* Whether this is the kernel's pstore; a stand-in directory (--pstore-dir) is taken as it is. */
static int check_mounted(const struct source_host *h, const char *dir, int fd)
{
	struct statfs sf;

	if (h->paths->pstore)
		return 0;
	if (fstatfs(fd, &sf) < 0)
		return negative_errno();
	if ((unsigned long) sf.f_type != PSTOREFS_MAGIC) {
		log_info("pstore is not mounted at %s: a machine check the kernel kept in ERST cannot be read",
			 dir);
		source_add_state(h, MCE_SOURCE_PREVIOUS_BOOT, SOURCE_UNAVAILABLE,
				 "ERST: pstore is not mounted at %s", dir);
		return -ENODEV;
	}
	return 0;
}

static void set_summary(const struct erst_run *er, size_t n_files)
{
	const struct source_host *h = er->host;

	if (n_files == 0 && !h->paths->pstore && access(ERST_TABLE_PATH, F_OK) < 0) {
		source_add_state(h, MCE_SOURCE_PREVIOUS_BOOT, SOURCE_UNAVAILABLE,
				 "ERST: the firmware has no ERST table, a fatal machine check is not kept "
				 "across a reboot");
		return;
	}
	if (n_files == 0) {
		source_add_state(h, MCE_SOURCE_PREVIOUS_BOOT, SOURCE_ACTIVE,
				 "ERST: no machine check kept by the kernel in pstore");
		return;
	}
	source_add_state(h, MCE_SOURCE_PREVIOUS_BOOT, SOURCE_ACTIVE,
			 "ERST: %u machine check(s) logged, %u logged before, %u unreadable, %u removed",
			 er->n_logged, er->n_skipped, er->n_bad, er->n_removed);
}

/*
 * Logs the machine-check files of one directory; marks in present[] the state's
 * entries whose file is still there.  Returns the number of files, or a negative
 * errno when the directory could not be read (-ENOENT: there is none).
 * *ret_complete: every file was read (the state may forget the others).
 */
static int scan_dir(struct erst_run *er, const char *dir, bool remove, bool is_pstore, bool *present,
		    bool *ret_complete)
{
	_cleanup_free_ struct erst_file *files = calloc(FILES_MAX, sizeof(*files));
	const struct source_host *h = er->host;
	size_t n = 0;
	int r;

	*ret_complete = false;
	if (!files)
		return log_error_errno(-ENOMEM, "Out of memory");
	er->dir = dir;
	er->remove = remove;
	er->dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (er->dir_fd < 0) {
		r = negative_errno();
		if (r == -ENOENT) {
			*ret_complete = true;
			if (is_pstore)
				source_add_state(h, MCE_SOURCE_PREVIOUS_BOOT, SOURCE_UNAVAILABLE,
						 "ERST: there is no %s (a kernel without pstore)", dir);
		} else {
			log_warning_errno(r, "Cannot open %s: %m; machine checks kept in ERST are not read", dir);
			source_add_state(h, MCE_SOURCE_PREVIOUS_BOOT, SOURCE_UNAVAILABLE,
					 "ERST: cannot open %s: %s", dir, strerror(-r));
		}
		return r;
	}
	if (is_pstore && check_mounted(h, dir, er->dir_fd) < 0) {
		*ret_complete = true;     /* nothing there to forget */
		r = -ENODEV;
		goto out;
	}
	r = list_files(er, files, &n);
	if (r < 0) {
		log_warning_errno(r, "Cannot list %s: %m; machine checks kept in ERST are not read", dir);
		source_add_state(h, MCE_SOURCE_PREVIOUS_BOOT, SOURCE_UNAVAILABLE,
				 "ERST: cannot list %s: %s", dir, strerror(-r));
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (!handle_file(er, &files[i]))
			for (size_t k = 0; k < er->logged.n; k++)
				present[k] |= streq(er->logged.entries[k].backend, files[i].id.backend) &&
					      er->logged.entries[k].id == files[i].id.id;
	*ret_complete = n < FILES_MAX;
	r = (int) n;
out:
	close(er->dir_fd);
	er->dir_fd = -1;
	return r;
}

/*
 * Run once at start: each machine check that a panicking kernel saved in ERST
 * (pstore's mce-erst-<id>) is logged with source "previous_boot", remembered
 * in the state directory, and then (ErstRemove=yes) removed, which clears it
 * from the firmware's small store.  systemd-pstore.service, where it runs,
 * has moved them to its archive before mcelogd starts: they are logged from
 * there, once, and never removed (the archive is the administrator's).  See
 * mcelogd(8).
 */
static int erst_open(const struct source_host *h, void **ret)
{
	/* With --pstore-dir (tests) only the stand-in is read, never this machine's archive. */
	const char *pstore = h->paths->pstore ? h->paths->pstore : PSTORE_PATH;
	const char *archive = h->paths->pstore ? h->paths->pstore_archive : SYSTEMD_PSTORE_ARCHIVE;
	_cleanup_free_ struct erst_run *er = calloc(1, sizeof(*er));
	_cleanup_free_ bool *present = calloc(ERST_STATE_MAX, sizeof(*present));
	bool complete = true, c, pstore_read;
	size_t n_files = 0;
	int r;

	*ret = NULL;
	if (!er || !present)
		return log_error_errno(-ENOMEM, "Out of memory");
	*er = (struct erst_run) { .host = h, .dir_fd = -1 };
	load_state(er);

	r = scan_dir(er, pstore, h->config->erst_remove, true, present, &c);
	pstore_read = r >= 0;     /* else the state says why already */
	complete &= c;
	n_files += r > 0 ? (size_t) r : 0;
	if (archive) {
		r = scan_dir(er, archive, false, false, present, &c);
		complete &= c;
		n_files += r > 0 ? (size_t) r : 0;
	}
	/* The state names only records still in the store or the archive: the others cannot
	 * come back.  (Not when a directory was left unread: its entries must stay.) */
	if (complete && erst_state_keep(&er->logged, present) > 0)
		er->state_changed = true;
	if (er->state_changed)
		(void) save_state(er);
	if (n_files > 0)
		log_info("ERST: %u machine check(s) the kernel kept logged, %u logged by an earlier start, "
			 "%u unreadable, %u removed", er->n_logged, er->n_skipped, er->n_bad, er->n_removed);
	if (pstore_read || n_files > 0)
		set_summary(er, n_files);
	return 0;
}

/* One-shot: it leaves nothing open. */
const struct source_ops erst_source_ops = {
	.name = "erst",
	.open = erst_open,
};
