#!/usr/bin/env python3
# Writes bert-region.bin: a boot error region constructed from UEFI spec
# Appendix N and ACPI 6.5 Table 18.11/18.12 (not recorded data): one Generic
# Error Status Block, fatal, with an IA32/X64 section whose "MSR registers"
# context holds AMD SMCA bank 5 (MCA_STATUS..MCA_SYND) and a memory error section.
import struct, sys, uuid

def guid(s):
    return uuid.UUID(s).bytes_le

def entry(sec_guid, severity, body, ts=bytes([0x01, 0x00, 0x10, 0x01, 0x20, 0x11, 0x26, 0x20])):
    hdr = guid(sec_guid) + struct.pack('<IHBBI', severity, 0x300, 0x04, 0, len(body))
    hdr += bytes(16) + bytes(20) + ts
    assert len(hdr) == 72
    return hdr + body

x86 = struct.pack('<QQ', 1 | 2 | (1 << 8), 0x21) + struct.pack('<Q', 0x00a20f12) + bytes(40)
regs = [0xbea0000000000108, 0x00000003bd2c8fc0, 0xd01a0ffe00000000, 0x5000001ff,
        0x0000009600050f00, 0x000000005a020001]
x86 += struct.pack('<HHIQ', 1, 8 * len(regs), 0xc0002001 + 0x10 * 5, 0) + struct.pack('<6Q', *regs)

mem = struct.pack('<QQQQ', 1 | 2 | (1 << 3) | (1 << 14), 0x400, 0x000000b50c68ce80, 0)
mem += struct.pack('<8H', 1, 0, 0, 0, 0, 0, 0, 0) + bytes(24) + bytes([3]) + bytes(7)
assert len(mem) == 80

data = entry('dc3ea0b0-a144-4797-b95b-53fa242b6e1d', 1, x86) + \
       entry('a5bc1114-6f64-4ede-b863-3e83ed7c83b1', 1, mem)
block = struct.pack('<IIIII', 1 | (2 << 4), 0, 0, len(data), 1) + data
sys.stdout.buffer.write(block + bytes(20))
