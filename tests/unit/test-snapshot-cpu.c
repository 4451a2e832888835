/* SPDX-License-Identifier: MIT */
/*
 * Which CPU a record's snapshot is of (mcelogd/snapshot-cpu.c): a machine
 * check's own; for ras records, per kind, the record's CPU field, the CPU
 * whose tracepoint fired, or none.  The arm64 guest runs the memory-failure
 * row on a real kernel and PMU (tests/vm/arm64/70-snapshot-pmu.sh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ras-record.h"
#include "record.h"
#include "snapshot-cpu.h"
#include "tracepoint-sample.h"

static struct ras_record ras(enum ras_event event)
{
	struct ras_record r;

	ras_record_init(&r, event, MCE_SOURCE_UNKNOWN);
	r.have_time = true;
	r.time_usec = 1700000000000000;
	return r;
}

static void test_machine_check_is_its_own_cpu(void **state)
{
	(void) state;
	const struct mce_record rec = { .have = MCE_HAVE_CPU | MCE_HAVE_TIME | MCE_HAVE_TSC, .cpu = 5,
					.time_usec = 42, .tsc = 1234 };
	struct snapshot_subject sub;

	snapshot_subject_of_mce(&rec, &sub);
	assert_true(sub.have_cpu);
	assert_int_equal(sub.cpu, 5);
	assert_true(sub.have_time);
	assert_int_equal(sub.time_usec, 42);
	assert_int_equal(sub.tsc, 1234);
	assert_string_equal(sub.cpu_from, "record");

	/* a TSC the record does not claim is no TSC; a CPU it does not claim is none */
	const struct mce_record bare = { .cpu = 5, .tsc = 1234 };
	snapshot_subject_of_mce(&bare, &sub);
	assert_false(sub.have_cpu);
	assert_false(sub.have_time);
	assert_int_equal(sub.tsc, 0);
}

/* memory_failure_event names no CPU: the CPU that ran memory_failure() is the one. */
static void test_memory_failure_is_the_sample_cpu(void **state)
{
	(void) state;
	struct ras_record r = ras(RAS_EVENT_MEMORY_FAILURE);
	struct snapshot_subject sub;

	assert_false(snapshot_subject_of_ras(&r, &sub));   /* read back from a file: no ring */
	r.have_sample_cpu = true;
	r.sample_cpu = 3;
	assert_true(snapshot_subject_of_ras(&r, &sub));
	assert_true(sub.have_cpu);
	assert_int_equal(sub.cpu, 3);
	assert_string_equal(sub.cpu_from, "sample");
	assert_non_null(strstr(sub.cpu_is, "memory_failure()"));
	assert_true(sub.have_time);
	assert_int_equal(sub.time_usec, 1700000000000000);
	assert_int_equal(sub.tsc, 0);
}

/* arm_event's cpu is the erring processor (its MPIDR); the ring's CPU only handled the report. */
static void test_arm_event_prefers_its_own_cpu(void **state)
{
	(void) state;
	struct ras_record r = ras(RAS_EVENT_ARM_PROCESSOR);
	struct snapshot_subject sub;

	r.have_sample_cpu = true;
	r.sample_cpu = 0;
	r.have_cpu = true;
	r.cpu = 7;
	assert_true(snapshot_subject_of_ras(&r, &sub));
	assert_int_equal(sub.cpu, 7);
	assert_string_equal(sub.cpu_from, "record");
	assert_non_null(strstr(sub.cpu_is, "MPIDR"));

	/* a kernel without the field (or cpu -1: no MPIDR matched): the handler, said so */
	r.have_cpu = false;
	assert_true(snapshot_subject_of_ras(&r, &sub));
	assert_int_equal(sub.cpu, 0);
	assert_string_equal(sub.cpu_from, "sample");
	assert_non_null(strstr(sub.cpu_is, "synchronous external abort"));

	r.have_sample_cpu = false;
	assert_false(snapshot_subject_of_ras(&r, &sub));
}

/*
 * The same through the decoder, with samples laid out by the real format
 * files: Debian's arm64 kernel (6.12) gives arm_event a cpu (-1 when no CPU
 * has the section's MPIDR); 6.1's has none.
 */
