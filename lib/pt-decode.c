/* SPDX-License-Identifier: MIT */
/* The Intel PT stream summary shared by `mcectl pt` and mcelogd's PT snapshots; see pt-decode.h. */
#include <errno.h>
#include <inttypes.h>
#ifdef HAVE_LIBIPT
#include <intel-pt.h>
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "pt-decode.h"

const char *const pt_ip_kind_names[_PT_IP_KIND_MAX] = {
	[PT_IP_TIP]     = "tip",
	[PT_IP_TIP_PGE] = "tip.pge",
	[PT_IP_TIP_PGD] = "tip.pgd",
	[PT_IP_FUP]     = "fup",
};

#ifdef HAVE_LIBIPT
static const char *const packet_names[PT_PACKET_TYPES] = {
	[ppt_invalid]  = "invalid",
	[ppt_unknown]  = "unknown",
	[ppt_pad]      = "pad",
	[ppt_psb]      = "psb",
	[ppt_psbend]   = "psbend",
	[ppt_fup]      = "fup",
	[ppt_tip]      = "tip",
	[ppt_tip_pge]  = "tip.pge",
	[ppt_tip_pgd]  = "tip.pgd",
	[ppt_tnt_8]    = "tnt.8",
	[ppt_tnt_64]   = "tnt.64",
	[ppt_mode]     = "mode",
	[ppt_pip]      = "pip",
	[ppt_vmcs]     = "vmcs",
	[ppt_cbr]      = "cbr",
	[ppt_tsc]      = "tsc",
	[ppt_tma]      = "tma",
	[ppt_mtc]      = "mtc",
	[ppt_cyc]      = "cyc",
	[ppt_stop]     = "stop",
	[ppt_ovf]      = "ovf",
	[ppt_mnt]      = "mnt",
	[ppt_exstop]   = "exstop",
	[ppt_mwait]    = "mwait",
	[ppt_pwre]     = "pwre",
	[ppt_pwrx]     = "pwrx",
	[ppt_ptw]      = "ptw",
};

const char *pt_packet_type_name(unsigned type)
{
	return type < PT_PACKET_TYPES && packet_names[type] ? packet_names[type] : "other";
}
#else
/* Built without libipt (configure: Debian builds it for x86 only, where
 * Intel PT exists): no stream is decoded, so no packet has a type. */
const char *pt_packet_type_name(unsigned type)
{
	(void) type;
	return "other";
}
#endif

/* SDM, "IP Compression": IPBytes says how many low bytes the payload replaces
 * in the last IP, or that it is a sign-extended 48-bit or a full 64-bit IP. */
int pt_ip_reconstruct(struct pt_last_ip *last, unsigned ipc, uint64_t payload, uint64_t *ret_ip)
{
	uint64_t ip;

	switch (ipc) {
	case 0:                                  /* IP suppressed; last IP unchanged */
		return 0;
	case 1:                                  /* update bits 15:0 */
	case 2:                                  /* update bits 31:0 */
	case 4: {                                /* update bits 47:0 */
		unsigned bits = ipc == 1 ? 16 : ipc == 2 ? 32 : 48;
		uint64_t mask = (UINT64_C(1) << bits) - 1;

		if (!last->valid)
			return -ENODATA;
		ip = (last->ip & ~mask) | (payload & mask);
		break;
	}
	case 3:                                  /* bits 47:0, sign-extended from bit 47 */
		ip = (uint64_t) ((int64_t) (payload << 16) >> 16);
		break;
	case 6:                                  /* full 64-bit IP */
		ip = payload;
		break;
	default:                                 /* 5 and 7 are reserved */
		return -EBADMSG;
	}
	last->ip = ip;
	last->valid = true;
	*ret_ip = ip;
	return 1;
}

#ifdef HAVE_LIBIPT
static int list_push(struct pt_event_list *l, const void *e, size_t size)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		void *n = reallocarray(l->v, cap, size);

		if (!n)
			return -ENOMEM;
		l->v = n;
		l->cap = cap;
	}
	memcpy((char *) l->v + l->n * size, e, size);
	l->n++;
	return 0;
}

