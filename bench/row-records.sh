#!/bin/sh
# RECORDS corrected EDAC events as JSON lines for mcelogd --replay, spread
# over ROWS DRAM rows: record i is on row i*7919 mod ROWS (every row, spread),
# one of 4 pages of it.  The input of bench/row-rules-bench.sh and of the
# speed gate's rules figure (bench/gate.sh).
#
#   bench/row-records.sh RECORDS ROWS >FILE
set -eu
exec awk -v n="$1" -v rows="$2" 'BEGIN {
	for (i = 0; i < n; i++) {
		row = (i * 7919) % rows; page = 4294967296 / 4096 + row * 16 + i % 4
		printf "{\"time\":\"2026-11-20T00:00:00.000000Z\",\"event\":\"memory_controller\","
		printf "\"source\":\"ras:mc_event\",\"severity\":\"corrected\",\"error_count\":1,"
		printf "\"label\":\"CPU_SrcID#0_MC#3_Chan#0_DIMM#0\",\"mc\":3,\"address\":\"0x%x\",\"grain\":32,", page * 4096
		printf "\"driver_detail\":\"ProcessorSocketId:0x0 MemoryControllerId:0x3 ChannelId:0x0 "
		printf "PhysicalRankId:0x1 DimmSlotId:0x0 Row:0x%x Column:0x380 Bank:0x0 BankGroup:0x2\"}\n", row
	}
}'
