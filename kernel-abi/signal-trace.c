/* SPDX-License-Identifier: MIT */
/*
 * signal:signal_generate (include/trace/events/signal.h) → struct ras_record,
 * for the one case that is a hardware error: the kernel's memory-failure
 * handling sends SIGBUS with si_code BUS_MCEERR_AR or BUS_MCEERR_AO to a
 * process whose memory went bad (mm/memory-failure.c kill_proc(), and the
 * page fault on a poisoned page).  The source opens the event with a kernel
 * filter (ras_tp_filter()), so every other signal never reaches us; a sample
 * that is not such a SIGBUS anyway (a filter the kernel dropped) is still
 * decoded, and says so in its summary.
 *
 * The event names the process the signal is for (comm, pid: the task's, not
 * the sender's); "group" (a signal for the whole thread group) and "result"
 * (enum trace_signal_result) came with Linux 3.4 and are read when present.
 * The address is not in the event: the join with the memory-failure record
 * of the same moment (mcelogd's memory-kill join) gives the page.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>

#include "macro.h"
#include "ras-trace-ctx.h"

/*
 * si_code values of SIGBUS for memory errors, include/uapi/asm-generic/siginfo.h
 * (a uapi: the numbers hold on every architecture).
 */
#define SIGBUS_MCEERR_AR 4   /* hardware memory error consumed on a machine check: action required */
#define SIGBUS_MCEERR_AO 5   /* hardware memory error detected in process but not consumed: action optional */

/* enum trace_signal_result, include/trace/events/signal.h. */
static const char *const signal_results[] = {
	[0] = "delivered",        /* TRACE_SIGNAL_DELIVERED */
	[1] = "ignored",          /* TRACE_SIGNAL_IGNORED */
	[2] = "already_pending",  /* TRACE_SIGNAL_ALREADY_PENDING */
	[3] = "overflow_fail",    /* TRACE_SIGNAL_OVERFLOW_FAIL */
	[4] = "lose_info",        /* TRACE_SIGNAL_LOSE_INFO */
};

int ras_tp_signal_filter(char *buf, size_t size)
{
	int n = snprintf(buf, size, "sig == %d && (code == %d || code == %d)", SIGBUS, SIGBUS_MCEERR_AR,
			 SIGBUS_MCEERR_AO);

	return n < 0 || (size_t) n >= size ? -ENOBUFS : 0;
}

void signal_decode_generate(struct ras_tp_ctx *c)
{
	struct ras_record *r = c->r;
	int64_t sig = 0, code = 0, pid = -1, group, result;
	const unsigned char *p;
	const char *comm, *what;
	size_t n = 0;

	tp_s(c, "sig", &sig);
	tp_s(c, "code", &code);
	tp_s(c, "pid", &pid);
	/* n is set by the read: not in one call with it, whose arguments C evaluates in no set order. */
	p = tp_bytes(c, "comm", 1, &n);
	tp_add_text(c, "comm", p, n);
	tp_added(c, ras_record_add_int(r, "pid", pid));
	tp_added(c, ras_record_add_int(r, "signal", sig));
	if (sig == SIGBUS && code == SIGBUS_MCEERR_AR) {
		what = "action_required";
		tp_added(c, ras_record_add_string(r, "code", what, SIZE_MAX));
	} else if (sig == SIGBUS && code == SIGBUS_MCEERR_AO) {
		what = "action_optional";
		tp_added(c, ras_record_add_string(r, "code", what, SIZE_MAX));
	} else {
		what = NULL;
		tp_added(c, ras_record_add_int(r, "code", code));
	}
	if (tp_s(c, "group", &group))
		tp_added(c, ras_record_add_bool(r, "group", group != 0));
	if (tp_s(c, "result", &result)) {
		if (result >= 0 && (uint64_t) result < ELEMENTSOF(signal_results))
			tp_added(c, ras_record_add_string(r, "result", signal_results[result], SIZE_MAX));
		else
			tp_added(c, ras_record_add_int(r, "result", result));
	}
	/*
	 * Action required: the process touched the bad memory and cannot go on
	 * (uncorrected); action optional: the kernel warns a process that maps a
	 * page it has just taken away, and the process may survive (deferred).
	 */
	r->severity = what && code == SIGBUS_MCEERR_AO ? RAS_SEV_DEFERRED : RAS_SEV_UNCORRECTED;
	if (c->error)
		return;
	comm = tp_text_of(r, "comm");
	if (what)
		snprintf(r->summary, sizeof(r->summary), "Memory error: SIGBUS (%s) sent to %s[%" PRId64 "]",
			 code == SIGBUS_MCEERR_AR ? "action required" : "action optional", comm ? comm : "?", pid);
	else
		snprintf(r->summary, sizeof(r->summary), "Signal %" PRId64 " code %" PRId64 " sent to %s[%" PRId64
			 "] (not a memory-error SIGBUS)", sig, code, comm ? comm : "?", pid);
}
