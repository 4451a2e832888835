/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Tracepoint samples built to a format file's offsets, for the decoder
 * tests (test-ras-trace, test-cxl-trace): fixed fields where the format
 * puts them, __data_loc payloads behind them, as the kernel lays them out.
 */
#include <stddef.h>
#include <stdint.h>

#include "ras-record.h"
#include "ras-trace.h"
#include "tracefs-format.h"

/* A sample under construction: fixed fields at the format's offsets, dynamic data behind them. */
struct sample {
	unsigned char b[1024];
	size_t size;      /* end of the data written so far */
};

char *slurp(const char *name, size_t *len);
void load(struct ras_tp_layout *l, enum ras_tp tp, const char *file);
void sample_init(struct sample *s, const struct ras_tp_layout *l);
const struct trace_field *field(const struct ras_tp_layout *l, const char *name);
void put(struct sample *s, const struct ras_tp_layout *l, const char *name, uint64_t v);
void put_bytes(struct sample *s, const struct ras_tp_layout *l, const char *name, const void *p,
	       size_t n);
/* A __data_loc payload appended at the end, as the kernel lays them out. */
void put_dyn(struct sample *s, const struct ras_tp_layout *l, const char *name, const void *p,
	     size_t n);
void put_str(struct sample *s, const struct ras_tp_layout *l, const char *name, const char *str);
void decode_ok(const struct ras_tp_layout *l, const struct sample *s, struct ras_record *r);
const char *str(const struct ras_record *r, const char *key);
uint64_t num(const struct ras_record *r, const char *key);
char *json(const struct ras_record *r);
