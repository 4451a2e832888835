/* SPDX-License-Identifier: MIT */
/* MSR polling: register numbers, bank scope, the read plan, dedup, clearing, /proc/cpuinfo. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cpuinfo.h"
#include "msr-plan.h"

static void test_registers(void **state)
{
	(void) state;
	assert_int_equal(msr_bank_reg(false, 0, MSR_REG_STATUS), 0x401);
	assert_int_equal(msr_bank_reg(false, 4, MSR_REG_STATUS), 0x411);
	assert_int_equal(msr_bank_reg(false, 4, MSR_REG_ADDR), 0x412);
	assert_int_equal(msr_bank_reg(false, 4, MSR_REG_MISC), 0x413);
	assert_int_equal(msr_bank_reg(false, 4, MSR_REG_IPID), 0);
	assert_int_equal(msr_bank_reg(false, 4, MSR_REG_SYND), 0);
	assert_int_equal(msr_bank_reg(true, 0, MSR_REG_STATUS), 0xC0002001u);
	assert_int_equal(msr_bank_reg(true, 5, MSR_REG_ADDR), 0xC0002052u);
	assert_int_equal(msr_bank_reg(true, 5, MSR_REG_MISC), 0xC0002053u);
	assert_int_equal(msr_bank_reg(true, 5, MSR_REG_IPID), 0xC0002055u);
	assert_int_equal(msr_bank_reg(true, 5, MSR_REG_SYND), 0xC0002056u);
	assert_int_equal(msr_bank_reg(true, MSR_MAX_BANKS, MSR_REG_STATUS), 0);
}

static const struct msr_cpu_kind skx = { .vendor = MCE_VENDOR_INTEL, .family = 6, .model = 0x55 };

static void test_scope(void **state)
{
	struct msr_cpu_kind k = skx;

	(void) state;
	assert_int_equal(msr_bank_scope(&k, 0), MSR_SCOPE_CORE);
	assert_int_equal(msr_bank_scope(&k, 3), MSR_SCOPE_CORE);
	assert_int_equal(msr_bank_scope(&k, 4), MSR_SCOPE_PACKAGE);
	assert_int_equal(msr_bank_scope(&k, 19), MSR_SCOPE_PACKAGE);
	k.hypervisor = true;
	assert_int_equal(msr_bank_scope(&k, 4), MSR_SCOPE_THREAD);
	k = (struct msr_cpu_kind) { .vendor = MCE_VENDOR_INTEL, .family = 6, .model = 0x9E };
	assert_int_equal(msr_bank_scope(&k, 4), MSR_SCOPE_THREAD);
	k = (struct msr_cpu_kind) { .vendor = MCE_VENDOR_AMD, .family = 0x19, .model = 0x01, .smca = true };
	assert_int_equal(msr_bank_scope(&k, 0), MSR_SCOPE_THREAD);
	assert_string_equal(msr_scope_to_string(MSR_SCOPE_PACKAGE), "package");
}

/* 2 packages x 2 cores x 2 threads, Linux numbering: CPU n and n+4 are siblings. */
static void topo_2x2x2(struct msr_topo_cpu *t, uint64_t present)
{
	for (unsigned cpu = 0; cpu < 8; cpu++) {
		unsigned core = cpu % 4, pkg = core / 2;

		t[cpu] = (struct msr_topo_cpu) { .cpu = cpu, .core_leader = core, .package_leader = pkg * 2,
						 .present = present };
	}
}

static size_t count_bank(const struct msr_read *r, size_t n, unsigned bank)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += r[i].bank == bank;
	return k;
}

static void test_plan_shared(void **state)
{
	struct msr_topo_cpu t[8];
	struct msr_read r[8 * 6];
	size_t n;

	(void) state;
	topo_2x2x2(t, 0x3f);
	n = msr_plan_build(&skx, t, 8, 6, r);
	/* banks 0-3 once per core (4 cores), banks 4-5 once per package (2) */
	assert_int_equal(n, 4 * 4 + 2 * 2);
	assert_int_equal(count_bank(r, n, 0), 4);
	assert_int_equal(count_bank(r, n, 5), 2);
	for (size_t i = 0; i < n; i++) {
		assert_true(r[i].cpu < 4);   /* the second threads read nothing */
		if (r[i].bank >= 4)
			assert_true(r[i].cpu == 0 || r[i].cpu == 2);
	}

	/* CPU 0 offline: CPU 4 leads its core, CPU 1 its package */
	memmove(t, t + 1, 7 * sizeof(t[0]));
	t[3].core_leader = 4;
	for (size_t i = 0; i < 7; i++)
		if (t[i].package_leader == 0)
			t[i].package_leader = 1;
	n = msr_plan_build(&skx, t, 7, 6, r);
	assert_int_equal(n, 4 * 4 + 2 * 2);
	assert_int_equal(count_bank(r, n, 4), 2);
}

static void test_plan_thread_and_presence(void **state)
{
	struct msr_cpu_kind vm = skx;
	struct msr_topo_cpu t[8];
	struct msr_read r[8 * 10];
	size_t n;

	(void) state;
	vm.hypervisor = true;
	topo_2x2x2(t, 0x3ff);
	n = msr_plan_build(&vm, t, 8, 10, r);
	assert_int_equal(n, 80);

	/* a bank not visible on a CPU is not read there; banks above n_banks never */
	t[3].present = 0x1;
	n = msr_plan_build(&vm, t, 8, 10, r);
	assert_int_equal(n, 71);
	n = msr_plan_build(&vm, t, 8, 2, r);
	assert_int_equal(n, 15);
}

