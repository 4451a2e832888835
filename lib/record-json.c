/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "decode.h"
#include "json-flat.h"
#include "json-writer.h"
#include "macro.h"
#include "parse-number.h"
#include "record-json.h"
#include "rfc3339.h"

/* Inline into the record writer, which runs per record; record_json_put_origin() for the others. */
static inline __attribute__((always_inline)) void put_origin(struct json_writer *w, bool have_time,
							      int64_t time_usec, enum mce_source source,
							      const char *hostname, const char *boot_id)
{
	if (have_time)
		json_put_time_usec_k(w, JSON_KEY("time"), time_usec);
	if (source != MCE_SOURCE_UNKNOWN)
		json_put_static_k(w, JSON_KEY("source"), mce_source_to_string(source));   /* a literal */
	if (hostname[0])
		json_put_string_k(w, JSON_KEY("hostname"), hostname);
	if (boot_id[0])
		json_put_string_k(w, JSON_KEY("boot_id"), boot_id);
}

void record_json_put_origin(struct json_writer *w, bool have_time, int64_t time_usec,
			    enum mce_source source, const char *hostname, const char *boot_id)
{
	put_origin(w, have_time, time_usec, source, hostname, boot_id);
}

void mce_record_write_json(const struct mce_record *r, const struct mce_decoded *d,
			   struct json_writer *w)
{
	mce_record_write_json_extra(r, d, w, NULL, NULL);
}

void mce_record_write_json_extra(const struct mce_record *r, const struct mce_decoded *d,
				 struct json_writer *w, record_json_extra_fn extra, void *userdata)
{
	struct json_members m;