_printf_(3, 4)
static void add_error(struct pt_summary *s, uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	if (s->n_errors == PT_ERRORS_MAX) {
		s->errors_dropped++;
		return;
	}
	s->errors[s->n_errors].offset = offset;
	va_start(ap, fmt);
	vsnprintf(s->errors[s->n_errors].message, sizeof(s->errors[0].message), fmt, ap);
	va_end(ap);
	s->n_errors++;
}

static int note_ip(struct pt_summary *s, struct pt_last_ip *last, const struct pt_packet *p,
		   uint64_t offset, enum pt_ip_kind kind)
{
	struct pt_ip_event e = { .offset = offset, .kind = kind };
	int r = pt_ip_reconstruct(last, p->payload.ip.ipc, p->payload.ip.ip, &e.ip);

	if (r == 0) {
		s->ips_suppressed++;
		return 0;
	}
	if (r == -ENODATA) {
		s->ips_without_base++;
		return 0;
	}
	if (r < 0) {
		add_error(s, offset, "%s packet with a reserved IPBytes encoding", pt_ip_kind_names[kind]);
		return 0;
	}
	return list_push(&s->ips, &e, sizeof(e));
}

static int note_value(struct pt_event_list *l, uint64_t offset, uint64_t value, bool flag)
{
	struct pt_value_event e = { .offset = offset, .value = value, .flag = flag };

	return list_push(l, &e, sizeof(e));
}

static unsigned exec_mode_bits(const struct pt_packet_mode_exec *m)
{
	switch (pt_get_exec_mode(m)) {
	case ptem_16bit: return 16;
	case ptem_32bit: return 32;
	case ptem_64bit: return 64;
	default:         return 0;
	}
}

static int note_packet(struct pt_summary *s, struct pt_last_ip *last, const struct pt_packet *p,
		       uint64_t offset)
{
	s->n_packets++;
	s->counts[p->type < PT_PACKET_TYPES ? p->type : ppt_unknown]++;
	switch (p->type) {
	case ppt_psb:
		*last = (struct pt_last_ip) {};  /* SDM: PSB resets the last IP */
		return 0;
	case ppt_tsc:
		if (!s->have_tsc)
			s->tsc_first = p->payload.tsc.tsc;
		s->have_tsc = true;
		s->tsc_last = p->payload.tsc.tsc;
		return 0;
	case ppt_cbr:
		return note_value(&s->cbr, offset, p->payload.cbr.ratio, false);
	case ppt_pip:
		return note_value(&s->pip, offset, p->payload.pip.cr3, p->payload.pip.nr);
	case ppt_mode:
		if (p->payload.mode.leaf != pt_mol_exec)
			return 0;
		return note_value(&s->modes, offset, exec_mode_bits(&p->payload.mode.bits.exec), false);
	case ppt_tip:
		return note_ip(s, last, p, offset, PT_IP_TIP);
	case ppt_tip_pge:
		return note_ip(s, last, p, offset, PT_IP_TIP_PGE);
	case ppt_tip_pgd:
		return note_ip(s, last, p, offset, PT_IP_TIP_PGD);
	case ppt_fup:
		return note_ip(s, last, p, offset, PT_IP_FUP);
	default:
		return 0;
	}
}

static void free_decoder(struct pt_packet_decoder **d)
{
	if (*d)
		pt_pkt_free_decoder(*d);
}

static struct pt_packet_decoder *alloc_decoder(const uint8_t *buf, size_t len)
{
	struct pt_config config;

	pt_config_init(&config);
	/* libipt never writes through begin/end in the packet decoder */
	config.begin = (uint8_t *) buf;
	config.end = (uint8_t *) buf + len;
	return pt_pkt_alloc_decoder(&config);
}

/*
 * Points the decoder at the first PSB that starts at or after `from`.
 *
 * We find it ourselves instead of calling pt_pkt_sync_forward(): libipt
 * 2.0.5, Debian 12's, hands the position just past a matching 8-byte word to
 * its PSB check, which reads that byte even when it is config->end.  A trace
 * whose last 8 bytes are PSB payload (a snapshot cut inside a PSB) made it
 * read outside the buffer (fuzz-pt-stream, corpus libipt-sync-forward-overread).
 *
 * A PSB is 02 82 eight times (SDM Vol. 3C, "PSB Packet").  In a longer run
 * of that pair the PSB is its last 16 bytes, as libipt also reads it: the
 * bytes before belong to the packet before it.
 */
