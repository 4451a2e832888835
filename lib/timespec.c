/* SPDX-License-Identifier: MIT */
/*
 * Time specifications as `journalctl --since` reads them, following the
 * grammar in systemd.time(7), written from that page:
 *
 *   now | today | yesterday | tomorrow          (midnight, local or UTC)
 *   @SECONDS[.FRACTION]                         (UNIX time)
 *   +SPAN | -SPAN | SPAN ago                    (relative to now)
 *   [WEEKDAY ]YYYY-MM-DD[ HH:MM[:SS[.FRACTION]]]  (also with 'T')
 *   HH:MM[:SS[.FRACTION]]                       (today)
 *   ... each optionally followed by " UTC"
 *
 * plus our documented extension: a bare SPAN ("1h", "30m", "2d") means that
 * long ago, which is what people type after --since.
 *
 * Spans use systemd's units and values: a month is 30.44 days and a year
 * 365.25 days, exactly as systemd defines them, so `mcectl query --since 1M`
 * and `journalctl --since -1M` agree.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "macro.h"
#include "timespec.h"

#define USEC_PER_SEC   INT64_C(1000000)
#define USEC_PER_MIN   (60 * USEC_PER_SEC)
#define USEC_PER_HOUR  (60 * USEC_PER_MIN)
#define USEC_PER_DAY   (24 * USEC_PER_HOUR)

static const struct {
	const char *name;
	int64_t usec;
} span_units[] = {
	{ "usec", 1 }, { "us", 1 }, { "\xc2\xb5s", 1 },
	{ "msec", 1000 }, { "ms", 1000 },
	{ "seconds", USEC_PER_SEC }, { "second", USEC_PER_SEC }, { "sec", USEC_PER_SEC },
	{ "s", USEC_PER_SEC },
	{ "minutes", USEC_PER_MIN }, { "minute", USEC_PER_MIN }, { "min", USEC_PER_MIN },
	{ "m", USEC_PER_MIN },
	{ "hours", USEC_PER_HOUR }, { "hour", USEC_PER_HOUR }, { "hr", USEC_PER_HOUR },
	{ "h", USEC_PER_HOUR },
	{ "days", USEC_PER_DAY }, { "day", USEC_PER_DAY }, { "d", USEC_PER_DAY },
	{ "weeks", 7 * USEC_PER_DAY }, { "week", 7 * USEC_PER_DAY }, { "w", 7 * USEC_PER_DAY },
	/* systemd: USEC_PER_MONTH = 30.44 days, USEC_PER_YEAR = 365.25 days */
	{ "months", 2629800 * USEC_PER_SEC }, { "month", 2629800 * USEC_PER_SEC },
	{ "M", 2629800 * USEC_PER_SEC },
	{ "years", 31557600 * USEC_PER_SEC }, { "year", 31557600 * USEC_PER_SEC },
	{ "y", 31557600 * USEC_PER_SEC },
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Parse a span.  *ret_units tells whether any unit was written: a bare
 * number is seconds for parse_time_span(), but as a --since value it is
 * ambiguous and refused.
 */
static int parse_span(const char *s, int64_t *ret_usec, bool *ret_units)
{
	int64_t total = 0;
	bool any = false, units = false;

	for (;;) {
		int64_t whole = 0, frac = 0, frac_div = 1, unit = USEC_PER_SEC, part, frac_part;
		const char *start;
		size_t n;

		while (is_space(*s))
			s++;
		if (!*s)
			break;
		if (!is_digit(*s) && *s != '.')
			return -EINVAL;
		start = s;
		for (; is_digit(*s); s++) {
			if (whole > (INT64_MAX - 9) / 10)
				return -ERANGE;
			whole = whole * 10 + (*s - '0');
		}
		if (*s == '.') {
			s++;
			for (; is_digit(*s); s++)
				if (frac_div < USEC_PER_SEC * 1000) {
					frac = frac * 10 + (*s - '0');
					frac_div *= 10;
				}
		}
		if (s == start || (s == start + 1 && *start == '.'))
			return -EINVAL;
		while (is_space(*s))
			s++;
		n = 0;
		while (s[n] && !is_digit(s[n]) && !is_space(s[n]) && s[n] != '.')
			n++;
		if (n > 0) {
			size_t i;

			for (i = 0; i < ELEMENTSOF(span_units); i++)
				if (strlen(span_units[i].name) == n && strncmp(s, span_units[i].name, n) == 0)
					break;
			if (i == ELEMENTSOF(span_units))
				return -EINVAL;
			unit = span_units[i].usec;
			units = true;
			s += n;
		} else if (any || *s)
			return -EINVAL;     /* "1h 5": only a lone number may omit its unit */
		if (whole > INT64_MAX / unit)
			return -ERANGE;
		part = whole * unit;
		/* frac / frac_div of a unit, without overflowing for long fractions;
		 * less than one unit, but it may still tip a whole near the limit over */
		frac_part = (int64_t) ((double) frac / (double) frac_div * (double) unit);
		if (frac_part > INT64_MAX - part)
			return -ERANGE;
		part += frac_part;
		if (total > INT64_MAX - part)
			return -ERANGE;
		total += part;
		any = true;
	}
	if (!any)
		return -EINVAL;
	*ret_usec = total;
	*ret_units = units;
	return 0;
}

