/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The plan of a memory repair (post package repair, memory sparing) that a
 * rule's Action=repair asks for (mcelogd.rules(5)): from the record that
 * tripped the rule, the repair features its device offers and how many
 * repairs were done before, either the list of attribute writes to make under
 * /sys/bus/edac/devices/<dev>/mem_repairN/, ending with the write of 1 to
 * "repair", or a refusal with its reason.  Pure: the daemon reads the
 * features and writes the attributes (mcelogd/actions/repair-memory.c).
 *
 * Facts it follows:
 *  - Linux's Documentation/ABI/testing/sysfs-edac-memory-repair (6.15):
 *    repair_type ppr, cacheline-sparing, row-sparing, bank-sparing,
 *    rank-sparing; persist_mode 0 soft, 1 hard; repair_safe_when_in_use;
 *    min_dpa/max_dpa; the control attributes dpa, nibble_mask, channel,
 *    sub_channel, rank, bank_group, bank, row, column; repair (write 1).
 *  - drivers/cxl/core/edac.c: a CXL memdev memN registers as EDAC device
 *    cxl_memN; PPR takes dpa and nibble_mask; sparing also takes channel
 *    and rank (rank sparing), bank group and bank (bank sparing), row (row
 *    sparing), column and sub-channel (cache-line sparing).  With the memory
 *    online the driver repairs only a location a DRAM or general media event
 *    of this boot reported, and a feature that is not safe in use is refused
 *    (EBUSY).
 *  - The widths of the CXL r3.2 maintenance input payloads (Tables 8-118
 *    to 8-120): channel, rank, bank group, bank, sub-channel 8 bits, row
 *    and nibble mask 24, column 16.
 *  - Linux's drivers/cxl/core/trace.h and the CXL r3.1 event records
 *    (Tables 8-43, 8-45, 8-46): a record's memory event type, transaction
 *    type, the DPA flags (bit 0 VOLATILE, bit 1 NOT_REPAIRABLE; the trace
 *    prints the DPA with bits 5:0 cleared) and the Common Event Record's
 *    MAINTENANCE_NEEDED flag with the maintenance operation class and
 *    sub-class (CXL r3.2 Table 8-125: class 1 PPR, sub-class 0 sPPR, 1 hPPR;
 *    class 2 memory sparing, sub-class 0 cache line, 1 row, 2 bank, 3 rank).
 *
 * What it refuses before looking at the device: an event that names no media
 * fault (only "ECC Error" and "Scrub Media ECC Error" do; Invalid Address,
 * Data Path Error, TE State Violation, CKID Violation and the CME counter's
 * expiry do not), a location the device marks NOT_REPAIRABLE, an error
 * somebody injected (Host Inject Poison) or one of media initialisation, a
 * transaction type it does not know, and a maintenance request that is not
 * a repair.  Where the device asks for maintenance itself (the flag and the
 * class), the repair is of the kind it asks for or none.
 *
 * A repair is soft (persist_mode 0, lost when the device loses power) unless
 * the administrator allowed hard ones ([Memory] RepairPersist=hard), and even
 * then a hard one is asked only of a feature that can be set to soft: the
 * plan writes persist_mode=0 first, and a kernel that refuses it refuses the
 * repair (a device that can only repair permanently is never asked).
 *
 * One repair per repair unit: the DRAM row for PPR and row sparing (both
 * replace the row), the bank, the rank or the cache line for the sparings,
 * the DPA for a general media record, which names no row.
 *
 * The DPA written is the one the kernel keys its repair records by: see
 * mem_repair_target_from_record().
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ras_record;

enum mem_repair_type {
	MEM_REPAIR_PPR,
	MEM_REPAIR_CACHELINE_SPARING,
	MEM_REPAIR_ROW_SPARING,
	MEM_REPAIR_BANK_SPARING,
	MEM_REPAIR_RANK_SPARING,
	_MEM_REPAIR_TYPE_MAX,
	_MEM_REPAIR_TYPE_INVALID = -1,
};

