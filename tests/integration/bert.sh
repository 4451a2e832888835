#!/bin/bash
# Integration test: the boot error region (BERT) is logged exactly once per
# boot, through a real journald (private mount namespace, as journal.sh).
# The region is tests/integration/data/bert-region.bin (constructed from the
# UEFI/ACPI layouts by make-bert-region.py), given with the hidden --bert
# option; --state-directory is a scratch directory.  Needs root; prints TAP.

set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/integration/lib.sh"
enter_journal_namespace "$0" "$@"
use_workdir
region=$data/bert-region.bin

start_private_journald "$work"

echo "1..10"
mkdir "$work/state"

# Entries mcelogd wrote with source previous_boot, as "kind detail" lines.
logged() {
	journalctl --sync 2>/dev/null || sleep 1
	journalctl -o json _COMM=mcelogd 2>/dev/null |
		jq -r 'select(.MCE_JSON != null) | .MCE_JSON | fromjson | select(.source == "previous_boot") |
		       if .event then "\(.event) \(.physical_address)" else "mce \(.bank) \(.status)" end' | sort
}
run() { "$mcelogd" --replay /dev/null --bert "$1" --state-directory "$work/state" --log-level info 2>>"$work/err"; }

run "$region"
check "first run exits 0" 0 "$?"
expected=$'firmware_memory 0x000000b50c68ce80\nmce 5 0xbea0000000000108'
check "first run logs the bank record and the memory section" "$expected" "$(logged)"
check "the marker names this boot" "$(tr -d - </proc/sys/kernel/random/boot_id)" \
	"$(sed -n 's/^boot_id=//p' "$work/state/bert-logged")"

run "$region"
check "a restart in the same boot logs nothing again" "$expected" "$(logged)"
if grep -q "already logged in this boot" "$work/err"; then ok "and says why"
else not_ok "and says why" "$(cat "$work/err")"; fi

# The next boot: the marker is from another boot.
sed -i 's/^boot_id=.*/boot_id=00000000000000000000000000000001/' "$work/state/bert-logged"
run "$region"
check "a later boot with the same region (firmware did not clear it) logs nothing again" "$expected" "$(logged)"
if grep -q "Firmware still holds the boot error region logged in boot 00000000000000000000000000000001" \
	"$work/err"; then ok "and says which boot logged it"
else not_ok "and says which boot logged it" "$(cat "$work/err")"; fi

sed -i 's/^boot_id=.*/boot_id=00000000000000000000000000000002/' "$work/state/bert-logged"
# A new region: the memory error at another address.
cp "$region" "$work/region2.bin"
printf '\x81' | dd of="$work/region2.bin" bs=1 seek=$((20 + 72 + 128 + 72 + 16)) conv=notrunc status=none
run "$work/region2.bin"
check "a later boot with a new region logs it" \
	"$(printf '%s\n' 'firmware_memory 0x000000b50c68ce80' 'firmware_memory 0x000000b50c68ce81' \
		'mce 5 0xbea0000000000108' 'mce 5 0xbea0000000000108' | sort)" "$(logged)"

# An empty region (the usual case): nothing logged, nothing remembered.
rm -f "$work/state/bert-logged"
head -c 4096 /dev/zero >"$work/empty.bin"
before=$(logged)
run "$work/empty.bin"
if [ $? = 0 ] && [ "$(logged)" = "$before" ] && [ ! -e "$work/state/bert-logged" ]; then
	ok "an empty region logs nothing and leaves no marker"
else
	not_ok "an empty region logs nothing and leaves no marker" "$(ls -l "$work/state")"
fi

# A region that cannot be read is reported, not fatal.
"$mcelogd" --replay /dev/null --bert "$work/missing" --state-directory "$work/state" 2>"$work/err2"
if [ $? = 0 ] && grep -q "missing" "$work/err2"; then ok "an unreadable region is reported and is not fatal"
else not_ok "an unreadable region is reported and is not fatal" "$(cat "$work/err2")"; fi

[ $failed = 0 ] || { echo "# stderr:"; sed "s/^/# /" "$work/err"; false; }
