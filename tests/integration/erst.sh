#!/bin/bash
# Integration test: the machine checks a panicking kernel saved in ERST, as
# pstore shows them in the next boot (mce-erst-<record id>: the struct mce
# alone, see kernel-abi/pstore-mce.h), are logged once each, through a real
# journald (private mount namespace, as journal.sh), and then removed unless
# ErstRemove=no.  The pstore is a stand-in directory given with the hidden
# --pstore-dir option; --state-directory is a scratch directory.  Needs root;
# prints TAP.

set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/integration/lib.sh"
enter_journal_namespace "$0" "$@"
need_tools python3
use_workdir
start_private_journald "$work"

echo "1..20"
ps=$work/pstore
mkdir "$work/state" "$ps"
printf '[Sources]\nErstRemove=no\n' >"$work/keep.conf"
: >"$work/remove.conf"

# mce_file STATUS TSC [LENGTH]: a 6.1 kernel's 128-byte struct mce (uapi/asm/mce.h) on stdout:
# Intel (cpuvendor 0), CPUID 0x806f8, CPU 2, bank 0, MCG_STATUS MCIP, cut to LENGTH bytes.
mce_file() {
	python3 -c '
import struct, sys
m = bytearray(128)
struct.pack_into("<QQQQQQQ", m, 0, int(sys.argv[1], 0), 0, 0, 4, 0, int(sys.argv[2], 0), 1796172062)
struct.pack_into("<BBBBI", m, 56, 0, 0, 7, 0, 0x000806f8)
struct.pack_into("<BBBBIIIQ", m, 64, 0, 0, 0, 1, 2, 0, 2, 0xc0a)
sys.stdout.buffer.write(m[:int(sys.argv[3])])' "$1" "$2" "${3:-128}"
}

# Machine checks mcelogd logged with source previous_boot, as "status tsc message_id" lines.
logged() {
	journalctl --sync 2>/dev/null || sleep 1
	journalctl -o json _COMM=mcelogd MCE_SOURCE=previous_boot 2>/dev/null |
		jq -r '"\(.MCE_STATUS) \(.MCE_TSC) \(.MESSAGE_ID)"' | sort
}
run() { # run CONFIG
	"$mcelogd" --config "$1" --replay /dev/null --pstore-dir "$ps" --state-directory "$work/state" \
		--log-level info 2>>"$work/err"
}
fatal=fd6bd0d477884d02a89dcb47f4c8c599
a="0xb200000000030005 0x0000002a8f7b3c41 $fatal"
b="0xbe00000000800400 0x0000002a8f7b3d00 $fatal"

mce_file 0xb200000000030005 0x2a8f7b3c41 >"$ps/mce-erst-7723151386046693377"
mce_file 0xbe00000000800400 0x2a8f7b3d00 >"$ps/mce-erst-7723151386046693378"
echo "kernel log of the panic" >"$ps/dmesg-erst-7723151386046693376"

# ErstRemove=no: logged, kept, and remembered while the firmware keeps them.
run "$work/keep.conf"
check "first start exits 0" 0 "$?"
check "each machine check is logged once, fatal, with the kernel's registers" "$a"$'\n'"$b" "$(logged)"
check "with ErstRemove=no the files stay" 3 "$(ls "$ps" | wc -l)"
check "the state names both records" 2 "$(grep -c '^record=erst 772315138604669337[78] ' "$work/state/erst-logged")"

run "$work/keep.conf"
check "a restart logs nothing again" "$a"$'\n'"$b" "$(logged)"
if grep -q "mce-erst-7723151386046693377 was logged by an earlier start" "$work/err"; then
	ok "and says why"
else not_ok "and says why" "$(cat "$work/err")"; fi

# The state is saved before a file goes, so a start that ended between the two (the files
# still there, the state naming them) only removes them now.
run "$work/remove.conf"
check "ErstRemove=yes (the default) removes what an earlier start logged, without logging it again" \
	"$a"$'\n'"$b" "$(logged)"
