/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The counter recorder's history, kept by the kernel: on each CPU, a
 * cpu-clock event samples every Interval= and writes the values of its whole
 * group (PERF_SAMPLE_READ) into an overwrite ring (write_backward, mapped
 * read-only).  The kernel reads the counters on their own CPU from its timer;
 * mcelogd wakes for none of it, sends no cross-CPU call, and reads the ring
 * only when a record of that CPU comes.  On a 256-CPU server the alternative,
 * a read() of every CPU's groups every second, is 512 system calls and as
 * many interrupts to idle CPUs per second.
 */

#include <stddef.h>
#include <stdint.h>

#include "perf-group-read.h"

/* The clock samples are stamped with; the counting events of a sampler's group need the same. */
#define COUNTER_RING_CLOCK CLOCK_MONOTONIC

struct counter_ring {
	int fd;            /* the sampler that owns the ring; -1: none */
	void *map;         /* control page and data area */
	size_t map_size, data_size;
};

/*
 * Opens a sampler on cpu every period_ns, leader of a group to be; its samples
 * go into ring (mapped here when ring->fd is -1, else shared with ring->fd's).
 * data_size: the ring's data bytes, a power of two of pages.  Returns the
 * sampler's fd or negative errno; the caller closes it (counter_ring_unmap
 * only unmaps).
 */
int counter_ring_open_sampler(unsigned cpu, uint64_t period_ns, size_t data_size, struct counter_ring *ring);
void counter_ring_unmap(struct counter_ring *ring);

/* One sample, newest first: its sampler's id, CLOCK_MONOTONIC ns, the group's values. */
typedef void (*counter_ring_sample_fn)(uint64_t sampler_id, uint64_t time_ns, const struct perf_group_read *g,
				       void *userdata);

/* Pauses the ring, hands its newest max samples to fn, resumes it.  Returns how
 * many records were walked, or negative errno. */
int counter_ring_collect(struct counter_ring *ring, size_t max, counter_ring_sample_fn fn, void *userdata);

/* The data bytes for `samples` samples of two groups with n_events events between them. */
size_t counter_ring_data_size(size_t samples, size_t n_events, size_t page_size);
