/* SPDX-License-Identifier: MIT */
/*
 * NVIDIA Vera vendor CPER section (type 9068e568-6ca0-11f0-aeaf-159343591eac).
 * NVIDIA publishes the layout in the decoder it contributed to rasdaemon
 * (events-arch-arm/non-standard-nvidia.c, "nvidia_vera_*"), read here for
 * the facts only:
 *   event header, 32 bytes: 0 version (1), 1 context count, 2 source device
 *     type (0: CPU), 4 event type (u16), 6 event subtype (u16), 8 event link
 *     id (u64), 16 source module signature (16 bytes of text)
 *   CPU information at 32: 0 version (u16), 2 its size (u8, at least 32),
 *     3 socket, 4 architecture (u32), 8 chip serial number (16 bytes),
 *     24 instance base (u64); the contexts follow after its size
 *   each context: 0 context size (u32), 4 version (u16), 8 data format (u16:
 *     0 opaque, 1 64-bit address/value pairs, 2 32-bit pairs, 3 64-bit
 *     values, 4 32-bit values), 10 format version, 12 data size (u32), 16 the
 *     data; the next context begins after the context size, or right after
 *     the data when the size is just the 16-byte header.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "arm-internal.h"
#include "ras-record.h"

#define VERA_EVENT_LEN 32
#define VERA_CPU_LEN 32
#define VERA_CTX_HDR_LEN 16

/* A data format's entry: how many bytes, and whether it is an address/value pair. */
static const struct {
	unsigned width;
	bool pair;
} formats[] = {
	[1] = { 8, true }, [2] = { 4, true }, [3] = { 8, false }, [4] = { 4, false },
};

static uint64_t read_width(const uint8_t *p, unsigned width)
{
	return width == 8 ? arm_le64(p) : arm_le32(p);
}

/* Appends one context's entries to text as "c0:0xADDR=0xVALUE" or "c0:0xVALUE". */
static size_t describe_context(unsigned index, uint16_t format, const uint8_t *data, uint32_t size, char *text,
			       size_t len, size_t text_size)
{
	unsigned w = formats[format].width, step = formats[format].pair ? 2 * w : w;

	for (uint32_t off = 0; off + step <= size && len < text_size; off += step) {
		if (formats[format].pair)
			len += (size_t) snprintf(text + len, text_size - len, "%sc%u:0x%" PRIx64 "=0x%" PRIx64,
						 len ? " " : "", index, read_width(data + off, w),
						 read_width(data + off + w, w));
		else
			len += (size_t) snprintf(text + len, text_size - len, "%sc%u:0x%" PRIx64, len ? " " : "",
						 index, read_width(data + off, w));
	}
	return len;
}

static void add_contexts(struct arm_out *o, const uint8_t *d, size_t n, size_t off, unsigned count)
{
	char text[2048];
	size_t len = 0;

	for (unsigned i = 0; i < count; i++) {
		uint32_t ctx_size, data_size;
		uint16_t format;
		size_t advance;

		if (n - off < VERA_CTX_HDR_LEN) {
			arm_problem(o, off, "NVIDIA Vera section: context %u of %u: header needs %d bytes, %zu left",
				    i + 1, count, VERA_CTX_HDR_LEN, n - off);
			break;
		}
		ctx_size = arm_le32(d + off);
		format = arm_le16(d + off + 8);
		data_size = arm_le32(d + off + 12);
		if (data_size > n - off - VERA_CTX_HDR_LEN) {
			arm_problem(o, off + 12, "NVIDIA Vera section: context %u: data size %" PRIu32
				    " runs past the end (%zu bytes left)", i + 1, data_size, n - off - VERA_CTX_HDR_LEN);
			break;
		}
		advance = ctx_size == VERA_CTX_HDR_LEN ? VERA_CTX_HDR_LEN + (size_t) data_size : ctx_size;
		if (advance < VERA_CTX_HDR_LEN + (size_t) data_size || advance > n - off) {
			arm_problem(o, off, "NVIDIA Vera section: context %u: size %" PRIu32 " does not hold its "
				    "%" PRIu32 " data bytes within the section", i + 1, ctx_size, data_size);
			break;
		}
		if (format < ELEMENTSOF(formats) && formats[format].width)
			len = describe_context(i, format, d + off + VERA_CTX_HDR_LEN, data_size, text, len, sizeof(text));
		off += advance;
	}
	if (len >= sizeof(text))
		memcpy(text + sizeof(text) - 4, "...", 4);
	if (len)
		arm_added(o, ras_record_add_string(o->r, "registers", text, SIZE_MAX));
}

void arm_vendor_nvidia_vera_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size)
{
	char sig[17];
	size_t len, info_size;

	if (n < VERA_EVENT_LEN + VERA_CPU_LEN) {
		arm_problem(o, 0, "NVIDIA Vera section: the event and CPU headers need %d bytes, the section has %zu",
			    VERA_EVENT_LEN + VERA_CPU_LEN, n);
		return;
	}
	for (len = 0; len < 16 && d[16 + len]; len++)
		sig[len] = d[16 + len] >= 0x20 && d[16 + len] < 0x7f ? (char) d[16 + len] : '?';
	sig[len] = '\0';
	arm_added(o, ras_record_add_string(o->r, "vendor", "NVIDIA", SIZE_MAX));
	arm_added(o, ras_record_add_uint(o->r, "vendor_section_version", d[0]));
	if (sig[0])
		arm_added(o, ras_record_add_string(o->r, "signature", sig, SIZE_MAX));
	arm_added(o, ras_record_add_uint(o->r, "source_device_type", d[2]));
	arm_added(o, ras_record_add_uint(o->r, "vendor_error_type", arm_le16(d + 4)));
	arm_added(o, ras_record_add_uint(o->r, "vendor_error_subtype", arm_le16(d + 6)));
	arm_added(o, ras_record_add_hex64(o->r, "event_link_id", arm_le64(d + 8)));
	arm_added(o, ras_record_add_uint(o->r, "socket", d[VERA_EVENT_LEN + 3]));
	arm_added(o, ras_record_add_hex(o->r, "architecture", arm_le32(d + VERA_EVENT_LEN + 4)));
	arm_added(o, ras_record_add_bytes(o->r, "chip_serial_number", d + VERA_EVENT_LEN + 8, 16));
	arm_added(o, ras_record_add_hex64(o->r, "instance_base", arm_le64(d + VERA_EVENT_LEN + 24)));
	arm_added(o, ras_record_add_uint(o->r, "context_count", d[1]));
	snprintf(what, what_size, "NVIDIA Vera %s error type %u.%u, socket %u", sig[0] ? sig : "(no signature)",
		 arm_le16(d + 4), arm_le16(d + 6), d[VERA_EVENT_LEN + 3]);
	if (d[0] != 1) {
		/* Only version 1 is published: the rest of a later version is not read as if it were. */
		arm_problem(o, 0, "NVIDIA Vera section: version %u, only version 1 is known", d[0]);
		return;
	}
	info_size = d[VERA_EVENT_LEN + 2];
	if (info_size < VERA_CPU_LEN || info_size > n - VERA_EVENT_LEN) {
		arm_problem(o, VERA_EVENT_LEN + 2, "NVIDIA Vera section: CPU information size %zu is not between %d "
			    "and the %zu bytes left", info_size, VERA_CPU_LEN, n - VERA_EVENT_LEN);
		return;
	}
	add_contexts(o, d, n, VERA_EVENT_LEN + info_size, d[1]);
}
