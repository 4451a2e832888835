/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-event.h>
#include <unistd.h>

#include "clock.h"
#include "cpu-list.h"
#include "cpuinfo.h"
#include "file-io.h"
#include "log.h"
#include "daemon-config.h"
#include "msr-plan.h"
#include "source.h"
#include "sources.h"

#define SYSFS_CPU "/sys/devices/system/cpu"

struct msr_source {
	const struct source_host *host;
	sd_event_source *timer;
	uint64_t interval_usec;

	struct cpuinfo cpuinfo;
	struct cpuinfo_cpu *cpu_info;   /* [n_possible] */
	struct msr_cpu_kind kind;
	uint64_t mcgcap;
	unsigned n_banks;

	unsigned n_possible;            /* CPU numbers below this */
	int *fds;                       /* [n_possible], -1: closed */
	uint64_t *ipid;                 /* [n_possible * n_banks], SMCA: MCA_IPID read when planning */
	struct msr_seen *seen;          /* [n_possible * n_banks], what each slot last logged */

	char online_text[4096];         /* /sys/devices/system/cpu/online the plan was made for */
	bool replan;
	bool announce;                  /* log the state after the first round of a new plan */
	struct msr_topo_cpu *topo;      /* [n_possible] */
	struct msr_read *plan;          /* [n_possible * n_banks] */
	size_t n_plan;
	unsigned n_plan_cpus;
	unsigned n_plan_banks;          /* distinct banks in the plan */

	bool can_clear;
	char no_clear_why[200];
	bool told_no_clear;
	const char *ignore_ce_note;     /* MSRPoll=yes without ignore_ce */

	uint64_t reads_last_round;
	uint64_t n_rounds;
};

static int read_text(const char *path, char *buf, size_t size)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return negative_errno();
	n = read(fd, buf, size - 1);
	if (n < 0)
		return negative_errno();
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return (int) n;
}

/* pread() of one MSR: the file offset is the MSR number (kernel-interfaces.md §1f). */
static int rdmsr(int fd, uint32_t msr, uint64_t *ret)
{
	ssize_t n = pread(fd, ret, sizeof(*ret), (off_t) msr);

	if (n < 0)
		return negative_errno();
	return n == sizeof(*ret) ? 0 : -EIO;
}

static int wrmsr(int fd, uint32_t msr, uint64_t v)
{
	ssize_t n = pwrite(fd, &v, sizeof(v), (off_t) msr);

	if (n < 0)
		return negative_errno();
	return n == sizeof(v) ? 0 : -EIO;
}

