# Sourced by tests/vm/run.sh: the guest kernels and the QEMU that boots them.
#
# VM_KERNEL names a lane, each a Debian suite's linux-image-amd64 (or
# linux-image-arm64 with VM_ARCH=arm64, tests/vm/arch.sh):
#   6.1   Debian 12's own kernel (the host's apt sources)
#   6.12  bookworm-backports' linux-image-amd64
#   7.3   trixie-backports' linux-image-amd64: the newest backported kernel,
#         whatever version the metapackage points at today
#   repair  Linux 7.3 built from trixie-backports' linux-source-7.3 with the
#         CXL memory repair options Debian's lacks (tests/vm/repair)
# A lane other than 6.1 boots with QEMU 10 from bookworm-backports (QEMU 7.2,
# the host's, has no CXL event injection); VM_QEMU_VERSION=10 asks for it on
# 6.1 too.  The backports come from deb.debian.org through a private apt
# configuration under the cache (its own sources list and lists directory;
# nothing is installed on the host), verified with bookworm's
# debian-archive-keyring, which holds the trixie archive keys as well.
# Everything unpacked is kept under $cache keyed by package version, so a
# second run downloads nothing (the lists are refreshed at most every 12 h).
#
# Uses from run.sh: $cache, note, bail, apt_update; from arch.sh: $vm_arch,
# $arch_qemu_*, $arch_cache_prefix, arch_owns.