/* The control attributes, in the order they are written. */
enum mem_repair_attr {
	MEM_REPAIR_ATTR_DPA,
	MEM_REPAIR_ATTR_NIBBLE_MASK,
	MEM_REPAIR_ATTR_CHANNEL,
	MEM_REPAIR_ATTR_SUB_CHANNEL,
	MEM_REPAIR_ATTR_RANK,
	MEM_REPAIR_ATTR_BANK_GROUP,
	MEM_REPAIR_ATTR_BANK,
	MEM_REPAIR_ATTR_ROW,
	MEM_REPAIR_ATTR_COLUMN,
	_MEM_REPAIR_ATTR_MAX,
};

/* "ppr", "row-sparing", ...: the ABI's repair_type values. */
const char *mem_repair_type_to_string(enum mem_repair_type t);
enum mem_repair_type mem_repair_type_from_string(const char *s);
/* "dpa", "nibble_mask", ...: the attribute file names, also the record's keys. */
const char *mem_repair_attr_to_string(enum mem_repair_attr a);

#define MEM_REPAIR_DEVICE_MAX 64

#define MEM_REPAIR_TEXT_MAX 48

/* The repair a device asks for (MAINTENANCE_NEEDED with a maintenance operation class). */
enum mem_repair_request {
	MEM_REPAIR_REQUEST_NONE,       /* no flag, or class 0 (no operation) */
	MEM_REPAIR_REQUEST_PPR,        /* class 1, sub-class 0 (sPPR) or not valid */
	MEM_REPAIR_REQUEST_HARD_PPR,   /* class 1, sub-class 1 (hPPR) */
	MEM_REPAIR_REQUEST_SPARING,    /* class 2, the sub-class not valid: any sparing */
	MEM_REPAIR_REQUEST_CACHELINE_SPARING,
	MEM_REPAIR_REQUEST_ROW_SPARING,
	MEM_REPAIR_REQUEST_BANK_SPARING,
	MEM_REPAIR_REQUEST_RANK_SPARING,
	MEM_REPAIR_REQUEST_OTHER,      /* a class or sub-class that is not a repair mcelogd knows */
};

/* What a record says of the memory to repair. */
struct mem_repair_target {
	char memdev[MEM_REPAIR_DEVICE_MAX];   /* "mem0" */
	bool have_serial;
	uint64_t serial;
	bool general_media;                   /* a general media event: a DPA, no DRAM coordinates */
	bool have[_MEM_REPAIR_ATTR_MAX];
	uint64_t value[_MEM_REPAIR_ATTR_MAX]; /* DPA: as the kernel keys it, flag bits included */
	uint64_t traced_dpa;                  /* the DPA as the trace prints it (bits 5:0 clear) */
	/* The event: its memory event type and transaction type as the record names them
	 * ("" absent, a number the kernel had no name for as its digits), its DPA flags. */
	char event_type[MEM_REPAIR_TEXT_MAX];
	char transaction[MEM_REPAIR_TEXT_MAX];
	char dpa_flags[MEM_REPAIR_TEXT_MAX];  /* "VOLATILE|NOT_REPAIRABLE", "" none */
	bool not_repairable;
	enum mem_repair_request request;
	unsigned maint_class, maint_sub_class;   /* as the record gives them, for the reason text */
};

/*
 * A CXL DRAM or general media record (kernel-abi/cxl-trace.c) → its target.
 * Returns 0, or -EINVAL with why set: another kind of record, or one that
 * names no memory device or DPA.
 */
int mem_repair_target_from_record(const struct ras_record *r, struct mem_repair_target *ret,
				  const char **ret_why);

