#!/bin/bash
# The control socket's directory, made by the shipped tmpfiles.d entry on a
# system that starts mcelogd without its unit, lets a SocketGroup= member
# reach the socket: the directory is searchable by others, as the unit's
# RuntimeDirectory= (0755) makes it, and the socket's own 0660 root:GROUP is
# what keeps everyone else out (mcelogd.conf(5) SocketGroup=).  TAP.
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
if ! command -v systemd-tmpfiles >/dev/null; then
	echo "1..0 # SKIP no systemd-tmpfiles"
	exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "1..2"
out=$(systemd-tmpfiles --create --root="$work" "$srcdir/config/mcelogd.tmpfiles" 2>&1)
mode=$(stat -c %a "$work/run/mcelogd" 2>/dev/null)
if [ "$mode" == 755 ]; then
	echo "ok 1 - tmpfiles makes /run/mcelogd 0755, as RuntimeDirectory= does"
else
	echo "not ok 1 - tmpfiles makes /run/mcelogd 0755, as RuntimeDirectory= does"
	echo "#   mode: ${mode:-none} $out"
	failed=1
fi
# The unit must not narrow it either, or the two ways of starting would disagree.
if grep -q '^RuntimeDirectoryMode=' "$srcdir/config/mcelogd.service.in"; then
	echo "not ok 2 - the unit keeps RuntimeDirectory='s default mode"
	failed=1
else
	echo "ok 2 - the unit keeps RuntimeDirectory='s default mode"
fi
exit ${failed:-0}
