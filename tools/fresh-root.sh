#!/bin/bash
# Runs a command in a fresh Debian root holding this checkout, as a new
# machine would run it: what the project's own files do not install is not
# there.  CI (.ci/run) runs the README's commands this way.
#
#   tools/fresh-root.sh [--keep] [--release bookworm|trixie]
#                       [--prepare SHELL-COMMAND] [--hold FILE] COMMAND [ARG...]
#   e.g. tools/fresh-root.sh tools/run-tests.sh
#        tools/fresh-root.sh --release trixie tools/run-tests.sh
#
# 1. mmdebstrap --mode=root --variant=minbase RELEASE (default bookworm,
#    Debian 12; 12 and 13 are taken for bookworm and trixie): the essential
#    and required packages plus apt, nothing else, from this host's Debian
#    sources (and its apt settings for proxies and Release dates, if any).
#    Where no host sources file names RELEASE, the ones naming the host's
#    own release are used with its name replaced: the same mirrors, and
#    RELEASE-updates and RELEASE-security with them.
# 2. The checkout is copied to /root/mcelogd in the root: the files git
#    tracks plus untracked ones it does not ignore; no build output.  No .git
#    either, so the speed gate's baseline source (bench/gate.sh: the commit
#    bench/gate-baseline names) goes in as a tar git makes here, in
#    /root/mcelogd-gate-baseline (MCELOGD_GATE_BASELINE_SRC in the root).
# 3. COMMAND runs there as root, chrooted, from /root/mcelogd, in its own
#    mount and PID namespaces: the root bound onto itself, /proc, /dev and
#    /sys (recursive, slave), tmpfs on /tmp and /run, a machine id of its
#    own, no booted systemd.  Its environment is PATH, HOME, CI, TERM, the
#    proxy variables and MCELOGD_* only.  Exits with COMMAND's status.
#    --prepare SHELL-COMMAND runs there first, the same way (bash -c); if it
#    fails, COMMAND does not run.  --hold FILE then waits until FILE (a path
#    on this host) exists before COMMAND starts.  CI makes its second root and
#    installs its dependencies (mostly downloads and dpkg, one core) while
#    the first root's lanes start, and runs its tests once those are done.
# 4. The root is removed afterwards, also after a failure or an interrupt.
#    Its mounts exist only in its mount namespace, which ends with it; they
#    are checked to be gone before anything is removed.
#
# Kept between runs, downloads only, never an installed tree:
#   MCELOGD_FRESH_ROOT_DEBS  the .deb files apt downloaded
#                            (default /var/cache/mcelogd-ci/apt-archives;
#                            empty: no cache).  Files unused for 30 days go.
#   MCELOGD_VM_CACHE         the VM rig's kernel and guest image
#                            (default /var/cache/mcelogd-vm), bound onto
#                            /var/cache/mcelogd-vm in the root.
#   MCELOGD_GATE_CACHE       and one exception, built: the speed gate's
#                            baseline programs and journal (bench/gate.sh),
#                            keyed by the baseline commit and the toolchain,
#                            so the same every time (default
#                            /var/cache/mcelogd-gate), bound onto
#                            /var/cache/mcelogd-gate in the root.
# Other environment:
#   MCELOGD_FRESH_ROOT_DIR   where the root is made (default /var/tmp)
#   MCELOGD_FRESH_ROOT_TIMES a file to append "PHASE SECONDS" lines to
#   --keep, MCELOGD_FRESH_ROOT_KEEP=1: keep the root (unmounted) to look at.
#   The times file gets "prepare N" and "held N" lines for --prepare and
#   --hold; COMMAND's own line does not count them.
#   --release, MCELOGD_FRESH_ROOT_RELEASE: the Debian release of the root.
set -uo pipefail
self=$(realpath "$0")
top=$(cd "$(dirname "$self")/.." && pwd)
suite=bookworm
say() { echo "fresh-root: $*"; }
die() { echo "fresh-root: $*" >&2; exit 1; }

# sync_debs FROM TO: every .deb in FROM that TO lacks, hard-linked (or
# copied) into TO; those TO has already are marked used (mtime) for pruning.
sync_debs() {
	local f to
	[ -d "$1" ] && [ -d "$2" ] || return 0
	for f in "$1"/*.deb; do
		[ -f "$f" ] || continue
		to=$2/${f##*/}
		if [ -e "$to" ]; then touch -c "$to"; continue; fi
		ln "$f" "$to" 2>/dev/null || { cp "$f" "$to.tmp.$$" && mv "$to.tmp.$$" "$to"; } || rm -f "$to.tmp.$$"
	done
	return 0
}
# mmdebstrap hooks call back here.
if [ "${1:-}" = --sync-debs ]; then sync_debs "$2" "$3"; exit 0; fi

