/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * What a live tracepoint record leaves out and the running system can still
 * say, read right after the event: the systemd unit of the process a memory
 * error's SIGBUS was for (from /proc/PID/cgroup, while the process exists),
 * and the name of the disk of a failed request (/sys/dev/block/MAJ:MIN).
 * Best effort: a process already gone, or a disk already removed, leaves the
 * record as the kernel gave it.
 */

struct ras_record;

void ras_enrich(struct ras_record *rec);
