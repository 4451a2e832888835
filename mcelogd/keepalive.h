/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * systemd's watchdog (WatchdogSec=) counts from the moment the main process
 * starts, and sd-event pings it only once the loop runs.  Opening a perf
 * event on every CPU of a large machine, or of a slow emulated one, can take
 * longer than that: the loops that do call keepalive() once per CPU, which
 * pings at most once a second and, until keepalive_ready(), also extends the
 * start timeout (EXTEND_TIMEOUT_USEC).  Outside systemd it does nothing.
 */

void keepalive(void);

/* READY=1 was sent: from now on only the watchdog is pinged. */
void keepalive_ready(void);
