#!/bin/bash
# The shipped config/mcelogd.conf lists every key of mcelogd.conf(5), in its
# section, commented out at its default, as systemd's own files do; and with
# every one of them uncommented it is still a valid file.  TAP.
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${top_builddir:-$srcdir}
conf=$srcdir/config/mcelogd.conf
man=$srcdir/man/mcelogd.conf.5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "1..2"
# Section.Key as the man page documents them (".SH [Section]", then ".B Key=").
documented=$(awk '/^\.SH \[/ { s = substr($2, 2, length($2) - 2) }
	/^\.SH [^[]/ { s = "" }
	s != "" && /^\.B [A-Za-z]+=$/ { k = $2; sub(/=$/, "", k); print s "." k }' "$man" | sort -u)
shipped=$(awk '/^\[/ { s = substr($1, 2, length($1) - 2) }
	/^#[A-Za-z]+=/ { k = substr($0, 2); sub(/=.*/, "", k); print s "." k }' "$conf" | sort -u)
if [ -n "$documented" ] && [ "$documented" == "$shipped" ]; then
	echo "ok 1 - every documented key is in the shipped file ($(wc -l <<<"$shipped") keys)"
else
	echo "not ok 1 - every documented key is in the shipped file"
	diff <(echo "$documented") <(echo "$shipped") | sed 's/^/#   /'
	failed=1
fi
sed 's/^#\([A-Za-z]*=\)/\1/' "$conf" >"$work/all.conf"
if out=$("$builddir/mcelogd/mcelogd" --config "$work/all.conf" --test-config 2>&1); then
	echo "ok 2 - with every key uncommented it is a valid file"
else
	echo "not ok 2 - with every key uncommented it is a valid file"
	sed 's/^/#   /' <<<"$out"
	failed=1
fi
exit ${failed:-0}