backports_mirror=${MCELOGD_VM_BACKPORTS_MIRROR:-http://deb.debian.org/debian}
backports_keyring=/usr/share/keyrings/debian-archive-keyring.gpg

# bpo_apt SUITE[:ARCH] ARGS...: apt-get ARGS (apt-cache when ARGS starts with
# "cache") over SUITE alone, through the private configuration; with ARCH,
# that architecture's packages (lists of their own) instead of the host's.
bpo_apt() {
	local suite=${1%%:*} dir=$cache/apt/${1/:/-} tool=apt-get archopts=()
	case $1 in *:*) archopts=(-o APT::Architecture="${1#*:}" -o APT::Architectures="${1#*:}") ;; esac
	shift
	[ "$1" = cache ] && { tool=apt-cache; shift; }
	"$tool" "${archopts[@]}" -o Dir::Etc::SourceList="$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" -o Dir::State::status=/dev/null \
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null "$@"
}
# bpo_update SUITE[:ARCH]: fetch SUITE's lists unless they are younger than 12 h;
# apt checks the InRelease signature against the Debian archive keyring.
# SUITE may join several with "+" (trixie+trixie-backports: a backport and
# the release whose libraries it depends on).
bpo_update() {
	local suite=${1%%:*} dir=$cache/apt/${1/:/-} s
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" || return 1
	[ -f "$backports_keyring" ] || { echo "no $backports_keyring (debian-archive-keyring)" >&2; return 1; }
	for s in ${suite//+/ }; do
		printf 'deb [signed-by=%s] %s %s main\n' "$backports_keyring" "$backports_mirror" "$s"
	done >"$dir/sources.list"
	if [ -n "$(find "$dir/lists" -maxdepth 1 -name '*_InRelease' -mmin -720 2>/dev/null)" ]; then return 0; fi
	bpo_apt "$1" update -qq -o Acquire::Languages=none >&2
}
# pkg_candidate SUITE PACKAGE: the version SUITE offers.
pkg_candidate() { bpo_apt "$1" cache policy "$2" 2>/dev/null | awk '/Candidate:/ {print $2}'; }
# deb_path PACKAGE VERSION: where the cache keeps that package's .deb.
deb_path() { ls "$cache"/debs/"$1_${2//:/%3a}"_*.deb 2>/dev/null | head -n1; }
# fetch_deb SUITE|host PACKAGE VERSION: download it into the cache unless
# it is there already; prints its path.
fetch_deb() {
	local suite=$1 pkg=$2 ver=$3 deb
	mkdir -p "$cache/debs"
	deb=$(deb_path "$pkg" "$ver")
	if [ -z "$deb" ]; then
		if [ "$suite" = host ]; then
			(cd "$cache/debs" && apt-get download "$pkg=$ver" 2>&1 | grep -v unsandboxed) >&2
		else
			(cd "$cache/debs" && bpo_apt "$suite" download "$pkg=$ver" 2>&1 | grep -v unsandboxed) >&2
		fi
		deb=$(deb_path "$pkg" "$ver")
	fi
	[ -n "$deb" ] || { echo "cannot download $pkg $ver${suite:+ from $suite}" >&2; return 1; }
	echo "$deb"
}

# kernel_suite LANE: the suite whose linux-image-ARCH the lane boots, with
# ":arm64" for another architecture than the host's (bpo_apt).
kernel_suite() {
	local a=
	[ "$vm_arch" = "$(dpkg --print-architecture)" ] || a=:$vm_arch
	case $1 in
	6.1) if [ -z "$a" ]; then echo host; else echo "bookworm$a"; fi ;;
	6.12) echo "bookworm-backports$a" ;;
	7.3) echo "trixie-backports$a" ;;
	*) return 1 ;;
	esac
}
# kernel_packages LANE: "PACKAGE=VERSION" lines: the image the suite's
# metapackage points at, and the linux-binary-*/linux-modules-* packages
# newer kernels split it into.
kernel_packages() {
	local suite img ver dep
	suite=$(kernel_suite "$1") || { echo "unknown VM_KERNEL=$1 (6.1, 6.12, 7.3)" >&2; return 1; }
	if [ "$suite" = host ]; then
		img=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
		[ -n "$img" ] || { apt_update; img=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}'); }
		ver=$(apt-cache policy "$img" 2>/dev/null | awk '/Candidate:/ {print $2}')
		[ -n "$img" ] && [ -n "$ver" ] || { echo "cannot find Debian's kernel package (apt-cache depends linux-image-amd64)" >&2; return 1; }
		echo "$img=$ver"
		return
	fi
	bpo_update "$suite" || { echo "cannot read $suite's lists" >&2; return 1; }
	img=$(bpo_apt "$suite" cache depends "linux-image-$vm_arch" 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
	ver=$(pkg_candidate "$suite" "$img")
	[ -n "$img" ] && [ -n "$ver" ] || { echo "no linux-image-$vm_arch in $suite" >&2; return 1; }
	echo "$img=$ver"
	for dep in $(bpo_apt "$suite" cache depends "$img=$ver" 2>/dev/null | awk '/Depends: linux-(binary|modules)-[0-9]/ {print $2}'); do
		echo "$dep=$ver"
	done
}

# Modules the guest gets (the whole tree is 400 MB): the injectors, the
# CXL and NVDIMM drivers with everything they depend on, and scsi_debug
# with the SCSI disk driver (a disk whose medium errors are injected:
# 60-memory-failure's block:block_rq_error).
guest_modules='kernel/arch/x86/kernel/msr.ko* kernel/arch/x86/kernel/cpu/mce/mce-inject.ko*
kernel/drivers/cxl/*.ko* kernel/drivers/nvdimm/*.ko* kernel/drivers/dax/*.ko* kernel/drivers/dax/*/*.ko*
kernel/drivers/scsi/scsi_debug.ko* kernel/drivers/scsi/sd_mod.ko*'
# arm64: the hwpoison injector (the virtio console of the command channel,
# and virtio_pci under it, are built into Debian's arm64 kernels).
[ "$vm_arch" = arm64 ] && guest_modules='kernel/mm/hwpoison-inject.ko*'

# kernel_prepare LANE: the lane's kernel unpacked in the cache once: vmlinuz,
# kver, and modules.cpio (the guest modules, decompressed so that any kmod
# loads them, with depmod's indexes).  Prints the directory.
kernel_prepare() {
	local lane=$1 suite pkgs p key dir tmp deb kver mods m f
	# The repair lane's kernel is built, not downloaded, and never here: a
	# build takes far longer than the cache lock should be held
	# (tests/vm/repair/build-kernel.sh; make check-vm-repair runs it first).
	if [ "$lane" = repair ]; then
		"$here/repair/build-kernel.sh" --check ||
			{ echo "no repair-lane kernel built for this source and config: run tests/vm/repair/build-kernel.sh" >&2; return 1; }
		return 0
	fi
	suite=$(kernel_suite "$lane") || { echo "unknown VM_KERNEL=$lane (6.1, 6.12, 7.3)" >&2; return 1; }
	pkgs=$(kernel_packages "$lane") || return 1
	key=$(printf '%s\n' "kernel-3" $pkgs | sha256sum | cut -c1-16)
	dir=$cache/kernel-$arch_cache_prefix$lane-$key
	[ -f "$dir/ok" ] && { echo "$dir"; return 0; }
	note "preparing kernel $lane: $(echo $pkgs)" >&2
	tmp=$dir.tmp.$$
	rm -rf "$tmp" && mkdir -p "$tmp/x" "$tmp/m" || return 1
	for p in $pkgs; do
		deb=$(fetch_deb "$suite" "${p%%=*}" "${p#*=}") || return 1
		dpkg-deb -x "$deb" "$tmp/x" || return 1
	done
	# Debian 12's packages: boot/vmlinuz-KVER, lib/modules/KVER; the split
	# 7.x packages: usr/lib/modules/KVER/vmlinuz.
	mods=$(ls -d "$tmp"/x/lib/modules/*/ "$tmp"/x/usr/lib/modules/*/ 2>/dev/null | head -n1)
	[ -n "$mods" ] || { echo "no lib/modules in $pkgs" >&2; return 1; }
	mods=${mods%/}
	kver=$(basename "$mods")
	f=$(ls "$tmp/x/boot/vmlinuz-$kver" "$mods/vmlinuz" 2>/dev/null | head -n1)
	[ -n "$f" ] || { echo "no vmlinuz for $kver in $pkgs" >&2; return 1; }
	install -m644 "$f" "$tmp/vmlinuz" || return 1
	# Dependencies from depmod over the whole tree, then the closure.
	depmod -b "${mods%/lib/modules/*}" "$kver" || return 1
	local want=() seen=" " queue=()
	for m in $guest_modules; do
		for f in "$mods"/$m; do [ -f "$f" ] && queue+=("${f#"$mods"}"); done
	done
	while [ ${#queue[@]} -gt 0 ]; do
		m=${queue[0]#/}; queue=("${queue[@]:1}")
		case $seen in *" $m "*) continue ;; esac
		seen+="$m "
		want+=("$m")
		for f in $(awk -v m="$m:" '$1 == m { $1 = ""; print }' "$mods/modules.dep"); do queue+=("$f"); done
	done
	local out=$tmp/m/usr/lib/modules/$kver
	for m in "${want[@]}"; do
		case $m in
		*.ko.xz) install -D -m644 /dev/null "$out/${m%.xz}" && xz -dc "$mods/$m" >"$out/${m%.xz}" ;;
		*.ko.zst) install -D -m644 /dev/null "$out/${m%.zst}" && zstd -qdc "$mods/$m" >"$out/${m%.zst}" ;;
		*) install -D -m644 "$mods/$m" "$out/$m" ;;
		esac || return 1
	done
	cp "$mods"/modules.{builtin,builtin.modinfo,order} "$out/" 2>/dev/null
	# (7.x packages ship no modules.order or modules.builtin: depmod says so)
	depmod -b "$tmp/m/usr" "$kver" 2>&1 | grep -v 'WARNING: could not open modules\.' >&2
	[ -s "$out/modules.dep" ] || { echo "depmod wrote no modules.dep for $kver" >&2; return 1; }
	(cd "$tmp/m" && find . -mindepth 1 | cpio -o -H newc --quiet -R 0:0) >"$tmp/modules.cpio" || return 1
	echo "$kver" >"$tmp/kver"
	printf '%s\n' $pkgs >"$tmp/packages"
	rm -rf "$tmp/x" "$tmp/m"
	rm -rf "$dir" && mv "$tmp" "$dir" && touch "$dir/ok" || return 1
	# The unpacked kernel is what the cache keeps; its packages are not needed again.
	for p in $pkgs; do rm -f "$(deb_path "${p%%=*}" "${p#*=}")"; done
	# Older unpacked kernels of this lane are of no further use.
	for f in "$cache"/kernel-"$arch_cache_prefix$lane"-*; do [ "$f" = "$dir" ] || ! arch_owns "$f" || rm -rf "$f"; done
	echo "$dir"
}

# qemu_prepare VERSION: "host" (the host's qemu-system-x86_64), 10 (QEMU
# 10 from bookworm-backports, unpacked in the cache; it runs on bookworm's
# libraries, which the host's qemu-system-x86 pulls in) or 11 (qemu11_prepare).
# Prints the command and its firmware options.
qemu_prepare() {
	local want=$1 suite=bookworm-backports ver dir tmp p deb
	case $want in
	host) [ "$vm_arch" = amd64 ] || { echo "VM_ARCH=$vm_arch boots with QEMU 10 only" >&2; return 1; }
		echo qemu-system-x86_64; return 0 ;;
	10) ;;
	11) qemu11_prepare; return ;;
	*) echo "unknown VM_QEMU_VERSION=$want (host, 10, 11)" >&2; return 1 ;;
	esac
	bpo_update "$suite" || return 1
	ver=$(pkg_candidate "$suite" "$arch_qemu_package")
	case $ver in 1:10.*) ;; *) echo "$suite offers $arch_qemu_package '$ver', not 10.x" >&2; return 1 ;; esac
	dir=$cache/qemu-$arch_cache_prefix${ver//[:~+]/_}
	if [ ! -f "$dir/ok" ]; then
		note "preparing QEMU $ver from $suite" >&2
		tmp=$dir.tmp.$$
		rm -rf "$tmp" && mkdir -p "$tmp" || return 1
		for p in $arch_qemu_package qemu-system-common qemu-system-data $arch_qemu_firmware; do
			deb=$(fetch_deb "$suite" "$p" "$(pkg_candidate "$suite" "$p")") || return 1
			dpkg-deb -x "$deb" "$tmp" || return 1
		done
		rm -rf "$tmp/usr/share/doc" "$tmp/usr/share/man"
		rm -rf "$dir" && mv "$tmp" "$dir" && touch "$dir/ok" || return 1
		for p in $arch_qemu_package qemu-system-common qemu-system-data $arch_qemu_firmware; do
			rm -f "$(deb_path "$p" "$(pkg_candidate "$suite" "$p")")"
		done
		# Older QEMU 10 trees of this architecture (QEMU 11's are its own).
		for p in "$cache"/qemu-"$arch_cache_prefix"1_10.*; do [ "$p" = "$dir" ] || ! arch_owns "$p" || rm -rf "$p"; done
	fi
	echo "$dir/usr/bin/$arch_qemu_binary -L $dir/usr/share/qemu${arch_qemu_firmware:+ -L $dir/usr/share/$arch_qemu_firmware}"
}