/* One mem_repairN feature of an EDAC device, as sysfs shows it. */
struct mem_repair_offer {
	char device[MEM_REPAIR_DEVICE_MAX];   /* "cxl_mem0" */
	unsigned instance;                    /* the N of mem_repairN */
	char type_text[32];                   /* repair_type as read; "" unreadable */
	enum mem_repair_type type;            /* _MEM_REPAIR_TYPE_INVALID: a type we do not know */
	int persist_mode;                     /* 0 soft, 1 hard, -1 unreadable */
	int safe_when_in_use;                 /* 1, 0, -1 unreadable */
	bool have_attr[_MEM_REPAIR_ATTR_MAX]; /* the control files the driver provides */
	bool have_dpa_range;
	uint64_t min_dpa, max_dpa;
};

/* What was done before on this device and in this repair unit (the daemon's state). */
struct mem_repair_history {
	unsigned device_total;     /* repairs asked of the device, ever */
	unsigned device_last_day;  /* of those, in the 24 hours before now (the wall clock's) */
	bool location_repaired;    /* the unit was repaired, and the device still has the repair */
	bool outcome_unknown;      /* that repair's outcome was never saved (a crash): taken as done */
};

struct mem_repair_limits {
	bool enabled;              /* [Memory] Repair= */
	bool allow_hard;           /* [Memory] RepairPersist=hard */
	unsigned per_device;       /* [Memory] RepairsPerDevice= */
	unsigned per_day;          /* [Memory] RepairsPerDay=, per device */
};

enum mem_repair_refusal {
	MEM_REPAIR_GO,             /* not refused */
	MEM_REPAIR_DISABLED,
	MEM_REPAIR_NOT_OFFERED,    /* the device offers no repair feature */
	MEM_REPAIR_TYPE_UNSUPPORTED,  /* none it offers fits the record */
	MEM_REPAIR_NOT_SAFE_IN_USE,
	MEM_REPAIR_OUT_OF_RANGE,
	MEM_REPAIR_LIMIT_DEVICE,
	MEM_REPAIR_LIMIT_DAY,
	MEM_REPAIR_ALREADY_DONE,
	MEM_REPAIR_NO_TARGET,      /* the record names no CXL memory location (mem_repair_target_from_record()) */
	MEM_REPAIR_NOT_MEDIA_FAULT,   /* the event type names no fault of the media's cells */
	MEM_REPAIR_NOT_REPAIRABLE,    /* the device marks the DPA NOT_REPAIRABLE */
	MEM_REPAIR_INJECTED,          /* transaction Host Inject Poison: a test, not a fault */
	MEM_REPAIR_MEDIA_INIT,        /* transaction Media Initialization */
	MEM_REPAIR_UNKNOWN_TRANSACTION,
	MEM_REPAIR_REQUEST_NOT_REPAIR, /* the device asks for maintenance that is not a repair */
	MEM_REPAIR_REQUEST_UNMET,     /* the device asks for a repair it does not offer, or the record lacks for */
	MEM_REPAIR_HARD,              /* the feature is set to hard (persist_mode=1); RepairPersist=soft */
	MEM_REPAIR_PERSIST_UNKNOWN,   /* persist_mode unreadable */
	MEM_REPAIR_HARD_ONLY,         /* the kernel would not set the feature to soft: never hard there */
	MEM_REPAIR_ATTRS_CHANGED,     /* an attribute read back differs from what was written (another writer) */
	MEM_REPAIR_NO_STATE,          /* the intent could not be kept in the state before the repair */
	_MEM_REPAIR_REFUSAL_MAX,
};

/* "disabled", "not-offered", ...: the record's MCE_REPAIR_REFUSED value. */
const char *mem_repair_refusal_to_string(enum mem_repair_refusal r);

#define MEM_REPAIR_LOCATION_MAX 160

struct mem_repair_write {
	const char *attr;          /* static: the file in mem_repairN/ */
	char value[24];            /* as written, without the newline */
};

#define MEM_REPAIR_WRITES_MAX   (_MEM_REPAIR_ATTR_MAX + 3)

