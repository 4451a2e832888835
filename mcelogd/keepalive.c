/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-daemon.h>

#include "clock.h"
#include "keepalive.h"

#define KEEPALIVE_EVERY_USEC 1000000ULL

static uint64_t last_usec;
static bool ready;

void keepalive(void)
{
	uint64_t now = now_monotonic_usec();

	if (last_usec != 0 && now - last_usec < KEEPALIVE_EVERY_USEC)
		return;
	last_usec = now;
	/* Another 30 s from now to reach READY=1, beyond TimeoutStartSec=. */
	(void) sd_notify(false, ready ? "WATCHDOG=1" : "WATCHDOG=1\nEXTEND_TIMEOUT_USEC=30000000");
}

void keepalive_ready(void)
{
	ready = true;
}