static int open_msr_dev(unsigned cpu, bool rw)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/dev/cpu/%u/msr", cpu);
	fd = open(path, (rw ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	return fd < 0 ? negative_errno() : fd;
}

static void close_fds(struct msr_source *s)
{
	for (unsigned i = 0; s->fds && i < s->n_possible; i++)
		if (s->fds[i] >= 0) {
			close(s->fds[i]);
			s->fds[i] = -1;
		}
}

static void no_clear(struct msr_source *s, const char *fmt, ...) _printf_(2, 3);
static void no_clear(struct msr_source *s, const char *fmt, ...)
{
	va_list ap;

	s->can_clear = false;
	va_start(ap, fmt);
	vsnprintf(s->no_clear_why, sizeof(s->no_clear_why), fmt, ap);
	va_end(ap);
	if (!s->told_no_clear) {
		/* Said once: every round would otherwise repeat it. */
		log_notice("MSR polling cannot clear the banks: %s. Each error is logged once, "
			   "recognised by its register values", s->no_clear_why);
		s->told_no_clear = true;
	}
}

static int cpu_fd(struct msr_source *s, unsigned cpu)
{
	int fd;

	if (cpu >= s->n_possible)
		return -ENXIO;
	if (s->fds[cpu] >= 0)
		return s->fds[cpu];
	fd = open_msr_dev(cpu, s->can_clear);
	if ((fd == -EACCES || fd == -EPERM) && s->can_clear) {
		fd = open_msr_dev(cpu, false);
		if (fd >= 0)
			no_clear(s, "/dev/cpu/%u/msr opens read-only here (the unit's DeviceAllow=, or file "
				 "permissions)", cpu);
	}
	if (fd >= 0)
		s->fds[cpu] = fd;
	return fd;
}

static void topo_leader(const char *file, const char *fallback, unsigned cpu, const bool *online,
			unsigned *ret)
{
	char path[128], text[4096];
	int r;

	snprintf(path, sizeof(path), SYSFS_CPU "/cpu%u/topology/%s", cpu, file);
	r = read_text(path, text, sizeof(text));
	if (r < 0) {
		snprintf(path, sizeof(path), SYSFS_CPU "/cpu%u/topology/%s", cpu, fallback);
		r = read_text(path, text, sizeof(text));
	}
	if (r >= 0)
		r = msr_topo_leader(text, online, CPU_LIST_MAX);
	/* Unknown topology: this CPU reads for itself, which is never too little. */
	*ret = r >= 0 ? (unsigned) r : cpu;
}

/* Reads the online CPUs, their topology and (SMCA) which banks they see; builds the plan. */
static int build_plan(struct msr_source *s)
{
	_cleanup_free_ bool *online = NULL;
	uint64_t all = s->n_banks >= 64 ? UINT64_MAX : (UINT64_C(1) << s->n_banks) - 1;
	unsigned n_topo = 0, plan_reads = 0;
	uint64_t banks_used = 0;
	bool missing = false;
	int r;

	online = calloc(CPU_LIST_MAX, sizeof(bool));
	if (!online)
		return -ENOMEM;
	r = read_text(SYSFS_CPU "/online", s->online_text, sizeof(s->online_text));
	if (r < 0)
		return log_error_errno(r, "Failed to read " SYSFS_CPU "/online: %m");
	if (cpu_list_parse(s->online_text, online, CPU_LIST_MAX) < 0)
		return log_error_errno(-EINVAL, "Cannot parse " SYSFS_CPU "/online: '%s'", s->online_text);

	for (unsigned cpu = 0; cpu < s->n_possible; cpu++) {
		struct msr_topo_cpu *t;
		int fd;

		if (!online[cpu]) {
			if (s->fds[cpu] >= 0) {
				close(s->fds[cpu]);
				s->fds[cpu] = -1;
			}
			continue;
		}
		fd = cpu_fd(s, cpu);
		if (fd < 0) {
			/* Gone between reading the list and opening: the next round re-plans. */
			log_debug_errno(fd, "Cannot open /dev/cpu/%u/msr, not polling it: %m", cpu);
			missing = true;
			continue;
		}
		t = &s->topo[n_topo++];
		*t = (struct msr_topo_cpu) { .cpu = cpu, .present = all };
		/* core_cpus_list/package_cpus_list since Linux 5.7; the older names before. */
		topo_leader("core_cpus_list", "thread_siblings_list", cpu, online, &t->core_leader);
		topo_leader("package_cpus_list", "core_siblings_list", cpu, online, &t->package_leader);
		if (s->kind.smca) {
			t->present = 0;
			for (unsigned b = 0; b < s->n_banks; b++) {
				uint64_t ipid = 0;

				plan_reads++;
				if (rdmsr(fd, msr_bank_reg(true, b, MSR_REG_IPID), &ipid) >= 0 && ipid != 0)
					t->present |= UINT64_C(1) << b;
				s->ipid[(size_t) cpu * s->n_banks + b] = ipid;
			}
		}
	}
	s->n_plan = msr_plan_build(&s->kind, s->topo, n_topo, s->n_banks, s->plan);
	s->n_plan_cpus = 0;
	for (size_t i = 0; i < s->n_plan; i++) {
		if (i == 0 || s->plan[i].cpu != s->plan[i - 1].cpu)
			s->n_plan_cpus++;
		banks_used |= UINT64_C(1) << s->plan[i].bank;
	}
	s->n_plan_banks = (unsigned) __builtin_popcountll(banks_used);
	s->replan = missing;
	s->announce = true;
	log_debug("MSR poll plan: %zu bank reads on %u of %u online CPUs%s (%u MCA_IPID reads to plan)",
		  s->n_plan, s->n_plan_cpus, n_topo, s->kind.hypervisor ? ", per vCPU" : "", plan_reads);
	return 0;
}

static void submit(struct msr_source *s, unsigned cpu, unsigned bank, const struct msr_bank_regs *regs,
		   int fd)
{
	const struct cpuinfo_cpu *ci = &s->cpu_info[cpu];
	struct mce_record rec = {
		.have = MCE_HAVE_TIME | MCE_HAVE_CPU | MCE_HAVE_BANK | MCE_HAVE_VENDOR | MCE_HAVE_MCGCAP |
			MCE_HAVE_STATUS,
		.time_usec = now_realtime_usec(),
		.source = MCE_SOURCE_MSR_POLL,
		.cpu = cpu,
		.bank = bank,
		.vendor = s->cpuinfo.vendor,
		.mcgcap = s->mcgcap,
		.status = regs->status,
	};

	if (s->cpuinfo.have_cpuid) {
		rec.have |= MCE_HAVE_CPUID;
		rec.family = s->cpuinfo.family;
		rec.model = s->cpuinfo.model;
		rec.stepping = s->cpuinfo.stepping;
	}
	if (s->cpuinfo.have_microcode) {
		rec.have |= MCE_HAVE_MICROCODE;
		rec.microcode = s->cpuinfo.microcode;
	}
	if (ci->have_package) {
		rec.have |= MCE_HAVE_SOCKET;
		rec.socket = ci->package;
	}
	if (ci->have_apicid) {
		rec.have |= MCE_HAVE_APICID;
		rec.apicid = ci->apicid;
	}
	/* One more read, only for a record: MCIP/RIPV/EIPV as the decoders expect them. */
	if (rdmsr(fd, MSR_IA32_MCG_STATUS, &rec.mcgstatus) >= 0) {
		rec.have |= MCE_HAVE_MCGSTATUS;
		s->reads_last_round++;
	}
	if (regs->status & MSR_STATUS_ADDRV) {
		rec.have |= MCE_HAVE_ADDR;
		rec.addr = regs->addr;
	}
	if (regs->status & MSR_STATUS_MISCV) {
		rec.have |= MCE_HAVE_MISC;
		rec.misc = regs->misc;
	}
	if (s->kind.smca) {
		rec.have |= MCE_HAVE_IPID;
		rec.ipid = regs->ipid;
		if (regs->status & MSR_STATUS_SYNDV) {
			rec.have |= MCE_HAVE_SYND;
			rec.synd = regs->synd;
		}
	}
	(void) source_submit(s->host, &rec);
}

static void clear_bank(struct msr_source *s, int fd, unsigned cpu, unsigned bank, struct msr_seen *seen)
{
	int r = wrmsr(fd, msr_bank_reg(s->kind.smca, bank, MSR_REG_STATUS), 0);

	if (r >= 0) {
		/* Empty now: the same values again later are a new error. */
		seen->valid = false;
		return;
	}
	if (r == -EPERM || r == -EACCES)
		no_clear(s, "the kernel refused to write MC%u_STATUS on CPU %u (msr.allow_writes=off, "
			 "or kernel lockdown)", bank, cpu);
	else
		no_clear(s, "writing MC%u_STATUS on CPU %u failed: %s", bank, cpu, strerror(-r));
}

static void poll_bank(struct msr_source *s, unsigned cpu, unsigned bank)
{
	struct msr_seen *seen = &s->seen[(size_t) cpu * s->n_banks + bank];
	struct msr_bank_regs regs = { 0 };
	bool smca = s->kind.smca;
	int fd = cpu < s->n_possible ? s->fds[cpu] : -1, r;

	if (fd < 0) {
		s->replan = true;
		return;
	}
	r = rdmsr(fd, msr_bank_reg(smca, bank, MSR_REG_STATUS), &regs.status);
	s->reads_last_round++;
	if (r < 0) {
		/* ENXIO/EIO: the CPU went offline since the plan was made; not an error. */
		if (r != -ENXIO && r != -EIO)
			log_warning_errno(r, "Cannot read MC%u_STATUS on CPU %u: %m", bank, cpu);
		s->replan = true;
		return;
	}
	if (regs.status & MSR_STATUS_VAL) {
		/* The other registers only when STATUS says they hold something. */
		if ((regs.status & MSR_STATUS_ADDRV) &&
		    rdmsr(fd, msr_bank_reg(smca, bank, MSR_REG_ADDR), &regs.addr) >= 0)
			s->reads_last_round++;
		if ((regs.status & MSR_STATUS_MISCV) &&
		    rdmsr(fd, msr_bank_reg(smca, bank, MSR_REG_MISC), &regs.misc) >= 0)
			s->reads_last_round++;
		if (smca) {
			regs.ipid = s->ipid[(size_t) cpu * s->n_banks + bank];
			if ((regs.status & MSR_STATUS_SYNDV) &&
			    rdmsr(fd, msr_bank_reg(true, bank, MSR_REG_SYND), &regs.synd) >= 0)
				s->reads_last_round++;
		}
	}
	if (!msr_seen_update(seen, &regs))
		return;
	/*
	 * Clear before the record goes to the sinks: a journal write takes far
	 * longer than a bank takes to catch the next error, which a clear after
	 * it would erase unlogged.  STATUS is read once more right before the
	 * write: if it changed, a new error is there, and it stays for the next
	 * round.
	 */
	if (s->can_clear && msr_may_clear(regs.status)) {
		uint64_t now = 0;

		r = rdmsr(fd, msr_bank_reg(smca, bank, MSR_REG_STATUS), &now);
		s->reads_last_round++;
		if (r >= 0 && now == regs.status)
			clear_bank(s, fd, cpu, bank, seen);
	}
	submit(s, cpu, bank, &regs, fd);
}

/* The reason last shown in mcectl status, for our own log lines too. */
static char msr_reason[256];

_printf_(3, 4)
static void msr_state(const struct source_host *h, enum source_state state, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msr_reason, sizeof(msr_reason), fmt, ap);
	va_end(ap);
	h->set_state(h->core, MCE_SOURCE_MSR_POLL, state, msr_reason);
}

