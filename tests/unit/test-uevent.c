/* SPDX-License-Identifier: MIT */
/* Kernel uevent messages: the header, the keys, CPU events, and what a truncated or forged message looks like. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "uevent.h"

/* Messages as the 6.1 guest kernel sends them for `echo 0/1 >/sys/devices/system/cpu/cpu1/online`
 * (sizeof - 1: the string literal's own trailing NUL is the last key's terminator). */
static const char cpu_offline[] =
	"offline@/devices/system/cpu/cpu1\0ACTION=offline\0DEVPATH=/devices/system/cpu/cpu1\0"
	"SUBSYSTEM=cpu\0MODALIAS=cpu:type:x86,ven0000fam0006mod0006:feature:,0000,0001\0SEQNUM=2171";
static const char cpu_online[] =
	"online@/devices/system/cpu/cpu1\0ACTION=online\0DEVPATH=/devices/system/cpu/cpu1\0"
	"SUBSYSTEM=cpu\0SEQNUM=2180";

static int parse(const char *buf, size_t size, struct uevent *u)
{
	return uevent_parse(buf, size, u);
}

static void test_parse_cpu(void **state)
{
	struct uevent u;

	(void) state;
	assert_int_equal(parse(cpu_offline, sizeof(cpu_offline), &u), 0);
	assert_string_equal(u.action, "offline");
	assert_string_equal(u.devpath, "/devices/system/cpu/cpu1");
	assert_string_equal(u.subsystem, "cpu");
	assert_int_equal(u.seqnum, 2171);
	/* pointers into the message, not copies */
	assert_true(u.action > cpu_offline && u.action < cpu_offline + sizeof(cpu_offline));

	assert_int_equal(parse(cpu_online, sizeof(cpu_online), &u), 0);
	assert_string_equal(u.action, "online");
	assert_int_equal(u.seqnum, 2180);
}

static void test_parse_no_seqnum(void **state)
{
	static const char m[] = "add@/devices/system/cpu/cpu4\0SUBSYSTEM=cpu\0DEVPATH=/devices/system/cpu/cpu4\0"
				"ACTION=add";
	struct uevent u;

	(void) state;
	assert_int_equal(parse(m, sizeof(m), &u), 0);   /* key order is not fixed */
	assert_string_equal(u.action, "add");
	assert_int_equal(u.seqnum, 0);
}

static void test_synthetic(void **state)
{
	/* `echo offline >/sys/devices/system/cpu/cpu1/uevent`: sent by the kernel, but no CPU went anywhere */
	static const char m[] = "offline@/devices/system/cpu/cpu1\0ACTION=offline\0"
				"DEVPATH=/devices/system/cpu/cpu1\0SUBSYSTEM=cpu\0SYNTH_UUID=0\0SEQNUM=2200";
	struct uevent u;

	(void) state;
	assert_int_equal(parse(m, sizeof(m), &u), 0);
	assert_true(u.synthetic);
	assert_int_equal(u.seqnum, 2200);
	assert_int_equal(parse(cpu_offline, sizeof(cpu_offline), &u), 0);
	assert_false(u.synthetic);
}

static void test_truncated(void **state)
{
	struct uevent u = { .action = "untouched" };

	(void) state;
	/* Every cut short of the whole message: the last string is not NUL-terminated, or a
	 * required key is missing.  None may parse, and none may read past the cut. */
	for (size_t n = 0; n < sizeof(cpu_online); n++) {
		char *copy = malloc(n ? n : 1);

		memcpy(copy, cpu_online, n);
		if (n > 0 && copy[n - 1] == '\0' &&
		    n > strlen(cpu_online) + 1 + strlen("ACTION=online") + 1 +
			    strlen("DEVPATH=/devices/system/cpu/cpu1") + 1 + strlen("SUBSYSTEM=cpu"))
			/* cut right after SUBSYSTEM=cpu's NUL: a complete message without SEQNUM */
			assert_int_equal(parse(copy, n, &u), 0);
		else
			assert_int_equal(parse(copy, n, &u), -EBADMSG);
		free(copy);
	}
}

