/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cgroup-unit.h"
#include "file-io.h"
#include "log.h"
#include "macro.h"
#include "ras-enrich.h"
#include "ras-record.h"

/* /proc/PID/cgroup is one line on the unified hierarchy, a dozen on a legacy one. */
#define CGROUP_FILE_MAX (64 * 1024)

/* pid's unit as /proc says it now; false if the process is gone or runs in none. */
static bool read_unit(int64_t pid, struct process_unit *ret)
{
	_cleanup_free_ char *text = NULL;
	char path[64];
	size_t len;
	int r;

	snprintf(path, sizeof(path), "/proc/%" PRId64 "/cgroup", pid);
	r = read_full_file(path, CGROUP_FILE_MAX, &text, &len);
	if (r < 0) {
		log_debug_errno(r, "No unit for pid %" PRId64 " of a memory-error SIGBUS (%s: %m): it has exited",
				pid, path);
		return false;
	}
	ret->pid = pid;
	return cgroup_unit_of(text, len, ret->unit, sizeof(ret->unit), ret->user_unit,
			      sizeof(ret->user_unit)) >= 0;
}

void ras_enrich_remember(struct process_units *units, int64_t pid)
{
	struct process_unit u;

	for (unsigned i = 0; i < PROCESS_UNITS_KEPT; i++)
		if (units->e[i].pid == pid && units->e[i].unit[0])
			return;
	if (pid <= 0 || !read_unit(pid, &u))
		return;
	units->e[units->next] = u;
	units->next = (units->next + 1) % PROCESS_UNITS_KEPT;
}

static void add_unit(struct ras_record *rec, struct process_units *units)
{
	const struct ras_field *pid = ras_record_find(rec, "pid");
	struct process_unit u = { .pid = 0 };
	const char *unit = NULL, *user_unit = "";
	size_t at;

	if (!pid || pid->type != RAS_FIELD_INT || pid->i <= 0)
		return;
	/* Remembered at the wake-up first: pids are reused, the process read now may be another. */
	for (unsigned i = 0; units && i < PROCESS_UNITS_KEPT; i++)
		if (units->e[i].pid == pid->i && units->e[i].unit[0]) {
			unit = units->e[i].unit;
			user_unit = units->e[i].user_unit;
			units->e[i].pid = 0;
			break;
		}
	if (!unit && read_unit(pid->i, &u)) {
		unit = u.unit;
		user_unit = u.user_unit;
	}
	if (!unit)
		return;
	(void) ras_record_add_string(rec, "unit", unit, SIZE_MAX);
	if (user_unit[0])
		(void) ras_record_add_string(rec, "user_unit", user_unit, SIZE_MAX);
	at = strlen(rec->summary);
	if (at < sizeof(rec->summary))
		snprintf(rec->summary + at, sizeof(rec->summary) - at, " of %.96s",
			 user_unit[0] ? user_unit : unit);
}

static void add_disk(struct ras_record *rec)
{
	const struct ras_field *dev = ras_record_find(rec, "dev");
	char path[96], target[PATH_MAX], summary[sizeof(rec->summary)], prefix[48];
	const char *name;
	ssize_t n;

	if (!dev || dev->type != RAS_FIELD_STRING)
		return;
	snprintf(path, sizeof(path), "/sys/dev/block/%s", dev->data);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	name = strrchr(target, '/');
	name = name ? name + 1 : target;
	if (!name[0])
		return;
	(void) ras_record_add_string(rec, "disk", name, SIZE_MAX);
	/* "Disk 8:0: ..." (block-trace.c) reads "Disk sda (8:0): ..." */
	snprintf(prefix, sizeof(prefix), "Disk %s:", dev->data);
	if (strncmp(rec->summary, prefix, strlen(prefix)) == 0) {
		snprintf(summary, sizeof(summary), "Disk %.32s (%s):%s", name, dev->data,
			 rec->summary + strlen(prefix));
		memcpy(rec->summary, summary, sizeof(summary));
	}
}

void ras_enrich(struct ras_record *rec, struct process_units *units)
{
	if (rec->event == RAS_EVENT_SIGBUS)
		add_unit(rec, units);
	else if (rec->event == RAS_EVENT_DISK_ERROR)
		add_disk(rec);
}
