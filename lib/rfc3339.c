/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "dec-digits.h"
#include "rfc3339.h"

/* The inverse of days_from_civil(), by the same era arithmetic. */
static void civil_from_days(int64_t z, int64_t *ret_y, unsigned *ret_m, unsigned *ret_d)
{
	int64_t era;
	unsigned doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned) (z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*ret_d = doy - (153 * mp + 2) / 5 + 1;
	*ret_m = mp < 10 ? mp + 3 : mp - 9;
	*ret_y = (int64_t) yoe + era * 400 + (*ret_m <= 2);
}

/* n digits of v: a time is fourteen of them */
static char *put_digits(char *o, unsigned v, unsigned n)
{
	return dec_put_width(o, v, n);
}

/*
 * Years 0000-9999, every time a record can carry, by hand: mcectl decode
 * writes one per record, and gmtime_r() + snprintf() were most of that.
 */
static int format_four_digit_year(char *buf, size_t size, int64_t sec, long frac)
{
	int64_t days = (sec >= 0 ? sec : sec - 86399) / 86400, y;
	unsigned rest = (unsigned) (sec - days * 86400), m, d;
	char *o = buf;

	if (size < sizeof("YYYY-MM-DDTHH:MM:SS.uuuuuuZ"))
		return -ENOBUFS;
	civil_from_days(days, &y, &m, &d);
	o = put_digits(o, (unsigned) y, 4);
	*o++ = '-';
	o = put_digits(o, m, 2);
	*o++ = '-';
	o = put_digits(o, d, 2);
	*o++ = 'T';
	o = put_digits(o, rest / 3600, 2);
	*o++ = ':';
	o = put_digits(o, rest / 60 % 60, 2);
	*o++ = ':';
	o = put_digits(o, rest % 60, 2);
	*o++ = '.';
	o = put_digits(o, (unsigned) frac, 6);
	*o++ = 'Z';
	*o = '\0';
	return (int) (o - buf);
}

int format_rfc3339_usec(char *buf, size_t size, int64_t usec)
{
	/* 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z */
	static const int64_t year0 = -62167219200, year10000 = 253402300800;
	time_t sec = (time_t) (usec / 1000000);
	long frac = (long) (usec % 1000000);
	struct tm tm;
	int n;

	if (frac < 0) {
		frac += 1000000;
		sec -= 1;
	}
	if (sec >= year0 && sec < year10000)
		return format_four_digit_year(buf, size, sec, frac);
	if (!gmtime_r(&sec, &tm))
		return -EINVAL;
	n = snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ",
		     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		     tm.tm_hour, tm.tm_min, tm.tm_sec, frac);
	if (n < 0 || (size_t) n >= size)
		return -ENOBUFS;
	return n;
}

/* Reads exactly n digits; returns -1 if any is missing. */
static int digits(const char **p, int n)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char) (*p)[0]))
			return -1;
		v = v * 10 + ((*p)[0] - '0');
		(*p)++;
	}
	return v;
}

static int expect(const char **p, char c)
{
	if (**p != c)
		return -1;
	(*p)++;
	return 0;
}

int parse_rfc3339_usec(const char *s, int64_t *ret_usec)
{
	const char *p = s;
	struct tm tm = { 0 };
	int year, mon, mday, hour, min, sec;
	int64_t frac = 0, offset = 0;
	time_t t;

	year = digits(&p, 4);
	if (year < 0 || expect(&p, '-') < 0)
		return -EINVAL;
	mon = digits(&p, 2);
	if (mon < 1 || mon > 12 || expect(&p, '-') < 0)
		return -EINVAL;
	mday = digits(&p, 2);
	if (mday < 1 || mday > 31)
		return -EINVAL;
	if (*p != 'T' && *p != 't' && *p != ' ')
		return -EINVAL;
	p++;
	hour = digits(&p, 2);
	if (hour < 0 || hour > 23 || expect(&p, ':') < 0)
		return -EINVAL;
	min = digits(&p, 2);
	if (min < 0 || min > 59 || expect(&p, ':') < 0)
		return -EINVAL;
	sec = digits(&p, 2);
	if (sec < 0 || sec > 60)
		return -EINVAL;
	if (*p == '.') {
		int n = 0;

		p++;
		if (!isdigit((unsigned char) *p))
			return -EINVAL;
		while (isdigit((unsigned char) *p)) {
			if (n < 6) {
				frac = frac * 10 + (*p - '0');
				n++;
			} else if (n >= 9)
				return -EINVAL;
			else
				n++;
			p++;
		}
		for (int i = n < 6 ? n : 6; i < 6; i++)
			frac *= 10;
	}
	if (*p == 'Z' || *p == 'z')
		p++;
	else if (*p == '+' || *p == '-') {
		int sign = *p == '-' ? -1 : 1, oh, om;

		p++;
		oh = digits(&p, 2);
		if (oh < 0 || oh > 23 || expect(&p, ':') < 0)
			return -EINVAL;
		om = digits(&p, 2);
		if (om < 0 || om > 59)
			return -EINVAL;
		offset = sign * (int64_t) (oh * 3600 + om * 60);
	} else
		return -EINVAL;
	if (*p != '\0')
		return -EINVAL;

	tm.tm_year = year - 1900;
	tm.tm_mon = mon - 1;
	tm.tm_mday = mday;
	tm.tm_hour = hour;
	tm.tm_min = min;
	tm.tm_sec = sec;
	t = timegm(&tm);
	if (t == (time_t) -1 && !(year == 1969))
		return -EINVAL;
	*ret_usec = ((int64_t) t - offset) * 1000000 + frac;
	return 0;
}

int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	/* H. Hinnant's algorithm: shift the year to start in March, count 400-year eras. */
	int64_t era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned) (y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t) doe - 719468;
}
