/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: SMBIOS Memory Device (type 17) structures through
 * smbios_memdev_parse() (lib/smbios-memdev.c), as mcectl slots reads
 * /sys/firmware/dmi/entries/17-N/raw.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "smbios-memdev.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Exactly the input's bytes: a read past them is caught by ASan. */
	uint8_t *raw = malloc(size ? size : 1);
	struct smbios_memdev d;
	int r;

	if (!raw)
		abort();
	memcpy(raw, data, size);
	r = smbios_memdev_parse(raw, size, &d);
	/* Names are bounded and printable; a refusal says why. */
	if (strlen(d.locator) > SMBIOS_NAME_MAX || strlen(d.bank_locator) > SMBIOS_NAME_MAX ||
	    (r < 0 && !d.problem[0]) || (d.n_problems > 0) != (d.problem[0] != '\0'))
		__builtin_trap();
	for (const char *p = d.locator; *p; p++)
		if (*p < 0x20 || *p >= 0x7f)
			__builtin_trap();
	free(raw);
	return 0;
}