static void test_garbage(void **state)
{
	static const struct {
		const char *what;
		const char *buf;
		size_t size;
	} bad[] = {
#define M(what, s) { what, s, sizeof(s) }
		M("no @ in the header", "online/devices/system/cpu/cpu1\0ACTION=online\0"
					"DEVPATH=/devices/system/cpu/cpu1\0SUBSYSTEM=cpu"),
		M("empty action", "@/devices/system/cpu/cpu1\0ACTION=\0DEVPATH=/devices/system/cpu/cpu1\0"
				  "SUBSYSTEM=cpu"),
		M("devpath not absolute", "online@devices\0ACTION=online\0DEVPATH=devices\0SUBSYSTEM=cpu"),
		M("header and ACTION disagree", "online@/devices/system/cpu/cpu1\0ACTION=offline\0"
						"DEVPATH=/devices/system/cpu/cpu1\0SUBSYSTEM=cpu"),
		M("ACTION a prefix of the header's", "online@/devices/system/cpu/cpu1\0ACTION=on\0"
						     "DEVPATH=/devices/system/cpu/cpu1\0SUBSYSTEM=cpu"),
		M("header and DEVPATH disagree", "online@/devices/system/cpu/cpu1\0ACTION=online\0"
						 "DEVPATH=/devices/system/cpu/cpu0\0SUBSYSTEM=cpu"),
		M("ACTION missing", "online@/devices/system/cpu/cpu1\0DEVPATH=/devices/system/cpu/cpu1\0"
				    "SUBSYSTEM=cpu"),
		M("SUBSYSTEM missing", "online@/devices/system/cpu/cpu1\0ACTION=online\0"
				       "DEVPATH=/devices/system/cpu/cpu1"),
		M("SUBSYSTEM empty", "online@/devices/system/cpu/cpu1\0ACTION=online\0"
				     "DEVPATH=/devices/system/cpu/cpu1\0SUBSYSTEM="),
		M("ACTION twice", "online@/devices/system/cpu/cpu1\0ACTION=online\0ACTION=online\0"
				  "DEVPATH=/devices/system/cpu/cpu1\0SUBSYSTEM=cpu"),
		M("a string without '='", "online@/devices/system/cpu/cpu1\0ACTION=online\0"
					  "DEVPATH=/devices/system/cpu/cpu1\0SUBSYSTEM=cpu\0junk"),
		M("an empty string", "online@/devices/system/cpu/cpu1\0ACTION=online\0\0"
				     "DEVPATH=/devices/system/cpu/cpu1\0SUBSYSTEM=cpu"),
		M("an empty key", "online@/devices/system/cpu/cpu1\0ACTION=online\0=x\0"
				  "DEVPATH=/devices/system/cpu/cpu1\0SUBSYSTEM=cpu"),
		M("SEQNUM not a number", "online@/devices/system/cpu/cpu1\0ACTION=online\0"
					 "DEVPATH=/devices/system/cpu/cpu1\0SUBSYSTEM=cpu\0SEQNUM=12x"),
		M("SEQNUM overflows", "online@/devices/system/cpu/cpu1\0ACTION=online\0"
				      "DEVPATH=/devices/system/cpu/cpu1\0SUBSYSTEM=cpu\0SEQNUM=18446744073709551616"),
		/* udev's own re-broadcast (group 2) starts with a binary header, not "ACTION@" */
		M("libudev monitor message", "libudev\0\xfe\xed\xca\xfe"),
#undef M
	};
	struct uevent u;

	(void) state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = parse(bad[i].buf, bad[i].size, &u);

		if (r != -EBADMSG)
			fail_msg("%s: got %d, want -EBADMSG", bad[i].what, r);
	}
}

