/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "parse-number.h"
#include "ras-cec.h"

int ras_cec_parse_number(const char *text, size_t len, uint64_t *ret)
{
	if (len > 0 && text[len - 1] == '\n')
		len--;
	/* "%lld" of a u64: the kernel never prints a sign for these, so one is not ours to read. */
	return parse_unsigned(text, len, 10, INT64_MAX, ret);
}

/* line (without its newline) begins with key: the number after it, up to the first space. */
static int keyed_number(const char *line, size_t n, const char *key, uint64_t *ret)
{
	size_t k = strlen(key), digits;

	if (n < k || memcmp(line, key, k) != 0)
		return -ENOENT;
	digits = strspn(line + k, "0123456789");
	/* "Decay interval: 86400 seconds": the unit after a space is allowed, nothing else. */
	if (k + digits != n && line[k + digits] != ' ')
		return -EINVAL;
	return parse_unsigned(line + k, digits, 10, INT64_MAX, ret);
}

int ras_cec_parse_array(const char *text, size_t len, struct ras_cec_array *ret)
{
	static const struct {
		const char *key;
		size_t offset;
	} keys[] = {
		{ "{ n: ",            offsetof(struct ras_cec_array, pages_tracked) },
		{ "CEs: ",            offsetof(struct ras_cec_array, errors_seen) },
		{ "offlined pages: ", offsetof(struct ras_cec_array, pages_offlined) },
		{ "Decays: ",         offsetof(struct ras_cec_array, decays) },
	};
	struct ras_cec_array a = { 0 };
	unsigned seen = 0;
	size_t pos = 0;

	while (pos < len) {
		const char *line = text + pos, *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t) (nl - line) : len - pos;

		pos += n + 1;
		for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			int r = keyed_number(line, n, keys[i].key,
					     (uint64_t *) (void *) ((char *) &a + keys[i].offset));

			if (r == -ENOENT)
				continue;
			if (r < 0)
				return -EINVAL;
			seen |= 1u << i;
			break;
		}
	}
	/* n, CEs and offlined pages are in every version of the file we read (4.13 on). */
	if ((seen & 7) != 7)
		return -EINVAL;
	a.have_decays = seen & 8;
	*ret = a;
	return 0;
}
