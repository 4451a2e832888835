/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-event.h>
#include <time.h>

#include "clock.h"
#include "control.h"
#include "cpu-hotplug.h"
#include "cpu-list.h"
#include "daemon-config.h"
#include "file-io.h"
#include "keepalive.h"
#include "kernel-cec.h"
#include "log.h"
#include "manager.h"
#include "memory-online.h"
#include "sinks.h"
#include "snapshots.h"
#include "rules-stage.h"
#include "sources.h"
#include "status-json.h"
#include "ras-buffer.h"
#include "trace-buffer.h"
#include "uevent-listener.h"

#define DEFAULT_CONFIG SYSCONFDIR "/mcelogd/mcelogd.conf"
#define DEFAULT_CONTROL_SOCKET RUNSTATEDIR "/mcelogd/control"
#define DEFAULT_STATE_DIRECTORY LOCALSTATEDIR "/lib/mcelogd"

static const char *arg_config = DEFAULT_CONFIG;
static bool arg_config_explicit;
static bool arg_test_config;
static const char *arg_replay;
static const char *arg_json_output;
static const char *arg_metrics_output;
static bool arg_no_journal;
static int arg_log_level = -1;
static const char *arg_tracefs;
static const char *arg_control_socket = DEFAULT_CONTROL_SOCKET;
static const char *arg_state_directory;
static bool arg_setup_trace_buffer;
/* Hidden, for tests: the boot error region file (default: the kernel's). */
static const char *arg_bert;
static const char *arg_pstore_dir;
static const char *arg_pstore_archive_dir;
/* --rules-directory, repeatable: replaces the default rule directories. */
static const char *arg_rules_dirs[RULES_MAX_DIRS];
static size_t arg_n_rules_dirs;
/* Hidden, for tests: where soft_offline_page and hard_offline_page, and the CPUs' online
 * files, are; with either, --replay offlines too. */
static const char *arg_sysfs_memory;
static const char *arg_sysfs_edac;
static const char *arg_procfs, *arg_sysfs_node, *arg_boot_id, *arg_machine_id, *arg_sysfs_cxl;
static const char *arg_dmi_dir, *arg_slots_dir;
static const char *arg_sysfs_cpu;
/* Hidden, for tests: where debugfs is (ras/daemon_active, ras/cec); default /sys/kernel/debug. */
static const char *arg_debugfs;
static bool arg_run_triggers;

static void help(void)
{
	printf("Usage: mcelogd [OPTIONS]\n"
	       "Log machine-check and hardware errors to the journal.\n\n"
	       "  -c, --config FILE       configuration file (default %s)\n"
	       "  -t, --test-config       check the configuration and exit\n"
	       "  -f, --foreground        run in the foreground (always; kept for compatibility)\n"
	       "  -r, --replay FILE       log the records in FILE ('-': stdin) instead of the live\n"
	       "                          sources, then exit\n"
	       "      --output json       also write each record as a JSON line to stdout\n"
	       "      --output-file FILE  also write each record as a JSON line to FILE\n"
	       "      --metrics-file FILE  write the Prometheus counters to FILE (*.prom); a\n"
	       "                          replay writes them only there, never to Metrics=\n"
	       "      --no-journal        do not write records to the journal\n"
	       "      --log-level LEVEL   err, warning, notice, info or debug\n"
	       "      --tracefs DIR       where tracefs is mounted (default: probe)\n"
	       "      --state-directory DIR  state kept across restarts (default $STATE_DIRECTORY\n"
	       "                          or %s)\n"
	       "      --setup-trace-buffer  create the kernel trace instance that keeps records\n"
	       "                          while mcelogd is stopped, then exit\n"
	       "      --control-socket PATH  where to answer 'mcectl status' (default %s;\n"
	       "                          empty: none)\n"
	       "      --rules-directory DIR  read rule files from DIR instead of the default\n"
	       "                          directories (repeatable; the first has priority)\n"
	       "      --run-triggers      with --replay, run the rules' triggers too\n"
	       "  -h, --help              show this help\n"
	       "      --version           show the version\n\n"
	       "See mcelogd(8) and mcelogd.conf(5).\n", DEFAULT_CONFIG, DEFAULT_STATE_DIRECTORY,
	       DEFAULT_CONTROL_SOCKET);
}

static int parse_log_level_arg(const char *s)
{
	static const char *const names[] = { "emerg", "alert", "crit", "err", "warning", "notice",
					     "info", "debug" };

	for (size_t i = 0; i < ELEMENTSOF(names); i++)
		if (streq(s, names[i]))
			return (int) i;
	return -EINVAL;
}