static void set_state(struct msr_source *s)
{
	unsigned secs = (unsigned) (s->interval_usec / 1000000);

	msr_state(s->host, SOURCE_ACTIVE, "polling %u bank%s on %u CPU%s every %us, %" PRIu64 " reads/round; %s%s%s",
				 s->n_plan_banks, s->n_plan_banks == 1 ? "" : "s",
				 s->n_plan_cpus, s->n_plan_cpus == 1 ? "" : "s", secs, s->reads_last_round,
				 s->can_clear ? "clearing corrected errors" : "not clearing: ",
				 s->can_clear ? "" : s->no_clear_why,
				 s->ignore_ce_note ? s->ignore_ce_note : "");
}

static void poll_round(struct msr_source *s)
{
	char online[sizeof(s->online_text)];

	/* Re-reading the online list is one small read: CPU hotplug needs no other hook. */
	if (read_text(SYSFS_CPU "/online", online, sizeof(online)) >= 0 && !streq(online, s->online_text))
		s->replan = true;
	if (s->replan && build_plan(s) < 0)
		return;
	s->reads_last_round = 0;
	for (size_t i = 0; i < s->n_plan; i++)
		poll_bank(s, s->plan[i].cpu, s->plan[i].bank);
	s->n_rounds++;
	set_state(s);
	if (s->announce) {
		log_info("MSR polling: %s", msr_reason);
		s->announce = false;
	}
}