struct mem_repair_plan {
	enum mem_repair_refusal refusal;
	char why[320];             /* the refusal's reason in words; "" for GO */
	const struct mem_repair_offer *offer;   /* the feature used (GO, and most refusals) */
	/* "mem0 ppr dpa=0x2000 nibble_mask=0x21": the device key, the type and the values written */
	char location[MEM_REPAIR_LOCATION_MAX];
	/* "mem0 row channel=2 rank=0 bank_group=1 bank=3 row=1234": the repair unit
	 * (mem_repair_unit()); one repair per unit */
	char unit[MEM_REPAIR_LOCATION_MAX];
	bool hard;                 /* the repair will be permanent (the feature's persist_mode is 1) */
	/* GO and hard: writes[0] is persist_mode=0, the check that the feature can be soft
	 * (a kernel refusing it means a device that repairs only permanently) */
	bool soft_probe;
	unsigned n_writes;
	struct mem_repair_write writes[MEM_REPAIR_WRITES_MAX];   /* the last is repair=1 */
};

/* "cxl_mem0": the EDAC device of a CXL memory device.  0, or -E2BIG. */
int mem_repair_edac_device(const char *memdev, char *buf, size_t size);

/*
 * Whose limits a repair counts against: "serial=0x1234" when the device has a
 * serial number (it survives renumbering), else its name ("mem0").
 */
void mem_repair_device_key(const struct mem_repair_target *t, char *buf, size_t size);

/*
 * The location a repair of type t would fix for target, as plan->location
 * reads; false when the record lacks a coordinate the type needs.
 */
bool mem_repair_location(const struct mem_repair_target *t, enum mem_repair_type type, char *buf,
			 size_t size);

/*
 * The repair unit a repair of type t acts on, as plan->unit reads: the
 * device key and "row ..." for PPR and row sparing of a DRAM record
 * (channel, rank, bank group, bank, row), "bank ...", "rank ..." and
 * "cacheline ..." for the other sparings, "dpa=0x..." for a PPR of a record
 * without the row.  False when the record lacks what the type needs.
 */
bool mem_repair_unit(const struct mem_repair_target *t, enum mem_repair_type type, char *buf, size_t size);

/*
 * The checks of the record alone (the event type, NOT_REPAIRABLE, the
 * transaction, a request that is not a repair): MEM_REPAIR_GO, or the
 * refusal with why filled (size bytes).  mem_repair_plan() makes them first.
 */
enum mem_repair_refusal mem_repair_check_record(const struct mem_repair_target *t, char *why, size_t size);

/* Whether a kernel's errno for a repair write says it refused before asking the device. */
bool mem_repair_kernel_refused(int error);

/*
 * Plans one repair of t with one of the n offers of its device: the record's
 * checks first; then the repair the device asks for, or else the finest the
 * record has every coordinate for (PPR, then cache-line, row, bank and rank
 * sparing), of a feature safe in use and soft (or hard where limits allow).
 * history(device key, unit, userdata) says what was done before; it is asked
 * only for a feature that fits.  Always fills *ret: refusal MEM_REPAIR_GO
 * and the writes, or the refusal and why.
 */
typedef void (*mem_repair_history_fn)(const char *device_key, const char *location,
				      struct mem_repair_history *ret, void *userdata);
void mem_repair_plan(const struct mem_repair_target *t, const struct mem_repair_offer *offers, size_t n,
		     const struct mem_repair_limits *limits, mem_repair_history_fn history, void *userdata,
		     struct mem_repair_plan *ret);

/* What became of one repair a rule asked for. */
enum mem_repair_outcome {
	MEM_REPAIR_DONE,             /* every write was taken, the last the repair itself */
	MEM_REPAIR_REFUSED,          /* mcelogd did not ask (plan->refusal says why) */
	MEM_REPAIR_FAILED,           /* the kernel refused a write, or the repair failed */
	MEM_REPAIR_WOULD,            /* a replay without a stand-in sysfs: planned, not asked */
	_MEM_REPAIR_OUTCOME_MAX,
};

/* "done", "refused", "failed", "would": the record's MCE_REPAIR_OUTCOME. */
const char *mem_repair_outcome_to_string(enum mem_repair_outcome o);