	json_object_begin_element(w);
	put_origin(w, r->have & MCE_HAVE_TIME, r->time_usec, r->source, r->hostname, r->boot_id);
	/*
	 * The numbers and registers in runs, each under one check of the
	 * room: a member is at most a comma, its key and 20 bytes of value.
	 */
	if (json_members_begin(w, &m, 4 * (1 + sizeof("\"apicid\":") + 20))) {
		if (r->have & MCE_HAVE_CPU)
			json_member_u64(&m, JSON_KEY("cpu"), r->cpu);
		if (r->have & MCE_HAVE_SOCKET)
			json_member_u64(&m, JSON_KEY("socket"), r->socket);
		if (r->have & MCE_HAVE_APICID)
			json_member_u64(&m, JSON_KEY("apicid"), r->apicid);
		if (r->have & MCE_HAVE_BANK)
			json_member_u64(&m, JSON_KEY("bank"), r->bank);
		json_members_end(w, &m);
	}
	if ((r->have & MCE_HAVE_VENDOR) && r->vendor != MCE_VENDOR_UNKNOWN)
		json_put_static_k(w, JSON_KEY("vendor"), mce_vendor_to_string(r->vendor));  /* a literal */
	if ((r->have & MCE_HAVE_CPUID) &&
	    json_members_begin(w, &m, 3 * (1 + sizeof("\"stepping\":") + 20))) {
		json_member_u64(&m, JSON_KEY("family"), r->family);
		json_member_u64(&m, JSON_KEY("model"), r->model);
		json_member_u64(&m, JSON_KEY("stepping"), r->stepping);
		json_members_end(w, &m);
	}
	if (r->have & MCE_HAVE_MICROCODE)
		json_put_hex_k(w, JSON_KEY("microcode"), r->microcode);
	if (json_members_begin(w, &m, 18 * (1 + sizeof("\"dimm_channel\":") + 20))) {
		if (r->have & MCE_HAVE_PPIN)
			json_member_hex64(&m, JSON_KEY("ppin"), r->ppin);
		if (r->have & MCE_HAVE_MCGCAP)
			json_member_hex64(&m, JSON_KEY("mcgcap"), r->mcgcap);
		if (r->have & MCE_HAVE_MCGSTATUS)
			json_member_hex64(&m, JSON_KEY("mcgstatus"), r->mcgstatus);
		if (r->have & MCE_HAVE_STATUS)
			json_member_hex64(&m, JSON_KEY("status"), r->status);
		if (r->have & MCE_HAVE_ADDR)
			json_member_hex64(&m, JSON_KEY("addr"), r->addr);
		if (r->have & MCE_HAVE_MISC)
			json_member_hex64(&m, JSON_KEY("misc"), r->misc);
		if (r->have & MCE_HAVE_SYND)
			json_member_hex64(&m, JSON_KEY("synd"), r->synd);
		/* AMD MCA_SYND1/2, from the kernel's vendor data */
		if (r->have & MCE_HAVE_SYND1)
			json_member_hex64(&m, JSON_KEY("synd1"), r->synd1);
		if (r->have & MCE_HAVE_SYND2)
			json_member_hex64(&m, JSON_KEY("synd2"), r->synd2);
		if (r->have & MCE_HAVE_IPID)
			json_member_hex64(&m, JSON_KEY("ipid"), r->ipid);
		if (r->have & MCE_HAVE_IP)
			json_member_hex64(&m, JSON_KEY("ip"), r->ip);
		if (r->have & MCE_HAVE_CS)
			json_member_u64(&m, JSON_KEY("cs"), r->cs);
		if (r->have & MCE_HAVE_TSC)
			json_member_hex64(&m, JSON_KEY("tsc"), r->tsc);
		/* where an Intel EDAC driver placed a memory error */
		if (r->have & MCE_HAVE_DIMM_SOCKET)
			json_member_u64(&m, JSON_KEY("dimm_socket"), r->dimm_socket);
		if (r->have & MCE_HAVE_DIMM_MC)
			json_member_u64(&m, JSON_KEY("dimm_mc"), r->dimm_mc);
		if (r->have & MCE_HAVE_DIMM_CHANNEL)
			json_member_u64(&m, JSON_KEY("dimm_channel"), r->dimm_channel);
		if (r->have & MCE_HAVE_DIMM_SLOT)
			json_member_u64(&m, JSON_KEY("dimm_slot"), r->dimm_slot);
		if (r->have & MCE_HAVE_DIMM_RANK)
			json_member_u64(&m, JSON_KEY("dimm_rank"), r->dimm_rank);
		json_members_end(w, &m);
	}
	/* not "bank_name": that is the decoded name, which may come from MCA_IPID instead */
	if (r->have & MCE_HAVE_BANK_NAME)
		json_put_string_k(w, JSON_KEY("text_bank_name"), r->bank_name);
	/* the text form named STATUS bits 46:45 itself: read again, the record decodes the same */
	if (r->have & MCE_HAVE_AMD_ECC_NAMED)
		json_put_bool(w, "text_amd_ecc_named", true);
	if (d)
		mce_decoded_write_json(d, w);
	if (extra)
		extra(w, userdata);
	json_object_end(w);
}

/* ---- reading ---- */