/* Whether PATH is the kernel's own sysfs (a stand-in elsewhere is what the test hooks are for). */
static bool is_real_sysfs(const char *path)
{
	_cleanup_free_ char *real = realpath(path, NULL);

	return real && (streq(real, "/sys") || strncmp(real, "/sys/", 5) == 0);
}

/*
 * The test hooks must not turn a replay of foreign records into acts on this
 * machine: "mcelogd --replay never offlines pages" and never marks this boot's
 * boot error region as logged.  1, or -EINVAL with the reason printed.
 */
static int replay_stays_off_this_machine(void)
{
	if (!arg_replay)
		return 1;
	if (arg_sysfs_memory && is_real_sysfs(arg_sysfs_memory)) {
		fprintf(stderr, "mcelogd: --sysfs-memory '%s' is this machine's sysfs: a replay never offlines "
			"its pages (give a stand-in directory)\n", arg_sysfs_memory);
		return -EINVAL;
	}
	if (arg_sysfs_edac && is_real_sysfs(arg_sysfs_edac)) {
		fprintf(stderr, "mcelogd: --sysfs-edac '%s' is this machine's sysfs: a replay never asks its "
			"memory for repairs (give a stand-in directory)\n", arg_sysfs_edac);
		return -EINVAL;
	}
	if (arg_sysfs_cpu && is_real_sysfs(arg_sysfs_cpu)) {
		fprintf(stderr, "mcelogd: --sysfs-cpu '%s' is this machine's sysfs: a replay never takes "
			"its CPUs offline (give a stand-in directory)\n", arg_sysfs_cpu);
		return -EINVAL;
	}
	if (arg_pstore_dir && is_real_sysfs(arg_pstore_dir)) {
		fprintf(stderr, "mcelogd: --pstore-dir '%s' is this machine's pstore: a replay never removes "
			"its records (give a stand-in directory)\n", arg_pstore_dir);
		return -EINVAL;
	}
	if (arg_pstore_archive_dir && !arg_pstore_dir) {
		fprintf(stderr, "mcelogd: --pstore-archive-dir goes with --pstore-dir\n");
		return -EINVAL;
	}
	if (arg_pstore_dir && !arg_state_directory) {
		fprintf(stderr, "mcelogd: --pstore-dir with --replay needs --state-directory: the records' "
			"logged marks would go into the daemon's state\n");
		return -EINVAL;
	}
	if (arg_bert && !arg_state_directory) {
		fprintf(stderr, "mcelogd: --bert with --replay needs --state-directory: the region's "
			"logged mark would go into the daemon's state and hide this boot's own region\n");
		return -EINVAL;
	}
	return 1;
}