static int sync_from(struct pt_packet_decoder *d, const uint8_t *buf, size_t len, size_t from,
		     uint64_t *ret_offset)
{
	static const uint8_t psb[16] = {
		0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
		0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
	};

	while (from < len) {
		const uint8_t *hit = memmem(buf + from, len - from, psb, sizeof(psb));
		size_t at;

		if (!hit)
			return -ENODATA;
		at = (size_t) (hit - buf);
		while (len - at >= sizeof(psb) + 2 && buf[at + 16] == 0x02 && buf[at + 17] == 0x82)
			at += 2;
		if (pt_pkt_sync_set(d, at) >= 0) {
			*ret_offset = at;
			return 0;
		}
		from = at + 1;
	}
	return -ENODATA;
}

int pt_summarize(const uint8_t *buf, size_t len, struct pt_summary *s)
{
	_cleanup_(free_decoder) struct pt_packet_decoder *d = NULL;
	struct pt_last_ip last = {};
	bool synced = false;
	size_t resume = 0;
	int r;

	*s = (struct pt_summary) { .bytes = len };
	if (len == 0) {
		add_error(s, 0, "%s", "empty trace");
		return 0;
	}
	d = alloc_decoder(buf, len);
	if (!d)
		return -ENOMEM;

	for (;;) {
		struct pt_packet p;
		uint64_t offset = 0;

		if (!synced) {
			/* A snapshot starts anywhere in the stream: decode from the first PSB. */
			r = sync_from(d, buf, len, resume, &offset);
			if (r < 0) {
				if (s->n_packets == 0 && s->n_errors == 0)
					add_error(s, 0, "%s", "no PSB packet: not an Intel PT stream, or too short");
				return 0;
			}
			synced = true;
			if (s->n_packets == 0)
				s->sync_offset = offset;
			last = (struct pt_last_ip) {};
		}
		if (pt_pkt_get_offset(d, &offset) < 0)
			offset = 0;
		r = pt_pkt_next(d, &p, sizeof(p));
		if (r == -pte_eos) {
			if (offset < len)
				add_error(s, offset, "%s", "truncated packet at the end of the trace");
			return 0;
		}
		if (r < 0) {
			add_error(s, offset, "%s: resuming at the next PSB", pt_errstr(pt_errcode(r)));
			synced = false;
			resume = (size_t) offset + 1;   /* no PSB starts at a packet that failed */
			continue;
		}
		r = note_packet(s, &last, &p, offset);
		if (r < 0)
			return r;
	}
}
#else
int pt_summarize(const uint8_t *buf, size_t len, struct pt_summary *s)
{
	(void) buf;
	*s = (struct pt_summary) { .bytes = len };
	return -EOPNOTSUPP;
}
#endif

void pt_summary_done(struct pt_summary *s)
{
	free(s->ips.v);
	free(s->cbr.v);
	free(s->pip.v);
	free(s->modes.v);
	*s = (struct pt_summary) {};
}

#ifdef HAVE_LIBIPT
int pt_first_tsc(const uint8_t *buf, size_t len, uint64_t *ret_tsc)
{
	_cleanup_(free_decoder) struct pt_packet_decoder *d = NULL;
	size_t resume = 0;
	int r;

	if (len == 0)
		return -ENODATA;
	d = alloc_decoder(buf, len);
	if (!d)
		return -ENOMEM;
	for (;;) {
		struct pt_packet p;
		uint64_t offset;

		if (sync_from(d, buf, len, resume, &offset) < 0)
			return -ENODATA;
		/* a bad packet: on to the next PSB */
		while ((r = pt_pkt_next(d, &p, sizeof(p))) >= 0)
			if (p.type == ppt_tsc) {
				*ret_tsc = p.payload.tsc.tsc;
				return 0;
			}
		if (r == -pte_eos || pt_pkt_get_offset(d, &offset) < 0)
			return -ENODATA;
		resume = (size_t) offset + 1;
	}
}
#else
int pt_first_tsc(const uint8_t *buf, size_t len, uint64_t *ret_tsc)
{
	(void) buf, (void) len, (void) ret_tsc;
	return -EOPNOTSUPP;
}
#endif
