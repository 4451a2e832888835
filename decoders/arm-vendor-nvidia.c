/* SPDX-License-Identifier: MIT */
/*
 * NVIDIA Grace vendor CPER section (type 6d5244f2-2712-11ec-bea7-cb3fdb95c786).
 * NVIDIA publishes the layout in the decoder it contributed to rasdaemon
 * (events-arch-arm/non-standard-nvidia.h, "NVIDIA CPER Error Section
 * Structure"), read here for the facts only:
 *   0  signature, 16 bytes of text, NUL-padded
 *   16 error type (u16)      18 error instance (u16)
 *   20 severity (u8)         21 socket (u8)
 *   22 number of registers (u8)   23 reserved
 *   24 instance base (u64)
 *   32 number-of-registers pairs of { address (u64), value (u64) }
 * The meaning of error type and severity values is NVIDIA's and not
 * published: they stay numbers.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "arm-internal.h"
#include "ras-record.h"

#define GRACE_HDR_LEN 32
#define GRACE_PAIR_LEN 16

void arm_vendor_nvidia_grace_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size)
{
	char sig[17], regs[2048];
	size_t len = 0, have;
	unsigned count;

	if (n < GRACE_HDR_LEN) {
		arm_problem(o, 0, "NVIDIA section: the header needs %d bytes, the section has %zu", GRACE_HDR_LEN, n);
		return;
	}
	/* Printable ASCII up to the first NUL: the text goes to journal fields as it is. */
	for (len = 0; len < 16 && d[len]; len++)
		sig[len] = d[len] >= 0x20 && d[len] < 0x7f ? (char) d[len] : '?';
	sig[len] = '\0';
	count = d[22];
	arm_added(o, ras_record_add_string(o->r, "vendor", "NVIDIA", SIZE_MAX));
	if (sig[0])
		arm_added(o, ras_record_add_string(o->r, "signature", sig, SIZE_MAX));
	arm_added(o, ras_record_add_uint(o->r, "vendor_error_type", arm_le16(d + 16)));
	arm_added(o, ras_record_add_uint(o->r, "error_instance", arm_le16(d + 18)));
	arm_added(o, ras_record_add_uint(o->r, "vendor_severity", d[20]));
	arm_added(o, ras_record_add_uint(o->r, "socket", d[21]));
	arm_added(o, ras_record_add_uint(o->r, "register_count", count));
	arm_added(o, ras_record_add_hex64(o->r, "instance_base", arm_le64(d + 24)));
	snprintf(what, what_size, "NVIDIA %s error type %u, instance %u, socket %u", sig[0] ? sig : "(no signature)",
		 arm_le16(d + 16), arm_le16(d + 18), d[21]);
	have = (n - GRACE_HDR_LEN) / GRACE_PAIR_LEN;
	if (count > have)
		arm_problem(o, 22, "NVIDIA section: %u register pairs need %u bytes, the section has %zu",
			    count, GRACE_HDR_LEN + count * GRACE_PAIR_LEN, n);
	len = 0;
	for (size_t i = 0; i < count && i < have && len < sizeof(regs); i++) {
		const uint8_t *pair = d + GRACE_HDR_LEN + i * GRACE_PAIR_LEN;

		len += (size_t) snprintf(regs + len, sizeof(regs) - len, "%s0x%" PRIx64 "=0x%" PRIx64,
					 len ? " " : "", arm_le64(pair), arm_le64(pair + 8));
	}
	if (len >= sizeof(regs))
		memcpy(regs + sizeof(regs) - 4, "...", 4);
	if (len)
		arm_added(o, ras_record_add_string(o->r, "registers", regs, SIZE_MAX));
}