static int parse_argv(int argc, char *argv[])
{
	enum { ARG_OUTPUT = 0x100, ARG_OUTPUT_FILE, ARG_METRICS_FILE, ARG_NO_JOURNAL, ARG_LOG_LEVEL, ARG_VERSION,
	       ARG_TRACEFS, ARG_CONTROL_SOCKET, ARG_STATE_DIRECTORY, ARG_SETUP_TRACE_BUFFER,
	       ARG_BERT, ARG_PSTORE_DIR, ARG_PSTORE_ARCHIVE_DIR, ARG_RULES_DIRECTORY, ARG_SYSFS_MEMORY,
	       ARG_SYSFS_CPU, ARG_SYSFS_EDAC, ARG_RUN_TRIGGERS, ARG_PROCFS, ARG_SYSFS_NODE, ARG_BOOT_ID,
	       ARG_MACHINE_ID, ARG_SYSFS_CXL,
	       ARG_DMI_DIR, ARG_SLOTS_DIRECTORY, ARG_DEBUGFS };
	static const struct option options[] = {
		{ "config",      required_argument, NULL, 'c' },
		{ "test-config", no_argument,       NULL, 't' },
		{ "foreground",  no_argument,       NULL, 'f' },
		{ "replay",      required_argument, NULL, 'r' },
		{ "output",      required_argument, NULL, ARG_OUTPUT },
		{ "output-file", required_argument, NULL, ARG_OUTPUT_FILE },
		{ "metrics-file", required_argument, NULL, ARG_METRICS_FILE },
		{ "no-journal",  no_argument,       NULL, ARG_NO_JOURNAL },
		{ "log-level",   required_argument, NULL, ARG_LOG_LEVEL },
		{ "tracefs",     required_argument, NULL, ARG_TRACEFS },
		{ "control-socket", required_argument, NULL, ARG_CONTROL_SOCKET },
		{ "state-directory", required_argument, NULL, ARG_STATE_DIRECTORY },
		{ "setup-trace-buffer", no_argument, NULL, ARG_SETUP_TRACE_BUFFER },
		{ "bert",        required_argument, NULL, ARG_BERT },
		{ "pstore-dir",  required_argument, NULL, ARG_PSTORE_DIR },
		{ "pstore-archive-dir", required_argument, NULL, ARG_PSTORE_ARCHIVE_DIR },
		{ "rules-directory", required_argument, NULL, ARG_RULES_DIRECTORY },
		/* mcectl rules' older spelling, so the same command line works in both. */
		{ "rules-dir",   required_argument, NULL, ARG_RULES_DIRECTORY },
		{ "sysfs-memory", required_argument, NULL, ARG_SYSFS_MEMORY },
		{ "sysfs-cpu",   required_argument, NULL, ARG_SYSFS_CPU },
		{ "sysfs-edac",  required_argument, NULL, ARG_SYSFS_EDAC },
		{ "procfs",      required_argument, NULL, ARG_PROCFS },
		{ "sysfs-node",  required_argument, NULL, ARG_SYSFS_NODE },
		{ "boot-id",     required_argument, NULL, ARG_BOOT_ID },
		{ "machine-id",  required_argument, NULL, ARG_MACHINE_ID },
		{ "sysfs-cxl",   required_argument, NULL, ARG_SYSFS_CXL },
		{ "dmi-dir",     required_argument, NULL, ARG_DMI_DIR },
		{ "slots-directory", required_argument, NULL, ARG_SLOTS_DIRECTORY },
		{ "run-triggers", no_argument,      NULL, ARG_RUN_TRIGGERS },
		{ "debugfs",     required_argument, NULL, ARG_DEBUGFS },
		{ "help",        no_argument,       NULL, 'h' },
		{ "version",     no_argument,       NULL, ARG_VERSION },
		{}
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:tfr:h", options, NULL)) >= 0) {
		switch (c) {
		case 'c':
			arg_config = optarg;
			arg_config_explicit = true;
			break;
		case 't':
			arg_test_config = true;
			break;
		case 'f':
			break;
		case 'r':
			arg_replay = optarg;
			break;
		case ARG_OUTPUT:
			if (!streq(optarg, "json")) {
				fprintf(stderr, "mcelogd: --output: unknown format '%s' (expected 'json')\n",
					optarg);
				return -EINVAL;
			}
			arg_json_output = "-";
			break;
		case ARG_OUTPUT_FILE:
			if (optarg[0] != '/' && !streq(optarg, "-")) {
				fprintf(stderr, "mcelogd: --output-file: '%s' is not an absolute path\n",
					optarg);
				return -EINVAL;
			}
			arg_json_output = optarg;
			break;
		case ARG_METRICS_FILE: {
			struct mcelogd_config probe;
			char why[256];

			if (optarg[0] == '\0' || config_set_metrics_output(&probe, optarg, why, sizeof(why)) < 0) {
				fprintf(stderr, "mcelogd: --metrics-file: %s\n",
					optarg[0] ? why : "expected a path to a file ending in .prom");
				return -EINVAL;
			}
			arg_metrics_output = optarg;
			break;
		}
		case ARG_NO_JOURNAL:
			arg_no_journal = true;
			break;
		case ARG_LOG_LEVEL:
			arg_log_level = parse_log_level_arg(optarg);
			if (arg_log_level < 0) {
				fprintf(stderr, "mcelogd: --log-level: unknown level '%s' (expected err, "
					"warning, notice, info or debug)\n", optarg);
				return -EINVAL;
			}
			break;
		case ARG_TRACEFS:
			arg_tracefs = optarg;
			break;
		case ARG_STATE_DIRECTORY:
			if (optarg[0] != '/') {
				fprintf(stderr, "mcelogd: --state-directory: '%s' is not an absolute path\n",
					optarg);
				return -EINVAL;
			}
			arg_state_directory = optarg;
			break;
		case ARG_SETUP_TRACE_BUFFER:
			arg_setup_trace_buffer = true;
			break;
		case ARG_CONTROL_SOCKET:
			if (optarg[0] != '\0' && optarg[0] != '/') {
				fprintf(stderr, "mcelogd: --control-socket: '%s' is not an absolute path\n",
					optarg);
				return -EINVAL;
			}
			arg_control_socket = optarg;
			break;
		case ARG_BERT:
			arg_bert = optarg;
			break;
		case ARG_PSTORE_DIR:
			arg_pstore_dir = optarg;
			break;
		case ARG_PSTORE_ARCHIVE_DIR:
			arg_pstore_archive_dir = optarg;
			break;
		case ARG_RULES_DIRECTORY:
			if (arg_n_rules_dirs == RULES_MAX_DIRS) {
				fprintf(stderr, "mcelogd: more than %d --rules-directory\n", RULES_MAX_DIRS);
				return -EINVAL;
			}
			arg_rules_dirs[arg_n_rules_dirs++] = optarg;
			break;
		case ARG_SYSFS_MEMORY:
			arg_sysfs_memory = optarg;
			break;
		case ARG_SYSFS_CPU:
			arg_sysfs_cpu = optarg;
			break;
		case ARG_SYSFS_EDAC:
			arg_sysfs_edac = optarg;
			break;
		case ARG_PROCFS:
			arg_procfs = optarg;
			break;
		case ARG_SYSFS_NODE:
			arg_sysfs_node = optarg;
			break;
		case ARG_DMI_DIR:
			arg_dmi_dir = optarg;
			break;
		case ARG_SLOTS_DIRECTORY:
			arg_slots_dir = optarg;
			break;
		case ARG_BOOT_ID:
		case ARG_MACHINE_ID:
			if (strlen(optarg) != 32 || strspn(optarg, "0123456789abcdef") != 32) {
				fprintf(stderr, "mcelogd: --%s '%s': expected 32 lower-case hex digits\n",
					c == ARG_BOOT_ID ? "boot-id" : "machine-id", optarg);
				return -EINVAL;
			}
			*(c == ARG_BOOT_ID ? &arg_boot_id : &arg_machine_id) = optarg;
			break;
		case ARG_SYSFS_CXL:
			arg_sysfs_cxl = optarg;
			break;
		case ARG_RUN_TRIGGERS:
			arg_run_triggers = true;
			break;
		case ARG_DEBUGFS:
			arg_debugfs = optarg;
			break;
		case 'h':
			help();
			return 0;
		case ARG_VERSION:
			printf("mcelogd %s\n", PACKAGE_VERSION);
			return 0;
		case ':':
			fprintf(stderr, "mcelogd: option '%s' needs a value\n", argv[optind - 1]);
			return -EINVAL;
		default:
			fprintf(stderr, "mcelogd: unknown option '%s' (see mcelogd --help)\n",
				argv[optind - 1]);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "mcelogd: unexpected argument '%s'\n", argv[optind]);
		return -EINVAL;
	}
	return replay_stays_off_this_machine();
}

