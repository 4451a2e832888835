/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The fields a rule can match on and key by, read from either kind of record:
 * an MCA bank record with its decoded view, or a ras record (EDAC, AER,
 * memory failure, firmware memory, ARM).  One table maps each name a rule
 * file may use to how it is read, so the parser, the matcher, the key and
 * mcelogd.rules(5) cannot disagree.  Pure.
 *
 * A field a record does not carry is absent: a Match= term on it does not
 * match, and a rule keyed by it does not count the record (rules/rule-engine.h).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mce_decoded;
struct mce_record;
struct ras_record;

enum rule_field {
	RULE_FIELD_KIND,             /* "mce", or the ras event name ("memory_controller", ...) */
	RULE_FIELD_SOURCE,           /* "tracepoint", "previous_boot", "ras:mc_event", ... */
	RULE_FIELD_SEVERITY,         /* corrected, deferred, uncorrected, fatal, info */
	RULE_FIELD_RECOVERY,         /* ucna, srao, srar, ... (MCA only) */
	RULE_FIELD_ERROR_CLASS,      /* memory_controller, cache, tlb, ... (MCA only) */
	RULE_FIELD_COMPONENT,        /* memory, cache, tlb, bus, io, pcie, processor, other */
	RULE_FIELD_BANK_TYPE,        /* the decoder's short bank type: UMC, IMC, L2, ... */
	RULE_FIELD_THRESHOLD_STATUS, /* green, yellow (MCA threshold-based status) */
	RULE_FIELD_VENDOR,
	RULE_FIELD_CPU,
	RULE_FIELD_SOCKET,
	RULE_FIELD_BANK,             /* MCA bank number */
	RULE_FIELD_MC,               /* memory controller index (EDAC mc, Intel IMC) */
	RULE_FIELD_CHANNEL,
	RULE_FIELD_DIMM,
	RULE_FIELD_RANK,
	RULE_FIELD_CHIP_SELECT,
	RULE_FIELD_LABEL,            /* the DIMM: its EDAC label, e.g. "CPU_SrcID#0_MC#0_Chan#1_DIMM#0",
				      * or its coordinates where the kernel gave no label of
				      * one DIMM (rule_field_no_dimm()); a CXL memdev's name */
	RULE_FIELD_SLOT,             /* the board slot, SMBIOS Locator or override (dimm-slot-record.h) */
	RULE_FIELD_ROW,              /* DRAM row, where the record has one (CPER memory section,
				      * EDAC driver_detail, Intel iMC MISC) */
	RULE_FIELD_COLUMN,
	RULE_FIELD_BANK_GROUP,       /* DRAM bank group */
	RULE_FIELD_DRAM_BANK,        /* DRAM bank (within its group when the record gives one) */
	RULE_FIELD_ADDRESS,          /* physical address, only when the record says it is valid */
	RULE_FIELD_PAGE,             /* address >> 12: the 4 KiB page the kernel offlines */
	RULE_FIELD_NO_PAGE,          /* why a record with an address has no page ("normalized_address") */
	RULE_FIELD_MCACOD,
	RULE_FIELD_MSCOD,
	RULE_FIELD_DPA,              /* CXL device physical address, as the event record gives it */
	RULE_FIELD_DRIVER,           /* the device's driver (devlink health: "mlx5_core", ...) */
	RULE_FIELD_DEVICE,           /* the device by its kernel name (PCIe AER, devlink: "0000:3b:00.0") */
	RULE_FIELD_REPORTER,         /* a devlink health reporter of the device ("fw_fatal", "tx", ...) */
	RULE_FIELD_HEALTH_STATE,     /* the reporter's devlink health state: healthy, error */
	RULE_FIELD_PROCESS,          /* the command a memory error's SIGBUS was for (or killed, on its memory failure) */
	RULE_FIELD_UNIT,             /* that process's systemd unit */
	RULE_FIELD_DISK,             /* the disk of a failed request: its name, else major:minor */
	_RULE_FIELD_MAX,
	_RULE_FIELD_INVALID = -1,
};

/* One record, as the rules see it: exactly one of mce or ras is set. */
struct rule_input {
	const struct mce_record *mce;
	const struct mce_decoded *decoded;  /* with mce */
	const struct ras_record *ras;
	/* One memory error's id, shared by its machine check and its EDAC copy (error-pair.h); 0: none. */
	uint64_t error_id;
};

/* Room for a value composed from several of the record's fields: "mc:0,socket:1,card:0,dimm:3". */
#define RULE_VALUE_TEXT_MAX 128

struct rule_value {
	bool is_string;
	const char *s;                      /* static or owned by the record; NULL: the value is in text */
	char text[RULE_VALUE_TEXT_MAX];     /* a string the record does not hold as one */
	uint64_t u;
};

/* A string value's text, wherever it is kept. */
static inline const char *rule_value_string(const struct rule_value *v)
{
	return v->s ? v->s : v->text;
}

const char *rule_field_to_string(enum rule_field f);
enum rule_field rule_field_from_string(const char *s);   /* _RULE_FIELD_INVALID if unknown */
/* True for numeric fields (match values are numbers: decimal or 0x hex). */
bool rule_field_is_number(enum rule_field f);

/* False if the record does not carry the field. */
bool rule_field_get(const struct rule_input *in, enum rule_field f, struct rule_value *ret);

/*
 * The label field is the DIMM, so that a rule keyed by it (the shipped row
 * rule, the per-DIMM rate) never counts two DIMMs as one.  An EDAC record
 * whose label names one DIMM gives that label.  One whose label is empty or
 * a kernel placeholder (lib/edac-label.h) gives the coordinates the
 * controller reported in its place: the DIMM its driver_detail names
 * ("mc:0,socket:0,card:0,dimm:1" for ghes_edac's node, card and module), or
 * else its EDAC layers ("mc:0,location:2:1").  A record that has neither,
 * or whose label says the error is on several DIMMs ("any memory",
 * "A or B"), has no label field: a rule keyed by it does not count it.
 * This says why, for the one log line the daemon writes about it.
 */
enum rule_no_dimm {
	RULE_NO_DIMM_NONE,           /* a DIMM is named, or the record is no EDAC record */
	RULE_NO_DIMM_UNKNOWN,        /* no label of a DIMM, and no coordinates of one */
	RULE_NO_DIMM_SEVERAL,        /* the driver puts the error on several DIMMs or the whole controller */
	_RULE_NO_DIMM_MAX,
};
enum rule_no_dimm rule_field_no_dimm(const struct rule_input *in);
const char *rule_no_dimm_to_string(enum rule_no_dimm why);

/* "page=0x1234" style text of one value, as keys and alerts show it. */
int rule_value_format(enum rule_field f, const struct rule_value *v, char *buf, size_t size);

/*
 * True if s is a value the field can take: fields with a fixed vocabulary
 * (severity, kind, source, recovery, error_class, vendor, threshold_status)
 * check it, so that a typo in a rule is an error rather than a rule that never
 * matches; free-form fields (bank_type, label) take anything.
 */
bool rule_field_value_known(enum rule_field f, const char *s);
/* The vocabulary, comma-separated, for error messages. */
void rule_field_known_values(enum rule_field f, char *buf, size_t size);
