/* SPDX-License-Identifier: MIT */
/*
 * mcectl pages: the known-bad pages and the DRAM rows the rules isolated,
 * from the daemon's state (rules/rule-state.h), each page with the machine
 * and the memory it was on and the record that made it bad; and, through
 * the daemon (which owns the state), forgetting a page.  The daemon logs
 * each forget as an alert entry of its own, so the journal says who forgot
 * what and when.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <systemd/sd-id128.h>

#include "control-client.h"
#include "json-writer.h"
#include "macro.h"
#include "parse-number.h"
#include "rfc3339.h"
#include "state-file.h"
#include "verbs.h"

static void help(void)
{
	printf("Usage: mcectl pages [OPTIONS]\n"
	       "Show the pages the rules took out of use (known bad, offlined again at every start)\n"
	       "and the DRAM rows they isolated, with the memory each page was on.\n\n"
	       "      --state FILE       the daemon's state (default %s)\n"
	       "      --forget PFN       ask the running daemon to forget a page (root only; logged)\n"
	       "      --socket PATH      the daemon's control socket, for --forget (default %s)\n"
	       "  -o, --output FORMAT    table (default) or json\n"
	       "  -h, --help             show this help\n", STATE_FILE_DEFAULT, CONTROL_SOCKET_DEFAULT);
}

static const char *page_status(const struct rule_state_page *p)
{
	return p->pending ? "pending" : p->salvaged ? "salvaged" : p->held ? "held" : p->ok ? "done" : "failed";
}

/* "this", "other" or "unknown": whether the page was offlined on the machine we run on. */
static const char *whose(const struct rule_state_page *p, const char *machine_id)
{
	if (!p->machine_id[0] || !machine_id[0])
		return "unknown";
	return streq(p->machine_id, machine_id) ? "this" : "other";
}

static void time_text(uint64_t usec, char *buf, size_t size)
{
	if (usec == 0 || format_rfc3339_usec(buf, size, (int64_t) usec) < 0)
		snprintf(buf, size, "-");
}

static void show_table(const struct rule_state *st, const char *machine_id)
{
	char when[RFC3339_MAX];

	printf("Known-bad pages: %u\n", st->n_pages);
	if (st->n_pages > 0)
		printf("  %-12s %-4s %-7s %-27s %-7s %s\n", "PFN", "MODE", "STATUS", "WHEN", "MACHINE",
		       "MEMORY / ORIGIN");
	for (unsigned i = 0; i < st->n_pages; i++) {
		const struct rule_state_page *p = &st->pages[i];

		time_text(p->time_usec, when, sizeof(when));
		printf("  0x%-10" PRIx64 " %-4s %-7s %-27s %-7s %s\n", p->pfn, p->hard ? "hard" : "soft",
		       page_status(p), when, whose(p, machine_id), p->identity[0] ? p->identity : "-");
		if (p->origin[0])
			printf("  %56s %s\n", "", p->origin);
	}
	printf("\nDRAM rows past their threshold (offline-row):\n");
	for (unsigned i = 0, n = 0; i < st->n_rows; i++) {
		const struct rule_state_row *r = &st->rows[i];

		if (!r->isolated_usec) {
			if (i + 1 == st->n_rows && n == 0)
				printf("  none\n");
			continue;
		}
		n++;
		time_text(r->isolated_usec, when, sizeof(when));
		printf("  %s %s since %s:", r->rule, r->key, when);
		for (unsigned k = 0; k < r->n_pages; k++)
			printf(" 0x%" PRIx64, r->pages[k].pfn);
		printf("\n");
	}
	if (st->n_rows == 0)
		printf("  none\n");
}

