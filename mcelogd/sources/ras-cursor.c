/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cursor-file.h"
#include "macro.h"
#include "ras-cursor.h"

#define COMMON_FIELDS 8

uint64_t ras_mark_digest(const void *raw, size_t size)
{
	const unsigned char *p = raw;
	uint64_t h = UINT64_C(0xcbf29ce484222325);   /* FNV-1a, 64-bit */

	if (size <= COMMON_FIELDS)
		return h;
	while (size > COMMON_FIELDS && p[size - 1] == 0)
		size--;
	for (size_t i = COMMON_FIELDS; i < size; i++) {
		h ^= p[i];
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

static uint64_t distance(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

size_t ras_resume_index(const struct ras_mark *last, const struct ras_mark *kept, size_t n)
{
	size_t best = n;

	if (!last)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (kept[i].digest == last->digest &&
		    distance(kept[i].time_ns, last->time_ns) <= RAS_MARK_TOLERANCE_NS &&
		    (best == n || distance(kept[i].time_ns, last->time_ns) <
				  distance(kept[best].time_ns, last->time_ns)))
			best = i;
	if (best < n)
		return best + 1;
	for (size_t i = 0; i < n; i++)
		if (kept[i].time_ns > last->time_ns)
			return i;
	return n;
}

bool ras_mark_recovered(const struct ras_mark *m, const struct ras_mark *recovered, bool *taken, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!taken[i] && recovered[i].digest == m->digest &&
		    distance(recovered[i].time_ns, m->time_ns) <= RAS_MARK_TOLERANCE_NS) {
			taken[i] = true;
			return true;
		}
	return false;
}

void ras_cursor_init(struct ras_cursor *c, const char *boot_id)
{
	*c = (struct ras_cursor) {};
	if (boot_id)
		snprintf(c->boot_id, sizeof(c->boot_id), "%s", boot_id);
}

void ras_cursor_done(struct ras_cursor *c)
{
	free(c->rings);
	c->rings = NULL;
	c->n_cpus = 0;
}

int ras_cursor_note(struct ras_cursor *c, unsigned ring_cpu, const struct ras_mark *m)
{
	if (ring_cpu >= RAS_CURSOR_MAX_CPUS)
		return -ERANGE;
	if (ring_cpu >= c->n_cpus) {
		struct ras_cursor_ring *r = realloc(c->rings, (ring_cpu + 1) * sizeof(*r));

		if (!r)
			return -ENOMEM;
		memset(r + c->n_cpus, 0, (ring_cpu + 1 - c->n_cpus) * sizeof(*r));
		c->rings = r;
		c->n_cpus = ring_cpu + 1;
	}
	c->rings[ring_cpu] = (struct ras_cursor_ring) { .set = true, .last = *m };
	return 0;
}

const struct ras_mark *ras_cursor_get(const struct ras_cursor *c, unsigned ring_cpu)
{
	return ring_cpu < c->n_cpus && c->rings[ring_cpu].set ? &c->rings[ring_cpu].last : NULL;
}

/*
 *	boot_id <32 hex>
 *	ring <N> time <ns> digest <hex>
 */
int ras_cursor_format(const struct ras_cursor *c, char **ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return -ENOMEM;
	fprintf(f, "boot_id %s\n", c->boot_id);
	for (unsigned i = 0; i < c->n_cpus; i++)
		if (c->rings[i].set)
			fprintf(f, "ring %u time %" PRIu64 " digest %" PRIx64 "\n", i,
				c->rings[i].last.time_ns, c->rings[i].last.digest);
	if (fclose(f) != 0 || !buf) {
		free(buf);
		return -ENOMEM;
	}
	*ret = buf;
	return (int) len;
}

static int parse_ring_line(const char *p, const char *end, void *userdata)
{
	static const struct cursor_key keys[] = {
		{ "ring", 10 }, { "time", 10 }, { "digest", 16 },
	};
	uint64_t v[ELEMENTSOF(keys)];

	if (cursor_line_values(p, end, keys, ELEMENTSOF(keys), v) < 0 || v[0] >= RAS_CURSOR_MAX_CPUS)
		return -EBADMSG;
	return ras_cursor_note(userdata, (unsigned) v[0], &(struct ras_mark) { .time_ns = v[1], .digest = v[2] });
}

int ras_cursor_parse(const char *text, size_t len, struct ras_cursor *c, unsigned *bad_line)
{
	int r = cursor_file_parse(text, len, c->boot_id, parse_ring_line, c, bad_line);

	if (r < 0) {
		ras_cursor_done(c);
		ras_cursor_init(c, NULL);
		return r == -ENOMEM ? r : -EBADMSG;
	}
	return 0;
}

#define KEPT_MAGIC "MCELOGD-RAS-KEPT1\n"
#define KEPT_HEADER (sizeof(KEPT_MAGIC) - 1 + MCE_BOOT_ID_LEN)
#define KEPT_EVENT_HEADER 16

int ras_kept_format(const char *boot_id, const struct ras_kept_event *ev, size_t n, char **ret, size_t *ret_len)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return -ENOMEM;
	fprintf(f, KEPT_MAGIC "%-*.*s", MCE_BOOT_ID_LEN, MCE_BOOT_ID_LEN, boot_id);
	for (size_t i = 0; i < n; i++) {
		uint32_t ring = ev[i].ring, size = (uint32_t) ev[i].size;

		fwrite(&ring, sizeof(ring), 1, f);
		fwrite(&ev[i].time_ns, sizeof(ev[i].time_ns), 1, f);
		fwrite(&size, sizeof(size), 1, f);
		fwrite(ev[i].raw, 1, ev[i].size, f);
	}
	if (fclose(f) != 0 || !buf) {
		free(buf);
		return -ENOMEM;
	}
	*ret = buf;
	*ret_len = len;
	return 0;
}

int ras_kept_parse(const unsigned char *data, size_t len, char boot_id[MCE_BOOT_ID_LEN + 1],
		   int (*on_event)(const struct ras_kept_event *e, void *userdata), void *userdata)
{
	size_t pos = KEPT_HEADER;
	int n = 0, r;

	if (len < KEPT_HEADER || memcmp(data, KEPT_MAGIC, sizeof(KEPT_MAGIC) - 1) != 0)
		return -EBADMSG;
	memcpy(boot_id, data + sizeof(KEPT_MAGIC) - 1, MCE_BOOT_ID_LEN);
	boot_id[MCE_BOOT_ID_LEN] = '\0';
	while (pos < len) {
		struct ras_kept_event e;
		uint32_t ring, size;

		if (len - pos < KEPT_EVENT_HEADER)
			return -EBADMSG;
		memcpy(&ring, data + pos, 4);
		memcpy(&e.time_ns, data + pos + 4, 8);
		memcpy(&size, data + pos + 12, 4);
		pos += KEPT_EVENT_HEADER;
		if (size > RAS_KEPT_EVENT_MAX || size > len - pos || ring >= RAS_CURSOR_MAX_CPUS)
			return -EBADMSG;
		e.ring = ring;
		e.raw = data + pos;
		e.size = size;
		r = on_event(&e, userdata);
		if (r < 0)
			return r;
		n++;
		pos += size;
	}
	return n;
}
