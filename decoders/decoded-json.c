/* SPDX-License-Identifier: MIT */
/*
 * The decoded keys of the record contract (issue 3), appended to an object
 * the caller (mce_record_write_json()) has opened.
 *
 * Absent fields are omitted, never written as null.  "unknown" markers, and
 * when we write them:
 *  - cpu_model: "unknown" whenever no model decoder matched the CPU, so a
 *    reader can tell "we had no tables" from "the tables had nothing to say";
 *  - bank_name, bank_type: "unknown" when the record names a bank that no
 *    table describes (d->has_bank); absent when the record has no bank;
 *  - description: "unknown" when there is a model-specific or extended
 *    error code but no table entry for it;
 *  - error_class: "unknown" when MCACOD matches no architectural form.
 * The raw values (status, misc, model_specific_code, ...) are always there
 * next to the marker.
 */
#include <stdbool.h>

#include "decode.h"
#include "json-writer.h"

static const char *const transaction_type_names[] = {
	[MCE_TT_INSTRUCTION] = "instruction", [MCE_TT_DATA] = "data", [MCE_TT_GENERIC] = "generic",
};
static const char *const request_names[] = {
	[MCE_RQ_GENERIC] = "generic",
	[MCE_RQ_READ] = "read",
	[MCE_RQ_WRITE] = "write",
	[MCE_RQ_DATA_READ] = "data_read",
	[MCE_RQ_DATA_WRITE] = "data_write",
	[MCE_RQ_INSTRUCTION_FETCH] = "instruction_fetch",
	[MCE_RQ_PREFETCH] = "prefetch",
	[MCE_RQ_EVICTION] = "eviction",
	[MCE_RQ_SNOOP] = "snoop",
};
static const char *const memory_transaction_names[] = {
	[MCE_MT_GENERIC] = "generic",
	[MCE_MT_READ] = "read",
	[MCE_MT_WRITE] = "write",
	[MCE_MT_ADDRESS_COMMAND] = "address_command",
	[MCE_MT_MEMORY_SCRUBBING] = "memory_scrubbing",
};

#define NAME(table, i) \
	((unsigned) (i) < sizeof(table) / sizeof(table[0]) ? table[i] : NULL)

/* Every string of struct mce_decoded is static: the decoders' tables and literals. */
static inline __attribute__((always_inline)) void put_opt_string(struct json_writer *w, struct json_key key,
								    const char *v)
{
	if (v)
		json_put_static_k(w, key, v);
}

/*
 * The members from "severity" to "description": static strings all, so
 * the same for every record that names the same ones (the key), and
 * written again from the writer's memory for those (json_run_again()).
 */
static void write_names(const struct mce_decoded *d, struct json_writer *w)
{
	size_t n_flags = d->n_flags < MCE_MAX_FLAGS ? d->n_flags : MCE_MAX_FLAGS, n = 0, start;
	const char *description = d->description;
	const void *key[8 + MCE_MAX_FLAGS];
	const char *bank_name = d->bank_name, *bank_type = d->bank_type;

	if (d->has_bank) {
		bank_name = bank_name ? bank_name : "unknown";
		bank_type = bank_type ? bank_type : "unknown";
	}
	if (!description && (d->has_model_specific_code || d->has_extended_error_code))
		description = "unknown";
	key[n++] = mce_severity_to_string(d->severity);
	key[n++] = mce_recovery_to_string(d->recovery);
	key[n++] = mce_error_class_to_string(d->error_class);
	key[n++] = d->cpu_model ? d->cpu_model : "unknown";
	key[n++] = bank_name;
	key[n++] = bank_type;
	key[n++] = description;
	key[n++] = (const void *) (uintptr_t) n_flags;
	for (size_t i = 0; i < n_flags; i++)
		key[n++] = d->flags[i];
	if (json_run_again(w, key, n))
		return;

	start = json_run_start(w);
	json_put_static_k(w, JSON_KEY("severity"), key[0]);
	put_opt_string(w, JSON_KEY("recovery"), key[1]);
	json_array_begin_k(w, JSON_KEY("flags"));
	json_put_statics(w, d->flags, n_flags);
	json_array_end(w);
	json_put_static_k(w, JSON_KEY("error_class"), key[2]);
	json_put_static_k(w, JSON_KEY("cpu_model"), key[3]);
	put_opt_string(w, JSON_KEY("bank_name"), bank_name);
	put_opt_string(w, JSON_KEY("bank_type"), bank_type);
	put_opt_string(w, JSON_KEY("description"), description);
	json_run_keep(w, key, n, start);
}