static void test_leader(void **state)
{
	bool online[8] = { true, true, true, true, true, true, true, true };

	(void) state;
	assert_int_equal(msr_topo_leader("1,5\n", online, 8), 1);
	online[1] = false;
	assert_int_equal(msr_topo_leader("1,5\n", online, 8), 5);
	assert_int_equal(msr_topo_leader("4-7", online, 8), 4);
	online[5] = false;
	assert_int_equal(msr_topo_leader("1,5", online, 8), -ENOENT);
	assert_int_equal(msr_topo_leader("1-x", online, 8), -EINVAL);
	assert_int_equal(msr_topo_leader("9", online, 8), -EINVAL);
}

static void test_seen(void **state)
{
	struct msr_seen s = { 0 };
	struct msr_bank_regs a = { .status = 0x9c00004000010005, .addr = 0x1234000, .misc = 0x86 };
	struct msr_bank_regs b = a, empty = { 0 };

	(void) state;
	assert_true(msr_seen_update(&s, &a));
	assert_false(msr_seen_update(&s, &a));   /* the same error on the next round */
	assert_false(msr_seen_update(&s, &a));
	b.status += UINT64_C(1) << 38;           /* the corrected-error count moved: new error */
	assert_true(msr_seen_update(&s, &b));
	assert_false(msr_seen_update(&s, &b));
	b.misc = 0x87;
	assert_true(msr_seen_update(&s, &b));
	assert_false(msr_seen_update(&s, &empty));   /* cleared by someone: forgotten */
	assert_true(msr_seen_update(&s, &b));
	b.status &= ~MSR_STATUS_VAL;                 /* VAL clear is never a record */
	assert_false(msr_seen_update(&s, &b));
}

static void test_may_clear(void **state)
{
	(void) state;
	assert_true(msr_may_clear(0x9c00004000010005));          /* VAL EN MISCV ADDRV, corrected */
	assert_false(msr_may_clear(0x1c00004000010005));         /* VAL clear: nothing to clear */
	assert_false(msr_may_clear(0xbc00000000010005));         /* UC, PCC clear: UCNA, the kernel's */
	assert_false(msr_may_clear(0xfe00000000800400));         /* UC PCC */
	assert_true(msr_may_clear(0x9c2c100000000000 | 0x11b));  /* AMD deferred (UC clear) */
}

static const char cpuinfo_amd[] =
	"processor\t: 0\n"
	"vendor_id\t: AuthenticAMD\n"
	"cpu family\t: 25\n"
	"model\t\t: 1\n"
	"model name\t: AMD EPYC 7713 64-Core Processor\n"
	"stepping\t: 1\n"
	"microcode\t: 0xa0011d1\n"
	"physical id\t: 0\n"
	"apicid\t\t: 0\n"
	"flags\t\t: fpu vme mca cmov smca fsrm\n"
	"\n"
	"processor\t: 1\n"
	"vendor_id\t: AuthenticAMD\n"
	"cpu family\t: 25\n"
	"physical id\t: 1\n"
	"apicid\t\t: 128\n"
	"flags\t\t: fpu vme mca cmov\n"
	"\n";

static void test_cpuinfo(void **state)
{
	struct cpuinfo ci;
	struct cpuinfo_cpu cpus[4] = { 0 };

	(void) state;
	assert_int_equal(cpuinfo_parse(cpuinfo_amd, &ci, cpus, 4), 0);
	assert_int_equal(ci.vendor, MCE_VENDOR_AMD);
	assert_int_equal(ci.family, 25);
	assert_int_equal(ci.model, 1);
	assert_int_equal(ci.stepping, 1);
	assert_true(ci.have_cpuid);
	assert_true(ci.have_microcode);
	assert_int_equal(ci.microcode, 0xa0011d1);
	assert_true(ci.smca);                /* from the first block, not the second */
	assert_false(ci.hypervisor);
	assert_true(cpus[1].known && cpus[1].have_apicid && cpus[1].have_package);
	assert_int_equal(cpus[1].apicid, 128);
	assert_int_equal(cpus[1].package, 1);
	assert_false(cpus[2].known);

	memset(cpus, 0, sizeof(cpus));
	assert_int_equal(cpuinfo_parse("processor : 0\nvendor_id : GenuineIntel\ncpu family : 6\n"
				       "flags : fpu smcap hypervisor\n", &ci, cpus, 4), 0);
	assert_int_equal(ci.vendor, MCE_VENDOR_INTEL);
	assert_false(ci.have_cpuid);         /* no model, no stepping */
	assert_false(ci.smca);               /* "smcap" is not "smca" */
	assert_true(ci.hypervisor);
	assert_int_equal(cpuinfo_parse("processor : 0\n", &ci, cpus, 4), -EINVAL);
	assert_int_equal(cpuinfo_parse("", &ci, cpus, 4), -EINVAL);
	/* a processor number beyond max is ignored, not written */
	assert_int_equal(cpuinfo_parse("processor : 9\nvendor_id : GenuineIntel\napicid : 3\n", &ci, cpus, 4), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registers),
		cmocka_unit_test(test_scope),
		cmocka_unit_test(test_plan_shared),
		cmocka_unit_test(test_plan_thread_and_presence),
		cmocka_unit_test(test_leader),
		cmocka_unit_test(test_seen),
		cmocka_unit_test(test_may_clear),
		cmocka_unit_test(test_cpuinfo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
