/* SPDX-License-Identifier: MIT */
/*
 * The readable form of a decoded record.  Everything goes through the
 * caller's buffered FILE with fixed-size stack buffers: decoding a large
 * file must not allocate per record.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "decode.h"
#include "macro.h"
#include "decode-text.h"

static const char *const cache_levels[] = {
	[MCE_LEVEL_ABSENT] = NULL, [MCE_LEVEL_0] = "L0", [MCE_LEVEL_1] = "L1",
	[MCE_LEVEL_2] = "L2", [MCE_LEVEL_GENERIC] = "generic level",
};

static const char *const transaction_types[] = {
	[MCE_TT_ABSENT] = NULL, [MCE_TT_INSTRUCTION] = "instruction", [MCE_TT_DATA] = "data",
	[MCE_TT_GENERIC] = "generic",
};

static const char *const requests[] = {
	[MCE_RQ_ABSENT] = NULL, [MCE_RQ_GENERIC] = "generic", [MCE_RQ_READ] = "read",
	[MCE_RQ_WRITE] = "write", [MCE_RQ_DATA_READ] = "data read",
	[MCE_RQ_DATA_WRITE] = "data write", [MCE_RQ_INSTRUCTION_FETCH] = "instruction fetch",
	[MCE_RQ_PREFETCH] = "prefetch", [MCE_RQ_EVICTION] = "eviction", [MCE_RQ_SNOOP] = "snoop",
};

static const char *const memory_transactions[] = {
	[MCE_MT_ABSENT] = NULL, [MCE_MT_GENERIC] = "generic", [MCE_MT_READ] = "read",
	[MCE_MT_WRITE] = "write", [MCE_MT_ADDRESS_COMMAND] = "address/command",
	[MCE_MT_MEMORY_SCRUBBING] = "memory scrubbing",
};

/* Human phrasing of the decoder's classes; JSON keeps the decoder's own snake_case names. */
static const char *const error_classes[] = {
	[MCE_CLASS_NO_ERROR] = "no error",
	[MCE_CLASS_UNCLASSIFIED] = "unclassified",
	[MCE_CLASS_MICROCODE_ROM_PARITY] = "microcode ROM parity error",
	[MCE_CLASS_EXTERNAL] = "external error",
	[MCE_CLASS_FRC] = "FRC error",
	[MCE_CLASS_INTERNAL_PARITY] = "internal parity error",
	[MCE_CLASS_SMM_HANDLER_CODE_ACCESS_VIOLATION] = "SMM handler code access violation",
	[MCE_CLASS_INTERNAL_TIMER] = "internal timer error",
	[MCE_CLASS_IO] = "I/O error",
	[MCE_CLASS_INTERNAL_UNCLASSIFIED] = "internal unclassified error",
	[MCE_CLASS_GENERIC_CACHE_HIERARCHY] = "generic cache hierarchy error",
	[MCE_CLASS_TLB] = "TLB error",
	[MCE_CLASS_MEMORY_CONTROLLER] = "memory controller error",
	[MCE_CLASS_CACHE] = "cache error",
	[MCE_CLASS_BUS_INTERCONNECT] = "bus/interconnect error",
};

static const char *const recoveries[] = {
	[MCE_RECOVERY_NONE] = NULL,
	[MCE_RECOVERY_UCNA] = "UCNA (uncorrected, no action required)",
	[MCE_RECOVERY_SRAO] = "SRAO (software recoverable, action optional)",
	[MCE_RECOVERY_SRAR] = "SRAR (software recoverable, action required)",
	[MCE_RECOVERY_RESTARTABLE] = "restartable",
	[MCE_RECOVERY_CONTAINABLE] = "containable",
};

#define NAME(table, v) ((unsigned) (v) < ELEMENTSOF(table) ? (table)[v] : NULL)

static bool is_memory(const struct mce_decoded *d)
{
	return d->error_class == MCE_CLASS_MEMORY_CONTROLLER ||
	       streq_ptr(d->bank_type, "UMC") || d->channel >= 0 || d->dimm >= 0 ||
	       d->chip_select >= 0;
}