check "only pstore's other files are left" "dmesg-erst-7723151386046693376" "$(ls "$ps")"
check "the state forgets the records gone from the store" 0 "$(grep -c '^record=' "$work/state/erst-logged")"

run "$work/remove.conf"
check "a start with nothing in the store logs nothing" "$a"$'\n'"$b" "$(logged)"

# A record id handed out again, for another error: logged, then removed at once.
mce_file 0xb200000000030005 0x2a8f7b4000 >"$ps/mce-erst-7723151386046693377"
run "$work/remove.conf"
check "another error under a logged record's id is logged" \
	"$(printf '%s\n' "$a" "$b" "0xb200000000030005 0x0000002a8f7b4000 $fatal" | sort)" "$(logged)"
check "and removed" "dmesg-erst-7723151386046693376" "$(ls "$ps")"

# Hostile files: reported by name, not logged, left in place, the daemon unhurt.
before=$(logged)
mce_file 0xb200000000030005 0x1 100 >"$ps/mce-erst-1"
: >"$ps/mce-erst-2"
{ mce_file 0xb200000000030005 0x2; head -c 8192 /dev/zero; } >"$ps/mce-erst-3"
ln -s /dev/zero "$ps/mce-erst-4"
mkfifo "$ps/mce-erst-5"
: >"$work/err"
timeout 20 "$mcelogd" --config "$work/remove.conf" --replay /dev/null --pstore-dir "$ps" \
	--state-directory "$work/state" 2>"$work/err"
check "hostile files: exit 0, nothing logged" "0 $before" "$? $(logged)"
if grep -q "$ps/mce-erst-1: 100 bytes, not a whole struct mce" "$work/err" &&
   grep -q "$ps/mce-erst-2: 0 bytes, shorter than the kernel's oldest struct mce" "$work/err" &&
   grep -q "$ps/mce-erst-3: longer than 4096 bytes" "$work/err" &&
   grep -q "$ps/mce-erst-4: not a regular file" "$work/err" &&
   grep -q "$ps/mce-erst-5: not a regular file" "$work/err"; then
	ok "each is reported with its name and what is wrong"
else not_ok "each is reported with its name and what is wrong" "$(cat "$work/err")"; fi
check "and left in place" 6 "$(ls "$ps" | wc -l)"

# systemd-pstore.service moved the record to its archive before mcelogd started (and, with
# its Unlink=no, left it in pstore too): logged once, never removed from the archive.
rm -f "$ps"/mce-erst-*
mkdir "$work/archive"
mce_file 0xbd80000000100134 0x2a8f7b5000 >"$work/archive/mce-erst-7723151386046693390"
cp "$work/archive/mce-erst-7723151386046693390" "$ps/"
runa() { "$mcelogd" --config "$1" --replay /dev/null --pstore-dir "$ps" --pstore-archive-dir "$work/archive" \
	--state-directory "$work/state" --log-level info 2>>"$work/err"; }
before=$(logged)
runa "$work/remove.conf"
check "a record in systemd-pstore's archive (and in pstore) is logged once" \
	"$(printf '%s\n' "$before" "0xbd80000000100134 0x0000002a8f7b5000 $fatal" | sort)" "$(logged)"
check "removed from pstore, kept in the archive" "dmesg-erst-7723151386046693376 mce-erst-7723151386046693390" \
	"$(echo $(ls "$ps") $(ls "$work/archive"))"
runa "$work/remove.conf"
check "a restart does not log the archived record again" \
	"$(printf '%s\n' "$before" "0xbd80000000100134 0x0000002a8f7b5000 $fatal" | sort)" "$(logged)"
check "while it is archived the state remembers it" 1 "$(grep -c '^record=erst 7723151386046693390 ' "$work/state/erst-logged")"

# No pstore at all is not an error.
"$mcelogd" --replay /dev/null --pstore-dir "$work/missing" --state-directory "$work/state" 2>"$work/err2"
check "a missing pstore directory is not fatal" 0 "$?"

[ $failed = 0 ] || { echo "# stderr:"; sed "s/^/# /" "$work/err"; false; }
