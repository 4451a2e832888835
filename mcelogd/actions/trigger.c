/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <unistd.h>
#include <systemd/sd-event.h>

#include "actions.h"
#include "log.h"
#include "macro.h"
#include "rfc3339.h"
#include "rule-field.h"
#include "rule.h"

#define TRIGGER_ENV_MAX 48

/* One run of a trigger: queued, then running. */
struct trigger_run {
	struct trigger_runner *runner;
	struct trigger_run *next;            /* in the queue */
	char rule[RULE_NAME_MAX];
	char argv_buf[RULE_TRIGGER_MAX];
	char *argv[RULE_TRIGGER_ARGS + 1];
	char *env[TRIGGER_ENV_MAX + 1];      /* malloc'ed strings */
	char *input;                         /* the alert's JSON, for stdin */
	uint64_t timeout_usec;

	pid_t pid;                           /* also its process group's id */
	int pid_fd;                          /* the program, kept a zombie until the run is over */
	int out_fd;
	sd_event_source *child, *output, *timer;   /* child: the pidfd turns readable at exit */
	char line[1024];                     /* a partial output line */
	size_t line_len;
	size_t logged;                       /* output bytes logged */
	bool timed_out, exited;
};

struct trigger_runner {
	sd_event *event;
	bool own_event;
	unsigned running;
	struct trigger_run *queue_head, *queue_tail;
	unsigned queued;
};

static void run_free(struct trigger_run *r)
{
	if (!r)
		return;
	r->child = sd_event_source_disable_unref(r->child);
	r->output = sd_event_source_disable_unref(r->output);
	r->timer = sd_event_source_disable_unref(r->timer);
	if (r->out_fd >= 0)
		close(r->out_fd);
	if (r->pid_fd >= 0)
		close(r->pid_fd);
	for (size_t i = 0; r->env[i]; i++)
		free(r->env[i]);
	free(r->input);
	free(r);
}

int trigger_runner_new(sd_event *event, struct trigger_runner **ret)
{
	_cleanup_free_ struct trigger_runner *t = calloc(1, sizeof(*t));
	sigset_t mask;
	int r;

	if (!t)
		return -ENOMEM;
	/* sd-event watches children through SIGCHLD, which must be blocked. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	if (event)
		t->event = sd_event_ref(event);
	else {
		r = sd_event_new(&t->event);
		if (r < 0)
			return r;
		t->own_event = true;
	}
	*ret = TAKE_PTR(t);
	return 0;
}

static void start_next(struct trigger_runner *t);

static void log_line(struct trigger_run *r, const char *s, size_t n)
{
	if (r->logged >= TRIGGER_OUTPUT_MAX)
		return;
	r->logged += n;
	log_info("Trigger of rule '%s' [%d]: %.*s", r->rule, (int) r->pid, (int) n, s);
	if (r->logged >= TRIGGER_OUTPUT_MAX)
		log_warning("Trigger of rule '%s' [%d]: more than %u bytes of output, the rest not logged",
			    r->rule, (int) r->pid, TRIGGER_OUTPUT_MAX);
}

/* Reads what the trigger wrote; at EOF flushes the last partial line.  Returns 0 at EOF. */
static int drain_output(struct trigger_run *r)
{
	char buf[4096];

	for (;;) {
		ssize_t n = read(r->out_fd, buf, sizeof(buf));

		if (n < 0)
			return errno == EAGAIN || errno == EINTR ? 1 : 0;
		if (n == 0)
			break;
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\n' || r->line_len == sizeof(r->line)) {
				log_line(r, r->line, r->line_len);
				r->line_len = 0;
				if (buf[i] == '\n')
					continue;
			}
			r->line[r->line_len++] = buf[i];
		}
	}
	if (r->line_len > 0)
		log_line(r, r->line, r->line_len);
	r->line_len = 0;
	return 0;
}

/* Kills what is left of the run, reaps its program and frees it.  The program is still a
 * zombie here, so its process group id cannot have been reused: the kill reaches only
 * what the trigger started. */