/*
 * Short operator advice.  It depends only on how bad the error is and
 * whether memory is involved: anything finer is the decoder's description.
 */
static const char *advice(const struct mce_decoded *d)
{
	bool mem = is_memory(d);

	switch (d->severity) {
	case MCE_SEV_CORRECTED:
		return mem ? "No action needed now: the hardware corrected it.  If corrected errors "
			     "keep coming from the same channel/DIMM, plan to replace that DIMM."
			   : "No action needed now: the hardware corrected it.  A steady rate from "
			     "the same bank points at a failing part; watch for repeats.";
	case MCE_SEV_DEFERRED:
		return "Data was found bad and marked poisoned but not yet used.  The kernel may "
		       "take the page offline.  Replace the part if errors at this location recur.";
	case MCE_SEV_UNCORRECTED:
		return mem ? "Data was lost: a process may have been killed and the page taken "
			     "offline.  Check the kernel log and replace the DIMM named above."
			   : "Data was lost: a process may have been killed.  Check the kernel log; "
			     "if it repeats, service the CPU/component named above.";
	case MCE_SEV_FATAL:
		return "The machine had to reset (processor context corrupt).  Service the "
		       "component named above, and check firmware and microcode updates.";
	default:
		return "Unknown severity.";
	}
}

static void reg(FILE *out, bool *any, const char *name, uint64_t v)
{
	fprintf(out, "%s%s 0x%016" PRIx64, *any ? " " : "", name, v);
	*any = true;
}