/* Decodes s as the tracepoint source would hand it on from ring_cpu; the snapshot's CPU and its origin. */
static void expect_subject(const struct ras_tp_layout *l, const struct sample *s, unsigned ring_cpu,
			   unsigned want_cpu, const char *want_from)
{
	struct ras_record r;
	struct snapshot_subject sub;

	decode_ok(l, s, &r);
	r.have_sample_cpu = true;
	r.sample_cpu = ring_cpu;
	assert_true(snapshot_subject_of_ras(&r, &sub));
	assert_int_equal(sub.cpu, want_cpu);
	assert_string_equal(sub.cpu_from, want_from);
	ras_record_done(&r);
}

static void test_arm_event_from_the_kernels_formats(void **state)
{
	(void) state;
	struct ras_tp_layout l;
	struct sample s;

	load(&l, RAS_TP_ARM_EVENT, "tracefs/6.12/ras/arm_event.format");
	sample_init(&s, &l);
	put(&s, &l, "mpidr", 0x80000001);
	put(&s, &l, "cpu", 1);
	put(&s, &l, "sev", 0);
	expect_subject(&l, &s, 0, 1, "record");
	put(&s, &l, "cpu", (uint32_t) -1);
	expect_subject(&l, &s, 0, 0, "sample");

	load(&l, RAS_TP_ARM_EVENT, "tracefs/6.1/ras/arm_event.format");
	sample_init(&s, &l);
	put(&s, &l, "mpidr", 0x80000001);
	expect_subject(&l, &s, 1, 1, "sample");
}

/* Kinds whose CPUs say nothing about the error: no snapshot, whatever CPU is known. */
static void test_no_snapshot_where_no_cpu_means_anything(void **state)
{
	(void) state;
	static const enum ras_event none[] = {
		RAS_EVENT_MEMORY_CONTROLLER, RAS_EVENT_PCIE_AER, RAS_EVENT_FIRMWARE_MEMORY,
		RAS_EVENT_VENDOR_SECTION, RAS_EVENT_X86_PROCESSOR, RAS_EVENT_CXL_GENERAL_MEDIA,
		RAS_EVENT_CXL_DRAM, RAS_EVENT_CXL_MEMORY_MODULE, RAS_EVENT_CXL_POISON, RAS_EVENT_CXL_AER,
		RAS_EVENT_CXL_OVERFLOW, RAS_EVENT_CXL_GENERIC, RAS_EVENT_CXL_MEMORY_SPARING,
		RAS_EVENT_PCI_HOTPLUG, RAS_EVENT_PCIE_LINK, RAS_EVENT_DEVLINK_HEALTH, RAS_EVENT_DEVLINK_RECOVER_ABORTED,
		RAS_EVENT_SIGBUS, RAS_EVENT_DISK_ERROR,
	};
	struct snapshot_subject sub;

	/* every kind but the two with a meaning is listed: a new kind must be decided here */
	assert_int_equal(sizeof(none) / sizeof(none[0]) + 2, _RAS_EVENT_MAX);
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		struct ras_record r = ras(none[i]);

		r.have_sample_cpu = true;
		r.sample_cpu = 1;
		r.have_cpu = true;
		r.cpu = 2;
		assert_false(snapshot_subject_of_ras(&r, &sub));
	}
	struct ras_record bad = ras(RAS_EVENT_MEMORY_FAILURE);
	bad.event = _RAS_EVENT_INVALID;
	bad.have_sample_cpu = true;
	assert_false(snapshot_subject_of_ras(&bad, &sub));
	bad.event = _RAS_EVENT_MAX;
	assert_false(snapshot_subject_of_ras(&bad, &sub));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_machine_check_is_its_own_cpu),
		cmocka_unit_test(test_memory_failure_is_the_sample_cpu),
		cmocka_unit_test(test_arm_event_prefers_its_own_cpu),
		cmocka_unit_test(test_arm_event_from_the_kernels_formats),
		cmocka_unit_test(test_no_snapshot_where_no_cpu_means_anything),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
