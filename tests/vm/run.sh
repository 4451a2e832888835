#!/bin/bash
# mcelogd real-kernel test rig: Debian's kernel under QEMU (TCG), systemd as
# PID 1 with a real journald, mcelogd installed from its Debian package
# (--deb; make check-vm's way) or a `make install DESTDIR=` tree (--destdir)
# and started by systemd from the shipped unit; machine checks injected
# through the QEMU monitor and the kernel's mce-inject; results read back with
# mcectl inside the guest.  Prints TAP.
#
#   run.sh --destdir DIR | --deb FILE  [--srcdir DIR] [SCENARIO...]
#
# DIR is a `make install DESTDIR=DIR` tree; it is copied into the guest at /.
# FILE is the mcelogd .deb (tools/build-deb.sh): each boot installs it with
# dpkg -i, so the package's maintainer scripts enable and start the unit.
# With VM_ARCH=arm64 (tests/vm/arch.sh) the guest is an aarch64 one, which
# installs mcelogd from the arm64 package FILE (both options given: DIR's
# mcectl then only decodes on the host).
# SCENARIO defaults to every tests/vm/scenarios/*.sh (tests/vm/arm64/*.sh
# with VM_ARCH=arm64); each scenario file says
# how the guest is booted (VM_* variables) and what to check (scenario()).
# The guest is booted once per distinct boot configuration and runs every
# scenario of that configuration in file-name order.
#
# Environment:
#   MCELOGD_VM_CACHE    cache of downloads and guest images
#                       (default /var/cache/mcelogd-vm)
#   MCELOGD_VM_KEEP=1   keep the work directory (console logs, initrd)
#   MCELOGD_VM_TIMEOUT  hard limit for one guest boot in seconds (default 1800,
#                       and 30 s more per vCPU)
#   MCELOGD_VM_PREPARE_ONLY=1  fetch and build what the boots need, boot nothing
#   VM_ARCH             amd64 (default) or arm64: tests/vm/arch.sh
#   VM_RELEASE          the guest's Debian release (default the host's; trixie
#                       needs --deb, and runs tests/vm/trixie/*.sh)
#
# See tests/vm/README.md for the scenario API.

set -uo pipefail
RIG_IMAGE_VERSION=3            # bump when the image recipe below changes
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
destdir= deb=
scenarios=()
while [ $# -gt 0 ]; do
	case $1 in
	--destdir) destdir=$2; shift 2 ;;
	--deb) deb=$2; shift 2 ;;
	--srcdir) srcdir=$2; shift 2 ;;
	-h|--help) sed -n '2,34p' "$0"; exit 0 ;;
	*) scenarios+=("$1"); shift ;;
	esac
done
# The guest architecture's settings (VM_ARCH).
. "$here/arch.sh"
# VM_RELEASE: the guest's Debian release (default the host's).  Another one
# (trixie on this Debian 12 host) needs --deb, mcelogd's package built for
# that release (tools/fresh-root.sh --release R tools/build-deb.sh), whose
# Depends give the guest its libraries; its cache entries carry the
# release's name (image-trixie-KEY), and its scenarios are tests/vm/RELEASE.
host_suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
suite=${VM_RELEASE:-$host_suite}
release_prefix=
if [ "$suite" != "$host_suite" ]; then
	[ -d "$here/$suite" ] || { echo "Bail out! VM_RELEASE=$suite: no tests/vm/$suite"; exit 1; }
	release_prefix=$suite-
	arch_scenarios=$here/$suite