void mce_decoded_write_json(const struct mce_decoded *d, struct json_writer *w)
{
	struct json_members m;

	write_names(d, w);

	if (d->cache_level == MCE_LEVEL_GENERIC)
		json_put_static_k(w, JSON_KEY("cache_level"), "generic");
	else if (d->cache_level != MCE_LEVEL_ABSENT)
		json_put_u64_k(w, JSON_KEY("cache_level"), (uint64_t) (d->cache_level - MCE_LEVEL_0));
	if (d->transaction_type != MCE_TT_ABSENT)
		put_opt_string(w, JSON_KEY("transaction_type"), NAME(transaction_type_names, d->transaction_type));
	if (d->request != MCE_RQ_ABSENT)
		put_opt_string(w, JSON_KEY("request"), NAME(request_names, d->request));
	if (d->memory_transaction != MCE_MT_ABSENT)
		put_opt_string(w, JSON_KEY("memory_transaction"),
			       NAME(memory_transaction_names, d->memory_transaction));
	if (d->channel >= 0)
		json_put_i64_k(w, JSON_KEY("channel"), d->channel);
	put_opt_string(w, JSON_KEY("participation"), d->participation);
	if (d->timeout >= 0)
		json_put_bool_k(w, JSON_KEY("timeout"), d->timeout != 0);
	put_opt_string(w, JSON_KEY("memory_or_io"), d->memory_or_io);

	/*
	 * The runs of numbers are written as members under one check of the
	 * room (json-writer.h): a member is at most a comma, its key and 21
	 * bytes of value.
	 */
	if ((d->has_model_specific_code || d->has_extended_error_code || d->has_corrected_count) &&
	    json_members_begin(w, &m, 3 * (1 + sizeof("\"model_specific_code\":") + 21))) {
		if (d->has_model_specific_code)
			json_member_u64(&m, JSON_KEY("model_specific_code"), d->model_specific_code);
		if (d->has_extended_error_code)
			json_member_u64(&m, JSON_KEY("extended_error_code"), d->extended_error_code);
		if (d->has_corrected_count)
			json_member_u64(&m, JSON_KEY("corrected_count"), d->corrected_count);
		json_members_end(w, &m);
	}
	put_opt_string(w, JSON_KEY("threshold_status"), d->threshold_status);
	if (d->has_address_lsb)
		json_put_u64_k(w, JSON_KEY("address_lsb"), d->address_lsb);
	put_opt_string(w, JSON_KEY("address_mode"), d->address_mode);
	if (d->has_page)
		json_put_hex_k(w, JSON_KEY("page"), d->page);
	put_opt_string(w, JSON_KEY("no_page"), d->no_page);
	if ((d->dimm >= 0 || d->rank >= 0 || d->chip_select >= 0 || d->row >= 0) &&
	    json_members_begin(w, &m, 7 * (1 + sizeof("\"chip_select\":") + 21))) {
		if (d->dimm >= 0)
			json_member_i64(&m, JSON_KEY("dimm"), d->dimm);
		if (d->rank >= 0)
			json_member_i64(&m, JSON_KEY("rank"), d->rank);
		if (d->chip_select >= 0)
			json_member_i64(&m, JSON_KEY("chip_select"), d->chip_select);
		if (d->row >= 0) {
			json_member_i64(&m, JSON_KEY("bank_group"), d->bank_group);
			json_member_i64(&m, JSON_KEY("dram_bank"), d->dram_bank);
			json_member_i64(&m, JSON_KEY("row"), d->row);
			json_member_i64(&m, JSON_KEY("column"), d->column);
		}
		json_members_end(w, &m);
	}
	if (d->has_syndrome)
		json_put_hex64_k(w, JSON_KEY("syndrome"), d->syndrome);
	if (d->fru_text[0])
		json_put_string_k(w, JSON_KEY("fru_text"), d->fru_text);

	if (d->n_details) {
		json_object_begin_k(w, JSON_KEY("details"));
		for (unsigned i = 0; i < d->n_details && i < MCE_MAX_DETAILS; i++) {
			const struct mce_detail *x = &d->details[i];

			/* A named value reads best as its text; the number is in the registers. */
			if (x->text)
				json_put_static(w, x->name, x->text);
			else
				json_put_u64_static_key(w, x->name, x->value);
		}
		json_object_end(w);
	}
}
