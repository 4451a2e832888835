/* SPDX-License-Identifier: MIT */
/* The storm state file: round trip, and every kind of damage named by line. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "storm-state.h"

#define BOOT "0123456789abcdef0123456789abcdef"

static void test_round_trip(void **state)
{
	const struct storm_saved in[] = {
		{ .key = { .per_cpu = true, .cpu = 7, .bank = 1, .code = 0x00a50094 },
		  .start_usec = 1795442976000001, .last_usec = 1795442979123456, .total = 19990, .logged = 10 },
		{ .key = { .per_cpu = false, .cpu = 0, .bank = 4, .code = 0xffffffff },
		  .start_usec = 1, .last_usec = 1, .total = UINT64_MAX, .logged = 0 },
	};
	char boot[MCE_BOOT_ID_LEN + 1];
	struct storm_saved *out = NULL;
	size_t n = 0;
	char *text = NULL;
	int len;

	(void) state;
	len = storm_state_format(BOOT, in, 2, &text);
	assert_true(len > 0);
	assert_int_equal(storm_state_parse(text, (size_t) len, boot, &out, &n, NULL), 0);
	assert_string_equal(boot, BOOT);
	assert_int_equal(n, 2);
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(out[i].key.per_cpu, in[i].key.per_cpu);
		assert_int_equal(out[i].key.cpu, in[i].key.cpu);
		assert_int_equal(out[i].key.bank, in[i].key.bank);
		assert_int_equal(out[i].key.code, in[i].key.code);
		assert_int_equal(out[i].start_usec, in[i].start_usec);
		assert_int_equal(out[i].last_usec, in[i].last_usec);
		assert_true(out[i].total == in[i].total);
		assert_int_equal(out[i].logged, in[i].logged);
	}
	free(out);
	free(text);

	/* No storms, no boot id: a valid, empty state. */
	len = storm_state_format("", NULL, 0, &text);
	assert_int_equal(storm_state_parse(text, (size_t) len, boot, &out, &n, NULL), 0);
	assert_int_equal(n, 0);
	assert_null(out);
	assert_string_equal(boot, "");
	free(text);
}

/* A ras storm next to a machine-check one: its kind, signature (spaces and all) and counts survive. */
static void test_round_trip_ras(void **state)
{
	struct storm_saved in[2] = {
		{ .key = { .per_cpu = false, .cpu = 0, .bank = 4, .code = 0x0000080a },
		  .start_usec = 1795442976000001, .last_usec = 1795442979123456, .total = 7, .logged = 10 },
		{ .is_ras = true, .ras = { .event = RAS_EVENT_MEMORY_CONTROLLER },
		  .start_usec = 1795442976500000, .last_usec = 1795442986500000, .total = 48123, .logged = 10 },
	};
	char boot[MCE_BOOT_ID_LEN + 1];
	struct storm_saved *out = NULL;
	size_t n = 0;
	char *text = NULL;
	int len;

	(void) state;
	snprintf(in[1].ras.text, sizeof(in[1].ras.text), "mc=0 top_layer=1 label=CPU_SrcID#0 DIMM A1");
	in[1].key = ras_storm_key_digest(&in[1].ras);
	len = storm_state_format(BOOT, in, 2, &text);
	assert_true(len > 0);
	assert_non_null(strstr(text, "\nras memory_controller 1795442976500000 1795442986500000 48123 10 "
				     "mc=0 top_layer=1 label=CPU_SrcID#0 DIMM A1\n"));
	assert_int_equal(storm_state_parse(text, (size_t) len, boot, &out, &n, NULL), 0);
	assert_int_equal(n, 2);
	assert_false(out[0].is_ras);
	assert_int_equal(out[0].key.code, 0x80a);
	assert_true(out[1].is_ras);
	assert_int_equal(out[1].ras.event, RAS_EVENT_MEMORY_CONTROLLER);
	assert_string_equal(out[1].ras.text, in[1].ras.text);
	/* The engine's key comes back too, so the storm is found by the same digest. */
	assert_true(out[1].key.code == in[1].key.code);
	assert_int_equal(out[1].key.bank, in[1].key.bank);
	assert_int_equal(out[1].start_usec, in[1].start_usec);
	assert_int_equal(out[1].last_usec, in[1].last_usec);
	assert_true(out[1].total == 48123);
	assert_int_equal(out[1].logged, 10);
	free(out);
	free(text);
}