fi
# release_owns NAME: whether a cache entry (image-*, tmp-*) is this release's:
# an entry of another release carries that release's name after the
# architecture's prefix, a host release's entry none.
release_owns() {
	local n=${1##*/}
	n=${n#*-} n=${n#"$arch_cache_prefix"}
	if [ -n "$release_prefix" ]; then [[ $n == "$release_prefix"* ]]; else ! [[ $n =~ ^[a-z]+- ]]; fi
}
[ ${#scenarios[@]} -gt 0 ] || scenarios=("$arch_scenarios"/*.sh)
for i in "${!scenarios[@]}"; do # a bare name means tests/vm/scenarios/NAME.sh (or arm64/)
	f=${scenarios[i]}
	[ -f "$f" ] || f=$arch_scenarios/${f%.sh}.sh
	[ -f "$f" ] || { echo "Bail out! no scenario ${scenarios[i]}"; exit 1; }
	scenarios[i]=$f
done
cache=${MCELOGD_VM_CACHE:-/var/cache/mcelogd-vm}
vm_timeout=${MCELOGD_VM_TIMEOUT:-1800}
t_start=$(date +%s)

# ---------------------------------------------------------------- TAP output
tap_n=0 tap_failed=0 group_failed=0
ok()     { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
not_ok() { tap_n=$((tap_n + 1)); echo "not ok $tap_n - $*"; tap_failed=$((tap_failed + 1)); group_failed=1; }
skip()   { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP ${2:-}"; }
todo()   { tap_n=$((tap_n + 1)); echo "not ok $tap_n - $1 # TODO ${2:-}"; }
diag()   { sed -e 's/^/# /'; }
note()   { echo "# $*"; }
bail()   { echo "Bail out! $*"; exit 1; }
# check DESC CMD...: ok if CMD succeeds; its output becomes a diagnostic on failure.
check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then ok "$desc"; else not_ok "$desc"; printf '%s\n' "$out" | tail -n 40 | diag; fi
}
# is GOT WANT DESC
is() {
	if [ "$1" = "$2" ]; then ok "$3"; else not_ok "$3"; printf 'got:  %s\nwant: %s\n' "$1" "$2" | diag; fi
}

[ "$(id -u)" = 0 ] || bail "the VM rig needs root (apt-get, mmdebstrap, chroot)"

# ------------------------------------------------------------ host packages
# kmod, xz-utils: depmod and unpacking the guest kernels' modules (kernels.sh).
host_packages="qemu-system-x86 socat mmdebstrap cpio jq kmod xz-utils $arch_host_packages"
need_pkgs() {
	local p missing=
	for p in $host_packages; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
	done
	echo "$missing"
}
apt_updated=
apt_update() { [ -n "$apt_updated" ] || { apt-get update -qq >&2 && apt_updated=1; }; }
missing=$(need_pkgs)
if [ -n "$missing" ]; then
	note "installing host packages:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt_update || bail "apt-get update failed"
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null || bail "cannot install$missing"
fi
# The arm64 guest root: mmdebstrap --arch=arm64 runs its maintainer scripts
# through binfmt_misc, which a machine without systemd as PID 1 has not mounted.
if [ "$vm_arch" = arm64 ]; then
	. "$srcdir/tools/lib/binfmt-aarch64.sh"
	binfmt_aarch64 note || bail "aarch64 programs cannot run on this host through binfmt_misc (qemu-user-static)"
fi

# ------------------------------------------------------ kernels and QEMU
# VM_KERNEL lanes (6.1, 6.12, 7.3) and QEMU 10: kernels.sh.
. "$here/kernels.sh"

# ----------------------------------------------------- the guest's packages
# Base system plus the shared libraries the installed binaries need (found
# with ldd on the host, which runs the same Debian release).
# strace: 37-crash-burst kills mcelogd at the exact point of a cursor save (strace's syscall fault injection).
# rasdaemon (and sqlite3, to count what it stored): 46-rasdaemon runs it beside mcelogd under one storm;
# it is not started in any other boot.
# ndctl: its cxl tool creates a region over 6x-cxl-events' CXL memory device.
guest_packages="systemd systemd-sysv kmod procps jq strace rasdaemon sqlite3 rsyslog ndctl"
dest_packages() {
	local f lib pkg
	for f in "$destdir"/usr/bin/* "$destdir"/usr/sbin/* "$destdir"/usr/local/bin/* "$destdir"/usr/local/sbin/* \
		"$destdir"/bin/* "$destdir"/sbin/*; do
		[ -f "$f" ] && [ -x "$f" ] || continue
		ldd "$f" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3}'
	done | sort -u | while read -r lib; do
		pkg=$(dpkg -S "$lib" 2>/dev/null || dpkg -S "$(realpath "$lib")" 2>/dev/null ||
			dpkg -S "/usr$lib" 2>/dev/null || dpkg -S "${lib#/usr}" 2>/dev/null)
		[ -n "$pkg" ] && echo "${pkg%%:*}"
	done | sort -u
}
# --deb: the package's files, unpacked on the host, stand for the tree: the
# libraries its binaries need go into the image (the same image as a tree's),
# and host_mcectl runs its mcectl.
if [ -n "$deb" ]; then
	[ -f "$deb" ] || bail "--deb $deb: no such file"
	deb=$(realpath "$deb")
fi
unpacked=
if [ -n "$deb" ] && [ -z "$destdir" ]; then
	destdir=$(mktemp -d /tmp/mcelogd-vm-deb.XXXXXX) && unpacked=$destdir &&
		dpkg-deb -x "$deb" "$destdir" || bail "cannot unpack $deb"
fi
[ -n "$destdir" ] && [ -d "$destdir" ] || bail "--destdir DIR (a make install DESTDIR= tree) or --deb FILE is required"
destdir=$(cd "$destdir" && pwd)
if [ -n "$release_prefix" ]; then
	# Peers for the release's scenarios (rasdaemon with sqlite3 for its
	# database, ndctl's cxl tool), and what the package needs.
	[ -n "$deb" ] || bail "VM_RELEASE=$suite needs --deb FILE (mcelogd's package built for $suite)"
	guest_packages="systemd systemd-sysv kmod procps jq rasdaemon sqlite3 ndctl $(arch_deb_packages "$deb" | tr '\n' ' ')"
elif [ "$vm_arch" = arm64 ]; then
	# What mcelogd itself needs comes from its package's Depends; the x86
	# scenarios' peers (rasdaemon, rsyslog, ndctl, strace) have no arm64 scenario.
	[ -n "$deb" ] && [ -f "$deb" ] || bail "VM_ARCH=arm64 needs --deb FILE (the arm64 package, tools/build-deb.sh --arch arm64)"
	[ "$(dpkg-deb -f "$deb" Architecture)" = arm64 ] || bail "$deb is not an arm64 package"
	guest_packages="systemd systemd-sysv kmod procps jq $(arch_deb_packages "$deb" | tr '\n' ' ')"
else
	guest_packages=$(printf '%s\n' $guest_packages libsystemd0 libjson-c5 libmnl0 $(dest_packages))
fi
guest_packages=$(printf '%s\n' $guest_packages | sort -u | tr '\n' ' ')
guest_packages=${guest_packages% }

# Debian sources of the host (the mirror CI can reach), for mmdebstrap; for
# another release (VM_RELEASE), the host's renamed (tools/lib/release-sources.sh).
. "$srcdir/tools/lib/release-sources.sh"
debian_sources() {
	local f
	for f in $(release_sources "$suite" "$1"); do
		grep -qE '^[^#]*(https?|file)://[^ ]*debian' "$f" && echo "$f"
	done
}

# ---------------------------------------------------------------- the image
# The run's work directory (initrd, kernel, console logs), removed at exit.
work=$(mktemp -d /tmp/mcelogd-vm.XXXXXX)
cleanup() {
	vm_stop 2>/dev/null
	if [ -n "${MCELOGD_VM_KEEP:-}" ]; then note "work directory kept: $work"; else rm -rf "$work"; fi
	[ -z "$unpacked" ] || rm -rf "$unpacked"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$cache"
# The image holds no kernel: each boot appends its kernel's modules.cpio.
key=$arch_cache_prefix$release_prefix$(printf '%s\n' "rig-image-$RIG_IMAGE_VERSION" "$suite" "$guest_packages" | sha256sum | cut -c1-16)
image=$cache/image-$key
build_image() {
	local tmp=$cache/tmp-$key.$$ root src mirrors=()
	rm -rf "$tmp" && mkdir -p "$tmp" || return 1
	root=$tmp/root
	for src in $(debian_sources "$work"); do mirrors+=("$src"); done
	# The host's apt proxy settings, if any, apply to the guest's downloads.
	local aptopts=()
	for src in /etc/apt/apt.conf /etc/apt/apt.conf.d/*; do
		[ -f "$src" ] && grep -qiE '^[^#/]*Acquire::[a-z]+::Proxy' "$src" && aptopts+=("--aptopt=$src")
	done
	# A minimal Debian with systemd; apt itself is not needed in the guest.
	mmdebstrap --quiet --mode=root --variant=essential --arch="$vm_arch" \
		--include="$(echo "$guest_packages" | tr ' ' ,)" \
		--dpkgopt='path-exclude=/usr/share/doc/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		--dpkgopt='path-exclude=/usr/share/info/*' \
		--dpkgopt='path-exclude=/usr/share/man/*' "${aptopts[@]}" \
		"$suite" "$root" "${mirrors[@]}" >&2 || return 1
	local m
	# systemd as PID 1 straight from the initramfs: it becomes the real root.
	ln -sf /sbin/init "$root/init"
	echo mcelogd-vm >"$root/etc/hostname"
	echo 6d63656c6f67642d766d2d7465737400 >"$root/etc/machine-id"
	: >"$root/etc/fstab"
	for m in getty@.service serial-getty@.service console-getty.service getty-static.service \
		systemd-firstboot.service systemd-logind.service; do
		ln -sf /dev/null "$root/etc/systemd/system/$m"
	done
	# Installed for 46-rasdaemon, which starts it; no other boot runs it.
	rm -f "$root"/etc/systemd/system/*.wants/rasdaemon.service
	mkdir -p "$root/etc/systemd/journald.conf.d"
	printf '[Journal]\nStorage=volatile\nRuntimeMaxUse=64M\n' >"$root/etc/systemd/journald.conf.d/vm.conf"
	(cd "$root" && find . -xdev -path ./dev -prune -o -print | cpio -o -H newc --quiet) >"$tmp/base.cpio" || return 1
	rm -rf "$root"
	rm -rf "$image" && mv "$tmp" "$image" && touch "$image/ok"
}
exec 9>"$cache/lock"
flock -w 900 9 || bail "cannot lock $cache/lock"
if [ ! -f "$image/ok" ]; then
	note "building guest image $image ($guest_packages)"
	t0=$(date +%s)
	build_image || bail "guest image build failed"
	note "guest image built in $(( $(date +%s) - t0 ))s"
	# Older images (and a kernel package the old recipe kept) are of no further use.
	for d in "$cache"/image-* "$cache"/tmp-*; do [ "$d" = "$image" ] || ! arch_owns "$d" || ! release_owns "$d" || rm -rf "$d"; done
	rm -f "$cache"/debs/linux-image-*.deb
fi
# Our own copy, taken under the lock: another run may replace the image.
cp "$image/base.cpio" "$work/base.cpio" || bail "cannot copy $image"
# Each boot's kernel and QEMU, prepared (downloaded, unpacked) once, under the
# lock, and copied here: boot_media LANE QEMU-VERSION.
declare -A kernel_dir=() qemu_cmd=()
boot_media() {
	local d
	if [ -z "${kernel_dir[$1]+x}" ]; then
		d=$(kernel_prepare "$1") || return 1
		mkdir -p "$work/kernel-$1" && cp "$d/vmlinuz" "$d/modules.cpio" "$d/kver" "$d/packages" "$work/kernel-$1/" || return 1
		kernel_dir[$1]=$work/kernel-$1
	fi
	if [ -z "${qemu_cmd[$2]+x}" ]; then
		qemu_cmd[$2]=$(qemu_prepare "$2") || return 1
	fi
}

# ------------------------------------------ per-run overlay: the project
stage=$work/stage
mkdir -p "$stage"
if [ -n "$deb" ]; then
	# Only the package: dpkg puts its files in place in the guest (provision).
	install -D -m644 "$deb" "$stage/var/lib/mcelogd-vm/${deb##*/}" || bail "cannot copy $deb"
else
	cp -a "$destdir/." "$stage/" || bail "cannot copy $destdir"
fi
# The guest has a merged /usr: /lib, /bin and /sbin are symlinks there.
for d in bin sbin lib lib64; do
	if [ -d "$stage/$d" ] && [ ! -L "$stage/$d" ]; then
		mkdir -p "$stage/usr/$d" && cp -a "$stage/$d/." "$stage/usr/$d/" && rm -rf "${stage:?}/$d"
	fi
done
install -D -m755 "$here/guest/vm-agent" "$stage/usr/local/sbin/vm-agent"
# The victim of 60-memory-failure's SIGBUS, static: the guest has no compiler.
if [ "$vm_arch" = amd64 ]; then
	mkdir -p "$stage/usr/local/libexec/mcelogd-vm" &&
		${VM_HOST_CC:-cc} -static -O2 -o "$stage/usr/local/libexec/mcelogd-vm/hwpoison-kill" \
			"$here/guest/hwpoison-kill.c" || bail "cannot build guest/hwpoison-kill.c"
fi
install -D -m755 "$here/guest/vm-setup" "$stage/usr/local/sbin/vm-setup"
mkdir -p "$stage/etc/systemd/system/sysinit.target.wants"
for u in mcelogd-vm-agent.service mcelogd-vm-setup.service; do
	install -m644 "$here/guest/$u" "$stage/etc/systemd/system/$u"
	ln -sf "../$u" "$stage/etc/systemd/system/sysinit.target.wants/$u"
done
(cd "$stage" && find . -mindepth 1 | cpio -o -H newc --quiet -R 0:0) >"$work/overlay.cpio" || bail "cpio failed"

# ------------------------------------------------------------- the guest VM
vm_pid= vm_dir= vm_socat=()
# vm_start CPU SMP APPEND QEMU-ARGS KERNEL-LANE QEMU-VERSION MEMORY
vm_start() {
	vm_dir=$work/vm$((++vm_count))
	mkdir -p "$vm_dir"
	mkfifo "$vm_dir/to" "$vm_dir/from" "$vm_dir/qto" "$vm_dir/qfrom"
	# The initramfs: the image, the lane's kernel modules, the build under test.
	local k=${kernel_dir[$5]}
	cat "$work/base.cpio" "$k/modules.cpio" "$work/overlay.cpio" >"$vm_dir/initrd" || return 1
	# A large guest's boot and scenarios take longer under TCG: 30 s more per vCPU.
	# shellcheck disable=SC2086
	timeout -k 5 "$((vm_timeout + 30 * $2))" ${qemu_cmd[$6]} $arch_machine -accel tcg -cpu "$1" -smp "$2" -m "$7" \
		-nodefaults -display none -no-reboot \
		-kernel "$k/vmlinuz" -initrd "$vm_dir/initrd" \
		-append "console=$arch_console panic=-1 rdinit=/init systemd.show_status=auto mcelogd_vm.agent=$arch_agent_device $3" \
		-serial "file:$vm_dir/console.log" \
		-chardev "socket,id=cmd,path=$vm_dir/cmd.sock,server=on,wait=off" $arch_agent_qemu \
		-qmp "unix:$vm_dir/qmp.sock,server=on,wait=off" \
		${4:-} >"$vm_dir/qemu.out" 2>&1 &  # shellcheck disable=SC2086
	vm_pid=$!
	local i
	for i in $(seq 50); do [ -S "$vm_dir/qmp.sock" ] && [ -S "$vm_dir/cmd.sock" ] && break; sleep 0.1; done
	# Command channel (fds 7/8) and QMP (fds 5/6) stay connected for the boot.
	exec 7<>"$vm_dir/to" 8<>"$vm_dir/from" 5<>"$vm_dir/qto" 6<>"$vm_dir/qfrom"
	socat "UNIX-CONNECT:$vm_dir/cmd.sock" - <"$vm_dir/to" >"$vm_dir/from" 2>>"$vm_dir/socat.err" &
	vm_socat=($!)
	socat "UNIX-CONNECT:$vm_dir/qmp.sock" - <"$vm_dir/qto" >"$vm_dir/qfrom" 2>>"$vm_dir/socat.err" &
	vm_socat+=($!)
	echo '{"execute":"qmp_capabilities"}' >&5
	qmp_read >/dev/null
}
vm_alive() { [ -n "$vm_pid" ] && kill -0 "$vm_pid" 2>/dev/null; }
vm_stop() {
	[ -n "$vm_pid" ] || return 0
	if vm_alive; then
		echo '{"execute":"quit"}' >&5 2>/dev/null
		local i
		for i in $(seq 30); do vm_alive || break; sleep 0.1; done
		vm_alive && kill "$vm_pid" 2>/dev/null
	fi
	wait "$vm_pid" 2>/dev/null
	kill "${vm_socat[@]}" 2>/dev/null
	wait "${vm_socat[@]}" 2>/dev/null
	exec 5>&- 6<&- 7>&- 8<&-
	vm_pid= vm_socat=()
}
# vm_wait_exit SECONDS: wait for QEMU to exit on its own (guest panic with
# panic=-1 and -no-reboot); fails on timeout.
vm_wait_exit() {
	local end=$(( $(date +%s) + $1 ))
	while vm_alive; do [ "$(date +%s)" -lt "$end" ] || return 1; sleep 0.2; done
	return 0
}
console() { tr -d '\r' <"$vm_dir/console.log" 2>/dev/null | sed -e 's/\x1b\[[0-9;]*[A-Za-z]//g'; }
agent_ready_count() { grep -c '@@MCELOGD-VM-AGENT-READY@@' "$vm_dir/console.log" 2>/dev/null; }

# vm_reboot [DIR...]: reboot the guest for real and wait until its command
# channel answers again.  systemd stops everything and the kernel restarts
# the machine; QEMU resets it (for this one reboot: -no-reboot stays in force
# for panics) and boots the same kernel and initramfs, so the guest has a
# new boot id and a kernel that remembers nothing of the last boot.  The
# guest's root lives in RAM (the initramfs), so a reboot loses every file:
# each DIR (say /var/lib/mcelogd) is carried across as a disk keeps it,
# packed after mcelogd stopped (what the shutdown does before it unmounts
# a disk) and unpacked in the new boot before anything starts mcelogd.  The
# new boot has everything the image starts and nothing the rig's provision
# did (mcelogd is not enabled): the scenario starts it with vm_provision.
vm_reboot() {
	local packed n i
	if [ $# -gt 0 ]; then
		packed=$(guest "systemctl stop mcelogd.service && tar -C / -czf - $(printf '%q ' "${@#/}") | base64 -w0") ||
			{ echo "vm_reboot: cannot pack $*: $packed"; return 1; }
	fi
	n=$(agent_ready_count)
	qmp set-action '{"reboot":"reset"}' || return 1
	# Through a timer, so that the agent answers before the shutdown stops it.
	guest 'systemd-run --quiet --on-active=1 systemctl reboot' >/dev/null || { echo "vm_reboot: systemctl reboot not scheduled"; return 1; }
	for i in $(seq 900); do
		[ "$(agent_ready_count)" -gt "$n" ] && break
		vm_alive || { echo "vm_reboot: QEMU exited during the reboot"; return 1; }
		sleep 0.2
	done
	qmp set-action '{"reboot":"shutdown"}' || return 1
	[ "$(agent_ready_count)" -gt "$n" ] || { echo "vm_reboot: the agent did not come back within 180s"; return 1; }
	guest true 20 >/dev/null || { echo "vm_reboot: the agent does not answer after the reboot"; return 1; }
	guest "awk '\$3 == \"_text\" {print \$1; exit}' /proc/kallsyms" 20 >"$vm_dir/ktext"
	[ -z "${packed:-}" ] || guest "base64 -d <<<'$packed' | tar -C / -xzf -" 60 ||
		{ echo "vm_reboot: cannot unpack $* in the new boot"; return 1; }
}

# qmp_read: print the next reply ({"return"} or {"error"}), skipping events.
qmp_read() {
	local line
	while IFS= read -r -t 30 line <&6; do
		case $line in *'"return"'*|*'"error"'*) printf '%s\n' "$line"; return 0 ;; esac
	done
	return 1
}
# hmp "COMMAND": a human monitor command (e.g. mce ...) through QMP; prints
# its output; fails if QEMU printed anything (mce prints only errors).
hmp() {
	local reply out
	vm_alive || { echo "VM not running"; return 1; }
	printf '{"execute":"human-monitor-command","arguments":{"command-line":%s}}\n' "$(jq -Rn --arg c "$1" '$c')" >&5
	reply=$(qmp_read) || { echo "no reply from QMP"; return 1; }
	out=$(jq -r 'if .error then "error: " + .error.desc else .return end' <<<"$reply")
	printf '%s' "$out"
	[ -z "$out" ]
}

# qmp COMMAND [ARGUMENTS-JSON]: a QMP command (e.g. cxl-inject-poison);
# prints QEMU's error and fails if QEMU refused it.
qmp() {
	local reply
	vm_alive || { echo "VM not running"; return 1; }
	jq -nc --arg c "$1" --argjson a "${2:-{\}}" '{execute: $c, arguments: $a}' >&5 || return 1
	reply=$(qmp_read) || { echo "no reply from QMP"; return 1; }
	jq -r 'if .error then "error: " + .error.desc else empty end' <<<"$reply" | grep . && return 1
	return 0
}

# guest SCRIPT [TIMEOUT]: run a bash script in the guest as root; its output
# (stdout and stderr) on stdout, its exit status as ours (255: no answer).
req_n=0
guest() {
	local script=$1 limit=${2:-60} id line rc=255 began= out=() n
	vm_alive || { echo "guest: VM not running"; return 255; }
	req_n=$((req_n + 1))
	id=r$req_n$RANDOM
	printf '%s %s %s\n' "$id" "$(printf '%s' "$script" | base64 -w0)" "$limit" >&7
	while IFS= read -r -t $((limit + 15)) line <&8; do
		line=${line%$'\r'}
		if [ -z "$began" ]; then [ "$line" = "@@BEGIN $id@@" ] && began=1; continue; fi
		case $line in "@@END $id "*@@) rc=${line#"@@END $id "}; rc=${rc%@@}; break ;; esac
		out+=("$line")
	done
	n=${#out[@]}
	# The agent puts a newline before its end marker.
	[ "$n" -gt 0 ] && [ -z "${out[n-1]}" ] && unset 'out[n-1]'
	[ ${#out[@]} -gt 0 ] && printf '%s\n' "${out[@]}"
	if [ "$rc" = 255 ] && [ -z "$began" ]; then
		echo "guest: no answer within $((limit + 15))s"
		vm_alive && vm_unresponsive
	fi
	return "$rc"
}
# vm_unresponsive: the agent did not even begin an answer, so the guest (or
# QEMU) is stuck.  A guest that hangs silently leaves nothing on its console,
# so keep QEMU's view of it (run state, and where each CPU is: RIP, and HLT=1
# for an idle one) for dump_guest, and stop the VM: the checks left in this
# boot then fail at once instead of each waiting out its own time limit.
# Often called in a $(...) subshell, hence a file, not TAP output.
vm_unresponsive() {
	local h ktext
	ktext=$(cat "$vm_dir/ktext" 2>/dev/null)
	{
		echo "the agent did not answer at $(date +%T); QEMU's view:"
		for h in 'info status' 'info cpus' 'info registers -a'; do
			echo "(qemu) $h"
			hmp "$h" | tr -d '\r' | grep -E '^(VM status|[* ] *CPU|CPU#|RIP=|CR0=)' |
				while IFS= read -r l; do
					# RIP as an offset in the kernel's text: a symbol
					# with Debian's linux-image-*-dbg, whatever KASLR did.
					if [[ $l = RIP=* && -n $ktext ]]; then
						printf '%s  (_text+0x%x)\n' "$l" $((16#${l:4:16} - 16#$ktext))
					else printf '%s\n' "$l"; fi
				done
		done
		echo "guest console, last 40 lines:"
		console | tail -n 40
	} >>"$vm_dir/unresponsive.txt" 2>&1
	echo "guest: stopped the VM; QEMU's view of it is in the boot's dump"
	vm_stop
}

# ------------------------------------------------------- the scenario API
# inject_monitor CPU BANK STATUS MCGSTATUS ADDR MISC: QEMU's `mce` command,
# which writes the emulated bank registers (and raises #MC if STATUS has UC).
inject_monitor() { hmp "mce $*"; }
# sw_inject_script KEY=VALUE...: the guest commands for one mce-inject
# `flags=sw` record (keys: cpu bank status addr misc synd ipid); writing the
# bank triggers it.
sw_inject_script() {
	local kv k v bank= s='cd /sys/kernel/debug/mce-inject || exit 1; echo sw >flags'
	for kv; do
		k=${kv%%=*} v=${kv#*=}
		case $k in
		bank) bank=$v ;;
		cpu|status|addr|misc|synd|ipid) s+="; echo $v >$k" ;;
		*) echo "sw_inject_script: unknown key $k" >&2; return 1 ;;
		esac
	done
	printf '%s; echo %s >bank\n' "$s" "$bank"
}
inject_sw() { guest "$(sw_inject_script "$@")"; }
# query_json [MCECTL-QUERY-ARGS]: the guest's `mcectl query --output json`
# lines (default --since 1h).
# The default window is the running scenario's (query_since, set before each
# scenario starts): the journal of a boot holds every earlier scenario's
# records (40-burst alone leaves 1,000), and reading them all again under TCG
# on every poll cost the later scenarios minutes.  Scenarios tell their
# records apart by status or source, and every record they look for is made
# after they start.
query_json() { guest "mcectl query ${*:---since ${query_since:-1h}} --output json"; }
# wait_records N JQ-CONDITION [SECONDS]: wait until the guest's
# `mcectl query --output json` (the scenario's window, as query_json) holds
# at least N records matching
# the jq condition; prints the matching records (one JSON object per line);
# fails (saying why on stderr) if fewer arrived in time.
wait_records() {
	local n=$1 cond=$2 limit=${3:-30} out rc
	out=$(guest "end=\$((SECONDS + $limit))
while :; do
	mcectl query --since ${query_since:-1h} --output json >/run/q.json 2>/run/q.err
	c=\$(jq -c 'select($cond)' /run/q.json | tee /run/q.sel | wc -l)
	[ \$c -ge $n ] || [ \$SECONDS -ge \$end ] && break
	sleep 0.5
done
cat /run/q.sel
[ \$c -ge $n ] || { echo \"@@wait: only \$c of $n records after ${limit}s; \$(head -c 300 /run/q.err)\"; exit 1; }" $((limit + 30)))
	rc=$?
	grep -v '^@@wait: ' <<<"$out"
	grep '^@@wait: ' <<<"$out" | sed 's/^@@wait: //' >&2
	return $rc
}
# trace_line INSTANCE EVENT [SECONDS]: the kernel's own last trace line of
# EVENT in the tracefs instance INSTANCE (its path in the guest), whole as the
# trace file prints it (task, CPU, flags, time, event), once there is one
# (10 s by default); empty if none came.
trace_line() {
	guest "for i in \$(seq $((${3:-10} * 4))); do grep -q ' $2: ' $1/trace && break; sleep 0.25; done
grep ' $2: ' $1/trace | tail -n1 | sed 's/^ *//'"
}
# msgid NAME: a MESSAGE_ID from lib/message-ids.h (CORRECTED, FATAL, LOST, ...).
msgid() { sed -n "s/^#define MCELOGD_MSGID_$1 *\"\([0-9a-f]*\)\".*/\1/p" "$srcdir/lib/message-ids.h"; }
# journal_mark: a journal cursor for "from now on" (mcelogd_warnings CURSOR).
journal_mark() { guest 'journalctl -n 0 --show-cursor -q | sed -n "s/^-- cursor: //p"'; }
# mcelogd_warnings [CURSOR]: what mcelogd's unit logged at priority warning
# or worse this boot (or after CURSOR), apart from the machine-check records
# themselves and storm summaries (a corrected error is logged at warning on
# purpose).
mcelogd_warnings() {
	local ids m from=-b
	# record entries (MCA and the other hardware-error records), loss reports (the
	# kernel's, or a full spool's counts), rule alerts, repair reports and a
	# memory module's verdict changes are not warnings about mcelogd; scenarios
	# check those
	ids=$(for m in CORRECTED DEFERRED UNCORRECTED FATAL MEMORY_CONTROLLER PCIE_AER MEMORY_FAILURE \
		FIRMWARE_MEMORY ARM_PROCESSOR VENDOR_SECTION X86_PROCESSOR STORM LOST ALERT \
		CXL_GENERAL_MEDIA CXL_DRAM CXL_MEMORY_MODULE CXL_POISON CXL_AER CXL_OVERFLOW CXL_GENERIC \
		CXL_MEMORY_SPARING PCI_HOTPLUG PCIE_LINK DEVLINK_HEALTH DEVLINK_RECOVER_ABORTED \
		SIGBUS DISK_ERROR REPAIR MODULE_VERDICT; do msgid $m; done |
		jq -R . | jq -sc .)
	[ -n "${1:-}" ] && from="--cursor='$1'"
	guest "journalctl $from -u mcelogd.service -p warning --no-pager -o json |
		jq -r --argjson ids '$ids' 'select((.MESSAGE_ID // \"\") as \$m | \$ids | index(\$m) | not) | .MESSAGE'"
}
# pid1_warnings: a check that systemd itself logged no warning about
# mcelogd.service this boot (unit file problems show up there, not under -u,
# e.g. a DeviceAllow= path the kernel does not have).
pid1_warnings() {
	local w
	w=$(guest "journalctl -b _PID=1 -p warning -o json --no-pager |
		jq -r 'select((.UNIT // \"\") == \"mcelogd.service\" or (.MESSAGE | tostring | test(\"mcelog\"))) | .MESSAGE' | sort -u")
	if [ -z "$w" ]; then
		ok "boot [$label]: systemd logged no warnings about mcelogd.service"
	else
		not_ok "boot [$label]: systemd logged no warnings about mcelogd.service"
		printf '%s\n' "$w" | diag
	fi
}
# host_mcectl: the mcectl of the tree under test, run on the host.
host_mcectl() {
	local m
	for m in "$destdir"/usr/bin/mcectl "$destdir"/usr/local/bin/mcectl "$destdir"/bin/mcectl; do
		[ -x "$m" ] && { "$m" "$@"; return; }
	done
	echo "no mcectl in $destdir" >&2
	return 127
}
# Keys of a guest record that the registers do not determine: where and
# when it was seen.  With the registers they are the decoder's input.
context_keys='["time","source","hostname","boot_id","cpu","socket","apicid","microcode","ppin","ip","tsc","walltime","cs","cpuid","stepping"]'
input_keys='["vendor","family","model","bank","mcgcap","mcgstatus","status","addr","misc","synd","ipid"]'
# Keys of a guest record that say what its CPU was doing when mcelogd read it
# (issue 10's snapshots), or which other record tells of the same error (the
# error_id an EDAC copy joins on, issue 26): observations of the live daemon,
# not a decode, so mcectl decode of the registers has none of them.
capture_keys='["snapshot","error_id"]'
# json_diff A B IGNORE: the keys whose values differ between two objects.
json_diff() {
	jq -nc --argjson a "$1" --argjson b "$2" --argjson ign "$3" \
		'[($a + $b) | keys[] | select(. as $k | $ign | index($k) | not) | select($a[.] != $b[.]) | {key: ., guest: $a[.], host: $b[.]}]'
}
# compare_decode DESC RECORD: decode the registers of the guest's RECORD on
# the host with `mcectl decode`, both from the record's raw JSON fields and
# from the registers given as options, and check that the guest decoded them
# the same way.
compare_decode() {
	local desc=$1 g=$2 raw h args diff
	raw=$(jq -c --argjson k "$context_keys" --argjson i "$input_keys" 'with_entries(select(.key as $x | ($k + $i) | index($x)))' <<<"$g")
	h=$(host_mcectl decode - --output json <<<"$raw")
	diff=$(json_diff "$g" "${h:-null}" "$(jq -c '. + ["source"]' <<<"$capture_keys")")
	if [ -n "$h" ] && [ "$diff" = "[]" ]; then ok "$desc (mcectl decode of the record's raw fields)"; else
		not_ok "$desc (mcectl decode of the record's raw fields)"
		printf 'input: %s\nguest: %s\nhost:  %s\ndifferences: %s\n' "$raw" "$g" "$h" "$diff" | diag
	fi
	args=$(jq -r '["--status", .status, "--bank", (.bank|tostring),
		"--cpu-id", "\(.vendor):\(.family):\(.model)"] +
		([["addr","--addr"],["misc","--misc"],["synd","--synd"],["ipid","--ipid"],["mcgstatus","--mcgstatus"],["mcgcap","--mcgcap"]]
		 | map(. as [$k, $o] | select($g[$k] != null) | [$o, $g[$k]]) | add // []) | @sh' --argjson g "$g" <<<"$g")
	h=$(eval "host_mcectl decode $args --output json")
	# Only the decoded keys: the options carry no time, CPU number or stepping.
	diff=$(json_diff "$g" "${h:-null}" "$(jq -c --argjson c "$capture_keys" '. + $c + ["source"]' <<<"$context_keys")")
	if [ -n "$h" ] && [ "$diff" = "[]" ]; then ok "$desc (registers as mcectl decode options)"; return; fi
	not_ok "$desc (registers as mcectl decode options)"
	printf 'host: mcectl decode %s\nguest: %s\nhost:  %s\ndifferences: %s\n' "$args" "$g" "$h" "$diff" | diag
}

# ------------------------------------------------------------- scenarios
default_cpu=$arch_default_cpu
# VM_KERNEL: the run's lane (make check-vm VM_KERNEL=7.3) unless a scenario
# names its own; VM_QEMU_VERSION: host's QEMU on 6.1, QEMU 10 on newer lanes
# and on arm64.
run_kernel=${VM_KERNEL:-$arch_default_kernel}
scenario_vars() {
	VM_DESC= VM_CPU=$default_cpu VM_SMP=2 VM_APPEND= VM_ALONE= VM_LAST= VM_QEMU=
	VM_KERNEL=$run_kernel VM_QEMU_VERSION= VM_MEM=1024
	unset -f scenario
}
# scenario_qemu: the QEMU a scenario's boot uses.
scenario_qemu() {
	if [ -n "$VM_QEMU_VERSION" ]; then echo "$VM_QEMU_VERSION"
	elif [ "$VM_KERNEL" = 6.1 ] && [ "$vm_arch" = amd64 ]; then echo host
	else echo 10; fi
}
group_key() {
	( scenario_vars; . "$1" || exit 1
	  k="$VM_CPU|$VM_SMP|$VM_APPEND|$VM_QEMU|$VM_KERNEL|$(scenario_qemu)|$VM_MEM"
	  [ -n "$VM_ALONE" ] && k+="|alone=$(basename "$1")"
	  echo "${VM_LAST:+last}|$k" )
}
# Boot groups in order of first appearance; VM_LAST scenarios at their end.
declare -A group_of=() group_last=()
groups=()
for f in "${scenarios[@]}"; do
	k=$(group_key "$f") || bail "cannot read scenario $f"
	last=${k%%|*} k=${k#*|}
	if [ -z "${group_of[$k]+x}" ]; then groups+=("$k"); group_of[$k]= group_last[$k]=; fi
	if [ -n "$last" ]; then group_last[$k]+="$f"$'\n'; else group_of[$k]+="$f"$'\n'; fi
done

# Every boot's kernel and QEMU, fetched under the cache lock (still held).
for k in "${groups[@]}"; do
	IFS='|' read -r _ _ _ _ g_kernel g_qemuv _ <<<"$k"
	boot_media "$g_kernel" "$g_qemuv" || bail "cannot prepare kernel $g_kernel / QEMU $g_qemuv"
done
flock -u 9
# Downloads and the image only, no boot: e.g. before taking a lock that
# serialises guests, so that the lock is held only while one runs.
if [ -n "${MCELOGD_VM_PREPARE_ONLY:-}" ]; then
	note "prepared: image $image, $(( $(date +%s) - t_start ))s"
	echo "1..0 # SKIP MCELOGD_VM_PREPARE_ONLY: nothing booted"
	exit 0
fi

dump_guest() {
	note "---- guest console (last 150 lines) ----"
	console | tail -n 150 | diag
	if vm_alive; then
		note "---- guest journal (last 300 lines) ----"
		guest 'journalctl -b --no-pager -q -o short-monotonic | tail -n 300' 60 | diag
		note "---- journalctl -u mcelogd ----"
		guest 'systemctl status --no-pager mcelogd.service; journalctl -b -u mcelogd.service --no-pager -q -o short-monotonic' 60 | diag
	fi
	# Last: the requests above may be what found the guest stuck.
	if [ -s "$vm_dir/unresponsive.txt" ]; then
		note "---- the guest stopped answering ----"
		diag <"$vm_dir/unresponsive.txt"
	fi
}

provision='set -e
ldconfig
journalctl --update-catalog >/dev/null 2>&1 || true
systemctl daemon-reload
systemctl enable mcelogd.service 2>&1
systemctl start mcelogd.service
systemctl is-active mcelogd.service'
# From the package: its maintainer scripts (debhelper's) enable and start the
# unit, create the tmpfiles entries; systemd's dpkg trigger updates the catalog.
[ -z "$deb" ] || provision='set -e -o pipefail
dpkg -i /var/lib/mcelogd-vm/*.deb 2>&1 | tail -n 20
systemctl is-enabled mcelogd.service
systemctl is-active mcelogd.service'

# vm_provision: install (--deb), enable and start mcelogd from the shipped
# unit, as the rig does at the start of each boot (again after a vm_reboot).
vm_provision() { guest "$provision" $((120 + 3 * ${g_smp:-2})); }

vm_count=0
for k in "${groups[@]}"; do
	IFS='|' read -r g_cpu g_smp g_append g_qemu g_kernel g_qemuv g_mem _ <<<"$k"
	label="kernel $g_kernel, -cpu $g_cpu -smp $g_smp${g_append:+ $g_append}"
	group_failed=0
	t0=$(date +%s)
	note "boot: $label"
	note "kernel $(cat "${kernel_dir[$g_kernel]}/kver") ($(tr '\n' ' ' <"${kernel_dir[$g_kernel]}/packages")), QEMU ${qemu_cmd[$g_qemuv]%% *}"
	booted=
	for attempt in 1 2; do
		vm_start "$g_cpu" "$g_smp" "$g_append" "$g_qemu" "$g_kernel" "$g_qemuv" "$g_mem"
		# 3 minutes, and 3 seconds more per vCPU: TCG boots a 64-vCPU guest in 3-5 minutes.
		for _ in $(seq $((900 + 15 * g_smp))); do
			grep -q '@@MCELOGD-VM-AGENT-READY@@' "$vm_dir/console.log" 2>/dev/null && { booted=1; break; }
			vm_alive || break
			sleep 0.2
		done
		[ -z "$booted" ] && [ "$attempt" = 1 ] || break
		# Nothing of mcelogd runs before the agent is up (vm_provision
		# starts it), so a boot that never got there is Debian's kernel
		# and systemd under TCG, not the code under test: once in CI,
		# 7.3's q35 CXL boot stopped printing 2 s into the kernel's boot.
		# Booted once more, with the first attempt's end in the log.
		note "boot [$label]: the guest did not come up ($(vm_alive && echo "QEMU still running, console stopped" ||
			echo "QEMU exited: $(head -c 300 "$vm_dir/qemu.out" 2>/dev/null)")); its console's last 40 lines, then a second boot"
		console | tail -n 40 | diag
		vm_stop
	done
	if [ -n "$booted" ] && guest true 20 >/dev/null; then
		ok "boot [$label]: systemd up and command channel answering after $(( $(date +%s) - t0 ))s"
		# Where the kernel's text landed (KASLR), for vm_unresponsive.
		guest "awk '\$3 == \"_text\" {print \$1; exit}' /proc/kallsyms" 20 >"$vm_dir/ktext"
	else
		not_ok "boot [$label]: guest did not come up"
		cat "$vm_dir/qemu.out" 2>/dev/null | diag
		dump_guest
		vm_stop
		continue
	fi
	# A large guest opens a reader per CPU: its first start takes longer under TCG.
	tp=$(date +%s)
	check "boot [$label]: ${deb:+dpkg -i the package: }mcelogd enabled and started from the shipped unit" vm_provision
	note "provisioning${deb:+ (dpkg -i)} took $(( $(date +%s) - tp ))s"
	warn_mark=
	while IFS= read -r f; do
		[ -n "$f" ] || continue
		if [ "$f" = "@@end-of-clean@@" ]; then
			# Clean scenarios done: mcelogd never restarted and logged no
			# warnings (after a scenario's deliberate warn_mark, if any).
			vm_alive || continue
			is "$(guest 'systemctl show -p NRestarts --value mcelogd.service')" 0 \
				"boot [$label]: mcelogd never restarted by systemd"
			is "$(mcelogd_warnings "$warn_mark")" "" "boot [$label]: journalctl -u mcelogd shows no warnings"
			pid1_warnings
			continue
		fi
		scenario_vars
		. "$f"
		name=$(basename "$f" .sh)
		note "scenario $name: $VM_DESC"
		if ! vm_alive; then not_ok "$name: guest is not running"; continue; fi
		ts=$(date +%s)
		# Ten seconds' margin: mcectl query selects by the error's time, which
		# under TCG can read a little earlier than the guest's clock (see
		# storm_view in lib/storm.sh).  mce-inject dates a software-injected
		# record when it resets its registers, i.e. at the injection before
		# (or at its load): reloaded here, the scenario's first record is
		# dated now and not at the last scenario's last injection.
		query_since=$(guest 'if [ -d /sys/kernel/debug/mce-inject ]; then
	modprobe -r mce-inject && modprobe mce-inject || exit 1
fi
date +%s')
		[[ $query_since =~ ^[0-9]+$ ]] && query_since=@$((query_since - 10)) || query_since=1h
		scenario
		note "scenario $name took $(( $(date +%s) - ts ))s"
	done <<<"${group_of[$k]}@@end-of-clean@@"$'\n'"${group_last[$k]}"
	[ "$group_failed" = 0 ] || dump_guest
	vm_stop
	note "boot [$label] done in $(( $(date +%s) - t0 ))s"
done
echo "1..$tap_n"
note "total time $(( $(date +%s) - t_start ))s"
[ "$tap_failed" = 0 ]