static int show_json(const struct rule_state *st, const char *machine_id)
{
	struct json_writer w;
	int r = 0;

	json_writer_init(&w);
	json_object_begin(&w, NULL);
	json_array_begin(&w, "pages");
	for (unsigned i = 0; i < st->n_pages; i++) {
		const struct rule_state_page *p = &st->pages[i];
		char hex[24];

		json_object_begin(&w, NULL);
		snprintf(hex, sizeof(hex), "0x%" PRIx64, p->pfn);
		json_put_string(&w, "pfn", hex);
		snprintf(hex, sizeof(hex), "0x%" PRIx64, p->pfn << 12);
		json_put_string(&w, "address", hex);
		json_put_string(&w, "mode", p->hard ? "hard" : "soft");
		json_put_string(&w, "status", page_status(p));
		json_put_time_usec(&w, "time", (int64_t) p->time_usec);
		json_put_string(&w, "boot_id", p->boot_id);
		json_put_string(&w, "machine_id", p->machine_id);
		json_put_string(&w, "machine", whose(p, machine_id));
		json_put_string(&w, "memory", p->identity);
		json_put_string(&w, "origin", p->origin);
		json_object_end(&w);
	}
	json_array_end(&w);
	json_array_begin(&w, "rows");
	for (unsigned i = 0; i < st->n_rows; i++) {
		const struct rule_state_row *row = &st->rows[i];

		json_object_begin(&w, NULL);
		json_put_string(&w, "rule", row->rule);
		json_put_string(&w, "key", row->key);
		json_put_bool(&w, "isolated", row->isolated_usec != 0);
		if (row->isolated_usec)
			json_put_time_usec(&w, "isolated_time", (int64_t) row->isolated_usec);
		json_array_begin(&w, "pages");
		for (unsigned k = 0; k < row->n_pages; k++) {
			char hex[24];

			snprintf(hex, sizeof(hex), "0x%" PRIx64, row->pages[k].pfn);
			json_put_string(&w, NULL, hex);
		}
		json_array_end(&w);
		json_object_end(&w);
	}
	json_array_end(&w);
	json_object_end(&w);
	if (json_writer_failed(&w))
		r = -ENOMEM;
	else
		printf("%s\n", json_writer_str(&w));
	json_writer_done(&w);
	return r;
}

static int forget(const char *socket, const char *pfn_text)
{
	_cleanup_free_ char *answer = NULL;
	char request[64];
	uint64_t pfn;
	size_t n = strlen(pfn_text);
	int r;

	if (n > 2 && pfn_text[0] == '0' && (pfn_text[1] == 'x' || pfn_text[1] == 'X'))
		r = parse_unsigned(pfn_text + 2, n - 2, 16, (UINT64_C(1) << 52) - 1, &pfn);
	else
		r = -EINVAL;
	if (r < 0) {
		fprintf(stderr, "mcectl pages: --forget '%s': expected a page frame number in hex, 0x..., "
			"below 2^52 (as mcectl pages shows it)\n", pfn_text);
		return 2;
	}
	snprintf(request, sizeof(request), "forget-page 0x%" PRIx64 "\n", pfn);
	r = control_ask(socket, request, &answer);
	if (r < 0)
		return control_ask_failed("pages", socket, r);
	fputs(answer, stdout);
	return strstr(answer, "\"forgotten\":true") ? 0 : 1;
}

int verb_pages(int argc, char *argv[])
{
	enum { ARG_STATE = 0x100, ARG_FORGET, ARG_SOCKET };
	static const struct option options[] = {
		{ "state",  required_argument, NULL, ARG_STATE },
		{ "forget", required_argument, NULL, ARG_FORGET },
		{ "socket", required_argument, NULL, ARG_SOCKET },
		{ "output", required_argument, NULL, 'o' },
		{ "help",   no_argument,       NULL, 'h' },
		{}
	};
	const char *state = STATE_FILE_DEFAULT, *forget_pfn = NULL, *socket = CONTROL_SOCKET_DEFAULT;
	char machine_id[SD_ID128_STRING_MAX] = "";
	struct rule_state st = { 0 };
	bool json = false;
	sd_id128_t id;
	int opt, r;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:h", options, NULL)) >= 0) {
		switch (opt) {
		case ARG_STATE:  state = optarg; break;
		case ARG_FORGET: forget_pfn = optarg; break;
		case ARG_SOCKET: socket = optarg; break;
		case 'o':
			if (!streq(optarg, "json") && !streq(optarg, "table")) {
				fprintf(stderr, "mcectl pages: --output '%s': expected table or json\n", optarg);
				return 2;
			}
			json = streq(optarg, "json");
			break;
		case 'h':
			help();
			return 0;
		case ':':
			fprintf(stderr, "mcectl pages: %s needs a value\n", argv[optind - 1]);
			return 2;
		default:
			fprintf(stderr, "mcectl pages: unknown option '%s' (see --help)\n", argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "mcectl pages: unexpected argument '%s' (see --help)\n", argv[optind]);
		return 2;
	}
	if (forget_pfn)
		return forget(socket, forget_pfn);
	if (sd_id128_get_machine(&id) >= 0)
		sd_id128_to_string(id, machine_id);
	r = state_file_read("pages", state, &st);
	if (r == -ENOENT) {
		if (json)
			printf("{\"pages\":[],\"rows\":[]}\n");
		else
			printf("No state yet (%s): no page is known bad.\n", state);
		return 0;
	}
	if (r < 0)
		return 1;
	if (json)
		r = show_json(&st, machine_id);
	else
		show_table(&st, machine_id);
	rule_state_done(&st);
	return r < 0 ? 1 : 0;
}
