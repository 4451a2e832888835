/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file-io.h"
#include "json-writer.h"
#include "kernel-cec.h"
#include "macro.h"
#include "ras-debugfs.h"

#define CEC_FILE_MAX 65536   /* array: 512 pages of 30 bytes and the stats */

static const char *const state_names[] = {
	[KERNEL_CEC_UNKNOWN] = "unknown",
	[KERNEL_CEC_ABSENT] = "absent",
	[KERNEL_CEC_ACTIVE] = "active",
};

static int read_cec_file(const char *root, const char *name, char **ret, size_t *ret_len)
{
	char path[4096];

	if (!ras_debugfs_path(root, name, path, sizeof(path)))
		return -ENAMETOOLONG;
	return read_full_file(path, CEC_FILE_MAX, ret, ret_len);
}

static int read_number(const char *root, const char *name, uint64_t *ret)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int r = read_cec_file(root, name, &text, &len);

	return r < 0 ? r : ras_cec_parse_number(text, len, ret);
}

void kernel_cec_read(const char *debugfs_root, struct kernel_cec *ret)
{
	_cleanup_free_ char *text = NULL;
	struct kernel_cec c = { .state = KERNEL_CEC_UNKNOWN };
	size_t len = 0;
	int r;

	r = read_number(debugfs_root, "cec/action_threshold", &c.action_threshold);
	/* Its name until the 2019 rename (Linux 5.3-era); the meaning is the same. */
	if (r == -ENOENT)
		r = read_number(debugfs_root, "cec/count_threshold", &c.action_threshold);
	if (r == -ENOENT) {
		/* ras/ is there but cec/ is not: the kernel has no collector running. */
		if (ras_debugfs_explain(debugfs_root, "cec", r, c.reason, sizeof(c.reason)) ==
		    RAS_DEBUGFS_NO_FILE) {
			c.state = KERNEL_CEC_ABSENT;
			snprintf(c.reason, sizeof(c.reason), "not in this kernel (CONFIG_RAS_CEC off, or "
				 "ras=cec_disable on its command line)");
		}
		*ret = c;
		return;
	}
	if (r == -EINVAL || r == -ERANGE || r == -EFBIG) {
		snprintf(c.reason, sizeof(c.reason), "cannot parse ras/cec/action_threshold");
		*ret = c;
		return;
	}
	if (r < 0) {
		ras_debugfs_explain(debugfs_root, "cec/action_threshold", r, c.reason, sizeof(c.reason));
		*ret = c;
		return;
	}
	c.state = KERNEL_CEC_ACTIVE;
	if (read_number(debugfs_root, "cec/decay_interval", &c.decay_interval_sec) < 0)
		c.decay_interval_sec = 0;   /* left out of the status: unknown, not zero */
	/* Only with CONFIG_RAS_CEC_DEBUG; its absence is normal. */
	c.have_array = read_cec_file(debugfs_root, "cec/array", &text, &len) >= 0 &&
		       ras_cec_parse_array(text, len, &c.array) >= 0;
	*ret = c;
}

void kernel_cec_write_status(const struct kernel_cec *c, struct json_writer *w)
{
	json_object_begin(w, "kernel_cec");
	json_put_string(w, "state", state_names[c->state]);
	if (c->state != KERNEL_CEC_ACTIVE) {
		json_put_string(w, "reason", c->reason);
		json_object_end(w);
		return;
	}
	json_put_u64(w, "action_threshold", c->action_threshold);
	if (c->decay_interval_sec > 0)
		json_put_u64(w, "decay_interval_sec", c->decay_interval_sec);
	if (c->have_array) {
		json_put_u64(w, "pages_tracked", c->array.pages_tracked);
		json_put_u64(w, "errors_seen", c->array.errors_seen);
		json_put_u64(w, "pages_offlined", c->array.pages_offlined);
	}
	json_object_end(w);
}
