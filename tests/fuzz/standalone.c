/* SPDX-License-Identifier: MIT */
/*
 * Runs a fuzz target over its seed corpus and crash reproducers without
 * libFuzzer, so `make check` keeps every input that once crashed fixed.
 * Usage: fuzz-X-check [FILE|DIR]...; with no arguments, the target's own
 * corpus directory under $top_srcdir/tests/fuzz/corpus/.  Prints TAP.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f)
		return 0;
	if (fseek(f, 0, SEEK_END) < 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) < 0 ||
	    !(buf = malloc((size_t) n + 1))) {
		fclose(f);
		return 0;
	}
	if (fread(buf, 1, (size_t) n, f) == (size_t) n)
		LLVMFuzzerTestOneInput(buf, (size_t) n);
	free(buf);
	fclose(f);
	return 1;
}

static unsigned run_path(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	unsigned n = 0;
	char sub[4096];

	if (!d)
		return run_file(path);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' &&
		    (size_t) snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name) < sizeof(sub))
			n += run_file(sub);
	closedir(d);
	return n;
}

int main(int argc, char *argv[])
{
	unsigned n = 0;

	if (argc > 1)
		for (int i = 1; i < argc; i++)
			n += run_path(argv[i]);
	else {
		const char *top = getenv("top_srcdir");
		char dir[4096];

		snprintf(dir, sizeof(dir), "%s/tests/fuzz/corpus/%s", top ? top : ".", FUZZ_NAME);
		n = run_path(dir);
	}
	printf("1..1\n%s 1 - %u corpus inputs of %s ran without a crash\n", n ? "ok" : "not ok", n,
	       FUZZ_NAME);
	return n ? 0 : 1;
}