/*
 * --test-config: a JSON= file that cannot be written is worth a warning, not
 * a failure (the unit runs --test-config first: a failure would stop the
 * journal output too).  Nothing is created here.
 */
static void warn_json_output(const char *path)
{
	_cleanup_free_ char *dir = NULL;
	const char *what = path;
	char *slash;

	if (path[0] != '/')
		return;
	if (access(path, F_OK) < 0) {
		dir = strdup(path);
		if (!dir)
			return;
		slash = strrchr(dir, '/');
		if (slash == dir)
			slash[1] = '\0';
		else
			*slash = '\0';
		what = dir;
	}
	if (access(what, W_OK) < 0)
		fprintf(stderr, "mcelogd: warning: JSON=%s cannot be written (%s: %s); records will go "
			"to the journal only\n", path, what, strerror(errno));
}

static int load_config(struct manager *m)
{
	struct mcelogd_config c;
	int r;

	config_set_defaults(&c);
	r = config_load(m->config_path, !m->config_path_explicit, &c);
	if (r < 0)
		return r;
	m->config = c;
	return 0;
}

static int on_sigterm(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
	struct manager *m = userdata;

	(void) si;
	sd_notify(false, "STOPPING=1\nSTATUS=Stopping");
	manager_stop(m);
	log_info("Stopping on signal %s after %llu record(s)",
		 sd_event_source_get_signal(s) == SIGINT ? "SIGINT" : "SIGTERM",
		 (unsigned long long) m->n_records);
	return sd_event_exit(sd_event_source_get_event(s), 0);
}

static const char *state_directory(void)
{
	const char *e;

	if (arg_state_directory)
		return arg_state_directory;
	/* systemd's StateDirectory= sets it; the first entry is ours. */
	e = getenv("STATE_DIRECTORY");
	if (e && e[0] == '/' && !strchr(e, ':'))
		return e;
	return DEFAULT_STATE_DIRECTORY;
}

static const char *render_status(void *userdata)
{
	return status_json_render(userdata);
}

static const char *render_metrics(void *userdata)
{
	return manager_metrics_text(userdata);
}