static void end_run(struct trigger_run *r)
{
	struct trigger_runner *t = r->runner;
	siginfo_t si;

	(void) kill(-r->pid, SIGKILL);
	(void) waitid(P_PIDFD, r->pid_fd, &si, WEXITED);
	t->running--;
	run_free(r);
	start_next(t);
}

static void finish(struct trigger_run *r)
{
	/* Both the exit and the end of its output: then the run is over. */
	if (!r->exited || r->output)
		return;
	end_run(r);
}

static int on_output(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct trigger_run *r = userdata;

	(void) s;
	(void) fd;
	(void) revents;
	if (drain_output(r) == 0) {
		r->output = sd_event_source_disable_unref(r->output);
		finish(r);
	}
	return 0;
}

static int on_program_exit(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct trigger_run *r = userdata;
	siginfo_t si = {};

	(void) s;
	(void) fd;
	(void) revents;
	/* WNOWAIT: the zombie holds the process group's id until end_run(). */
	if (waitid(P_PIDFD, r->pid_fd, &si, WEXITED | WNOHANG | WNOWAIT) < 0 || si.si_pid == 0)
		return 0;
	if (si.si_code == CLD_EXITED && si.si_status == 0)
		log_info("Trigger of rule '%s' [%d] exited with status 0", r->rule, (int) r->pid);
	else if (si.si_code == CLD_EXITED)
		log_warning("Trigger of rule '%s' [%d] exited with status %d", r->rule, (int) r->pid,
			    si.si_status);
	else
		log_warning("Trigger of rule '%s' [%d] %s by signal %d (SIG%s)%s", r->rule, (int) r->pid,
			    si.si_code == CLD_DUMPED ? "dumped core, killed" : "killed", si.si_status,
			    sigabbrev_np(si.si_status) ?: "?",
			    r->timed_out ? ": it ran past its TriggerTimeout=" : "");
	r->exited = true;
	r->child = sd_event_source_disable_unref(r->child);
	finish(r);
	return 0;
}

static int on_timeout(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct trigger_run *r = userdata;

	(void) s;
	(void) usec;
	r->timed_out = true;
	r->timer = sd_event_source_disable_unref(r->timer);
	if (!r->exited)
		log_warning("Trigger of rule '%s' [%d] still running after %" PRIu64 " ms: killing it",
			    r->rule, (int) r->pid, r->timeout_usec / 1000);
	else
		log_warning("Trigger of rule '%s' [%d] exited, but what it started still held its output "
			    "after %" PRIu64 " ms: killing its process group", r->rule, (int) r->pid,
			    r->timeout_usec / 1000);
	/* Its whole process group: a script's children must not outlive it. */
	(void) kill(-r->pid, SIGKILL);
	/* A process that left the group (setsid) may still hold the output: the run ends anyway,
	 * so it does not keep a slot. */
	if (r->output) {
		(void) drain_output(r);
		r->output = sd_event_source_disable_unref(r->output);
	}
	finish(r);
	return 0;
}

/* In the child: stdin from the alert, stdout and stderr to the log pipe, then exec. */
static _Noreturn void exec_child(struct trigger_run *r, int in_fd, int out_fd)
{
	sigset_t all;

	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	(void) setpgid(0, 0);
	if (dup2(in_fd, STDIN_FILENO) < 0 || dup2(out_fd, STDOUT_FILENO) < 0 ||
	    dup2(out_fd, STDERR_FILENO) < 0)
		_exit(127);
	execve(r->argv[0], r->argv, r->env);
	dprintf(STDERR_FILENO, "cannot run %s: %s\n", r->argv[0], strerror(errno));
	_exit(127);
}

