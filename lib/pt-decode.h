/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * What `mcectl pt` and mcelogd's PT snapshots (snapshot.pt) report about an
 * Intel PT byte stream: packet counts by type, the TSC range, CBR changes,
 * CR3 values (PIP), execution-mode changes and the ordered branch-target and
 * FUP addresses.  The packets come from libipt's packet decoder; the full IPs
 * are rebuilt here from the compressed payloads (SDM Vol. 3C, "Intel
 * Processor Trace", section "IP Compression"), because the packet decoder
 * hands out the raw payload only.
 *
 * No I/O: the caller reads the file and prints the summary.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_writer;

/* The decoder's "last IP" (SDM: IP compression is relative to it; PSB resets it). */
struct pt_last_ip {
	uint64_t ip;
	bool valid;
};

/* Rebuilds the IP of a TIP/TIP.PGE/TIP.PGD/FUP packet from its IPBytes
 * encoding `ipc` (0..7) and raw `payload`, and updates *last.
 * Returns 1 and sets *ret_ip, 0 if the IP is suppressed (IPBytes 0),
 * -ENODATA if the payload updates a last IP we do not have (the stream did
 * not give a full IP since the last PSB), -EBADMSG for a reserved encoding. */
int pt_ip_reconstruct(struct pt_last_ip *last, unsigned ipc, uint64_t payload, uint64_t *ret_ip);

enum pt_ip_kind {
	PT_IP_TIP,
	PT_IP_TIP_PGE,
	PT_IP_TIP_PGD,
	PT_IP_FUP,
	_PT_IP_KIND_MAX,
};
extern const char *const pt_ip_kind_names[_PT_IP_KIND_MAX];

struct pt_ip_event {
	uint64_t offset;
	uint64_t ip;
	enum pt_ip_kind kind;
};

struct pt_value_event {
	uint64_t offset;
	uint64_t value;        /* CBR ratio, CR3 (PIP), or execution mode bits (16/32/64) */
	bool flag;             /* PIP: NR (non-root, i.e. in a VM guest) */
};

struct pt_event_list {
	void *v;
	size_t n, cap;
};

#define PT_PACKET_TYPES 32    /* covers libipt's enum pt_packet_type */
#define PT_ERRORS_MAX 16

struct pt_decode_error {
	uint64_t offset;
	char message[96];
};

struct pt_summary {
	uint64_t bytes;
	uint64_t counts[PT_PACKET_TYPES];
	uint64_t n_packets;
	bool have_tsc;
	uint64_t tsc_first, tsc_last;
	uint64_t sync_offset;        /* offset of the first PSB */
	uint64_t ips_suppressed;     /* IPBytes 0: no IP to report */
	uint64_t ips_without_base;   /* a compressed IP with no last IP since the PSB */
	struct pt_event_list ips;    /* struct pt_ip_event */
	struct pt_event_list cbr;    /* struct pt_value_event */
	struct pt_event_list pip;
	struct pt_event_list modes;
	struct pt_decode_error errors[PT_ERRORS_MAX];
	size_t n_errors;
	uint64_t errors_dropped;
};

/* Name of a libipt packet type as `mcectl pt` prints it ("tip.pge", "tnt.8", ...). */
const char *pt_packet_type_name(unsigned type);

/* Decodes the stream.  Errors in the stream (no PSB, a bad opcode, a
 * truncated packet) do not fail: they are listed in s->errors with their
 * offset, and decoding resumes at the next PSB.  Returns 0, or -ENOMEM. */
int pt_summarize(const uint8_t *buf, size_t len, struct pt_summary *s);
void pt_summary_done(struct pt_summary *s);

/* The first TSC packet's value after the first PSB: where a copied trace
 * begins in time.  Decodes only up to it, so it costs microseconds where
 * pt_summarize() of a whole buffer costs milliseconds.  Returns 0, -ENODATA
 * if there is no PSB or no TSC packet, -ENOMEM. */
int pt_first_tsc(const uint8_t *buf, size_t len, uint64_t *ret_tsc);
