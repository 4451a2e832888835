/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "storm-state.h"

#define HEADER "mcelogd-storms 1"
/* Far more than MaxSignatures= allows: a file claiming more is damaged. */
#define STORMS_MAX 65536

int storm_state_format(const char *boot_id, const struct storm_saved *storms, size_t n, char **ret)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		return -ENOMEM;
	fprintf(f, HEADER "\nboot_id %s\n", boot_id && boot_id[0] ? boot_id : "-");
	for (size_t i = 0; i < n; i++) {
		const struct storm_saved *s = &storms[i];

		if (s->is_ras) {
			fprintf(f, "ras %s %" PRId64 " %" PRId64 " %" PRIu64 " %u %s\n",
				ras_event_to_string(s->ras.event), s->start_usec, s->last_usec, s->total,
				s->logged, s->ras.text);
			continue;
		}
		fprintf(f, "storm %s %" PRIu32 " %" PRIu32 " 0x%08" PRIx64 " %" PRId64 " %" PRId64 " %" PRIu64
			" %u\n", s->key.per_cpu ? "cpu" : "shared", s->key.cpu, s->key.bank, s->key.code,
			s->start_usec, s->last_usec, s->total, s->logged);
	}
	if (fclose(f) != 0) {
		free(buf);
		return -ENOMEM;
	}
	if (size > INT32_MAX) {
		free(buf);
		return -E2BIG;
	}
	*ret = buf;
	return (int) size;
}

static bool parse_storm(const char *line, struct storm_saved *s)
{
	char scope[8], tail;
	int n;

	*s = (struct storm_saved) {};
	n = sscanf(line, "storm %7s %" SCNu32 " %" SCNu32 " %" SCNx64 " %" SCNd64 " %" SCNd64 " %" SCNu64
		   " %u %c", scope, &s->key.cpu, &s->key.bank, &s->key.code, &s->start_usec, &s->last_usec,
		   &s->total, &s->logged, &tail);
	if (n != 8 || s->key.code > UINT32_MAX || s->start_usec <= 0 || s->last_usec < s->start_usec)
		return false;
	if (streq(scope, "cpu"))
		s->key.per_cpu = true;
	else if (!streq(scope, "shared"))
		return false;
	/* A shared bank's storm has no CPU: the engine keys it with 0. */
	return s->key.per_cpu || s->key.cpu == 0;
}

static bool parse_ras(const char *line, struct storm_saved *s)
{
	char event[32];
	const char *text;
	int n, end = -1;

	*s = (struct storm_saved) { .is_ras = true };
	n = sscanf(line, "ras %31s %" SCNd64 " %" SCNd64 " %" SCNu64 " %u %n", event, &s->start_usec,
		   &s->last_usec, &s->total, &s->logged, &end);
	if (n != 5 || end < 0 || s->start_usec <= 0 || s->last_usec < s->start_usec)
		return false;
	s->ras.event = ras_event_from_string(event);
	if (s->ras.event == _RAS_EVENT_INVALID)
		return false;
	text = line + end;
	if (text[0] == '\0' || strlen(text) >= sizeof(s->ras.text))
		return false;
	for (const char *p = text; *p; p++)
		if (*p < 0x20 || *p >= 0x7f)
			return false;
	strcpy(s->ras.text, text);
	s->key = ras_storm_key_digest(&s->ras);
	return true;
}

static bool hex_boot_id(const char *s)
{
	if (strlen(s) != MCE_BOOT_ID_LEN)
		return false;
	for (const char *p = s; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return false;
	return true;
}

int storm_state_parse(const char *text, size_t len, char boot_id[static MCE_BOOT_ID_LEN + 1],
		      struct storm_saved **ret, size_t *n, unsigned *bad_line)
{
	_cleanup_free_ struct storm_saved *storms = NULL;
	size_t count = 0, cap = 0;
	unsigned lineno = 0;
	const char *p = text, *end = text + len;
	/* A ras line: its numbers and a signature of up to RAS_STORM_KEY_MAX. */
	char line[RAS_STORM_KEY_MAX + 128];

	*ret = NULL;
	*n = 0;
	boot_id[0] = '\0';
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t) (end - p));
		size_t l = (size_t) ((nl ? nl : end) - p);

		lineno++;
		if (l >= sizeof(line) || memchr(p, '\0', l))
			goto bad;
		memcpy(line, p, l);
		line[l] = '\0';
		p = nl ? nl + 1 : end;
		if (lineno == 1) {
			if (!streq(line, HEADER))
				goto bad;
		} else if (lineno == 2) {
			char id[MCE_BOOT_ID_LEN + 2];

			if (sscanf(line, "boot_id %33s", id) != 1 || strlen(line) != strlen("boot_id ") + strlen(id))
				goto bad;
			if (streq(id, "-"))
				id[0] = '\0';
			else if (!hex_boot_id(id))
				goto bad;
			memcpy(boot_id, id, strlen(id) + 1);
		} else {
			struct storm_saved s;

			bool ok = strncmp(line, "ras ", 4) == 0 ? parse_ras(line, &s) : parse_storm(line, &s);

			if (count >= STORMS_MAX || !ok)
				goto bad;
			if (count == cap) {
				size_t c = cap ? cap * 2 : 8;
				struct storm_saved *q = realloc(storms, c * sizeof(*q));

				if (!q)
					return -ENOMEM;
				storms = q;
				cap = c;
			}
			storms[count++] = s;
		}
	}
	if (lineno < 2)
		goto bad;
	*ret = TAKE_PTR(storms);
	*n = count;
	return 0;
bad:
	boot_id[0] = '\0';
	if (bad_line)
		*bad_line = lineno ? lineno : 1;
	return -EBADMSG;
}