static const char *forget_page(void *userdata, uint64_t pfn, uid_t uid, pid_t pid)
{
	struct manager *m = userdata;
	int r = rules_stage_forget_page(&m->rules, pfn, (unsigned) uid, (int) pid);

	return r == -ENOENT ? "{\"forgotten\":false,\"error\":\"no such page in the state\"}" :
	       r < 0 ? "{\"forgotten\":false,\"error\":\"the state could not be saved: see mcelogd's log\"}" :
	       "{\"forgotten\":true}";
}

static void open_control(struct manager *m)
{
	gid_t gid = (gid_t) -1;

	if (arg_control_socket[0] == '\0')
		return;
	if (m->config.socket_group[0]) {
		struct group *g = getgrnam(m->config.socket_group);

		if (g)
			gid = g->gr_gid;
		else
			log_warning("SocketGroup=%s: no such group; only root may ask for status",
				    m->config.socket_group);
	}
	/* Status is a convenience: without it every record is still logged. */
	if (control_open(m->event, arg_control_socket, gid, render_status, render_metrics, forget_page, m,
			 &m->control) < 0)
		log_warning("'mcectl status' will not work: no control socket");
}

static void on_cpu_changed(void *userdata, unsigned cpu, bool online)
{
	manager_cpu_changed(userdata, cpu, online);
}

static void on_cpus_resync(void *userdata, const bool *online, size_t n_online)
{
	manager_cpus_resync(userdata, online, n_online);
}

static const char *const *rules_dirs(void)
{
	static const char *const defaults[] = RULE_DIRS_DEFAULT;

	return arg_n_rules_dirs ? arg_rules_dirs : defaults;
}

static size_t n_rules_dirs(void)
{
	static const char *const defaults[] = RULE_DIRS_DEFAULT;

	return arg_n_rules_dirs ? arg_n_rules_dirs : ELEMENTSOF(defaults);
}

/* [Memory]'s repair settings, as the rules stage takes them. */
static struct mem_repair_limits repair_limits_of(const struct mcelogd_config *c)
{
	return (struct mem_repair_limits) {
		.enabled = c->memory_repair,
		.allow_hard = c->repair_hard,
		.per_device = c->repairs_per_device,
		.per_day = c->repairs_per_day,
	};
}

/*
 * Review of e24200c M1: a reload kept the [Memory] settings of the start
 * without a word, so Repair=no, the kill switch of a destructive action,
 * needed a restart.  Repair settings apply at once; OfflineAgainAtBoot= acts
 * only at a start, which the log says.
 */
static void reload_memory_settings(struct manager *m, const struct mcelogd_config *old)
{
	struct mem_repair_limits was = m->rules.repair_limits;

	m->rules.repair_limits = repair_limits_of(&m->config);
	if (was.enabled != m->rules.repair_limits.enabled || was.per_device != m->rules.repair_limits.per_device ||
	    was.per_day != m->rules.repair_limits.per_day || was.allow_hard != m->rules.repair_limits.allow_hard)
		log_notice("[Memory] repair settings now in effect: Repair=%s RepairPersist=%s RepairsPerDevice=%u "
			   "RepairsPerDay=%u", m->rules.repair_limits.enabled ? "yes" : "no",
			   m->rules.repair_limits.allow_hard ? "hard" : "soft", m->rules.repair_limits.per_device,
			   m->rules.repair_limits.per_day);
	if (old->offline_again_at_boot != m->config.offline_again_at_boot)
		log_notice("[Memory] OfflineAgainAtBoot=%s takes effect at the next start (it acts only then)",
			   m->config.offline_again_at_boot ? "yes" : "no");
	/* [Modules]: every module's verdict under the new thresholds, each change an entry. */
	m->rules.module_thresholds = m->config.modules;
	if (memcmp(&old->modules, &m->config.modules, sizeof(old->modules)) != 0) {
		unsigned moved = rules_stage_settle_modules(&m->rules);

		log_notice("[Modules] thresholds now in effect: %u module verdict%s changed", moved,
			   moved == 1 ? "" : "s");
	}
}

static int on_sighup(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
	struct manager *m = userdata;
	struct mcelogd_config old = m->config;
	int r, rules;

	(void) s;
	(void) si;
	/* MONOTONIC_USEC= ties this RELOADING=1 to the reload systemd asked for (253 and later). */
	sd_notifyf(false, "RELOADING=1\nMONOTONIC_USEC=%llu\nSTATUS=Reloading configuration",
		   (unsigned long long) now_monotonic_usec());
	r = load_config(m);
	if (r < 0) {
		/* A bad edit must not take a running daemon down: keep the old settings. */
		log_error("Reload failed, keeping the previous configuration");
		m->config = old;
	} else {
		r = manager_apply_config(m);
		if (r < 0) {
			m->config = old;
			(void) manager_apply_config(m);
		}
	}
	if (r >= 0) {
		manager_reload_sources(m, &old);
		reload_memory_settings(m, &old);
		log_info("Configuration reloaded from %s", m->config_path);
	}
	/* Rules reload on their own: a bad rule file keeps the running rules, whatever the config. */
	rules = rules_stage_reload(&m->rules, rules_dirs(), n_rules_dirs());
	/* READY=1 ends the reload either way (the daemon runs on, on what it had); the STATUS=
	 * in the same message is what tells a failed reload from a good one. */
	m->reload_failed = r < 0 || rules < 0;
	manager_notify(m, "READY=1");
	return 0;
}

