#!/usr/bin/env python3
# Writes dev-mcelog-88.bin: two struct mce records as an 88-byte-record kernel
# (before synd/ipid were added) returns them from /dev/mcelog, following the
# field offsets of arch/x86/include/uapi/asm/mce.h.  Constructed, not recorded.
import struct, sys

def record(cpu, bank, status, addr, misc, tsc):
    r = struct.pack('<7Q', status, misc, addr, 0x5, 0, tsc, 1795168801)
    r += struct.pack('<BBBBI', 0, 0, 0, 0, 0x000806f8)        # cpuvendor Intel, cpuid (06-8f-8)
    r += struct.pack('<BBBB', 0, bank, cpu, 1)                 # cs, bank, cpu, finished
    r += struct.pack('<III', cpu, 0, cpu * 2)                  # extcpu, socketid, apicid
    r += struct.pack('<Q', 0x0000000000000c14)                 # mcgcap
    assert len(r) == 88
    return r

sys.stdout.buffer.write(record(1, 7, 0x9c00004000010090, 0x12345000, 0x86, 1000) +
                        record(3, 4, 0xbd80000000100134, 0xdeadb000, 0x5, 2000))
