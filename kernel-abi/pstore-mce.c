/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>

#include "dev-mcelog-record.h"
#include "macro.h"
#include "parse-number.h"
#include "pstore-mce.h"

int pstore_mce_name_parse(const char *name, struct pstore_mce_name *ret)
{
	const char *backend, *dash;
	size_t n;

	if (strncmp(name, PSTORE_MCE_PREFIX, strlen(PSTORE_MCE_PREFIX)) != 0)
		return -EINVAL;
	backend = name + strlen(PSTORE_MCE_PREFIX);
	/* The id is decimal ("%llu"); the backend's name is the kernel's psi->name. */
	dash = strrchr(backend, '-');
	if (!dash || dash == backend)
		return -EINVAL;
	n = (size_t) (dash - backend);
	if (n >= sizeof(ret->backend))
		return -EINVAL;
	if (parse_unsigned(dash + 1, strlen(dash + 1), 10, UINT64_MAX, &ret->id) < 0)
		return -EINVAL;
	memcpy(ret->backend, backend, n);
	ret->backend[n] = '\0';
	return 0;
}

int pstore_mce_parse(const void *buf, size_t len, enum mce_source source, struct mce_record *ret,
		     const char **ret_why)
{
	*ret_why = NULL;
	if (len < DEV_MCELOG_RECORD_MIN) {
		*ret_why = "shorter than the kernel's oldest struct mce (72 bytes): truncated";
		return -EBADMSG;
	}
	if (len > PSTORE_MCE_MAX) {
		*ret_why = "longer than any struct mce: not a machine-check record";
		return -EBADMSG;
	}
	/* Its 64-bit members make the struct's size a multiple of 8 on every kernel. */
	if (len % 8 != 0) {
		*ret_why = "not a whole struct mce (its length is a multiple of 8 bytes): truncated";
		return -EBADMSG;
	}
	if (dev_mcelog_record_parse(buf, len, ret) < 0) {
		*ret_why = "not a struct mce";
		return -EBADMSG;
	}
	ret->source = source;
	return 0;
}