static void test_cpu_event(void **state)
{
	struct uevent u;
	unsigned cpu = 99;
	enum cpu_event e;

	(void) state;
	assert_int_equal(parse(cpu_offline, sizeof(cpu_offline), &u), 0);
	assert_int_equal(uevent_cpu_event(&u, 8192, &cpu, &e), 0);
	assert_int_equal(cpu, 1);
	assert_int_equal(e, CPU_EVENT_OFFLINE);
	assert_string_equal(cpu_event_to_string(e), "offline");

	assert_int_equal(parse(cpu_online, sizeof(cpu_online), &u), 0);
	assert_int_equal(uevent_cpu_event(&u, 8192, &cpu, &e), 0);
	assert_int_equal(e, CPU_EVENT_ONLINE);

	u = (struct uevent) { .action = "add", .devpath = "/devices/system/cpu/cpu0", .subsystem = "cpu" };
	assert_int_equal(uevent_cpu_event(&u, 8192, &cpu, &e), 0);
	assert_int_equal(cpu, 0);
	assert_int_equal(e, CPU_EVENT_ADD);
	u.action = "remove";
	u.devpath = "/devices/system/cpu/cpu8191";
	assert_int_equal(uevent_cpu_event(&u, 8192, &cpu, &e), 0);
	assert_int_equal(cpu, 8191);
	assert_int_equal(e, CPU_EVENT_REMOVE);
}

static void test_not_cpu_event(void **state)
{
	static const struct uevent other[] = {
		/* the machinecheck device of the same CPU: another subsystem */
		{ .action = "remove", .devpath = "/devices/system/machinecheck/machinecheck1",
		  .subsystem = "machinecheck" },
		/* memory blocks go online/offline too */
		{ .action = "offline", .devpath = "/devices/system/memory/memory32", .subsystem = "memory" },
		/* the right device, an action that changes nothing */
		{ .action = "change", .devpath = "/devices/system/cpu/cpu1", .subsystem = "cpu" },
		{ .action = "bind", .devpath = "/devices/system/cpu/cpu1", .subsystem = "cpu" },
		/* subsystem cpu, not a CPU: paths that only look alike */
		{ .action = "online", .devpath = "/devices/system/cpu/cpufreq", .subsystem = "cpu" },
		{ .action = "online", .devpath = "/devices/system/cpu/cpu", .subsystem = "cpu" },
		{ .action = "online", .devpath = "/devices/system/cpu/cpu01", .subsystem = "cpu" },
		{ .action = "online", .devpath = "/devices/system/cpu/cpu1/cache", .subsystem = "cpu" },
		{ .action = "online", .devpath = "/devices/system/cpu/cpu+1", .subsystem = "cpu" },
		{ .action = "online", .devpath = "/devices/system/cpu/cpu-1", .subsystem = "cpu" },
		{ .action = "online", .devpath = "/devices/system/cpu/cpu0x1", .subsystem = "cpu" },
		{ .action = "online", .devpath = "/devices/virtual/cpu/cpu1", .subsystem = "cpu" },
		/* right path, wrong subsystem */
		{ .action = "online", .devpath = "/devices/system/cpu/cpu1", .subsystem = "cpuid" },
		{ .action = "ONLINE", .devpath = "/devices/system/cpu/cpu1", .subsystem = "cpu" },
	};
	unsigned cpu = 99;
	enum cpu_event e = CPU_EVENT_ADD;

	(void) state;
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
		int r = uevent_cpu_event(&other[i], 8192, &cpu, &e);

		if (r != -ENOENT)
			fail_msg("%s %s (%s): got %d, want -ENOENT", other[i].action, other[i].devpath,
				 other[i].subsystem, r);
	}
	assert_int_equal(cpu, 99);      /* untouched */
	assert_int_equal(e, CPU_EVENT_ADD);
}

static void test_cpu_range(void **state)
{
	struct uevent u = { .action = "online", .devpath = "/devices/system/cpu/cpu8192", .subsystem = "cpu" };
	unsigned cpu = 99;
	enum cpu_event e;

	(void) state;
	assert_int_equal(uevent_cpu_event(&u, 8192, &cpu, &e), -ERANGE);
	u.devpath = "/devices/system/cpu/cpu99999999999999999999999";
	assert_int_equal(uevent_cpu_event(&u, 8192, &cpu, &e), -ERANGE);
	assert_int_equal(cpu, 99);
	u.devpath = "/devices/system/cpu/cpu3";
	assert_int_equal(uevent_cpu_event(&u, 4, &cpu, &e), 0);
	assert_int_equal(uevent_cpu_event(&u, 3, &cpu, &e), -ERANGE);
}

