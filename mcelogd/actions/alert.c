/* SPDX-License-Identifier: MIT */
#include <stdio.h>

#include "actions.h"
#include "json-writer.h"
#include "module-json.h"
#include "rule-field.h"
#include "rule.h"

/*
 * The tripping record's identifying fields, as the rules saw them: where the
 * error is down to the DRAM row where the record says, so that a row alert
 * names socket, channel, DIMM, its slot, rank, bank group, bank and row.
 */
static const enum rule_field record_fields[] = {
	RULE_FIELD_KIND, RULE_FIELD_SOURCE, RULE_FIELD_SEVERITY, RULE_FIELD_COMPONENT,
	RULE_FIELD_CPU, RULE_FIELD_SOCKET, RULE_FIELD_BANK, RULE_FIELD_BANK_TYPE, RULE_FIELD_MC,
	RULE_FIELD_CHANNEL, RULE_FIELD_DIMM, RULE_FIELD_LABEL, RULE_FIELD_SLOT, RULE_FIELD_RANK, RULE_FIELD_BANK_GROUP,
	RULE_FIELD_DRAM_BANK, RULE_FIELD_ROW, RULE_FIELD_COLUMN, RULE_FIELD_ADDRESS, RULE_FIELD_PAGE,
};

void alert_write_json(const struct rule_alert *a, const char *hostname, const char *boot_id,
		      struct json_writer *w)
{
	json_writer_reset(w);
	json_object_begin(w, NULL);
	json_put_time_usec(w, "time", a->time_usec);
	json_put_string(w, "event", "alert");
	if (hostname && hostname[0])
		json_put_string(w, "hostname", hostname);
	if (boot_id && boot_id[0])
		json_put_string(w, "boot_id", boot_id);
	json_put_string(w, "rule", a->rule);
	json_put_string(w, "key", a->key);
	json_put_u64(w, "count", a->count);
	json_put_u64(w, "window_usec", a->window_usec);
	/* Alerts that do not count in a window (the DRAM fault-pattern watch) have no first. */
	if (a->first_usec > 0)
		json_put_time_usec(w, "first", a->first_usec);
	json_put_string(w, "priority", rule_priority_to_string(a->priority));
	json_put_string(w, "actions", a->actions);
	if (a->failed_action)
		json_put_string(w, "failed_action", a->failed_action);
	json_put_string(w, "message", a->message);
	if (a->repair)
		mem_repair_write_json(a->repair, w);
	if (a->module)
		module_change_write_json(a->module, w);
	if (a->input) {
		json_object_begin(w, "record");
		for (size_t i = 0; i < sizeof(record_fields) / sizeof(record_fields[0]); i++) {
			struct rule_value v;

			if (!rule_field_get(a->input, record_fields[i], &v))
				continue;
			if (v.is_string)
				json_put_string(w, rule_field_to_string(record_fields[i]), rule_value_string(&v));
			else if (record_fields[i] == RULE_FIELD_ADDRESS || record_fields[i] == RULE_FIELD_PAGE)
				json_put_hex(w, rule_field_to_string(record_fields[i]), v.u);
			else
				json_put_u64(w, rule_field_to_string(record_fields[i]), v.u);
		}
		json_object_end(w);
	}
	json_object_end(w);
}
