#!/bin/bash
# Every MESSAGE_ID mcelogd uses has a journal catalog entry, and the catalog
# compiles with journalctl itself (TAP).
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
ids=$(sed -n 's/^#define MCELOGD_MSGID_[A-Z0-9_]* *"\([0-9a-f]\{32\}\)".*/\1/p' "$srcdir/lib/message-ids.h")
catalog=$srcdir/config/mcelogd.catalog
n=0 failed=0
echo "1..$(( $(wc -w <<<"$ids") + 1 ))"
for id in $ids; do
	n=$((n + 1))
	if grep -q "^-- $id\$" "$catalog"; then echo "ok $n - catalog entry for $id"
	else echo "not ok $n - catalog entry for $id"; failed=1; fi
done
n=$((n + 1))
root=$(mktemp -d)
mkdir -p "$root/usr/lib/systemd/catalog" "$root/var/lib/systemd/catalog"
cp "$catalog" "$root/usr/lib/systemd/catalog/"
if ! command -v journalctl >/dev/null; then echo "ok $n # SKIP no journalctl"
elif journalctl --root="$root" --update-catalog 2>/dev/null &&
     [ "$(journalctl --root="$root" --list-catalog 2>/dev/null | grep -c 'mcelogd:')" = "$(wc -w <<<"$ids")" ]; then
	echo "ok $n - journalctl compiles the catalog with every entry"
else echo "not ok $n - journalctl compiles the catalog with every entry"; failed=1; fi
rm -rf "$root"
exit $failed