keep=${MCELOGD_FRESH_ROOT_KEEP:-}
suite=${MCELOGD_FRESH_ROOT_RELEASE:-$suite}
prepare= hold=
while :; do
	case ${1:-} in
	--keep) keep=1; shift ;;
	--prepare) [ $# -ge 2 ] || die "--prepare needs a command"; prepare=$2; shift 2 ;;
	--hold) [ $# -ge 2 ] || die "--hold needs a file name"; hold=$(realpath -m "$2"); shift 2 ;;
	--release) [ $# -ge 2 ] || die "--release needs a release name"; suite=$2; shift 2 ;;
	--release=*) suite=${1#--release=}; shift ;;
	*) break ;;
	esac
done
case $suite in
12) suite=bookworm ;;
13) suite=trixie ;;
bookworm|trixie) ;;
*) die "unknown release '$suite' (bookworm or trixie)" ;;
esac
case ${1:-} in ''|-h|--help) sed -n '2,/^[^#]/{/^#/p}' "$self"; [ $# -gt 0 ]; exit ;; esac
[ "$(id -u)" = 0 ] || die "needs root (mmdebstrap --mode=root, chroot, mounts)"

if ! command -v mmdebstrap >/dev/null; then
	say "installing mmdebstrap on this host"
	export DEBIAN_FRONTEND=noninteractive
	{ apt-get update -qq && apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null; } ||
		die "cannot install mmdebstrap"
fi

# The host's Debian sources that name the suite (or, for another release
# than the host's, the host's renamed: tools/lib/release-sources.sh), and
# its apt settings that say how to reach them (proxies; a mirror's Release dates).
. "$top/tools/lib/release-sources.sh"
renamed=$(mktemp -d /tmp/mcelogd-sources.XXXXXX) || die "cannot create a temporary directory"
mapfile -t sources < <(release_sources "$suite" "$renamed")
aptopts=()
host_suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
case ${sources[0]:-} in "$renamed"/*) say "$suite from this host's $host_suite sources, renamed" ;; esac
[ ${#sources[@]} -gt 0 ] || say "no apt sources file here names $suite: mmdebstrap picks its default mirror"
for f in /etc/apt/apt.conf /etc/apt/apt.conf.d/*; do
	[ -f "$f" ] && grep -qiE '^[^#/]*Acquire::([a-z]+::Proxy|Check-Valid-Until|Check-Date)' "$f" && aptopts+=("--aptopt=$f")
done

debs=${MCELOGD_FRESH_ROOT_DEBS-/var/cache/mcelogd-ci/apt-archives}
vmcache=${MCELOGD_VM_CACHE:-/var/cache/mcelogd-vm}
gatecache=${MCELOGD_GATE_CACHE:-/var/cache/mcelogd-gate}
[ -z "$debs" ] || mkdir -p "$debs" || die "cannot create $debs"
mkdir -p "$vmcache" "$gatecache" || die "cannot create $vmcache or $gatecache"
base=${MCELOGD_FRESH_ROOT_DIR:-/var/tmp}
mkdir -p "$base" && root=$(mktemp -d "$base/mcelogd-root.XXXXXX") || die "cannot create a directory in $base"
root=$(realpath "$root")
times=${MCELOGD_FRESH_ROOT_TIMES:-/dev/null}

# in_namespaces CMD...: CMD in new mount and PID namespaces, so that nothing
# it mounts or starts outlives it: unshare --kill-child takes the namespace's
# init with it, and the kernel every other process in the namespace.  Run in
# the background, so that a signal reaches our trap at once; without job
# control that would make CMD ignore SIGINT and SIGQUIT: they are restored.
ns_child=
exec 3<&0
in_namespaces() {
	local rc
	( trap - INT QUIT; exec unshare --mount --propagation private --pid --fork --kill-child "$@" <&3 3<&- ) &
	ns_child=$!
	wait "$ns_child"
	rc=$?
	ns_child=
	return $rc
}
# stop_namespace: after an interrupt, SIGTERM to every process in the PID
# namespace of the running in_namespaces (by pid; unshare --fork itself
# ignores SIGTERM), 10 s to finish, then SIGKILL to unshare.
stop_namespace() {
	local init ns p
	[ -n "$ns_child" ] && kill -0 "$ns_child" 2>/dev/null || return 0
	read -r init _ <"/proc/$ns_child/task/$ns_child/children" 2>/dev/null
	ns=$(readlink "/proc/${init:-none}/ns/pid" 2>/dev/null)
	if [ -n "$ns" ]; then
		for p in /proc/[0-9]*; do
			[ "$(readlink "$p/ns/pid" 2>/dev/null)" = "$ns" ] && kill -TERM "${p#/proc/}" 2>/dev/null
		done
	fi
	for _ in $(seq 50); do kill -0 "$ns_child" 2>/dev/null || break; sleep 0.2; done
	kill -KILL "$ns_child" 2>/dev/null
	wait "$ns_child" 2>/dev/null
	ns_child=
}

mounted() { awk -v r="$root" '$2 == r || index($2, r "/") == 1 { print $2 }' /proc/self/mounts; }
cleanup() {
	local rc=$? m
	trap - EXIT INT TERM HUP
	stop_namespace
	[ -z "$renamed" ] || rm -rf "$renamed"
	[ -z "$debs" ] || sync_debs "$root/var/cache/apt/archives" "$debs"
	[ -z "$debs" ] || find "$debs" -maxdepth 1 -name '*.deb' -mtime +30 -delete 2>/dev/null
	m=$(mounted)
	if [ -n "$m" ]; then # never expected: everything was mounted in a private namespace
		say "unmounting what is still mounted under $root:"$'\n'"$m"
		umount -R "$root" 2>/dev/null || umount -R -l "$root" 2>/dev/null
		m=$(mounted)
	fi
	if [ -n "$m" ]; then
		echo "fresh-root: still mounted under $root, NOT removed:"$'\n'"$m" >&2
		[ "$rc" != 0 ] || rc=1
	elif [ -n "$keep" ]; then
		say "root kept: $root"
	else
		rm -rf --one-file-system "$root"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# ----------------------------------------------------------- 1. mmdebstrap
say "mmdebstrap --mode=root --variant=minbase $suite $root ${sources[*]}"
t0=$(date +%s)
hooks=()
if [ -n "$debs" ]; then # downloads only: the root is installed anew every time
	hooks=(--skip=essential/unlink
		--setup-hook="mkdir -p \"\$1/var/cache/apt/archives\" && bash '$self' --sync-debs '$debs' \"\$1/var/cache/apt/archives\""
		--customize-hook="bash '$self' --sync-debs \"\$1/var/cache/apt/archives\" '$debs'")
fi
in_namespaces --mount-proc mmdebstrap --quiet --mode=root --variant=minbase "${aptopts[@]}" "${hooks[@]}" \
	"$suite" "$root" "${sources[@]}" || die "mmdebstrap failed"
t=$(( $(date +%s) - t0 ))
say "mmdebstrap: ${t}s ($(du -sh --one-file-system "$root" | cut -f1), $(chroot "$root" dpkg-query -W | wc -l) packages)"
echo "mmdebstrap $t" >>"$times"

# ------------------------------------------------------ 2. the checkout
src=/root/mcelogd
mkdir -p "$root$src" || die "cannot create $root$src"
if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	# Tracked files that were deleted in the work tree are left out.
	git -C "$top" ls-files -z --cached --others --exclude-standard --deduplicate |
		(cd "$top" && while IFS= read -r -d '' f; do [ -e "$f" ] || [ -L "$f" ] && printf '%s\0' "$f"; done) |
		tar -C "$top" --null -T - -cf - | tar -C "$root$src" -xf - || die "cannot copy the checkout"
else
	say "$top is not a git checkout: copying all of it but _build/"
	tar -C "$top" --exclude=./_build -cf - . | tar -C "$root$src" -xf - || die "cannot copy $top"
fi
say "copied $(find "$root$src" -type f | wc -l) files of $top to $src"
gate_src=/root/mcelogd-gate-baseline
gate_commit=$(sed -e 's/#.*//' "$top/bench/gate-baseline" 2>/dev/null | awk 'NF { print $1; exit }')
if [ -n "$gate_commit" ] && git -C "$top" cat-file -e "$gate_commit^{commit}" 2>/dev/null; then
	mkdir -p "$root$gate_src" && git -C "$top" archive --format=tar -o "$root$gate_src/$gate_commit.tar" "$gate_commit" ||
		die "cannot write the speed gate's baseline source"
	say "the speed gate's baseline source: git archive $gate_commit to $gate_src"
else
	say "no speed gate baseline source: bench/gate-baseline's commit ${gate_commit:-(none)} is not in $top's git"
fi

# What a booted machine has and a fresh root lacks.
tr -d - </proc/sys/kernel/random/uuid >"$root/etc/machine-id"
[ -s "$root/etc/resolv.conf" ] || cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
mkdir -p "$root/var/cache/mcelogd-vm" "$root/var/cache/mcelogd-gate"

# ------------------------------------------------------- 3. the command
# PID 1 of the namespaces: mounts (gone with the namespace), then COMMAND.
init='
root=$1; shift
set -e
mount --bind "$root" "$root"
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev"
mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys"
mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
mount -t tmpfs -o mode=755 tmpfs "$root/run"
mkdir -p "$root/run/lock" && chmod 1777 "$root/run/lock"
mount --bind "$FRESH_ROOT_VMCACHE" "$root/var/cache/mcelogd-vm"
mount --bind "$FRESH_ROOT_GATECACHE" "$root/var/cache/mcelogd-gate"
unset FRESH_ROOT_VMCACHE FRESH_ROOT_GATECACHE
set +e
# --prepare, then --hold (outside the chroot: FILE is a host path).
# Their times go to a file in the root, outside /root/mcelogd,
# which the host reads after COMMAND.
prepare=$FRESH_ROOT_PREPARE hold=$FRESH_ROOT_HOLD times=$root/.fresh-root-times
unset FRESH_ROOT_PREPARE FRESH_ROOT_HOLD
if [ -n "$prepare" ]; then
	t0=$(date +%s)
	chroot "$root" /bin/bash -c "cd /root/mcelogd && $prepare"
	rc=$?
	echo "prepare $(( $(date +%s) - t0 ))" >>"$times"
	[ $rc = 0 ] || { echo "fresh-root: --prepare failed (exit status $rc): not running $1"; exit $rc; }
fi
if [ -n "$hold" ]; then
	t0=$(date +%s)
	echo "fresh-root: holding until $hold exists"
	while [ ! -e "$hold" ]; do sleep 1; done
	echo "held $(( $(date +%s) - t0 ))" >>"$times"
	echo "fresh-root: $hold is there after $(( $(date +%s) - t0 ))s: running $1"
fi
# Not exec: bash stays PID 1 (reaping orphans); COMMAND runs as a child.
chroot "$root" /bin/bash -c "cd /root/mcelogd && exec \"\$@\"" fresh-root "$@"
exit $?
'
envs=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root FRESH_ROOT_VMCACHE="$vmcache"
	FRESH_ROOT_GATECACHE="$gatecache" MCELOGD_GATE_CACHE=/var/cache/mcelogd-gate MCELOGD_GATE_BASELINE_SRC=$gate_src
	FRESH_ROOT_PREPARE="$prepare" FRESH_ROOT_HOLD="$hold")
while IFS= read -r v; do
	case $v in CI|TERM|http_proxy|https_proxy|no_proxy|HTTP_PROXY|HTTPS_PROXY|NO_PROXY|MCELOGD_*)
		case $v in MCELOGD_FRESH_ROOT_*|MCELOGD_VM_CACHE|MCELOGD_GATE_*) ;; *) envs+=("$v=${!v}") ;; esac ;;
	esac
done < <(compgen -e)
say "running in the root: ${prepare:+$prepare, then }${hold:+(after $hold) }$*"
t0=$(date +%s)
in_namespaces env -i "${envs[@]}" /bin/bash -c "$init" fresh-root-init "$root" "$@"
rc=$?
t=$(( $(date +%s) - t0 ))
# COMMAND's own time: without --prepare's and --hold's, which init wrote down.
if [ -f "$root/.fresh-root-times" ]; then
	cat "$root/.fresh-root-times" >>"$times"
	t=$(( t - $(awk '{ n += $2 } END { print n + 0 }' "$root/.fresh-root-times") ))
fi
say "$1: exit status $rc after ${t}s"
echo "$(basename "$1") $t" >>"$times"
exit "$rc"
