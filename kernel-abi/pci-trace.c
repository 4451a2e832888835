/* SPDX-License-Identifier: MIT */
/*
 * The kernel's pci:* RAS tracepoints (include/trace/events/pci.h, the
 * "PCI: trace: Add a generic RAS tracepoint for hotplug event" and "... to
 * monitor link speed changes" series, S. Xue, v14 of December 2025; 7.0-era)
 * → struct ras_record.  Neither is an error: one says a hotplug slot's link
 * or card came or went, the other that a link was (re)trained and at what
 * speed and width.  An operator wants both next to the AER errors of the
 * same port: a surprise link down, a card pulled, a link that came back
 * slower than it can run.  Every offset comes from the running kernel's
 * format file (ras-trace.c); the numbers are the kernel's enums, named here.
 */
#include <inttypes.h>
#include <stdio.h>

#include "macro.h"
#include "ras-trace-ctx.h"

/* enum pci_hotplug_event, include/uapi/linux/pci.h (a uapi enum: its numbers hold). */
static const char *const hotplug_events[] = {
	[0] = "link_up",            /* PCI_HOTPLUG_LINK_UP */
	[1] = "link_down",          /* PCI_HOTPLUG_LINK_DOWN */
	[2] = "card_present",       /* PCI_HOTPLUG_CARD_PRESENT */
	[3] = "card_not_present",   /* PCI_HOTPLUG_CARD_NOT_PRESENT */
};

static const char *const hotplug_words[] = {
	[0] = "link up", [1] = "link down", [2] = "card present", [3] = "card removed",
};

/* enum pcie_link_change_reason, drivers/pci/pci.h: why the kernel read the link again. */
static const char *const link_reasons[] = {
	[0] = "retrain",            /* PCIE_LINK_RETRAIN: the kernel retrained the link */
	[1] = "add_bus",            /* PCIE_ADD_BUS: the bus was enumerated */
	[2] = "bwctrl_enable",      /* PCIE_BWCTRL_ENABLE: bandwidth notifications turned on */
	[3] = "bwctrl_irq",         /* PCIE_BWCTRL_IRQ: the port said its bandwidth changed */
	[4] = "hotplug",            /* PCIE_HOTPLUG: a slot's link came up */
};

/*
 * enum pci_bus_speed, include/linux/pci.h: the PCIe rates (0x14-0x19) by
 * which a link is measured; the older PCI, PCI-X and AGP values name no
 * PCIe link.  0xff: PCI_SPEED_UNKNOWN.
 */
#define PCIE_SPEED_FIRST 0x14
static const char *const pcie_speeds[] = {
	"2.5 GT/s", "5.0 GT/s", "8.0 GT/s", "16.0 GT/s", "32.0 GT/s", "64.0 GT/s",
};

static const char *speed_name(uint64_t v)
{
	return v >= PCIE_SPEED_FIRST && v - PCIE_SPEED_FIRST < ELEMENTSOF(pcie_speeds)
		       ? pcie_speeds[v - PCIE_SPEED_FIRST] : NULL;
}

/* PCI_EXP_TYPE_* (the port type, PCI Express Capabilities register [7:4]), include/uapi/linux/pci_regs.h. */
static const char *const port_types[] = {
	[0x0] = "endpoint", [0x1] = "legacy_endpoint", [0x4] = "root_port", [0x5] = "upstream_port",
	[0x6] = "downstream_port", [0x7] = "pcie_to_pci_bridge", [0x8] = "pci_to_pcie_bridge",
	[0x9] = "rc_integrated_endpoint", [0xa] = "rc_event_collector",
};

/* Link Status register bits the event reports (PCI Express Base Specification, "Link Status Register"). */
static const char *const link_status_bits[32] = {
	[11] = "LT",      /* Link Training */
	[13] = "DLLLA",   /* Data Link Layer Link Active */
	[14] = "LBMS",    /* Link Bandwidth Management Status */
	[15] = "LABS",    /* Link Autonomous Bandwidth Status */
};

/* A kernel number named by table, or kept as the number when the table does not know it. */
static void add_named(struct ras_tp_ctx *c, const char *key, const char *const *table, size_t n, uint64_t v)
{
	if (v < n && table[v])
		tp_added(c, ras_record_add_string(c->r, key, table[v], SIZE_MAX));
	else
		tp_added(c, ras_record_add_uint(c->r, key, v));
}

