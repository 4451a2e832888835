/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Rule files (mcelogd.rules(5)): what a rule is, and the parser that turns a
 * file's text into rules.  Pure: the caller reads the files (lib/rule-dirs.h)
 * and passes their text in; every problem is reported with file and line
 * through a callback, and a file with any problem adds no rule.
 *
 *	[Rule]
 *	Name=page-ce-threshold
 *	Match=kind=mce severity=corrected error_class=memory_controller
 *	Key=page
 *	Threshold=10 in 24h
 *	Action=alert soft-offline
 *	Priority=warning
 *
 * Holdoff=T: after a key fires, its records are not counted for T.  A
 * condition that persists (a cache bank whose threshold status stays
 * "yellow") then raises one alert per T instead of one per record.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rule-field.h"

#define RULE_NAME_MAX        64      /* [A-Za-z0-9_.-], as alerts and the state file carry it */
#define RULE_MAX_TERMS       16      /* Match= terms per rule, all lines together */
#define RULE_MAX_VALUES      8       /* alternatives per term: severity=uncorrected|fatal */
#define RULE_VALUE_MAX       64      /* one string value */
#define RULE_MAX_KEY_FIELDS  8       /* a DRAM row: socket mc channel dimm rank bank_group dram_bank row */
#define RULE_MAX_COUNT       10000U  /* Threshold= N: the engine keeps N times per key */
#define RULE_MAX_WINDOW_USEC (UINT64_C(366) * 86400 * 1000000)  /* a year */
#define RULE_TRIGGER_MAX     1024    /* Trigger= command line */
#define RULE_TRIGGER_ARGS    32
#define RULE_TRIGGER_TIMEOUT_DEFAULT_USEC (UINT64_C(30) * 1000000)
#define RULE_SET_MAX_RULES   1024

enum rule_action {
	RULE_ACTION_ALERT        = 1 << 0,
	RULE_ACTION_SOFT_OFFLINE = 1 << 1,   /* the record's page, via soft_offline_page */
	RULE_ACTION_HARD_OFFLINE = 1 << 2,   /* the record's page, via hard_offline_page */
	RULE_ACTION_CPU_OFFLINE  = 1 << 3,   /* the record's CPU */
	RULE_ACTION_TRIGGER      = 1 << 4,   /* run Trigger= */
	RULE_ACTION_OFFLINE_ROW  = 1 << 5,   /* every page seen on the key's DRAM row (row-pages.h) */
	RULE_ACTION_REPAIR       = 1 << 6,   /* the record's CXL memory location (mem-repair.h); opt-in */
};

struct rule_term {
	enum rule_field field;
	bool negate;                          /* field!=a|b: absent, or none of the values */
	unsigned n_values;
	struct {
		char s[RULE_VALUE_MAX];
		uint64_t u;
	} values[RULE_MAX_VALUES];
};

struct rule {
	char name[RULE_NAME_MAX];
	char file[256];                       /* where it was defined, for messages */
	unsigned line;                        /* of its [Rule] header */

	unsigned n_terms;
	struct rule_term terms[RULE_MAX_TERMS];
	unsigned n_key;
	enum rule_field key[RULE_MAX_KEY_FIELDS];

	unsigned count;                       /* Threshold= N (1 without Threshold=) */
	uint64_t window_usec;                 /* Threshold= T (0 without Threshold=) */
	uint64_t holdoff_usec;                /* Holdoff=: after a firing, the key rests this long */
	unsigned actions;                     /* RULE_ACTION_* */
	int priority;                         /* syslog level of the alert, default LOG_WARNING */

	/* Trigger=: argv split on white space, no shell; argv[0] absolute. */
	char trigger[RULE_TRIGGER_MAX];
	unsigned trigger_argc;
	uint64_t trigger_timeout_usec;
};

struct rule_set {
	unsigned n_rules;
	struct rule *rules;                   /* in file order, files in name order */
};

/* Called once per problem; line is 1-based, 0 for the file as a whole. */
typedef void (*rule_error_fn)(const char *file, unsigned line, const char *msg, void *userdata);

void rule_set_init(struct rule_set *s);
void rule_set_done(struct rule_set *s);

/*
 * Parses one file's text and appends its rules to s.  Every problem is
 * reported through err (which may be NULL); if there was any, nothing is
 * appended and -EINVAL is returned.  A rule name already in s is an error.
 * Returns 0, -EINVAL or -ENOMEM.
 */
int rule_set_parse(struct rule_set *s, const char *text, size_t len, const char *file,
		   rule_error_fn err, void *userdata);

/* The words of Action=, and the levels of Priority=, for messages and mcectl. */
const char *rule_action_to_string(enum rule_action a);
const char *rule_priority_to_string(int level);

/*
 * Splits r->trigger into at most RULE_TRIGGER_ARGS pointers into buf (a copy
 * of it, NUL-separated) and a terminating NULL.  Returns argc.
 */
unsigned rule_trigger_argv(const struct rule *r, char buf[static RULE_TRIGGER_MAX],
			   char *argv[static RULE_TRIGGER_ARGS + 1]);

/*
 * Where rule files are (mcelogd.rules(5)): the admin's directory first, so
 * that its files override shipped ones of the same name (lib/dropin.h).
 */
#if defined(SYSCONFDIR) && defined(RULESDIR)
#define RULE_DIRS_DEFAULT { SYSCONFDIR "/mcelogd/rules.d", RULESDIR }
#endif
#define RULE_FILE_SUFFIX ".rules"

/* Loading several files into one set: how many were read, how many had errors. */
struct rule_load {
	struct rule_set *set;
	rule_error_fn err;
	void *userdata;
	unsigned files;
	unsigned bad_files;
};

/*
 * A dropin_fn (lib/dropin.h) that parses each file into load->set; a file
 * that could not be read (error < 0) is reported through load->err.  Always
 * returns 0 so that every file is checked, except -ENOMEM.
 */
int rule_load_file(const char *path, const char *text, size_t len, int error, void *load);

/* "severity=corrected kind=mce", the rule's Match= terms as one line ("" for none). */
void rule_format_match(const struct rule *r, char *buf, size_t size);
/* "page socket", the Key= fields ("" for none). */
void rule_format_key(const struct rule *r, char *buf, size_t size);
/* "alert soft-offline" */
void rule_format_actions(const struct rule *r, char *buf, size_t size);
/* "10 in 24h", or "every record" without Threshold=. */
void rule_format_threshold(const struct rule *r, char *buf, size_t size);