static int on_timer(sd_event_source *es, uint64_t usec, void *userdata)
{
	struct msr_source *s = userdata;
	int r;

	(void) usec;
	poll_round(s);
	r = sd_event_source_set_time_relative(es, s->interval_usec);
	if (r >= 0)
		r = sd_event_source_set_enabled(es, SD_EVENT_ONESHOT);
	if (r < 0)
		log_error_errno(r, "Cannot re-arm the MSR poll timer, polling stops: %m");
	return 0;
}

static void msr_close(void *userdata)
{
	struct msr_source *s = userdata;

	if (!s)
		return;
	sd_event_source_disable_unref(s->timer);
	close_fds(s);
	free(s->fds);
	free(s->cpu_info);
	free(s->ipid);
	free(s->seen);
	free(s->topo);
	free(s->plan);
	free(s);
}

/* Whether writes can work, from msr.allow_writes (Linux 5.9+; absent before: writes allowed). */
static void probe_writes(struct msr_source *s)
{
	char v[32];
	int r = read_text("/sys/module/msr/parameters/allow_writes", v, sizeof(v));

	s->can_clear = true;
	if (r < 0)
		return;   /* older kernel, or unreadable: the first write tells */
	if (streq(v, "on"))
		return;
	if (streq(v, "off"))
		no_clear(s, "msr.allow_writes=off (boot with msr.allow_writes=on to let mcelogd clear them)");
	else
		/* "default": writes work but taint the kernel and warn in dmesg; only an explicit "on" is consent. */
		no_clear(s, "msr.allow_writes is '%s', not 'on' (boot with msr.allow_writes=on to let "
			 "mcelogd clear them)", v);
}


