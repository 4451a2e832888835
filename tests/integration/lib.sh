# Sourced by the integration tests: TAP output, and a real journald of their
# own in a private mount namespace (its sockets and storage on tmpfs, so a
# test touches nothing of the host's journal).

# Where things are, unless the test set them: the tree, the build, the programs.
: "${builddir:=${top_builddir:-$(pwd)}}"
: "${srcdir:=${top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}}"
: "${data:=$srcdir/tests/integration/data}"
: "${mcelogd:=$builddir/mcelogd/mcelogd}"
: "${mcectl:=$builddir/mcectl/mcectl}"

# make check-valgrind: the daemon runs under memcheck (valgrind-mcelogd.sh).
if [ -n "${MCELOGD_VALGRIND:-}" ] && [ -n "${mcelogd:-}" ]; then
	export MCELOGD_VALGRIND MCELOGD_VALGRIND_TARGET=$mcelogd
	mcelogd=${top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}/tests/integration/valgrind-mcelogd.sh
fi

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
check() { # check DESCRIPTION EXPECTED ACTUAL
	if [ "$2" == "$3" ]; then ok "$1"; else not_ok "$1" "expected: $2" "actual:   $3"; fi
}

# enter_journal_namespace SCRIPT ARGS...: skips the whole test unless root,
# unshare, jq and systemd-journald are there; then runs SCRIPT again in a
# private mount namespace (once), and a private UTS namespace too with
# MCELOGD_NS_UTS=1 (a test that sets its own host name), a private network
# namespace with MCELOGD_NS_NET=1 (a test that sets net.* sysctls).
enter_journal_namespace() {
	if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null || [ ! -x /lib/systemd/systemd-journald ] ||
	   ! command -v jq >/dev/null; then
		echo "1..0 # SKIP needs root, unshare, jq and systemd-journald"
		exit 0
	fi
	if [ -z "${MCELOGD_IN_NAMESPACE:-}" ]; then
		MCELOGD_IN_NAMESPACE=1 exec unshare -m ${MCELOGD_NS_UTS:+-u} ${MCELOGD_NS_NET:+-n} --propagation private "$BASH" "$@"
	fi
}

# start_private_journald WORKDIR: journald with its sockets in
# /run/systemd/journal and storage in /run/log/journal, both on tmpfs; sets
# journald_pid (the caller's cleanup kills it).  Skips the test if it does not start.
start_private_journald() {
	mount -t tmpfs tmpfs /run/systemd
	mkdir -p /run/log && mount -t tmpfs tmpfs /run/log
	mount -t tmpfs tmpfs /var/log
	mkdir -p /run/systemd/journal
	/lib/systemd/systemd-journald >"$1/journald.log" 2>&1 &
	journald_pid=$!
	for _ in $(seq 100); do [ -S /run/systemd/journal/socket ] && break; sleep 0.05; done
	if [ ! -S /run/systemd/journal/socket ]; then
		echo "1..0 # SKIP systemd-journald did not start: $(cat "$1/journald.log")"
		exit 0
	fi
}

# use_dev_mcelog_shim: sets shim, the LD_PRELOAD library that plays /dev/mcelog
# (fake-dev-mcelog.c); skips the whole test on a machine with a real one.
use_dev_mcelog_shim() {
	shim=$builddir/tests/integration/fake-dev-mcelog.so
	if [ -e /dev/mcelog ]; then
		echo "1..0 # SKIP needs a machine without a real /dev/mcelog"
		exit 0
	fi
}

# dev_mcelog_record TSC TIME: the 88-byte record of data/dev-mcelog-88.bin on
# stdout, its TSC (offset 40) and wall time in seconds (offset 48) replaced.
dev_mcelog_record() {
	head -c 40 "$data/dev-mcelog-88.bin"
	le64 "$1"
	le64 "$2"
	head -c 88 "$data/dev-mcelog-88.bin" | tail -c +57
}
# le64 N: N's 8 bytes, little-endian (printf in the shell: no interpreter
# started per record).
le64() {
	local v=$1 b=0 out=
	for ((b = 0; b < 8; b++)); do
		printf -v out '%s\\x%02x' "$out" $(((v >> (8 * b)) & 255))
	done
	printf %b "$out"
}

# next_second: waits until the clock's second turns over; sets left_second
# to the second it left (records before the call are dated at or before it).
next_second() {
	left_second=$(date +%s)
	while [ "$(date +%s)" = "$left_second" ]; do sleep 0.05; done
}

# wait_for SECONDS COMMAND...: until the command succeeds.
wait_for() {
	local n=$(($1 * 10))
	shift
	for _ in $(seq "$n"); do "$@" && return 0; sleep 0.1; done
	return 1
}
# uevent_port PID: the netlink port of the daemon's uevent socket (protocol 15),
# found by its inode among PID's descriptors in /proc/net/netlink; empty if none.
uevent_port() {
	local inodes
	inodes=$(ls -l /proc/"$1"/fd 2>/dev/null | sed -n 's/.*socket:\[\([0-9]*\)\]$/\1/p' | paste -sd'|' -)
	awk -v re="^(${inodes:-none})\$" '$2 == 15 && $NF ~ re { print $3; exit }' /proc/net/netlink
}
# A TCP port nothing listens on (from /proc/net/tcp).
free_port() {
	local p
	for _ in $(seq 100); do
		p=$((20000 + RANDOM % 30000))
		grep -qi ":$(printf '%04X' "$p") " /proc/net/tcp /proc/net/tcp6 2>/dev/null || break
	done
	echo "$p"
}

# need_tools TOOL...: skips the whole test, naming what is missing.
need_tools() {
	local tool
	for tool in "$@"; do
		if ! command -v "$tool" >/dev/null; then
			echo "1..0 # SKIP needs $tool (tools/install-deps.sh installs it)"
			exit 0
		fi
	done
}

# The test's own processes (started with `started $!`), its journald and its
# work directory go at exit: call use_workdir once, after entering the namespace.
pids=
started() { pids="$pids $1"; }
stop_started() {
	local p
	for p in $pids; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	pids=
}
use_workdir() {
	work=$(mktemp -d)
	trap 'stop_started; [ -n "${journald_pid:-}" ] && kill "$journald_pid" 2>/dev/null && wait "$journald_pid" 2>/dev/null; rm -rf "$work"' EXIT
}

# forge_entries N: N journal entries with the fields on stdin (FIELD=VALUE, a
# line each), sent the way anyone can: as the user nobody, by a program named
# mcelogd (journal-send.c, copied: journald's _COMM is the name of the
# program; its _UID=65534 entries go from a child that is nobody).  The
# fields journald sets (_UID=65534) are the only difference from mcelogd's
# own.  Returns once journald has them (the root parent's journalctl --sync,
# the sender still alive, so that journald still finds its name).  Call after
# use_workdir.
forge_entries() {
	local fields k sender
	sender=$(mcelogd_sender) || return 1
	fields=$(cat)
	for ((k = 0; k < $1; k++)); do printf '_UID=65534\n%s\n\n' "$fields"; done | "$sender"
}
# mcelogd_sender: the path of journal-send.c's program copied under the name
# mcelogd (journald's _COMM is the program's name), made once per work
# directory; for forge_entries and summary-entries.sh.  Call after use_workdir.
mcelogd_sender() {
	local dir=$work/sender
	[ -x "$dir/mcelogd" ] || { mkdir -p "$dir" && cp "$builddir/tests/integration/journal-send" "$dir/mcelogd" &&
		chmod a+rx "$work" "$dir" "$dir/mcelogd"; } || return 1
	echo "$dir/mcelogd"
}