static void test_damaged(void **state)
{
	static const struct {
		const char *text;
		unsigned line;
	} bad[] = {
		{ "", 1 },
		{ "mcelogd-storms 2\nboot_id -\n", 1 },
		{ "mcelogd-storms 1\n", 1 },
		{ "mcelogd-storms 1\nboot_id 0123\n", 2 },
		{ "mcelogd-storms 1\nboot_id " BOOT "X\n", 2 },
		{ "mcelogd-storms 1\nboot_id " BOOT " extra\n", 2 },
		{ "mcelogd-storms 1\nboot_id -\nstorm cpu 1 1 0xa50094 10 20 5\n", 3 },
		{ "mcelogd-storms 1\nboot_id -\nstorm cpu 1 1 0xa50094 10 20 5 1 extra\n", 3 },
		{ "mcelogd-storms 1\nboot_id -\nstorm both 1 1 0xa50094 10 20 5 1\n", 3 },
		{ "mcelogd-storms 1\nboot_id -\nstorm shared 3 1 0xa50094 10 20 5 1\n", 3 },
		{ "mcelogd-storms 1\nboot_id -\nstorm cpu 1 1 0x1a50094a5 10 20 5 1\n", 3 },
		{ "mcelogd-storms 1\nboot_id -\nstorm cpu 1 1 0xa50094 20 10 5 1\n", 3 },
		{ "mcelogd-storms 1\nboot_id -\nstorm cpu 1 1 0xa50094 0 10 5 1\n", 3 },
		{ "mcelogd-storms 1\nboot_id -\nstorm cpu 1 1 0xa50094 10 20 5 1\ngarbage\n", 4 },
		{ "mcelogd-storms 1\nboot_id -\nras memory_controller 10 20 5 1\n", 3 },
		{ "mcelogd-storms 1\nboot_id -\nras memory_controller 10 20 5 1 \n", 3 },
		{ "mcelogd-storms 1\nboot_id -\nras no_such_kind 10 20 5 1 mc=0\n", 3 },
		{ "mcelogd-storms 1\nboot_id -\nras pcie_aer 20 10 5 1 dev_name=x\n", 3 },
		{ "mcelogd-storms 1\nboot_id -\nras pcie_aer 0 10 5 1 dev_name=x\n", 3 },
		{ "mcelogd-storms 1\nboot_id -\nras pcie_aer 10 20 5 1 dev\tname=x\n", 3 },
	};
	char boot[MCE_BOOT_ID_LEN + 1];
	struct storm_saved *out;
	size_t n;
	unsigned line;

	(void) state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		out = (void *) 1;
		n = 99;
		line = 0;
		if (storm_state_parse(bad[i].text, strlen(bad[i].text), boot, &out, &n, &line) != -EBADMSG ||
		    line != bad[i].line || out || n != 0)
			fail_msg("case %zu: line %u, want -EBADMSG at line %u", i, line, bad[i].line);
	}
	/* A NUL inside, and a line longer than any the format writes. */
	static const char nul[] = "mcelogd-storms 1\nboot_id -\nstorm cpu 1\0 1 0xa5 10 20 5 1\n";
	assert_int_equal(storm_state_parse(nul, sizeof(nul) - 1, boot, &out, &n, &line), -EBADMSG);
	assert_int_equal(line, 3);
	char big[600];
	memset(big, 'x', sizeof(big));
	memcpy(big, "mcelogd-storms 1\nboot_id -\n", 27);
	assert_int_equal(storm_state_parse(big, sizeof(big), boot, &out, &n, &line), -EBADMSG);
	assert_int_equal(line, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_round_trip_ras),
		cmocka_unit_test(test_damaged),
	};

	return cmocka_run_group_tests_name("storm-state", tests, NULL, NULL);
}
