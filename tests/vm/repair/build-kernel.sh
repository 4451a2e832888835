#!/bin/bash
# The repair lane's kernel (issue 36 #6): Linux 7.3 from Debian's own
# linux-source-7.3 (trixie-backports), configured as x86_64_defconfig plus
# tests/vm/repair/kernel.config: the CXL features and EDAC scrub, ECS and
# mem_repair options Debian's 7.3 kernel lacks, the CXL stack built in, and
# what the rig's guest needs.  Built once, at nice 19 on 2 jobs, and kept in
# the VM cache keyed by the source version and the final .config, so that
# `make check-vm-repair` builds nothing the second time.  Prints the kernel's
# directory (vmlinuz, kver, modules.cpio, packages, build-time), the layout
# tests/vm/kernels.sh's kernel_prepare gives the rig.
#
#   build-kernel.sh [--check]
#
# --check prints the directory if the kernel is built already, and fails
# (building nothing) otherwise: what kernels.sh asks, under the rig's lock.
# Environment: MCELOGD_VM_CACHE (default /var/cache/mcelogd-vm),
# MCELOGD_KERNEL_JOBS (default 2).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${MCELOGD_VM_CACHE:-/var/cache/mcelogd-vm}
jobs=${MCELOGD_KERNEL_JOBS:-2}
check_only=
[ "${1:-}" = --check ] && check_only=1
vm_arch=amd64
note() { echo "# $*" >&2; }
die() { echo "build-kernel: $*" >&2; exit 1; }
# bpo_update, pkg_candidate, fetch_deb: the private apt of the VM lanes.
. "$here/../kernels.sh"

# What a kernel build needs on the host beyond tools/install-deps.sh's
# (flex, bison: kconfig; bc: timeconst; libelf: objtool; libssl: certs),
# installed here as run.sh installs the rig's own.
if [ -z "$check_only" ]; then
	missing=
	for p in flex bison bc libelf-dev libssl-dev; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=" $p"
	done
	if [ -n "$missing" ]; then
		note "installing host packages:$missing"
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
			die "cannot install$missing"
	fi
fi

suite=trixie-backports pkg=linux-source-7.3
kbuild=$cache/kbuild
src=$kbuild/$pkg obj=$kbuild/obj-repair
mkdir -p "$kbuild" || die "cannot create $kbuild"
if [ -n "$check_only" ] && [ -f "$src/.mcelogd-version" ]; then
	ver=$(cat "$src/.mcelogd-version")
else
	bpo_update "$suite" || die "cannot read $suite's lists"
	ver=$(pkg_candidate "$suite" "$pkg")
	[ -n "$ver" ] || die "$suite offers no $pkg"
fi

# The source, unpacked once per version (the .deb holds a 167 MB tar.xz).
if [ "$(cat "$src/.mcelogd-version" 2>/dev/null)" != "$ver" ]; then
	[ -z "$check_only" ] || exit 1
	note "unpacking $pkg $ver"
	deb=$(fetch_deb "$suite" "$pkg" "$ver") || exit 1
	rm -rf "$src" "$src.tmp" "$obj" && mkdir -p "$src.tmp" || exit 1
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$pkg.tar.xz" | tar -xJ -C "$src.tmp" || die "cannot unpack $deb"
	mv "$src.tmp/$pkg" "$src" && rmdir "$src.tmp" && echo "$ver" >"$src/.mcelogd-version" || exit 1
	rm -f "$deb"
fi

# The configuration: defconfig, the lane's options, olddefconfig; every
# option asked for must have held.  Made again only when kernel.config
# changed (its hash is kept beside the .config it made).
mkdir -p "$obj" || exit 1
kmake() { nice -n 19 make -C "$src" O="$obj" -s "$@"; }
fragment=$(sha256sum <"$here/kernel.config" | cut -c1-16)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.mcelogd-fragment" 2>/dev/null)" != "$fragment" ]; then
	[ -z "$check_only" ] || exit 1
	rm -f "$obj/.mcelogd-fragment"
	kmake x86_64_defconfig >/dev/null || die "make defconfig failed"
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$here/kernel.config" >/dev/null ||
		die "merge_config.sh failed"
	kmake olddefconfig >/dev/null || die "make olddefconfig failed"
	bad=
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) grep -qxF "$line" "$obj/.config" || bad+=" $line" ;;
		"# CONFIG_"*" is not set") o=${line#\# }; o=${o%% *}
			! grep -q "^$o=" "$obj/.config" || bad+=" $o=n" ;;
		esac
	done <"$here/kernel.config"
	[ -z "$bad" ] || die "olddefconfig did not keep:$bad (unmet dependencies: see $obj/.config)"
	echo "$fragment" >"$obj/.mcelogd-fragment"
fi
key=$(cat "$src/.mcelogd-version" "$obj/.config" | sha256sum | cut -c1-16)
dir=$cache/kernel-repair-$key
if [ -f "$dir/ok" ]; then echo "$dir"; exit 0; fi
[ -z "$check_only" ] || exit 1

note "building Linux $ver ($pkg) for the repair lane: nice -n 19 make -j$jobs (config $key)"
/usr/bin/time -f '%e s elapsed, %U s user, %S s sys, %P CPU' -o "$obj/build-time" \
	nice -n 19 make -C "$src" O="$obj" -s -j"$jobs" bzImage modules >"$obj/build.log" 2>&1 ||
	{ tail -n 40 "$obj/build.log" >&2; die "the kernel build failed (log: $obj/build.log)"; }
note "built in $(cat "$obj/build-time")"

tmp=$dir.tmp.$$
rm -rf "$tmp" && mkdir -p "$tmp/m" || exit 1
kver=$(make -C "$src" O="$obj" -s kernelrelease) || exit 1
install -m644 "$obj/arch/x86/boot/bzImage" "$tmp/vmlinuz" || exit 1
# Everything is built in: the guest gets modules.builtin and depmod's
# indexes, so that the rig's modprobe of a built-in driver succeeds.
nice -n 19 make -C "$src" O="$obj" -s INSTALL_MOD_PATH="$tmp/m/usr" INSTALL_MOD_STRIP=1 modules_install >/dev/null ||
	die "modules_install failed"
rm -f "$tmp/m/usr/lib/modules/$kver/build" "$tmp/m/usr/lib/modules/$kver/source"
depmod -b "$tmp/m/usr" "$kver" || exit 1
(cd "$tmp/m" && find . -mindepth 1 | cpio -o -H newc --quiet -R 0:0) >"$tmp/modules.cpio" || exit 1
rm -rf "$tmp/m"
echo "$kver" >"$tmp/kver"
printf '%s=%s\nconfig=%s\n' "$pkg" "$ver" "$key" >"$tmp/packages"
cp "$obj/.config" "$tmp/config" && cp "$obj/build-time" "$tmp/build-time" || exit 1
rm -rf "$dir" && mv "$tmp" "$dir" && touch "$dir/ok" || exit 1
for d in "$cache"/kernel-repair-*; do [ "$d" = "$dir" ] || rm -rf "$d"; done
echo "$dir"