int parse_time_span(const char *s, int64_t *ret_usec)
{
	bool units;
	int64_t v;
	int k;

	if (!s)
		return -EINVAL;
	k = parse_span(s, &v, &units);
	if (k < 0)
		return -EINVAL;
	*ret_usec = v;
	return 0;
}

static int days_in_month(int year, int month)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;

	return month == 2 && leap ? 29 : days[month - 1];
}

/* Read exactly n digits. */
static bool digits(const char **s, int n, int *ret)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (!is_digit((*s)[i]))
			return false;
		v = v * 10 + ((*s)[i] - '0');
	}
	*s += n;
	*ret = v;
	return true;
}

/* struct tm (broken-down, tm_year etc. as libc wants them) → usec, local or UTC. */
static int tm_to_usec(struct tm *tm, bool utc, int64_t usec_part, int64_t *ret)
{
	time_t t;
	struct tm check;

	tm->tm_isdst = -1;
	t = utc ? timegm(tm) : mktime(tm);
	if (t == (time_t) -1) {
		/* -1 is also 1969-12-31 23:59:59 UTC: tell the two apart */
		if (!(utc ? gmtime_r(&t, &check) : localtime_r(&t, &check)) ||
		    check.tm_year != tm->tm_year || check.tm_yday != tm->tm_yday)
			return -EINVAL;
	}
	if ((int64_t) t > INT64_MAX / USEC_PER_SEC - 1 || (int64_t) t < INT64_MIN / USEC_PER_SEC + 1)
		return -ERANGE;
	*ret = (int64_t) t * USEC_PER_SEC + usec_part;
	return 0;
}

static const char *const weekdays[][2] = {
	{ "Sun", "Sunday" }, { "Mon", "Monday" }, { "Tue", "Tuesday" }, { "Wed", "Wednesday" },
	{ "Thu", "Thursday" }, { "Fri", "Friday" }, { "Sat", "Saturday" },
};

/* "Fri " or "Friday " in front of a date: returns the weekday (0 = Sunday) or -1. */
static int eat_weekday(const char **s)
{
	for (int i = 0; i < 7; i++)
		for (int form = 1; form >= 0; form--) {
			size_t n = strlen(weekdays[i][form]);

			if (strncasecmp(*s, weekdays[i][form], n) == 0 && is_space((*s)[n])) {
				*s += n + 1;
				while (is_space(**s))
					(*s)++;
				return i;
			}
		}
	return -1;
}

/* "HH:MM[:SS[.FRACTION]]" into tm; the rest of the string must be empty. */
static int parse_clock(const char *s, struct tm *tm, int64_t *ret_usec_part)
{
	int hh, mm, ss = 0;
	int64_t usec = 0;

	if (!digits(&s, 2, &hh) || *s++ != ':' || !digits(&s, 2, &mm))
		return -EINVAL;
	if (*s == ':') {
		s++;
		if (!digits(&s, 2, &ss))
			return -EINVAL;
		if (*s == '.') {
			int n = 0;

			s++;
			if (!is_digit(*s))
				return -EINVAL;
			for (; is_digit(*s); s++)
				if (n < 6) {
					usec = usec * 10 + (*s - '0');
					n++;
				}
			for (; n < 6; n++)
				usec *= 10;
		}
	}
	if (*s || hh > 23 || mm > 59 || ss > 60)
		return -EINVAL;
	tm->tm_hour = hh;
	tm->tm_min = mm;
	tm->tm_sec = ss;
	*ret_usec_part = usec;
	return 0;
}

static int now_tm(int64_t now_usec, bool utc, struct tm *ret)
{
	time_t t = (time_t) (now_usec / USEC_PER_SEC);

	if (!(utc ? gmtime_r(&t, ret) : localtime_r(&t, ret)))
		return -EINVAL;
	return 0;
}

