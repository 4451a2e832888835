#!/bin/bash
# The shipped drop-ins (config/drop-ins/, mcelogd(8) SANDBOX) parse as
# systemd reads them over the shipped unit: systemd-analyze verify names no
# line of theirs (an unknown key or a bad value is ignored by systemd with
# only a log line, so a typo would silently grant nothing).  TAP.
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${top_builddir:-$srcdir}
unit=$builddir/config/mcelogd.service
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; failed=1; shift; for l in "$@"; do echo "#   $l"; done; }
if ! command -v systemd-analyze >/dev/null || [ ! -f "$unit" ]; then
	echo "1..0 # SKIP no systemd-analyze or no generated unit"
	exit 0
fi
dropins=$(ls "$srcdir"/config/drop-ins/*.conf)
echo "1..$(($(wc -w <<<"$dropins") + 1))"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/units/mcelogd.service.d"
cp "$unit" "$work/units/"
for d in $dropins; do
	name=$(basename "$d")
	rm -f "$work"/units/mcelogd.service.d/*
	cp "$d" "$work/units/mcelogd.service.d/"
	out=$(SYSTEMD_UNIT_PATH="$work/units:" systemd-analyze verify "$work/units/mcelogd.service" 2>&1)
	if grep -q "mcelogd.service.d/$name" <<<"$out"; then
		not_ok "$name parses over the shipped unit" "$(grep "$name" <<<"$out")"
	else
		ok "$name parses over the shipped unit"
	fi
done
# trigger-network.conf replaces the unit's address families with a list that keeps its own.
last=$(grep '^RestrictAddressFamilies=.' "$srcdir/config/drop-ins/trigger-network.conf" | tail -1)
unit_list=$(sed -n 's/^RestrictAddressFamilies=//p' "$unit")
missing=$(for f in $unit_list AF_INET AF_INET6; do grep -qw "$f" <<<"$last" || echo "$f"; done)
if [ -z "$missing" ]; then
	ok "trigger-network.conf keeps the unit's families and adds AF_INET, AF_INET6"
else
	not_ok "trigger-network.conf keeps the unit's families and adds AF_INET, AF_INET6" "missing: $missing"
fi
exit $failed
