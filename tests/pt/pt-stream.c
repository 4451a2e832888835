/* SPDX-License-Identifier: MIT */
#include <intel-pt.h>
#include <string.h>

#include "pt-stream.h"

#define IP(t, c, v)  { .type = (t), .payload.ip = { .ipc = (c), .ip = (v) } }

/*
 * The reference stream, packet by packet; the tests expect exactly:
 *   counts: psb 2, psbend 2, tsc 2, cbr 2, mode 2, tip.pge 2, tnt.8 1, tip 3,
 *           fup 1, pip 1, tip.pgd 2, pad 1
 *   TSC 0x1000 .. 0x2000; CBR 36 then 40; CR3 0x12345000; modes 64 then 32
 *   ips: tip.pge 0xffffffff81000100, tip 0xffffffff81000234,
 *        fup 0xffffffff81001000, tip.pge 0x401000, tip 0x401234,
 *        tip.pgd 0x401300
 *   one TIP.PGD with the IP suppressed, one TIP compressed with no base
 *   (right after the second PSB).
 */
static const struct pt_packet reference[] = {
	{ .type = ppt_psb },
	{ .type = ppt_tsc, .payload.tsc.tsc = 0x1000 },
	{ .type = ppt_cbr, .payload.cbr.ratio = 36 },
	{ .type = ppt_mode, .payload.mode = { .leaf = pt_mol_exec, .bits.exec = { .csl = 1 } } },
	{ .type = ppt_psbend },
	IP(ppt_tip_pge, pt_ipc_sext_48, 0xffffffff81000100),
	{ .type = ppt_tnt_8, .payload.tnt = { .bit_size = 3, .payload = 0x5 } },
	IP(ppt_tip, pt_ipc_update_16, 0x0234),                 /* against the last IP */
	{ .type = ppt_pip, .payload.pip = { .cr3 = 0x12345000 } },
	{ .type = ppt_pad },
	{ .type = ppt_tsc, .payload.tsc.tsc = 0x2000 },
	{ .type = ppt_cbr, .payload.cbr.ratio = 40 },
	{ .type = ppt_mode, .payload.mode = { .leaf = pt_mol_exec, .bits.exec = { .csd = 1 } } },
	IP(ppt_fup, pt_ipc_update_32, 0x81001000),
	IP(ppt_tip_pgd, pt_ipc_suppressed, 0),
	IP(ppt_tip_pge, pt_ipc_sext_48, 0x401000),
	IP(ppt_tip, pt_ipc_update_16, 0x1234),
	IP(ppt_tip_pgd, pt_ipc_full, 0x401300),
	{ .type = ppt_psb },
	{ .type = ppt_psbend },
	IP(ppt_tip, pt_ipc_update_16, 0x5678),                 /* no last IP since the PSB */
};

static void free_encoder(struct pt_encoder **e)
{
	if (*e)
		pt_free_encoder(*e);
}

static int encode(const struct pt_packet *p, size_t n, uint8_t *buf, size_t cap)
{
	__attribute__((cleanup(free_encoder))) struct pt_encoder *e = NULL;
	struct pt_config config;
	uint64_t offset;
	int r;

	pt_config_init(&config);
	config.begin = buf;
	config.end = buf + cap;
	e = pt_alloc_encoder(&config);
	if (!e)
		return -pte_nomem;
	for (size_t i = 0; i < n; i++) {
		struct pt_packet copy = p[i];

		r = pt_enc_next(e, &copy);
		if (r < 0)
			return r;
	}
	r = pt_enc_get_offset(e, &offset);
	return r < 0 ? r : (int) offset;
}

int pt_stream_reference(uint8_t *buf, size_t cap)
{
	return encode(reference, sizeof(reference) / sizeof(reference[0]), buf, cap);
}

int pt_stream_bad_opcode(uint8_t *buf, size_t cap)
{
	static const struct pt_packet head[] = { { .type = ppt_psb }, { .type = ppt_psbend } };
	int n = encode(head, 2, buf, cap);

	if (n < 0 || (size_t) n + 2 > cap)
		return n < 0 ? n : -pte_eos;
	buf[n] = 0x02;          /* extended opcode escape ... */
	buf[n + 1] = 0x02;      /* ... with an extension no packet uses */
	return n + 2;
}