void pci_decode_hp_event(struct ras_tp_ctx *c)
{
	struct ras_record *r = c->r;
	int64_t event = -1;
	const char *port, *slot;

	/* A state change of the slot, not an error: what the operator needs is that it happened. */
	r->severity = RAS_SEV_INFO;
	tp_add_string_field(c, "port_name", "port_name");
	tp_add_string_field(c, "slot", "slot");
	if (tp_s(c, "event", &event))
		add_named(c, "hotplug_event", hotplug_events, ELEMENTSOF(hotplug_events), (uint64_t) event);
	if (c->error)
		return;
	port = tp_text_of(r, "port_name");
	slot = tp_text_of(r, "slot");
	if (event >= 0 && (uint64_t) event < ELEMENTSOF(hotplug_words))
		snprintf(r->summary, sizeof(r->summary), "PCI hotplug slot %s on %s: %s", slot ? slot : "?",
			 port ? port : "unknown port", hotplug_words[event]);
	else
		snprintf(r->summary, sizeof(r->summary), "PCI hotplug slot %s on %s: event %" PRId64,
			 slot ? slot : "?", port ? port : "unknown port", event);
}

/*
 * A link speed by its rate ("8.0 GT/s"); a value that is no PCIe rate (0xff
 * PCI_SPEED_UNKNOWN, or a PCI-X one) as the kernel's number, under its own key.
 */
static void add_speed(struct ras_tp_ctx *c, const char *key, const char *code_key, const char *name,
		      uint64_t v)
{
	if (name)
		tp_added(c, ras_record_add_string(c->r, key, name, SIZE_MAX));
	else
		tp_added(c, ras_record_add_uint(c->r, code_key, v));
}

void pci_decode_link_event(struct ras_tp_ctx *c)
{
	struct ras_record *r = c->r;
	uint64_t type = 0, reason = 0, cur = 0xff, max = 0xff, width = 0, flit = 0, status = 0;
	const char *port, *cur_name, *max_name;
	char flags[64], widths[16] = "", why[32] = "";
	bool degraded;

	r->severity = RAS_SEV_INFO;
	tp_add_string_field(c, "port_name", "port_name");
	if (tp_u(c, "type", &type))
		add_named(c, "port_type", port_types, ELEMENTSOF(port_types), type);
	if (tp_u(c, "reason", &reason))
		add_named(c, "reason", link_reasons, ELEMENTSOF(link_reasons), reason);
	tp_u(c, "cur_bus_speed", &cur);
	tp_u(c, "max_bus_speed", &max);
	cur_name = speed_name(cur);
	max_name = speed_name(max);
	add_speed(c, "speed", "speed_code", cur_name, cur);
	add_speed(c, "max_speed", "max_speed_code", max_name, max);
	if (tp_u(c, "width", &width)) {
		tp_added(c, ras_record_add_uint(r, "width", width));
		snprintf(widths, sizeof(widths), " x%" PRIu64, width);
	}
	if (tp_u(c, "flit_mode", &flit))
		tp_added(c, ras_record_add_bool(r, "flit_mode", flit != 0));
	if (tp_u(c, "link_status", &status)) {
		tp_flag_names(link_status_bits, (uint32_t) status, "|", flags, sizeof(flags));
		tp_added(c, ras_record_add_hex(r, "link_status", status));
		if (flags[0])
			tp_added(c, ras_record_add_string(r, "link_status_bits", flags, SIZE_MAX));
	}
	/*
	 * Trained below what both ends support: the kernel's own "limited by"
	 * downtraining notice, as a field rules can count.  Both speeds must be
	 * PCIe rates the kernel knew; the event carries no maximum width.
	 */
	degraded = cur_name && max_name && cur < max;
	tp_added(c, ras_record_add_bool(r, "degraded", degraded));
	if (c->error)
		return;
	port = tp_text_of(r, "port_name");
	if (reason < ELEMENTSOF(link_reasons))
		snprintf(why, sizeof(why), " (%s)", link_reasons[reason]);
	snprintf(r->summary, sizeof(r->summary), "PCIe link of %s trained: %s%s%s%s%s",
		 port ? port : "unknown port", cur_name ? cur_name : "unknown speed", widths,
		 degraded ? ", below its maximum of " : "", degraded ? max_name : "", why);
}