static int run_replay(struct manager *m)
{
	/* --bert and --pstore-dir with --replay: the previous boot's records go through the same
	 * pipeline (tests), in the live daemon's order. */
	const struct source_ops *sources[3];
	size_t n = 0;
	int r, w;

	if (arg_bert)
		sources[n++] = &bert_source_ops;
	if (arg_pstore_dir)
		sources[n++] = &erst_source_ops;
	sources[n++] = &replay_source_ops;
	(void) manager_set_sources(m, sources, n);
	r = manager_open_sources(m);
	w = manager_sync_sinks(m, 30 * 1000000ULL);
	if (w < 0) {
		log_error_errno(w, "Not every record written is stored: %m");
		return EXIT_FAILURE;
	}
	if (m->n_sink_failures > 0) {
		log_error("%llu record(s) could not be written to a sink",
			  (unsigned long long) m->n_sink_failures);
		return EXIT_FAILURE;
	}
	return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

static uint64_t count_fds(void)
{
	uint64_t n = 0;

	(void) fd_count_open(&n);
	return n;
}

/*
 * The sources' descriptors per online CPU, kept back for every CPU that may still come
 * online (possible but offline now), so that hotplug never finds them taken by snapshots.
 */
static uint64_t fd_reserve_for_offline_cpus(uint64_t before, uint64_t after)
{
	static bool possible[CPU_LIST_MAX], online[CPU_LIST_MAX];
	uint64_t n_possible = 0, n_online = 0;

	if (after <= before ||
	    read_cpu_list_file("/sys/devices/system/cpu/possible", possible, ELEMENTSOF(possible)) <= 0 ||
	    read_cpu_list_file("/sys/devices/system/cpu/online", online, ELEMENTSOF(online)) <= 0)
		return 0;
	for (size_t cpu = 0; cpu < CPU_LIST_MAX; cpu++) {
		n_possible += possible[cpu];
		n_online += online[cpu] && possible[cpu];
	}
	if (n_online == 0 || n_possible <= n_online)
		return 0;
	return (after - before + n_online - 1) / n_online * (n_possible - n_online);
}

/* Said once at start: the status shows it at any time (kernel-cec.h). */
static void log_kernel_cec(const struct manager *m)
{
	struct kernel_cec c;

	kernel_cec_read(m->paths.debugfs, &c);
	if (c.state == KERNEL_CEC_ACTIVE)
		log_info("The kernel's corrected-error collector (ras/cec) is active: it soft-offlines a "
			 "page by itself at %" PRIu64 " corrected errors in it, beside mcelogd's page rules "
			 "(mcelogd(8), THE KERNEL'S CORRECTED-ERROR COLLECTOR)", c.action_threshold);
	else
		log_debug("The kernel's corrected-error collector: %s", c.reason);
}

/* A burst of memory uevents ended: the known-bad pages held for memory not there are looked at again. */
static void on_memory_online(void *userdata, const char *cause)
{
	struct manager *m = userdata;

	(void) rules_stage_retry_held(&m->rules, cause);
}

/*
 * Whatever follows the kernel's uevents, one row each (uevent-listener.h).
 * Without the socket nothing is followed, and the status says so.
 */
static void follow_uevents(struct manager *m, const struct cpu_hotplug_handler *hotplug)
{
	struct uevent_follower followers[UEVENT_FOLLOWERS_MAX];
	size_t n = 0;

	if (cpu_hotplug_new(m->event, hotplug, &m->hotplug) >= 0)
		followers[n++] = (struct uevent_follower) {
			.name = "CPU hotplug", .event = cpu_hotplug_uevent, .lost = cpu_hotplug_lost,
			.userdata = m->hotplug,
		};
	if (memory_online_new(m->event, on_memory_online, m, &m->memory_online) >= 0)
		followers[n++] = (struct uevent_follower) {
			.name = "memory coming online", .event = memory_online_uevent, .lost = memory_online_lost,
			.userdata = m->memory_online,
		};
	if (uevent_listener_open(m->event, followers, n, arg_sysfs_memory != NULL, &m->uevents) < 0) {
		m->hotplug = cpu_hotplug_free(m->hotplug);
		m->memory_online = memory_online_free(m->memory_online);
	}
}

static int run_live(struct manager *m)
{
	const struct cpu_hotplug_handler hotplug = {
		.changed = on_cpu_changed,
		.resync = on_cpus_resync,
		.userdata = m,
	};
	bool any = false;
	uint64_t fds_before;
	int r;

	r = sd_event_add_signal(m->event, NULL, SIGTERM, on_sigterm, m);
	if (r >= 0)
		r = sd_event_add_signal(m->event, NULL, SIGINT, on_sigterm, m);
	if (r >= 0)
		r = sd_event_add_signal(m->event, NULL, SIGHUP, on_sighup, m);
	if (r < 0)
		return log_error_errno(r, "Failed to watch signals: %m"), EXIT_FAILURE;
	/* Pings WATCHDOG=1 at half of $WATCHDOG_USEC when the unit sets WatchdogSec=. */
	r = sd_event_set_watchdog(m->event, true);
	if (r < 0)
		log_warning_errno(r, "Failed to enable the watchdog: %m");

	open_control(m);
	/* Before the sources read the online CPUs, so that no change after that goes unseen. */
	follow_uevents(m, &hotplug);
	/* Storms only in the live daemon: --replay logs every record of its input. */
	(void) storm_stage_setup(&m->storm, m->config.storm_enable, &m->config.storm);
	/* Storms a killed mcelogd was counting are closed before new records come. */
	m->storm.state_directory = m->paths.state_directory;
	storm_stage_recover(&m->storm);
	/* The sources first, so that on a large machine the optional snapshots are the ones
	 * that run short of descriptors (fd-budget.h).  What the sources read at open is the
	 * kernel's backlog, which a snapshot taken now would say nothing about. */
	(void) manager_set_sources(m, sources_live, sources_live_count);
	fds_before = count_fds();
	(void) manager_open_sources(m);
	m->fd_reserve = fd_reserve_for_offline_cpus(fds_before, count_fds());
	for (size_t i = 0; i < m->n_sources; i++)
		any |= m->sources[i].state != NULL;
	if (!any)
		log_warning("No machine-check source is active; waiting for a reload (SIGHUP)");
	manager_open_snapshots(m, snapshots_live, snapshots_live_count);
	log_kernel_cec(m);

	/* Records that arrived while we were opening are logged before we claim readiness. */
	manager_drain_sources(m);
	sd_notify(false, "READY=1");
	keepalive_ready();
	manager_update_status(m);

	r = sd_event_loop(m->event);
	if (r < 0)
		return log_error_errno(r, "Event loop failed: %m"), EXIT_FAILURE;
	return EXIT_SUCCESS;
}

int main(int argc, char *argv[])
{
	struct manager m = { .arg_log_level = -1 };
	bool live;
	int r, status;

	/* journald vouches for our entries by _COMM, taken from this name: the same
	 * whatever started us (a wrapper, valgrind in make check-valgrind). */
	(void) prctl(PR_SET_NAME, "mcelogd");
	log_open();
	r = parse_argv(argc, argv);
	if (r <= 0)
		return r < 0 ? 2 : EXIT_SUCCESS;

	m.config_path = arg_config;
	m.config_path_explicit = arg_config_explicit;
	m.arg_json_output = arg_json_output;
	m.arg_metrics_output = arg_metrics_output;
	m.arg_no_journal = arg_no_journal;
	m.arg_log_level = arg_log_level;
	if (arg_log_level >= 0)
		log_set_max_level(arg_log_level);

	r = load_config(&m);
	if (arg_test_config) {
		struct rule_set rules;

		if (r < 0) {
			fprintf(stderr, "mcelogd: configuration %s is invalid\n", m.config_path);
			return EXIT_FAILURE;
		}
		if (rules_load(rules_dirs(), n_rules_dirs(), &rules) < 0) {
			fprintf(stderr, "mcelogd: the rule files are invalid\n");
			return EXIT_FAILURE;
		}
		rule_set_done(&rules);
		warn_json_output(m.arg_json_output ? m.arg_json_output : m.config.json_output);
		if (m.config.socket_group[0] && !getgrnam(m.config.socket_group))
			fprintf(stderr, "mcelogd: warning: SocketGroup=%s: no such group; only root will "
				"be answered on the control socket\n", m.config.socket_group);
		printf("configuration OK\n");
		return EXIT_SUCCESS;
	}
	if (r < 0)
		return EXIT_FAILURE;
	if (arg_setup_trace_buffer) {
		/* Run privileged before the sandboxed daemon (the unit's ExecStartPre=+). */
		int r_ras = 0;

		if (!m.config.trace_buffer)
			return EXIT_SUCCESS;
		r = m.config.source_tracepoint ? trace_buffer_setup(arg_tracefs) : 0;
		if (m.config.source_ras)
			r_ras = ras_buffer_setup(arg_tracefs);
		/* Without the tracepoints there is nothing to keep: not a failure. */
		return (r < 0 && r != -ENOENT) || (r_ras < 0 && r_ras != -ENOENT) ? EXIT_FAILURE : EXIT_SUCCESS;
	}

	live = !arg_replay;
	if (live) {
		uint64_t soft = 0, hard = 0;

		/* systemd's soft limit is 1024; a server's per-CPU readers need more. */
		r = fd_limit_raise(&soft, &hard);
		if (r < 0)
			log_warning_errno(r, "Cannot raise the soft RLIMIT_NOFILE to %" PRIu64 ": %m", hard);
		else
			log_debug("RLIMIT_NOFILE %" PRIu64 " (hard %" PRIu64 ")", soft, hard);
	}
	m.paths = (struct source_paths) {
		.tracefs = arg_tracefs,
		.state_directory = state_directory(),
		.bert_region = arg_bert,
		.pstore = arg_pstore_dir,
		.pstore_archive = arg_pstore_archive_dir,
		.replay = arg_replay,
		.debugfs = arg_debugfs,
	};
	if (live) {
		sigset_t mask;

		sigemptyset(&mask);
		sigaddset(&mask, SIGTERM);
		sigaddset(&mask, SIGINT);
		sigaddset(&mask, SIGHUP);
		sigprocmask(SIG_BLOCK, &mask, NULL);
		r = sd_event_default(&m.event);
		if (r < 0)
			return log_error_errno(r, "Failed to allocate the event loop: %m"), EXIT_FAILURE;
	}
	r = manager_init(&m, live);
	if (r >= 0) {
		/* Counts persist for the daemon; a replay keeps them only in a --state-directory
		 * given for it, so that replayed history never counts into the daemon's. */
		m.rules.sysfs_memory = arg_sysfs_memory;
		m.rules.sysfs_cpu = arg_sysfs_cpu;
		m.rules.act_pages = live || arg_sysfs_memory;
		m.rules.act_cpus = live || arg_sysfs_cpu;
		m.rules.run_triggers = live || arg_run_triggers;
		m.rules.read_memory_failure = live || arg_procfs || arg_sysfs_node;
		m.rules.procfs = arg_procfs;
		m.rules.sysfs_node = arg_sysfs_node;
		/* The recording machine's slots are not this one's: a replay names them only when told where. */
		m.rules.read_slots = live || arg_dmi_dir || arg_slots_dir;
		m.rules.dmi_dir = arg_dmi_dir;
		m.rules.slots_dir = arg_slots_dir;
		m.rules.offline_again_at_boot = m.config.offline_again_at_boot;
		m.rules.sysfs_edac = arg_sysfs_edac;
		m.rules.act_repairs = live || arg_sysfs_edac;
		m.rules.repair_limits = repair_limits_of(&m.config);
		m.rules.module_thresholds = m.config.modules;
		/* A replay's stand-in for a reboot: which boot the state's pages are compared with. */
		if (arg_boot_id && !live)
			memcpy(m.boot_id, arg_boot_id, sizeof(m.boot_id));
		/* ... and of a copied state: which machine the state's pages are compared with. */
		if (arg_machine_id && !live)
			memcpy(m.machine_id, arg_machine_id, sizeof(m.machine_id));
		m.rules.sysfs_cxl = arg_sysfs_cxl;
		r = rules_stage_setup(&m.rules, rules_dirs(), n_rules_dirs(),
				      live ? m.paths.state_directory : arg_state_directory);
	}
	if (r >= 0)
		r = manager_set_sinks(&m, sinks_all, sinks_all_count);
	if (r >= 0)
		r = manager_apply_config(&m);
	if (r < 0) {
		manager_done(&m);
		return EXIT_FAILURE;
	}
	/* With the sinks open, so that a refusal's alert reaches them. */
	(void) rules_stage_offline_again(&m.rules);
	/* Thresholds changed while stopped: the saved verdicts settle now, each change an entry. */
	(void) rules_stage_settle_modules(&m.rules);
	status = live ? run_live(&m) : run_replay(&m);
	manager_done(&m);
	return status;
}