static int start(struct trigger_run *r)
{
	struct trigger_runner *t = r->runner;
	int in[2], out[2], k;
	size_t len = strlen(r->input);

	if (pipe2(in, O_CLOEXEC) < 0)
		return negative_errno();
	if (pipe2(out, O_CLOEXEC) < 0) {
		k = negative_errno();
		close(in[0]);
		close(in[1]);
		return k;
	}
	/* The alert fits a pipe's buffer (64 KiB): written before the child runs, it never blocks. */
	if (len < 65536 && write(in[1], r->input, len) != (ssize_t) len)
		log_warning("Trigger of rule '%s': could not write the alert to its input", r->rule);
	close(in[1]);
	r->pid = fork();
	if (r->pid < 0) {
		k = negative_errno();
		close(in[0]);
		close(out[0]);
		close(out[1]);
		return k;
	}
	if (r->pid == 0)
		exec_child(r, in[0], out[1]);
	close(in[0]);
	close(out[1]);
	r->out_fd = out[0];
	(void) fcntl(r->out_fd, F_SETFL, O_NONBLOCK);
	r->pid_fd = pidfd_open(r->pid, 0);
	k = r->pid_fd < 0 ? negative_errno() :
		sd_event_add_io(t->event, &r->child, r->pid_fd, EPOLLIN, on_program_exit, r);
	if (k >= 0)
		k = sd_event_add_io(t->event, &r->output, r->out_fd, EPOLLIN, on_output, r);
	if (k >= 0)
		k = sd_event_add_time_relative(t->event, &r->timer, CLOCK_MONOTONIC, r->timeout_usec, 0,
					       on_timeout, r);
	if (k < 0) {
		/* Without its watchers nothing would ever reap or time it out. */
		(void) kill(r->pid, SIGKILL);
		(void) waitpid(r->pid, NULL, 0);
		return k;
	}
	/* Exits and output before timeouts: a run that ended in time is not killed late. */
	(void) sd_event_source_set_priority(r->timer, SD_EVENT_PRIORITY_IDLE);
	t->running++;
	log_info("Trigger of rule '%s' started: %s [%d]", r->rule, r->argv[0], (int) r->pid);
	return 0;
}

static void start_next(struct trigger_runner *t)
{
	while (t->running < TRIGGER_MAX_RUNNING && t->queue_head) {
		struct trigger_run *r = t->queue_head;
		int k;

		t->queue_head = r->next;
		if (!t->queue_head)
			t->queue_tail = NULL;
		t->queued--;
		k = start(r);
		if (k < 0) {
			log_error_errno(k, "Trigger of rule '%s' could not be started: %m", r->rule);
			run_free(r);
		}
	}
}

static int add_env(struct trigger_run *r, size_t *n, const char *fmt, ...) _printf_(3, 4);
static int add_env(struct trigger_run *r, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*n >= TRIGGER_ENV_MAX)
		return -E2BIG;
	va_start(ap, fmt);
	k = vasprintf(&r->env[*n], fmt, ap);
	va_end(ap);
	if (k < 0) {
		r->env[*n] = NULL;
		return -ENOMEM;
	}
	(*n)++;
	return 0;
}

