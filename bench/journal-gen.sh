#!/bin/sh
# Writes N journal entries shaped like mcelogd's (the fields and the MCE_JSON
# of a corrected memory-controller record, CPU, bank, status and address
# varying; MCE_TIME a second before the entry's arrival, lib/entry-time.h) in journal export format, evenly spread over the DAYS days before
# now, so that the last hour holds N/(24*DAYS) of them.  Import with
#   sh bench/journal-gen.sh 1000000 30 | /lib/systemd/systemd-journal-remote -o DIR/bench.journal -
# (bench/journal-bench.sh does that and the measurements).
# FORGED=1: instead, entries as a local user's process named mcelogd can send
# them (_UID=65534), all marked late and ahead (MCE_LATE=1, MCE_AHEAD=1) with
# an error time half an hour ago, whenever they arrived
# (bench/late-forged-bench.sh).  SPAN_SECONDS: over that many seconds instead
# of DAYS.
set -eu
n=${1:-1000000}
days=${2:-30}
now=$(date +%s)
exec awk -v n="$n" -v span="${SPAN_SECONDS:-$((days * 86400))}" -v now="$now" -v forged="${FORGED:-}" 'BEGIN {
	srand(1);
	boot = "0123456789abcdef0123456789abcdef"; machine = "fedcba9876543210fedcba9876543210";
	split("corrected corrected corrected corrected corrected corrected corrected uncorrected", sev, " ");
	split("d90772f9176e45e88ae80c46f01c0915 d90772f9176e45e88ae80c46f01c0915 d90772f9176e45e88ae80c46f01c0915 d90772f9176e45e88ae80c46f01c0915 d90772f9176e45e88ae80c46f01c0915 d90772f9176e45e88ae80c46f01c0915 d90772f9176e45e88ae80c46f01c0915 aa342ccf21574871922871263c767d1c", id, " ");
	start = (now - span) * 1000000;
	step = span * 1000000 / n;
	for (i = 0; i < n; i++) {
		t = start + int(i * step);
		cpu = i % 64; bank = 7 + (i % 6); s = 1 + (i % 8);
		status = sprintf("0x%s000040%08x", sev[s] == "corrected" ? "8c" : "bd", 0x800c0 + (i % 16));
		addr = sprintf("0x%016x", 0x100000000 + (i % 50000) * 4096);
		printf "__CURSOR=s=%s;i=%x\n__REALTIME_TIMESTAMP=%.0f\n__MONOTONIC_TIMESTAMP=%.0f\n_BOOT_ID=%s\n_MACHINE_ID=%s\n_HOSTNAME=bench\n", machine, i + 1, t, t - start + 1000000, boot, machine;
		if (forged)
			printf "_COMM=mcelogd\n_UID=65534\n_GID=65534\n_PID=4321\nMCE_TIME=%.0f\nMCE_LATE=1\nMCE_AHEAD=1\nSYSLOG_IDENTIFIER=mcelogd\nPRIORITY=%d\nMESSAGE_ID=%s\n", (now - 1800) * 1000000, sev[s] == "corrected" ? 4 : 3, id[s];
		else
			printf "_COMM=mcelogd\n_UID=0\n_GID=0\n_PID=1234\nMCE_TIME=%.0f\nSYSLOG_IDENTIFIER=mcelogd\nPRIORITY=%d\nMESSAGE_ID=%s\n", t - 1000000, sev[s] == "corrected" ? 4 : 3, id[s];
		printf "MESSAGE=%s machine check on CPU %d bank %d (Integrated Memory Controller): Corrected patrol scrub error\n", sev[s] == "corrected" ? "Corrected" : "Uncorrected", cpu, bank;
		printf "MCE_CPU=%d\nMCE_BANK=%d\nMCE_SOCKET=%d\nMCE_SEVERITY=%s\nMCE_STATUS=%s\nMCE_ADDR=%s\nMCE_BANK_NAME=Integrated Memory Controller\nMCE_BANK_TYPE=IMC\nMCE_ERROR_CLASS=memory_controller\nMCE_CHANNEL=%d\nMCE_SOURCE=tracepoint\n", cpu, bank, int(cpu / 32), sev[s], status, addr, i % 4;
		printf "MCE_JSON={\"time\":\"2026-11-01T00:00:00.000000Z\",\"source\":\"tracepoint\",\"hostname\":\"bench\",\"boot_id\":\"%s\",\"cpu\":%d,\"socket\":%d,\"apicid\":%d,\"bank\":%d,\"vendor\":\"intel\",\"family\":6,\"model\":106,\"stepping\":6,\"mcgcap\":\"0x0000000007000c16\",\"mcgstatus\":\"0x0000000000000000\",\"status\":\"%s\",\"addr\":\"%s\",\"misc\":\"0x0000000000140686\",\"synd\":\"0x0000000000000000\",\"ipid\":\"0x0000000000000000\",\"tsc\":\"0x0000a1b2c3d4e5f6\",\"severity\":\"%s\",\"flags\":[\"VAL\",\"MISCV\",\"ADDRV\"],\"error_class\":\"memory_controller\",\"cpu_model\":\"Ice Lake-SP\",\"bank_name\":\"Integrated Memory Controller\",\"bank_type\":\"IMC\",\"description\":\"Corrected patrol scrub error\",\"memory_transaction\":\"memory_scrubbing\",\"channel\":%d,\"model_specific_code\":8,\"details\":{\"memory_controller\":%d}}\n\n", boot, cpu, int(cpu / 32), cpu * 2, bank, status, addr, sev[s], i % 4, bank - 7;
	}
}'