_printf_(3, 4)
static int fail(char *errbuf, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (errbuf && errlen) {
		va_start(ap, fmt);
		vsnprintf(errbuf, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

struct key_u64 {
	const char *key;
	size_t len;          /* strlen(key): json_flat_scan()'s members are matched by it first */
	uint32_t have;
	size_t offset;
	uint64_t max;
	unsigned size;       /* 1, 4 or 8 bytes */
};

#define U64_FIELD(k, h, f) { .key = k, .len = sizeof(k) - 1, .have = h, .offset = offsetof(struct mce_record, f), \
			     .max = UINT64_MAX, .size = 8 }
#define U32_FIELD(k, h, f) { .key = k, .len = sizeof(k) - 1, .have = h, .offset = offsetof(struct mce_record, f), \
			     .max = UINT32_MAX, .size = 4 }

static const struct key_u64 numeric_keys[] = {
	U32_FIELD("cpu",       MCE_HAVE_CPU,       cpu),
	U32_FIELD("socket",    MCE_HAVE_SOCKET,    socket),
	U32_FIELD("apicid",    MCE_HAVE_APICID,    apicid),
	U32_FIELD("bank",      MCE_HAVE_BANK,      bank),
	U32_FIELD("microcode", MCE_HAVE_MICROCODE, microcode),
	U64_FIELD("ppin",      MCE_HAVE_PPIN,      ppin),
	U64_FIELD("mcgcap",    MCE_HAVE_MCGCAP,    mcgcap),
	U64_FIELD("mcgstatus", MCE_HAVE_MCGSTATUS, mcgstatus),
	U64_FIELD("status",    MCE_HAVE_STATUS,    status),
	U64_FIELD("addr",      MCE_HAVE_ADDR,      addr),
	U64_FIELD("misc",      MCE_HAVE_MISC,      misc),
	U64_FIELD("synd",      MCE_HAVE_SYND,      synd),
	U64_FIELD("synd1",     MCE_HAVE_SYND1,     synd1),
	U64_FIELD("synd2",     MCE_HAVE_SYND2,     synd2),
	U64_FIELD("ipid",      MCE_HAVE_IPID,      ipid),
	U64_FIELD("ip",        MCE_HAVE_IP,        ip),
	U64_FIELD("tsc",       MCE_HAVE_TSC,       tsc),
	U32_FIELD("dimm_socket",  MCE_HAVE_DIMM_SOCKET,  dimm_socket),
	U32_FIELD("dimm_mc",      MCE_HAVE_DIMM_MC,      dimm_mc),
	U32_FIELD("dimm_channel", MCE_HAVE_DIMM_CHANNEL, dimm_channel),
	U32_FIELD("dimm_slot",    MCE_HAVE_DIMM_SLOT,    dimm_slot),
	U32_FIELD("dimm_rank",    MCE_HAVE_DIMM_RANK,    dimm_rank),
	{ .key = "cs", .len = 2, .have = MCE_HAVE_CS, .offset = offsetof(struct mce_record, cs),
	  .max = UINT8_MAX, .size = 1 },
};

static void store(struct mce_record *r, const struct key_u64 *k, uint64_t v)
{
	char *p = (char *) r + k->offset;

	switch (k->size) {
	case 1: { uint8_t x = (uint8_t) v; memcpy(p, &x, 1); break; }
	case 4: { uint32_t x = (uint32_t) v; memcpy(p, &x, 4); break; }
	default: memcpy(p, &v, 8); break;
	}
	r->have |= k->have;
}

/*
 * A member's value as the reading below needs it, from json-c's tree or
 * from json_flat_scan(): both readings of a line end up here, so they
 * accept, reject and word their errors the same.
 */
enum value_type { V_ABSENT, V_NULL, V_INT, V_STRING, V_TRUE, V_FALSE, V_OTHER };

struct value {
	enum value_type type;
	bool negative;          /* V_INT: below zero */
	uint64_t u;             /* V_INT: the value when not negative */
	const char *s;          /* V_STRING */
	size_t len;
	bool terminated;        /* s is a C string (json-c's) */
};

/* The keys read, the numeric ones first and in numeric_keys' order. */
#define KEY(k) { k, sizeof(k) - 1 }
static const struct { const char *key; size_t len; } other_keys[] = {
	KEY("time"), KEY("source"), KEY("hostname"), KEY("boot_id"), KEY("vendor"), KEY("family"),
	KEY("model"), KEY("stepping"), KEY("text_bank_name"), KEY("text_amd_ecc_named"),
};
enum {
	K_TIME = ELEMENTSOF(numeric_keys), K_SOURCE, K_HOSTNAME, K_BOOT_ID, K_VENDOR, K_FAMILY,
	K_MODEL, K_STEPPING, K_TEXT_BANK_NAME, K_TEXT_AMD_ECC_NAMED, N_KEYS,
};

static const char *key_name(size_t i)
{
	return i < ELEMENTSOF(numeric_keys) ? numeric_keys[i].key : other_keys[i - K_TIME].key;
}

static size_t key_len(size_t i)
{
	return i < ELEMENTSOF(numeric_keys) ? numeric_keys[i].len : other_keys[i - K_TIME].len;
}

/* The longest string value the fast reading copies; a longer one goes to json-c. */
#define FLAT_STRING_MAX 255

/* Registers and ids: "0x..." strings (the contract), also plain hex/decimal
 * strings and JSON integers, since people hand-write replay files. */
static int get_u64(const struct value *v, uint64_t max, uint64_t *ret)
{
	if (v->type == V_INT) {
		if (v->negative || v->u > max)
			return -ERANGE;
		*ret = v->u;
		return 0;
	}
	if (v->type == V_STRING)
		return parse_unsigned(v->s, v->len, 0, max, ret);
	return -EINVAL;
}

/* A string value as a C string, as json-c hands it out; json_flat_scan()'s fit buf (flat_member()). */
static const char *cstr(const struct value *v, char *buf, size_t size)
{
	size_t n = v->len < size - 1 ? v->len : size - 1;

	if (v->terminated)
		return v->s;

	memcpy(buf, v->s, n);
	buf[n] = '\0';
	return buf;
}

static int record_from_values(const struct value *vals, struct mce_record *ret, char *errbuf,
			      size_t errlen)
{
	struct mce_record r = { 0 };
	const struct value *v;
	uint64_t family = 0, model = 0, stepping = 0;
	int n_cpuid = 0, ret_r;
	char buf[FLAT_STRING_MAX + 1];

	for (size_t i = 0; i < ELEMENTSOF(numeric_keys); i++) {
		const struct key_u64 *k = &numeric_keys[i];
		uint64_t u;

		v = &vals[i];
		if (v->type == V_ABSENT || v->type == V_NULL)
			continue;
		ret_r = get_u64(v, k->max, &u);
		if (ret_r == -ERANGE)
			return fail(errbuf, errlen, "key \"%s\": value out of range", k->key);
		if (ret_r < 0)
			return fail(errbuf, errlen, "key \"%s\": expected a hex string such as \"0x1f\" "
				    "or a non-negative integer", k->key);
		store(&r, k, u);
	}

	v = &vals[K_TIME];
	if (v->type != V_ABSENT) {
		int64_t usec;

		if (v->type != V_STRING || parse_rfc3339_usec(cstr(v, buf, sizeof(buf)), &usec) < 0)
			return fail(errbuf, errlen, "key \"time\": expected an RFC 3339 timestamp "
				    "such as \"2026-11-20T10:00:00.000000Z\"");
		r.time_usec = usec;
		r.have |= MCE_HAVE_TIME;
	}

	v = &vals[K_SOURCE];
	if (v->type != V_ABSENT) {
		if (v->type != V_STRING)
			return fail(errbuf, errlen, "key \"source\": expected a string");
		r.source = mce_source_from_string(cstr(v, buf, sizeof(buf)));
	}

	v = &vals[K_HOSTNAME];
	if (v->type != V_ABSENT) {
		const char *s = v->type == V_STRING ? cstr(v, buf, sizeof(buf)) : "";

		if (v->type != V_STRING || strlen(s) >= sizeof(r.hostname))
			return fail(errbuf, errlen, "key \"hostname\": expected a string shorter than %zu",
				    sizeof(r.hostname));
		if (!utf8_valid(s, strlen(s)))
			return fail(errbuf, errlen, "key \"hostname\": not valid UTF-8");
		memcpy(r.hostname, s, strlen(s) + 1);
	}

	v = &vals[K_BOOT_ID];
	if (v->type != V_ABSENT) {
		const char *s = v->type == V_STRING ? cstr(v, buf, sizeof(buf)) : "";

		if (v->type != V_STRING || strlen(s) != MCE_BOOT_ID_LEN ||
		    strspn(s, "0123456789abcdef") != MCE_BOOT_ID_LEN)
			return fail(errbuf, errlen, "key \"boot_id\": expected 32 lower-case hex digits");
		memcpy(r.boot_id, s, MCE_BOOT_ID_LEN + 1);
	}

	v = &vals[K_VENDOR];
	if (v->type != V_ABSENT) {
		const char *s;

		if (v->type != V_STRING)
			return fail(errbuf, errlen, "key \"vendor\": expected a string");
		s = cstr(v, buf, sizeof(buf));
		r.vendor = mce_vendor_from_string(s);
		if (r.vendor == MCE_VENDOR_UNKNOWN && !streq(s, "unknown"))
			return fail(errbuf, errlen, "key \"vendor\": unknown vendor \"%s\" (expected intel, "
				    "amd, hygon, zhaoxin, centaur or arm)", s);
		r.have |= MCE_HAVE_VENDOR;
	}

	uint64_t *const idents[] = { [K_FAMILY - K_FAMILY] = &family, [K_MODEL - K_FAMILY] = &model,
				     [K_STEPPING - K_FAMILY] = &stepping };
	for (size_t i = K_FAMILY; i <= K_STEPPING; i++) {
		if (vals[i].type == V_ABSENT)
			continue;
		if (get_u64(&vals[i], UINT32_MAX, idents[i - K_FAMILY]) < 0)
			return fail(errbuf, errlen, "key \"%s\": expected a non-negative integer",
				    key_name(i));
		n_cpuid++;
	}
	if (n_cpuid > 0) {
		if (vals[K_FAMILY].type == V_ABSENT || vals[K_MODEL].type == V_ABSENT)
			return fail(errbuf, errlen, "keys \"family\" and \"model\" go together");
		r.family = (uint32_t) family;
		r.model = (uint32_t) model;
		r.stepping = (uint32_t) stepping;
		r.have |= MCE_HAVE_CPUID;
	}

	v = &vals[K_TEXT_BANK_NAME];
	if (v->type != V_ABSENT) {
		if (v->type != V_STRING)
			return fail(errbuf, errlen, "key \"text_bank_name\": expected a string");
		/* A hint only: a name no bank has (too long, odd bytes) is dropped, the record kept. */
		(void) mce_record_set_bank_name(&r, v->s, v->len);
	}

	v = &vals[K_TEXT_AMD_ECC_NAMED];
	if (v->type == V_TRUE)
		r.have |= MCE_HAVE_AMD_ECC_NAMED;
	else if (v->type != V_ABSENT && v->type != V_FALSE)
		return fail(errbuf, errlen, "key \"text_amd_ecc_named\": expected true or false");

	if (!(r.have & MCE_HAVE_STATUS))
		return fail(errbuf, errlen, "key \"status\" is missing: a record needs at least its "
			    "MCi_STATUS register");

	*ret = r;
	return 0;
}

/* ---- the fast reading: json_flat_scan() ---- */

/*
 * Which key a member is, in a few steps rather than a comparison with every
 * key: each of the ~25 members of a line was compared with all the keys.
 * An open-addressed table by length, first and last byte, made on first use
 * (mcectl and mcelogd are single-threaded).
 */
#define KEY_SLOTS 256

static unsigned key_hash(const char *k, size_t len)
{
	return (unsigned) (len * 31 + (unsigned char) k[0] * 7 + (unsigned char) k[len - 1]) % KEY_SLOTS;
}

static int key_index(const char *k, size_t len)
{
	static uint8_t slots[KEY_SLOTS];     /* key index + 1; 0 empty */
	static bool made;

	if (!made) {
		for (size_t i = 0; i < N_KEYS; i++) {
			unsigned h = key_hash(key_name(i), key_len(i));

			while (slots[h])
				h = (h + 1) % KEY_SLOTS;
			slots[h] = (uint8_t) (i + 1);
		}
		made = true;
	}
	if (len == 0)
		return -1;
	for (unsigned h = key_hash(k, len); slots[h]; h = (h + 1) % KEY_SLOTS) {
		size_t i = slots[h] - 1u;

		if (key_len(i) == len && memcmp(key_name(i), k, len) == 0)
			return (int) i;
	}
	return -1;
}

static bool flat_member(const struct json_flat_member *m, void *userdata)
{
	struct value *vals = userdata, *v;
	int i = key_index(m->key, m->key_len);

	if (i < 0)
		return true;
	v = &vals[i];
	if (v->type != V_ABSENT)
		return false;    /* a key twice: json-c's rules for it, not ours */
	switch (m->type) {
	case JSON_FLAT_NULL:
		v->type = V_NULL;
		break;
	case JSON_FLAT_INT:
		v->type = V_INT;
		v->u = m->u;
		v->negative = m->negative;
		break;
	case JSON_FLAT_TRUE:
		v->type = V_TRUE;
		break;
	case JSON_FLAT_FALSE:
		v->type = V_FALSE;
		break;
	case JSON_FLAT_STRING:
		if (m->len >= FLAT_STRING_MAX)
			return false;   /* more than cstr() copies */
		v->type = V_STRING;
		v->s = m->s;
		v->len = m->len;
		break;
	default:
		v->type = V_OTHER;
		break;
	}
	return true;
}

/* ---- the reference reading: json-c ---- */

static void json_object_putp(struct json_object **o)
{
	if (*o)
		json_object_put(*o);
}

static void value_of(struct json_object *root, const char *key, struct value *ret)
{
	struct json_object *v;

	*ret = (struct value) { .type = V_ABSENT };
	if (!json_object_object_get_ex(root, key, &v))
		return;
	if (json_object_is_type(v, json_type_null))
		ret->type = V_NULL;
	else if (json_object_is_type(v, json_type_int)) {
		int64_t i = json_object_get_int64(v);

		ret->type = V_INT;
		ret->negative = i < 0;
		ret->u = (uint64_t) i;
		if (i == INT64_MAX)   /* json-c saturates; take the exact unsigned value */
			ret->u = json_object_get_uint64(v);
	} else if (json_object_is_type(v, json_type_string)) {
		ret->type = V_STRING;
		ret->s = json_object_get_string(v);
		ret->len = (size_t) json_object_get_string_len(v);
		ret->terminated = true;
	} else if (json_object_is_type(v, json_type_boolean))
		ret->type = json_object_get_boolean(v) ? V_TRUE : V_FALSE;
	else
		ret->type = V_OTHER;
}

int mce_record_parse_json(const char *text, size_t len, struct mce_record *ret,
			  char *errbuf, size_t errlen)
{
	_cleanup_(json_object_putp) struct json_object *root = NULL;
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	struct value vals[N_KEYS] = { 0 };

	if (len > INT_MAX)
		return fail(errbuf, errlen, "record too long");
	/* record lines almost always take the fast path; json-c has the last word */
	if (json_flat_scan(text, len, flat_member, vals))
		return record_from_values(vals, ret, errbuf, errlen);

	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	root = json_tokener_parse_ex(tok, text, (int) len);
	jerr = json_tokener_get_error(tok);
	if (!root || jerr != json_tokener_success) {
		const char *msg = jerr == json_tokener_continue ? "unterminated JSON"
							       : json_tokener_error_desc(jerr);
		size_t off = tok->char_offset;

		json_tokener_free(tok);
		return fail(errbuf, errlen, "invalid JSON at byte %zu: %s", off + 1, msg);
	}
	/* Anything but white space after the object is an error, not silently dropped. */
	for (size_t i = (size_t) tok->char_offset; i < len; i++)
		if (!strchr(" \t\r\n", text[i])) {
			json_tokener_free(tok);
			return fail(errbuf, errlen, "trailing data after the JSON object at byte %zu",
				    i + 1);
		}
	json_tokener_free(tok);

	if (!json_object_is_type(root, json_type_object))
		return fail(errbuf, errlen, "a record must be a JSON object");
	for (size_t i = 0; i < N_KEYS; i++)
		value_of(root, key_name(i), &vals[i]);
	return record_from_values(vals, ret, errbuf, errlen);
}