/* The record's fields as MCE_<FIELD>, the way the rules saw them. */
static int add_record_env(struct trigger_run *r, size_t *n, const struct rule_alert *a)
{
	for (int f = 0; a->input && f < _RULE_FIELD_MAX; f++) {
		struct rule_value v;
		char name[64];
		int k;

		if (!rule_field_get(a->input, (enum rule_field) f, &v))
			continue;
		snprintf(name, sizeof(name), "MCE_%s", rule_field_to_string((enum rule_field) f));
		for (char *c = name; *c; c++)
			*c = (char) (*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
		if (v.is_string)
			k = add_env(r, n, "%s=%s", name, rule_value_string(&v));
		else if (f == RULE_FIELD_ADDRESS || f == RULE_FIELD_PAGE)
			k = add_env(r, n, "%s=0x%" PRIx64, name, v.u);
		else
			k = add_env(r, n, "%s=%" PRIu64, name, v.u);
		if (k < 0)
			return k;
	}
	return 0;
}

static int make_run(const struct rule *rule, const struct rule_alert *a, const char *alert_json,
		    struct trigger_run **ret)
{
	struct trigger_run *r = calloc(1, sizeof(*r));
	char first[RFC3339_MAX], now[RFC3339_MAX];
	size_t n = 0;
	int k = 0;

	if (!r)
		return -ENOMEM;
	r->out_fd = -1;
	r->pid_fd = -1;
	snprintf(r->rule, sizeof(r->rule), "%s", rule->name);
	rule_trigger_argv(rule, r->argv_buf, r->argv);
	r->timeout_usec = rule->trigger_timeout_usec;
	r->input = strdup(alert_json ? alert_json : "{}");
	format_rfc3339_usec(first, sizeof(first), a->first_usec);
	format_rfc3339_usec(now, sizeof(now), a->time_usec);
	/* A fixed, minimal environment: the daemon's own (its sandbox's) is none of its business. */
	if (!r->input ||
	    (k = add_env(r, &n, "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")) < 0 ||
	    (k = add_env(r, &n, "MCELOGD_RULE=%s", a->rule)) < 0 ||
	    (k = add_env(r, &n, "MCELOGD_KEY=%s", a->key)) < 0 ||
	    (k = add_env(r, &n, "MCELOGD_COUNT=%u", a->count)) < 0 ||
	    (k = add_env(r, &n, "MCELOGD_WINDOW_USEC=%" PRIu64, a->window_usec)) < 0 ||
	    (k = add_env(r, &n, "MCELOGD_FIRST=%s", first)) < 0 ||
	    (k = add_env(r, &n, "MCELOGD_TIME=%s", now)) < 0 ||
	    (k = add_env(r, &n, "MCELOGD_PRIORITY=%s", rule_priority_to_string(a->priority))) < 0 ||
	    (k = add_env(r, &n, "MCELOGD_ACTIONS=%s", a->actions)) < 0 ||
	    (k = add_env(r, &n, "MCELOGD_MESSAGE=%s", a->message)) < 0 ||
	    (k = add_record_env(r, &n, a)) < 0) {
		run_free(r);
		return k < 0 ? k : -ENOMEM;
	}
	*ret = r;
	return 0;
}

int trigger_submit(struct trigger_runner *t, const struct rule *rule, const struct rule_alert *a,
		   const char *alert_json)
{
	struct trigger_run *r;
	int k;

	/* Replaying, with a loop of our own: wait for room rather than refuse. */
	while (t->own_event && t->queued >= TRIGGER_MAX_QUEUED)
		if (sd_event_run(t->event, UINT64_MAX) < 0)
			break;
	if (t->queued >= TRIGGER_MAX_QUEUED) {
		log_error("Trigger of rule '%s' not run: %u triggers running and %u waiting already",
			  rule->name, t->running, t->queued);
		return -ENOSPC;
	}
	k = make_run(rule, a, alert_json, &r);
	if (k < 0)
		return log_error_errno(k, "Trigger of rule '%s' not run: %m", rule->name);
	r->runner = t;
	if (t->queue_tail)
		t->queue_tail->next = r;
	else
		t->queue_head = r;
	t->queue_tail = r;
	t->queued++;
	if (t->running >= TRIGGER_MAX_RUNNING)
		log_notice("Trigger of rule '%s' waits: %u running already", rule->name, t->running);
	start_next(t);
	return 0;
}

struct trigger_runner *trigger_runner_free(struct trigger_runner *t)
{
	if (!t)
		return NULL;
	/* Every run started or queued gets to finish, each bounded by its own timeout. */
	while ((t->running > 0 || t->queue_head) && sd_event_get_state(t->event) != SD_EVENT_FINISHED) {
		if (sd_event_run(t->event, UINT64_MAX) < 0)
			break;
	}
	if (t->running > 0 || t->queue_head)
		log_warning("%u trigger%s still running and %u queued at stop: not waited for",
			    t->running, t->running == 1 ? "" : "s", t->queued);
	while (t->queue_head) {
		struct trigger_run *r = t->queue_head;

		t->queue_head = r->next;
		run_free(r);
	}
	t->event = sd_event_unref(t->event);
	free(t);
	return NULL;
}
