/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "json-writer.h"
#include "log.h"
#include "macro.h"
#include "ras-daemon-active.h"
#include "ras-debugfs.h"

#define NOT_CONSUMING "mcelogd does not read the ras:* events (RAS=no, or none available)"

void ras_daemon_active_init(struct ras_daemon_active *d, const char *debugfs_root)
{
	*d = (struct ras_daemon_active) { .debugfs_root = debugfs_root, .fd = -1 };
	snprintf(d->reason, sizeof(d->reason), "%s", NOT_CONSUMING);
}

static void hold(struct ras_daemon_active *d)
{
	char path[4096], why[sizeof(d->reason)];
	int fd;

	if (!ras_debugfs_path(d->debugfs_root, "daemon_active", path, sizeof(path))) {
		snprintf(d->reason, sizeof(d->reason), "the debugfs path is too long");
		return;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		int e = negative_errno();

		ras_debugfs_explain(d->debugfs_root, "daemon_active", e, why, sizeof(why));
		/* Said once per cause: an unchanged failure at the next reload is not news. */
		if (!streq(why, d->reason))
			log_notice("Cannot tell the kernel a RAS daemon runs: %s; ACPI extlog (eMCA) "
				   "keeps printing firmware memory errors to the console instead of "
				   "tracing them for mcelogd", why);
		snprintf(d->reason, sizeof(d->reason), "%s", why);
		return;
	}
	d->fd = fd;
	d->reason[0] = '\0';
	log_info("Holding %s open: the kernel knows a RAS daemon reads its events (ACPI extlog "
		 "traces firmware memory errors instead of printing them)", path);
}

void ras_daemon_active_update(struct ras_daemon_active *d, bool consuming)
{
	if (consuming && d->fd < 0)
		hold(d);
	else if (!consuming && d->fd >= 0) {
		ras_daemon_active_release(d);
		log_info("No longer reading the ras:* events: ras/daemon_active released, the kernel "
			 "prints what it traced for mcelogd");
	} else if (!consuming)
		snprintf(d->reason, sizeof(d->reason), "%s", NOT_CONSUMING);
}

void ras_daemon_active_release(struct ras_daemon_active *d)
{
	if (d->fd >= 0)
		(void) close(d->fd);
	d->fd = -1;
	snprintf(d->reason, sizeof(d->reason), "%s", NOT_CONSUMING);
}

void ras_daemon_active_write_status(const struct ras_daemon_active *d, struct json_writer *w)
{
	json_put_bool(w, "ras_daemon_active", d->fd >= 0);
	if (d->fd < 0)
		json_put_string(w, "ras_daemon_active_reason", d->reason);
}
