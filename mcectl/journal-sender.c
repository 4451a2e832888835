/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "hex-digits.h"
#include "journal-sender.h"


/* journal-remote escapes '/' and ' ' (and '\') in the name as \xNN: undone, bounded. */
static bool unescape(const char *s, size_t n, char *buf, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\\' && i + 3 < n && s[i + 1] == 'x' && hex_digit_value(s[i + 2]) >= 0 &&
		    hex_digit_value(s[i + 3]) >= 0) {
			c = (char) (hex_digit_value(s[i + 2]) << 4 | hex_digit_value(s[i + 3]));
			i += 3;
		}
		/* A sender's name is shown in tables: no control characters, no NUL. */
		if ((unsigned char) c < 0x20 || c == 0x7f || o + 1 >= size)
			return false;
		buf[o++] = c;
	}
	buf[o] = '\0';
	return o > 0;
}

/* A distinguished name as gnutls prints it ("CN=node-a,O=Example"): its CN, if it has one. */
static void keep_common_name(char *dn)
{
	for (char *p = dn; *p; p++) {
		if ((p == dn || p[-1] == ',') && strncmp(p, "CN=", 3) == 0) {
			size_t len = strcspn(p + 3, ",");

			memmove(dn, p + 3, len);
			dn[len] = '\0';
			return;
		}
	}
}

#define ROTATED_SUFFIX (1 + 32 + 1 + 16 + 1 + 16)

static bool is_rotated_suffix(const char *s)
{
	if (s[0] != '@' || s[33] != '-' || s[50] != '-')
		return false;
	for (size_t i = 1; i < ROTATED_SUFFIX; i++)
		if (i != 33 && i != 50 && hex_digit_value(s[i]) < 0)
			return false;
	return true;
}

bool journal_sender_of_file(const char *path, char *buf, size_t size)
{
	const char *name = strrchr(path, '/');
	size_t n;

	name = name ? name + 1 : path;
	if (strncmp(name, "remote-", 7) != 0)
		return false;
	name += 7;
	n = strlen(name);
	if (n > 1 && name[n - 1] == '~')
		n--;
	if (n <= 8 || strncmp(name + n - 8, ".journal", 8) != 0)
		return false;
	n -= 8;
	/* Rotated: "@", then its sequence id, head seqnum and time in hex (32-16-16 digits). */
	if (n > ROTATED_SUFFIX && is_rotated_suffix(name + n - ROTATED_SUFFIX))
		n -= ROTATED_SUFFIX;
	if (!unescape(name, n, buf, size))
		return false;
	keep_common_name(buf);
	return buf[0] != '\0';
}
