/* SPDX-License-Identifier: MIT */
/*
 * The kernel's devlink health tracepoints (include/trace/events/devlink.h,
 * since Linux 5.1) → struct ras_record.  A driver that registers a health
 * reporter (mlx5, bnxt, ice, qed, hns3, octeontx2, netdevsim, ...) reports
 * each fault of its device there: a firmware assert, a stuck transmit
 * queue, a PCIe error the device saw.  The devlink core traces every report
 * and then, when the reporter may recover by itself, either recovers it or
 * gives up; giving up is traced as well.
 *
 * Two events are read:
 *   devlink_health_report           every fault a driver reports (bus, device, driver,
 *                                   reporter, the driver's message);
 *   devlink_health_recover_aborted  the core did not try to recover the reporter: the
 *                                   previous fault was never recovered, or the last
 *                                   recovery was too recent (the reporter's grace period).
 *                                   The device stays in error until someone acts.
 * devlink_health_reporter_state_update is left out: the core does not trace
 * its own state changes there (a report sets "error", a recovery "healthy",
 * untraced); only a driver that sets the state itself does, and its "error"
 * always comes with a report.
 *
 * Every field is a string but two; every offset comes from the running
 * kernel's format file (ras-trace.c).
 */
#include <inttypes.h>
#include <stdio.h>

#include "ras-trace-ctx.h"

/* enum devlink_health_reporter_state, include/uapi/linux/devlink.h (a uapi enum: its numbers hold). */
static const char *health_state_name(uint64_t v)
{
	return v == 0 ? "healthy" : v == 1 ? "error" : NULL;
}

/* The names every devlink event starts with: which device of which driver, and its reporter. */
static void add_reporter(struct ras_tp_ctx *c)
{
	tp_add_string_field(c, "bus", "bus_name");
	tp_add_string_field(c, "dev_name", "dev_name");
	tp_add_string_field(c, "driver", "driver_name");
	tp_add_string_field(c, "reporter", "reporter_name");
}

static const char *or_unknown(const char *s)
{
	return s ? s : "?";
}

void devlink_decode_health_report(struct ras_tp_ctx *c)
{
	struct ras_record *r = c->r;
	const char *msg;

	/*
	 * The device faulted and its driver caught it; the devlink core then
	 * recovers the reporter when it may (auto-recover).  When it may not,
	 * devlink_health_recover_aborted follows and carries the worse news.
	 */
	r->severity = RAS_SEV_CORRECTED;
	add_reporter(c);
	tp_add_string_field(c, "message", "msg");
	/* Every report puts the reporter in error until a recovery succeeds (net/devlink/health.c). */
	tp_added(c, ras_record_add_string(r, "health_state", "error", SIZE_MAX));
	if (c->error)
		return;
	msg = tp_text_of(r, "message");
	snprintf(r->summary, sizeof(r->summary), "devlink health: %.32s %.48s reporter %.32s: %.100s",
		 or_unknown(tp_text_of(r, "driver")), or_unknown(tp_text_of(r, "dev_name")),
		 or_unknown(tp_text_of(r, "reporter")), msg ? msg : "(no message)");
}

void devlink_decode_recover_aborted(struct ras_tp_ctx *c)
{
	struct ras_record *r = c->r;
	uint64_t state = 1, since = 0;
	const char *name;

	/* No recovery was tried: the device stays in error until an operator or its driver acts. */
	r->severity = RAS_SEV_UNCORRECTED;
	add_reporter(c);
	if (tp_u(c, "health_state", &state)) {
		name = health_state_name(state);
		if (name)
			tp_added(c, ras_record_add_string(r, "health_state", name, SIZE_MAX));
		else
			tp_added(c, ras_record_add_uint(r, "health_state_code", state));
	}
	/*
	 * In jiffies, the kernel's tick (CONFIG_HZ, which user space cannot
	 * read): kept as the kernel's number.  Before any recovery it counts
	 * from the kernel's start of jiffies, not from a recovery.
	 */
	if (tp_u(c, "time_since_last_recover", &since))
		tp_added(c, ras_record_add_uint(r, "jiffies_since_recovery", since));
	if (c->error)
		return;
	snprintf(r->summary, sizeof(r->summary), "devlink health: %.32s %.48s reporter %.32s stays in %s: "
		 "recovery not attempted", or_unknown(tp_text_of(r, "driver")),
		 or_unknown(tp_text_of(r, "dev_name")), or_unknown(tp_text_of(r, "reporter")),
		 or_unknown(tp_text_of(r, "health_state")));
}