# qemu11_prepare: QEMU 11 (trixie-backports' qemu-system-arm or -x86, pinned
# to the 11.x the archive serves), for the arm64 GHES boot: QEMU 10.2 added
# the QMP command inject-ghes-v2-error, and bookworm-backports stops at 10.0;
# and for the x86 repair lane (tests/vm/repair): QEMU 10.x's cxl-type3 has
# no maintenance commands (post-package repair, memory sparing).
# The package needs trixie's libc (libc6 >= 2.38; the host has 2.36), so it
# runs from a tree of its own: the package, its -common and -data, UEFI for
# arm64 (qemu-efi-aarch64: a GHES error source exists only in the ACPI
# tables that firmware installs) and the closure of their Depends from trixie
# and trixie-backports, downloaded by apt (each .deb checked against the
# archive's signed lists) and unpacked in the cache with nothing installed on
# the host; QEMU is started through the tree's own dynamic loader with the
# tree's libraries only (--inhibit-cache: never the host's), by a wrapper
# at the tree's top named as the binary.  Prints the command, as qemu_prepare.
qemu11_prepare() {
	local suites=trixie+trixie-backports ver dir tmp p deb ld lib bin pkgs=() out
	# Firmware: UEFI for arm64 (see above); SeaBIOS for x86, which
	# qemu-system-x86 11 needs newer than trixie's (its backport).
	local firmware=qemu-efi-aarch64 firmware_pkg=qemu-efi-aarch64 fwver
	bpo_update trixie-backports && bpo_update "$suites" || return 1
	if [ "$vm_arch" != arm64 ]; then
		firmware=seabios firmware_pkg=seabios
		fwver=$(pkg_candidate trixie-backports seabios)
		[ -z "$fwver" ] || firmware_pkg=seabios=$fwver
	fi
	ver=$(pkg_candidate trixie-backports "$arch_qemu_package")
	case $ver in 1:11.*) ;; *) echo "trixie-backports offers $arch_qemu_package '$ver', not 11.x" >&2; return 1 ;; esac
	dir=$cache/qemu-$arch_cache_prefix${ver//[:~+]/_}
	lib=$dir/usr/lib/x86_64-linux-gnu ld=$dir/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
	bin=$dir/usr/bin/$arch_qemu_binary
	if [ ! -f "$dir/ok" ] || [ ! -x "$dir/$arch_qemu_binary" ]; then
		note "preparing QEMU $ver from trixie-backports, with trixie's libraries in a tree of its own" >&2
		tmp=$dir.tmp.$$
		rm -rf "$tmp" && mkdir -p "$tmp" || return 1
		bpo_apt "$suites" clean
		# A private status file (none): apt resolves every Depends down to libc6.
		out=$(bpo_apt "$suites" install -q -d -y --no-install-recommends "$arch_qemu_package=$ver" \
			"qemu-system-common=$ver" "qemu-system-data=$ver" "$firmware_pkg" 2>&1) ||
			{ printf '%s\n' "$out" | tail -n 20 >&2; echo "cannot download QEMU $ver and its libraries" >&2; return 1; }
		for deb in "$cache/apt/$suites"/cache/archives/*.deb; do
			dpkg-deb -x "$deb" "$tmp" || return 1
			p=${deb##*/}; pkgs+=("${p%%_*}=$(dpkg-deb -f "$deb" Version)")
		done
		printf '%s\n' "${pkgs[@]}" >"$tmp/packages"
		bpo_apt "$suites" clean
		# What the GHES boot does not use: documentation, and the 380 MB of
		# secure-boot firmware variants (it boots QEMU_EFI.fd).
		rm -rf "$tmp"/usr/share/{doc,man,locale,info,lintian,AAVMF}
		# Every library QEMU needs must come from the tree.
		out=$("${ld/#"$dir"/"$tmp"}" --inhibit-cache --library-path "${lib/#"$dir"/"$tmp"}" --list "${bin/#"$dir"/"$tmp"}" 2>&1)
		if grep -v -e "$tmp/" -e 'linux-vdso' <<<"$out" | grep -q .; then
			printf '%s\n' "$out" | grep -v "$tmp/" >&2
			echo "QEMU $ver: libraries missing from the tree or taken from outside it" >&2
			return 1
		fi
		# QEMU_MODULE_DIR: its own modules, never the host QEMU's.
		printf '#!/bin/sh\n# QEMU %s from trixie-backports on this tree'"'"'s libraries only (tests/vm/kernels.sh)\nQEMU_MODULE_DIR=%s/qemu exec %s --inhibit-cache --library-path %s %s "$@"\n' \
			"$ver" "$lib" "$ld" "$lib" "$bin" >"$tmp/$arch_qemu_binary" && chmod 755 "$tmp/$arch_qemu_binary" || return 1
		rm -rf "$dir" && mv "$tmp" "$dir" && touch "$dir/ok" || return 1
		for p in "$cache"/qemu-"$arch_cache_prefix"1_11.*; do [ "$p" = "$dir" ] || ! arch_owns "$p" || rm -rf "$p"; done
	fi
	echo "$dir/$arch_qemu_binary -L $dir/usr/share/qemu -L $dir/usr/share/$firmware"
}