/* Memory that may have come online: memory blocks added or onlined, CXL regions and memdevs added or bound. */
static void test_memory_online(void **state)
{
	static const struct {
		struct uevent u;
		const char *name;     /* NULL: not memory coming online */
	} cases[] = {
		{ { .action = "add", .devpath = "/devices/system/memory/memory42", .subsystem = "memory" }, "memory42" },
		{ { .action = "online", .devpath = "/devices/system/memory/memory42", .subsystem = "memory" },
		  "memory42" },
		{ { .action = "add", .devpath = "/devices/platform/ACPI0017:00/root0/decoder0.0/region3",
		    .subsystem = "cxl" }, "region3" },
		{ { .action = "bind", .devpath = "/devices/platform/ACPI0017:00/root0/decoder0.0/region3",
		    .subsystem = "cxl" }, "region3" },
		{ { .action = "add", .devpath = "/devices/pci0000:0c/0000:0c:00.0/0000:0d:00.0/mem0",
		    .subsystem = "cxl" }, "mem0" },
		/* memory going away, or not memory coming */
		{ { .action = "offline", .devpath = "/devices/system/memory/memory42", .subsystem = "memory" }, NULL },
		{ { .action = "remove", .devpath = "/devices/system/memory/memory42", .subsystem = "memory" }, NULL },
		{ { .action = "change", .devpath = "/devices/system/memory/memory42", .subsystem = "memory" }, NULL },
		{ { .action = "remove", .devpath = "/devices/platform/ACPI0017:00/root0/decoder0.0/region3",
		    .subsystem = "cxl" }, NULL },
		{ { .action = "unbind", .devpath = "/devices/platform/ACPI0017:00/root0/decoder0.0/region3",
		    .subsystem = "cxl" }, NULL },
		/* other CXL devices: decoders, ports, endpoints, the region's dax device */
		{ { .action = "add", .devpath = "/devices/platform/ACPI0017:00/root0/decoder0.0", .subsystem = "cxl" },
		  NULL },
		{ { .action = "add", .devpath = "/devices/platform/ACPI0017:00/root0/port1/endpoint2",
		    .subsystem = "cxl" }, NULL },
		{ { .action = "add", .devpath = "/devices/platform/ACPI0017:00/root0/decoder0.0/region3/dax_region3",
		    .subsystem = "cxl" }, NULL },
		{ { .action = "add", .devpath = "/devices/platform/ACPI0017:00/root0/decoder0.0/regionx",
		    .subsystem = "cxl" }, NULL },
		/* names that only look alike */
		{ { .action = "add", .devpath = "/devices/system/memory/memory", .subsystem = "memory" }, NULL },
		{ { .action = "add", .devpath = "/devices/system/memory/memory4/power", .subsystem = "memory" }, NULL },
		{ { .action = "add", .devpath = "/devices/virtual/memory/memory4", .subsystem = "memory" }, NULL },
		{ { .action = "add", .devpath = "/devices/system/memory/memory42", .subsystem = "cpu" }, NULL },
		{ { .action = "online", .devpath = "/devices/system/cpu/cpu1", .subsystem = "cpu" }, NULL },
	};

	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *name = "untouched";
		bool yes = uevent_memory_may_be_online(&cases[i].u, &name);

		if (yes != (cases[i].name != NULL) || (yes && strcmp(name, cases[i].name) != 0) ||
		    (!yes && strcmp(name, "untouched") != 0))
			fail_msg("%s %s (%s): got %d '%s'", cases[i].u.action, cases[i].u.devpath,
				 cases[i].u.subsystem, yes, name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_cpu),
		cmocka_unit_test(test_parse_no_seqnum),
		cmocka_unit_test(test_synthetic),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_cpu_event),
		cmocka_unit_test(test_not_cpu_event),
		cmocka_unit_test(test_cpu_range),
		cmocka_unit_test(test_memory_online),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
