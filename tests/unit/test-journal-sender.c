/* SPDX-License-Identifier: MIT */
/*
 * The sender of a collector's journal file (mcectl/journal-sender.c): named by
 * systemd-journal-remote from the connection, so it is what mcectl trusts for
 * the host; everything else about the name must leave the file unattributed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "journal-sender.h"

static const char *sender(const char *path)
{
	static char buf[64];

	return journal_sender_of_file(path, buf, sizeof(buf)) ? buf : NULL;
}

static void test_address_senders(void **state)
{
	(void) state;
	assert_string_equal(sender("/var/log/journal/remote/remote-127.0.0.1.journal"), "127.0.0.1");
	assert_string_equal(sender("remote-fe80::1.journal"), "fe80::1");
}

static void test_certificate_senders(void **state)
{
	(void) state;
	/* gnutls's DN, as journal-remote escapes it into the name: the CN is the sender. */
	assert_string_equal(sender("remote-CN=node-a.journal"), "node-a");
	assert_string_equal(sender("remote-O=Example\\x20Corp,CN=node-b.example.org.journal"), "node-b.example.org");
	assert_string_equal(sender("remote-CN=node-c,OU=x\\x2fy.journal"), "node-c");
	/* A DN without a CN is kept whole. */
	assert_string_equal(sender("remote-O=Example.journal"), "O=Example");
}

static void test_rotated_and_damaged(void **state)
{
	(void) state;
	assert_string_equal(
		sender("remote-CN=node-a@0123456789abcdef0123456789abcdef-0000000000000001-0005f1e2d3c4b5a6.journal"),
		"node-a");
	assert_string_equal(sender("remote-10.0.0.7.journal~"), "10.0.0.7");
	/* An '@' that is no rotation suffix belongs to the name. */
	assert_string_equal(sender("remote-CN=n,EMAIL=ops@example.org.journal"), "n");
	assert_string_equal(sender("remote-host@x.journal"), "host@x");
}

static void test_not_a_senders_file(void **state)
{
	(void) state;
	assert_null(sender("/var/log/journal/remote/remote.journal"));   /* --split-mode=none: all senders */
	assert_null(sender("system.journal"));
	assert_null(sender("user-1000.journal"));
	assert_null(sender("remote-.journal"));
	assert_null(sender("remote-host.txt"));
	assert_null(sender("remote-\\x0aforged.journal"));   /* no control characters in a shown name */
	/* A name too long for the buffer is refused, not cut into another sender's. */
	assert_null(sender("remote-CN=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.journal"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_address_senders),
		cmocka_unit_test(test_certificate_senders),
		cmocka_unit_test(test_rotated_and_damaged),
		cmocka_unit_test(test_not_a_senders_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
