/* SPDX-License-Identifier: MIT */
/*
 * Writes a large mixed input for the decode benchmark: N records cycling
 * through every text form mcectl decode reads (kernel console with dmesg
 * and syslog prefixes, AMD EDAC, mcelog, trace_pipe, rasdaemon, JSON),
 * with registers varied by a fixed pseudo-random sequence so runs repeat.
 *
 *   bench/gen-mixed N > input.txt
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "xorshift.h"

static uint64_t state = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	return xorshift64s(&state);
}

int main(int argc, char *argv[])
{
	static char buf[1 << 20];
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;

	setvbuf(stdout, buf, _IOFBF, sizeof(buf));
	for (unsigned long i = 0; i < n; i++) {
		uint64_t r = next();
		unsigned cpu = (unsigned) (r % 64), t = 1700000000u + (unsigned) (i / 8);
		uint64_t addr = (r >> 8) & 0xffffffffc0ull;
		/* corrected memory errors mostly, with some uncorrected and fatal ones */
		uint64_t st_intel = (r & 0x700) ? 0x8c000040000800c1ull | ((r & 0x3) << 0) : 0xbe00000000800400ull;
		uint64_t st_amd = (r & 0x700) ? 0x9c2040000000011bull : 0xbc2000000002011bull;

		switch (i % 7) {
		case 0:
			printf("[%5lu.%06lu] mce: [Hardware Error]: CPU %u: Machine Check: 0 Bank 13: %016" PRIx64 "\n",
			       i / 1000, i % 1000000, cpu, st_intel);
			printf("[%5lu.%06lu] mce: [Hardware Error]: TSC %" PRIx64 " ADDR %" PRIx64 " MISC 9001000f0000286 PPIN 2b5a3f0c9d1e\n",
			       i / 1000, i % 1000000, r >> 20, addr);
			printf("[%5lu.%06lu] mce: [Hardware Error]: PROCESSOR 0:806f8 TIME %u SOCKET %u APIC %x microcode 2b000461\n",
			       i / 1000, i % 1000000, t, cpu / 32, cpu * 2);
			break;
		case 1:
			printf("Nov 20 10:00:01 web01 kernel: [ 8812.004125] mce: [Hardware Error]: CPU %u: Machine Check: 0 Bank 7: 8c00004000010091\n", cpu);
			printf("Nov 20 10:00:01 web01 kernel: [ 8812.004130] mce: [Hardware Error]: TSC 0 ADDR %" PRIx64 " MISC 140070086\n", addr);
			printf("Nov 20 10:00:01 web01 kernel: [ 8812.004135] mce: [Hardware Error]: PROCESSOR 0:50654 TIME %u SOCKET 1 APIC 38 microcode 2007006\n", t);
			break;
		case 2:
			printf("[ 1234.567901] [Hardware Error]: Corrected error, no action required.\n");
			printf("[ 1234.567910] [Hardware Error]: CPU:%u (19:11:1) MC%u_STATUS[Over|CE|MiscV|AddrV|-|-|SyndV|CECC|-|-|-]: 0x%016" PRIx64 "\n",
			       cpu, 15 + (unsigned) (r & 7), st_amd);
			printf("[ 1234.567920] [Hardware Error]: Error Addr: 0x%016" PRIx64 "\n", addr);
			printf("[ 1234.567930] [Hardware Error]: IPID: 0x%016" PRIx64 ", Syndrome: 0x000000005a020001\n",
			       (uint64_t) 0x9600050f00ull | ((r & 7) << 20));
			printf("[ 1234.567940] [Hardware Error]: Unified Memory Controller Ext. Error Code: 0, DRAM ECC error.\n");
			printf("[ 1234.567950] [Hardware Error]: cache level: L3/GEN, tx: GEN, mem-tx: RD\n");
			break;
		case 3:
			printf("CPU %u BANK %u\nPROCESSOR 0:0x50654\nSTATUS 0x%016" PRIx64 " MCGSTATUS 0\nADDR 0x%" PRIx64 " MISC 0x86\n\n",
			       cpu, 7 + (unsigned) (r & 3), st_intel, addr);
			break;
		case 4:
			printf("     kworker/2:1-95      [002] d..1.  5123.457001: mce_record: CPU: %u, MCGc/s: 11c/0, MC5: %016" PRIx64
			       ", IPID: 0000009600050f00, ADDR: %016" PRIx64 ", MISC: d01a0ffe00000000, SYND: 000000005a020001, RIP: 00:<0000000000000000>, TSC: 0, PPIN: 0, vendor: 2, CPUID: a20f10, time: %u, socket: 0, APIC: %x, microcode: a201016\n",
			       cpu, st_amd, addr, t, cpu);
			break;
		case 5:
			printf("           <...>-2412  [002]     0.000000: mce_record:            2023-11-20 10:05:00 +0000 bank=7, status= %" PRIx64
			       ", Corrected error, mci=Corrected_error, mca=MEMORY CONTROLLER RD_CHANNEL1_ERR, cpu_type= Intel Xeon, cpu= %u, socketid= 1, misc= 140070086, addr= %" PRIx64 ", mcgstatus= 0, mcgcap= f000c14, apicid= 26\n",
			       st_intel, cpu, addr);
			break;
		default:
			printf("{\"time\":\"2026-11-20T10:00:00.000000Z\",\"cpu\":%u,\"bank\":%u,\"vendor\":\"amd\",\"family\":25,\"model\":17,\"status\":\"0x%016" PRIx64
			       "\",\"addr\":\"0x%016" PRIx64 "\",\"synd\":\"0x000000005a020001\",\"ipid\":\"0x0000009600050f00\"}\n",
			       cpu, 15 + (unsigned) (r & 7), st_amd, addr);
			break;
		}
	}
	return fflush(stdout) == 0 ? 0 : 1;
}
