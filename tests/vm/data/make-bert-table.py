#!/usr/bin/env python3
# Writes bert-table.bin: an ACPI BERT table (ACPI 6.5 §18.3.1, Table 18.3:
# the 36-byte header, Boot Error Region Length u32, Boot Error Region u64)
# whose region is REGION_ADDR.  25-bert.sh hands it to QEMU with -acpitable
# and loads tests/integration/data/bert-region.bin at REGION_ADDR with
# -device loader; the guest kernel keeps that page with memmap=.
import struct, sys

REGION_ADDR = 0x08000000
REGION_LEN = 4096

body = struct.pack('<IQ', REGION_LEN, REGION_ADDR)
hdr = b'BERT' + struct.pack('<IBB', 36 + len(body), 1, 0) + b'MCELOG' + b'MCELOGDT' + \
      struct.pack('<III', 1, 0x5453454d, 1)
table = bytearray(hdr + body)
table[9] = (-sum(table)) & 0xff
assert sum(table) & 0xff == 0 and len(table) == 48
sys.stdout.buffer.write(bytes(table))
