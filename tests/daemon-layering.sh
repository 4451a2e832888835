#!/bin/bash
# The daemon's shape holds (TAP): its files include each other in no circle,
# and sources and sinks meet the core only through source.h and sink.h,
# never through the manager's internals or each other.
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$srcdir/mcelogd" || { echo "Bail out! no mcelogd/ in $srcdir"; exit 1; }
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; failed=1; }
echo "1..4"

# Every "file -> header" edge among the daemon's own files, for tsort.
files=$(find . -name '*.[ch]' | sed 's|^\./||' | sort)
# (One awk over them all: a process per include line made this test take
# seconds.)
# shellcheck disable=SC2086
edges=$(awk -v files="$files" '
	BEGIN { n = split(files, f, "\n"); for (i = 1; i <= n; i++) { sub(".*/", "", f[i]); sub("[.][ch]$", "", f[i]); known[f[i]] = 1 } }
	FNR == 1 { from = FILENAME; sub(".*/", "", from); sub("[.][ch]$", "", from) }
	/^#include "[^"]*[.]h"/ { to = $0; sub("^#include \"", "", to); sub("[.]h\".*", "", to)
		if (to != from && (to in known)) print from " " to }' $files)
[ -n "$edges" ] && ok "the daemon's include graph was read ($(wc -l <<<"$edges") edges)" ||
	not_ok "the daemon's include graph was read"
if loop=$(tsort <<<"$edges" 2>&1 >/dev/null) && [ -z "$loop" ]; then
	ok "no circle of includes among the daemon's files"
else
	not_ok "no circle of includes among the daemon's files"
	sed 's/^/# /' <<<"$loop"
fi

bad=$(grep -l '#include "\(manager\|storm-stage\|status-json\|control\)\.h"' sources/*.[ch] sinks/*.[ch] 2>/dev/null)
[ -z "$bad" ] && ok "sources and sinks do not include the core's internals" ||
	{ not_ok "sources and sinks do not include the core's internals"; sed 's/^/# /' <<<"$bad"; }

# One source or sink never names another: each is reached through its ops table only.
bad=$(grep -n '[a-z_]*_source_ops\|[a-z_]*_sink_ops' sources/*.c sinks/*.c |
	grep -v '^sources/sources\.c\|^sinks/sinks\.c' |
	awk -F: '{ f=$1; sub(".*/", "", f); sub("\\.c$", "", f); gsub("-", "_", f);
		   if ($0 !~ "const struct (source|sink)_ops " f "_(source|sink)_ops =") print }')
[ -z "$bad" ] && ok "no source or sink names another's ops table" ||
	{ not_ok "no source or sink names another's ops table"; sed 's/^/# /' <<<"$bad"; }
exit $failed