static int unavailable(const struct source_host *h, int r, const char *what)
{
	if (r == -ENOENT || r == -ENXIO)
		msr_state(h, SOURCE_UNAVAILABLE,
					 "no %s (load the msr module: modprobe msr)", what);
	else if (r == -EACCES || r == -EPERM)
		msr_state(h, SOURCE_UNAVAILABLE,
					 "no permission to read %s (needs CAP_SYS_RAWIO and "
					 "DeviceAllow=char-cpu/msr)", what);
	else
		msr_state(h, SOURCE_UNAVAILABLE, "%s: %s", what,
					 strerror(-r));
	return 0;
}

static int open_poller(const struct source_host *h, struct msr_source **ret)
{
	struct msr_source *s;
	_cleanup_free_ char *cpuinfo = NULL;
	size_t cpuinfo_len;
	char v[32], path[64];
	bool ignore_ce;
	int r, first, fd;
	bool possible[CPU_LIST_MAX] = { false };

	*ret = NULL;
	if (h->config->msr_poll == MSR_POLL_NO) {
		msr_state(h, SOURCE_DISABLED,
					 "MSRPoll=no in the configuration");
		return 0;
	}
	r = read_text("/sys/devices/system/machinecheck/machinecheck0/ignore_ce", v, sizeof(v));
	ignore_ce = r >= 0 && streq(v, "1");
	if (!ignore_ce && h->config->msr_poll == MSR_POLL_AUTO) {
		msr_state(h, SOURCE_DISABLED, "%s",
					 r < 0 ? "this kernel has no x86 machine-check sysfs (MSRPoll=auto)" :
					 "the kernel polls and clears corrected errors itself (ignore_ce=0; "
					 "MSRPoll=auto polls only with mce=ignore_ce)");
		return 0;
	}

	/* Which CPUs may ever exist sizes the per-CPU state once; hotplug then only re-plans. */
	r = read_cpu_list_file(SYSFS_CPU "/possible", possible, CPU_LIST_MAX);
	if (r <= 0)
		return unavailable(h, r < 0 ? r : -EINVAL, SYSFS_CPU "/possible");
	first = -1;
	for (unsigned i = 0; i < CPU_LIST_MAX; i++)
		if (possible[i] && first < 0)
			first = (int) i;

	s = calloc(1, sizeof(*s));
	if (!s)
		return log_error_errno(-ENOMEM, "Out of memory");
	s->host = h;
	s->interval_usec = h->config->msr_poll_interval_usec;
	for (unsigned i = 0; i < CPU_LIST_MAX; i++)
		if (possible[i])
			s->n_possible = i + 1;
	if (!ignore_ce)
		s->ignore_ce_note = " (ignore_ce=0: the kernel clears corrected errors first, polling "
				    "sees few)";

	/* Some 4 KiB per CPU; the limit only guards against a file that never ends. */
	r = read_full_file("/proc/cpuinfo", 64u * 1024 * 1024, &cpuinfo, &cpuinfo_len);
	if (r < 0)
		log_debug_errno(r, "Cannot read /proc/cpuinfo: %m");
	s->cpu_info = calloc(s->n_possible, sizeof(*s->cpu_info));
	s->fds = malloc(s->n_possible * sizeof(int));
	s->topo = calloc(s->n_possible, sizeof(*s->topo));
	if (!s->cpu_info || !s->fds || !s->topo) {
		msr_close(s);
		return log_error_errno(-ENOMEM, "Out of memory");
	}
	for (unsigned i = 0; i < s->n_possible; i++)
		s->fds[i] = -1;
	if (!cpuinfo || cpuinfo_parse(cpuinfo, &s->cpuinfo, s->cpu_info, s->n_possible) < 0) {
		msr_close(s);
		msr_state(h, SOURCE_UNAVAILABLE,
					 "cannot tell the CPU vendor from /proc/cpuinfo (not x86?)");
		return 0;
	}
	s->kind = (struct msr_cpu_kind) {
		.vendor = s->cpuinfo.vendor, .family = s->cpuinfo.family, .model = s->cpuinfo.model,
		.smca = s->cpuinfo.smca, .hypervisor = s->cpuinfo.hypervisor,
	};

	probe_writes(s);
	fd = open_msr_dev((unsigned) first, false);
	if (fd < 0) {
		msr_close(s);
		snprintf(path, sizeof(path), "/dev/cpu/%d/msr", first);
		return unavailable(h, fd, path);
	}
	r = rdmsr(fd, MSR_IA32_MCG_CAP, &s->mcgcap);
	close(fd);
	if (r < 0) {
		msr_close(s);
		return unavailable(h, r, "IA32_MCG_CAP");
	}
	s->n_banks = (unsigned) (s->mcgcap & MSR_MCG_CAP_COUNT);
	if (s->n_banks > MSR_MAX_BANKS)
		s->n_banks = MSR_MAX_BANKS;
	if (s->n_banks == 0) {
		msr_close(s);
		msr_state(h, SOURCE_UNAVAILABLE,
					 "IA32_MCG_CAP reports no MCA banks");
		return 0;
	}
	s->ipid = calloc((size_t) s->n_possible * s->n_banks, sizeof(*s->ipid));
	s->seen = calloc((size_t) s->n_possible * s->n_banks, sizeof(*s->seen));
	s->plan = calloc((size_t) s->n_possible * s->n_banks, sizeof(*s->plan));
	if (!s->ipid || !s->seen || !s->plan) {
		msr_close(s);
		return log_error_errno(-ENOMEM, "Out of memory");
	}

	r = build_plan(s);
	if (r < 0) {
		msr_close(s);
		return unavailable(h, r, "the CPU list");
	}
	r = sd_event_add_time_relative(h->event, &s->timer, CLOCK_MONOTONIC, s->interval_usec,
				       1000000, on_timer, s);
	if (r < 0) {
		msr_close(s);
		return log_error_errno(r, "Cannot add the MSR poll timer: %m");
	}
	(void) sd_event_source_set_description(s->timer, "msr-poll");
	log_info("Polling %u MCA banks (%s%s) through /dev/cpu/N/msr every %" PRIu64 "s",
		 s->n_banks, s->kind.smca ? "SMCA" : "IA32_MCi", s->kind.hypervisor ? ", under a hypervisor" : "",
		 s->interval_usec / 1000000);
	/* Errors already waiting in the banks are logged before READY=1. */
	poll_round(s);
	*ret = s;
	return 0;
}

static int msr_open(const struct source_host *h, void **ret)
{
	struct msr_source *s = NULL;
	int r = open_poller(h, &s);

	*ret = s;
	if (s)
		return r;
	if (h->get_state(h->core, MCE_SOURCE_MSR_POLL) == SOURCE_UNAVAILABLE)
		log_warning("MSR polling unavailable: %s", msr_reason);
	else
		log_info("MSR polling off: %s", msr_reason);
	return r;
}

static bool msr_reload_needed(const struct mcelogd_config *old, const struct mcelogd_config *cur)
{
	return old->msr_poll != cur->msr_poll || old->msr_poll_interval_usec != cur->msr_poll_interval_usec;
}

static size_t msr_describe(void *userdata, char *buf, size_t size)
{
	int n;

	(void) userdata;
	n = snprintf(buf, size, "Polling MCA banks");
	return n < 0 ? 0 : (size_t) n;
}

const struct source_ops msr_source_ops = {
	.name = "msr_poll",
	.open = msr_open,
	.close = msr_close,
	.reload_needed = msr_reload_needed,
	.describe = msr_describe,
};