void decode_print_text(FILE *out, unsigned index, const struct mce_record *r,
		       const struct mce_decoded *d, unsigned first, unsigned last, const char *snapshot)
{
	char summary[256];
	const char *s;
	bool any;

	if (mce_decoded_summary(d, summary, sizeof(summary)) < 0)
		summary[0] = '\0';

	fprintf(out, "Record %u", index);
	if (first)
		fprintf(out, first == last ? " (line %u)" : " (lines %u-%u)", first, last);
	fprintf(out, ": %s: %s\n", mce_severity_to_string(d->severity), summary);

	/* what happened */
	fprintf(out, "  What:     %s", d->description ? d->description : summary);
	s = NAME(error_classes, d->error_class);
	fprintf(out, " [%s", s ? s : "unknown error class");
	if ((s = NAME(cache_levels, d->cache_level)))
		fprintf(out, ", %s", s);
	if ((s = NAME(transaction_types, d->transaction_type)))
		fprintf(out, ", %s transaction", s);
	if ((s = NAME(requests, d->request)))
		fprintf(out, ", %s request", s);
	if ((s = NAME(memory_transactions, d->memory_transaction)))
		fprintf(out, ", memory %s", s);
	if (d->participation)
		fprintf(out, ", %s", d->participation);
	if (d->timeout == 1)
		fprintf(out, ", timed out");
	if (d->memory_or_io)
		fprintf(out, ", %s", d->memory_or_io);
	fprintf(out, ", MCACOD 0x%04x", d->mcacod);
	if (d->has_model_specific_code)
		fprintf(out, ", model-specific code 0x%x", d->model_specific_code);
	if (d->has_extended_error_code)
		fprintf(out, ", extended error code 0x%x", d->extended_error_code);
	fprintf(out, "]\n");

	/* where */
	fprintf(out, "  Where:   ");
	if (r->have & MCE_HAVE_CPU)
		fprintf(out, " CPU %" PRIu32, r->cpu);
	if (r->have & MCE_HAVE_SOCKET)
		fprintf(out, ", socket %" PRIu32, r->socket);
	if (r->have & MCE_HAVE_BANK)
		fprintf(out, "%sbank %" PRIu32, (r->have & (MCE_HAVE_CPU | MCE_HAVE_SOCKET)) ? ", " : " ",
			r->bank);
	if (d->bank_name || d->bank_type)
		fprintf(out, " (%s%s%s)", d->bank_name ? d->bank_name : "",
			d->bank_name && d->bank_type ? ", " : "", d->bank_type ? d->bank_type : "");
	else
		fprintf(out, " (bank unknown to the decoder)");
	if (d->channel >= 0)
		fprintf(out, ", channel %d", d->channel);
	if (d->dimm >= 0)
		fprintf(out, ", DIMM %d", d->dimm);
	if (d->rank >= 0)
		fprintf(out, ", rank %d", d->rank);
	if (d->chip_select >= 0)
		fprintf(out, ", chip select %d", d->chip_select);
	fprintf(out, "\n");
	if (r->have & MCE_HAVE_ADDR) {
		fprintf(out, "  Address:  0x%016" PRIx64, r->addr);
		if (d->address_mode)
			fprintf(out, " (%s", d->address_mode);
		if (d->has_address_lsb)
			fprintf(out, "%sgranularity 2^%u bytes", d->address_mode ? ", " : " (",
				d->address_lsb);
		if (d->address_mode || d->has_address_lsb)
			fprintf(out, ")");
		fprintf(out, "\n");
	}
	fprintf(out, "  CPU:      ");
	if ((r->have & MCE_HAVE_VENDOR) && r->vendor != MCE_VENDOR_UNKNOWN)
		fprintf(out, "%s ", mce_vendor_to_string(r->vendor));
	if (r->have & MCE_HAVE_CPUID)
		fprintf(out, "family 0x%" PRIx32 " model 0x%" PRIx32 " stepping %" PRIu32, r->family,
			r->model, r->stepping);
	else
		fprintf(out, "unknown (give it with --cpu-id)");
	if (d->cpu_model)
		fprintf(out, " (%s)", d->cpu_model);
	else if (r->have & MCE_HAVE_CPUID)
		fprintf(out, " (a model the decoder does not know: architectural decode only)");
	fprintf(out, "\n");

	/* how bad */
	fprintf(out, "  Severity: %s", mce_severity_to_string(d->severity));
	if ((s = NAME(recoveries, d->recovery)))
		fprintf(out, ", recovery %s", s);
	if (d->has_corrected_count)
		fprintf(out, ", corrected count %u", d->corrected_count);
	if (d->threshold_status)
		fprintf(out, ", threshold %s", d->threshold_status);
	if (d->n_flags) {
		fprintf(out, "; flags");
		for (unsigned i = 0; i < d->n_flags && i < MCE_MAX_FLAGS; i++)
			fprintf(out, " %s", d->flags[i]);
	}
	fprintf(out, "\n");
	for (unsigned i = 0; i < d->n_details && i < MCE_MAX_DETAILS; i++)
		fprintf(out, "  Detail:   %s = 0x%" PRIx64 "%s%s\n", d->details[i].name, d->details[i].value,
			d->details[i].text ? " " : "", d->details[i].text ? d->details[i].text : "");

	/* what to do */
	fprintf(out, "  Action:   %s\n", advice(d));

	/* the raw registers, so nothing is lost in the rendering */
	any = false;
	fprintf(out, "  Registers: ");
	if (r->have & MCE_HAVE_STATUS)
		reg(out, &any, "STATUS", r->status);
	if (r->have & MCE_HAVE_MCGSTATUS)
		reg(out, &any, "MCGSTATUS", r->mcgstatus);
	if (r->have & MCE_HAVE_ADDR)
		reg(out, &any, "ADDR", r->addr);
	if (r->have & MCE_HAVE_MISC)
		reg(out, &any, "MISC", r->misc);
	if (r->have & MCE_HAVE_SYND)
		reg(out, &any, "SYND", r->synd);
	if (r->have & MCE_HAVE_IPID)
		reg(out, &any, "IPID", r->ipid);
	fprintf(out, "\n");
	if (r->have & MCE_HAVE_TIME) {
		int64_t secs = r->time_usec / 1000000;
		time_t t = (time_t) secs;
		struct tm tm;
		char buf[64];

		if (gmtime_r(&t, &tm) && strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S UTC", &tm))
			fprintf(out, "  Time:     %s\n", buf);
	}
	if (snapshot)
		fprintf(out, "  Snapshot: %s\n", snapshot);
	fprintf(out, "\n");
}