static int parse_absolute(const char *s, int64_t now_usec, bool utc, int64_t *ret)
{
	struct tm tm = { 0 };
	int64_t usec_part = 0;
	int weekday, y, mo, d, k;
	const char *p = s;

	weekday = eat_weekday(&p);
	if (digits(&p, 4, &y) && *p == '-') {
		p++;
		if (!digits(&p, 2, &mo) || *p++ != '-' || !digits(&p, 2, &d))
			return -EINVAL;
		if (y < 1900 || mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo))
			return -EINVAL;
		tm.tm_year = y - 1900;
		tm.tm_mon = mo - 1;
		tm.tm_mday = d;
		if (*p == ' ' || *p == 'T') {
			p++;
			k = parse_clock(p, &tm, &usec_part);
			if (k < 0)
				return k;
		} else if (*p)
			return -EINVAL;
	} else {
		/* a time of day alone means today */
		if (weekday >= 0)
			return -EINVAL;
		if (now_tm(now_usec, utc, &tm) < 0)
			return -EINVAL;
		k = parse_clock(s, &tm, &usec_part);
		if (k < 0)
			return k;
	}
	k = tm_to_usec(&tm, utc, usec_part, ret);
	if (k < 0)
		return k;
	if (weekday >= 0 && tm.tm_wday != weekday)
		return -EINVAL;     /* "Mon 2026-11-20": that day is a Friday */
	return 0;
}

static int midnight(int64_t now_usec, bool utc, int day_delta, int64_t *ret)
{
	struct tm tm;

	if (now_tm(now_usec, utc, &tm) < 0)
		return -EINVAL;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_mday += day_delta;     /* mktime/timegm normalise month ends */
	return tm_to_usec(&tm, utc, 0, ret);
}

static int relative(int64_t now_usec, int64_t span, int sign, int64_t *ret)
{
	if (sign > 0 ? now_usec > INT64_MAX - span : now_usec < INT64_MIN + span)
		return -ERANGE;
	*ret = sign > 0 ? now_usec + span : now_usec - span;
	return 0;
}

int parse_time_spec(const char *spec, int64_t now_usec, int64_t *ret_usec)
{
	char buf[128];
	size_t n;
	bool utc = false, units;
	int64_t span, v;
	char *s;
	int k;

	if (!spec)
		return -EINVAL;
	while (is_space(*spec))
		spec++;
	n = strlen(spec);
	while (n > 0 && is_space(spec[n - 1]))
		n--;
	if (n == 0 || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, spec, n);
	buf[n] = '\0';
	s = buf;

	if (n > 4 && strcmp(s + n - 4, " UTC") == 0) {
		utc = true;
		n -= 4;
		s[n] = '\0';
		while (n > 0 && is_space(s[n - 1]))
			s[--n] = '\0';
	}

	if (streq(s, "now")) {
		v = now_usec;
		k = 0;
	}
	else if (streq(s, "today"))
		k = midnight(now_usec, utc, 0, &v);
	else if (streq(s, "yesterday"))
		k = midnight(now_usec, utc, -1, &v);
	else if (streq(s, "tomorrow"))
		k = midnight(now_usec, utc, 1, &v);
	else if (s[0] == '@') {
		/* UNIX time: seconds with an optional fraction, no sign */
		if (!is_digit(s[1]) || utc)
			return -EINVAL;
		k = parse_span(s + 1, &span, &units);
		if (k < 0 || units)
			return -EINVAL;
		v = span;
		k = 0;
	} else if (s[0] == '+' || s[0] == '-') {
		k = parse_span(s + 1, &span, &units);
		if (k < 0 || utc)
			return -EINVAL;
		k = relative(now_usec, span, s[0] == '+' ? 1 : -1, &v);
	} else if (n > 4 && strcmp(s + n - 4, " ago") == 0) {
		s[n - 4] = '\0';
		k = parse_span(s, &span, &units);
		if (k < 0 || utc)
			return -EINVAL;
		k = relative(now_usec, span, -1, &v);
	} else if (parse_span(s, &span, &units) == 0) {
		/* our extension: "1h" after --since means an hour ago; a bare number is ambiguous */
		if (!units || utc)
			return -EINVAL;
		k = relative(now_usec, span, -1, &v);
	} else
		k = parse_absolute(s, now_usec, utc, &v);

	if (k < 0)
		return -EINVAL;
	*ret_usec = v;
	return 0;
}
