#!/bin/bash
# Builds the Debian package from this checkout, the way a Debian user would
# (dpkg-buildpackage -us -uc -b), and runs lintian on it.  Exits non-zero if
# the build fails or lintian reports an error or a warning.
#
#   tools/build-deb.sh [--arch ARCH] [OUTDIR]   (default OUTDIR: _build/deb)
#
# --arch ARCH cross-builds for another Debian architecture (arm64):
# dpkg-buildpackage -a ARCH with DEB_BUILD_OPTIONS=nocheck (the test programs
# would be ARCH binaries; tools/check-arm64.sh runs make check for arm64).
# As root it adds ARCH to dpkg's architectures and installs the cross
# compiler and ARCH's build dependencies, so run it in a root of its own:
#   tools/fresh-root.sh tools/build-deb.sh --arch arm64 /var/cache/mcelogd-vm/deb-arm64
# (the fresh root binds the VM rig's cache, which keeps the result; the
# arm64 VM rig, make check-vm-arm64, does exactly this).
#
# As root it first installs what it needs (dpkg-dev, debhelper, lintian and
# the Build-Depends of debian/control, with apt-get build-dep); otherwise
# they must be installed already.  The tree is copied to a scratch directory
# (the files git tracks plus untracked ones it does not ignore), because
# dpkg-buildpackage writes its .deb files into the parent of the tree it
# builds and leaves build output in the tree.  OUTDIR receives the .deb
# files, the .changes and .buildinfo, and lintian.txt.
#
# DEB_BUILD_OPTIONS is passed through: nocheck skips make check during the
# build (CI runs make check in the same root already).
# tools/check-deb.sh installs the result and checks it.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
say() { echo "build-deb: $*"; }
die() { echo "build-deb: $*" >&2; exit 1; }
arch=
case ${1:-} in
-h|--help) sed -n '2,/^set -uo pipefail/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
--arch) [ $# -ge 2 ] || die "--arch needs a Debian architecture"; arch=$2; shift 2 ;;
--arch=*) arch=${1#--arch=}; shift ;;
esac
[ "$arch" = "$(dpkg --print-architecture)" ] && arch=
out=${1:-$top/_build/deb}
# Cross: the host's dpkg-buildpackage -a, the target's libraries (multiarch).
cross_opts=() build_dep_opts=()
if [ -n "$arch" ]; then
	cross_opts=(-a "$arch")
	build_dep_opts=(-a "$arch")
	export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:+$DEB_BUILD_OPTIONS }nocheck"
fi

if [ "$(id -u)" = 0 ]; then
	export DEBIAN_FRONTEND=noninteractive
	need=
	for p in dpkg-dev debhelper lintian; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' || need="$need $p"
	done
	if [ -n "$arch" ]; then
		dpkg --add-architecture "$arch" || die "cannot add architecture $arch"
		need="$need crossbuild-essential-$arch"
	fi
	# build-dep ./ reads debian/control: the list lives in one place.  Only
	# when something is missing: make check-vm builds the package at every
	# run, where apt-get update alone cost seconds and needed the archive.
	if [ -n "$need" ] || ! command -v dpkg-checkbuilddeps >/dev/null ||
		! (cd "$top" && dpkg-checkbuilddeps "${build_dep_opts[@]}" >/dev/null 2>&1); then
		{ apt-get update -qq &&
			{ [ -z "$need" ] || apt-get install -y -qq --no-install-recommends $need >/dev/null; } &&
			apt-get build-dep -y -qq --no-install-recommends "${build_dep_opts[@]}" "$top" >/dev/null; } ||
			die "cannot install the build dependencies"
	fi
fi
command -v dpkg-buildpackage >/dev/null && command -v lintian >/dev/null && command -v dh >/dev/null ||
	die "needs dpkg-dev, debhelper and lintian (run as root to install them)"
if [ -n "$arch" ]; then
	gnu=$(dpkg-architecture -a "$arch" -qDEB_HOST_GNU_TYPE 2>/dev/null) || die "unknown architecture $arch"
	command -v "$gnu-gcc" >/dev/null || die "needs $gnu-gcc (crossbuild-essential-$arch; run as root to install it)"
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/mcelogd-deb.XXXXXX") || die "cannot create a scratch directory"
trap 'rm -rf "$scratch"' EXIT
version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version) || die "cannot read debian/changelog"
src=$scratch/mcelogd-$version
mkdir -p "$src"
if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git -C "$top" ls-files -z --cached --others --exclude-standard --deduplicate |
		(cd "$top" && while IFS= read -r -d '' f; do [ -e "$f" ] || [ -L "$f" ] && printf '%s\0' "$f"; done) |
		tar -C "$top" --null -T - -cf - | tar -C "$src" -xf - || die "cannot copy the checkout"
else
	tar -C "$top" --exclude=./_build --exclude=./debian/mcelogd -cf - . | tar -C "$src" -xf - ||
		die "cannot copy $top"
fi

say "dpkg-buildpackage ${cross_opts[*]} -us -uc -b in $src (DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS:-})"
t0=$(date +%s)
(cd "$src" && dpkg-buildpackage "${cross_opts[@]}" -us -uc -b) >"$scratch/build.log" 2>&1 ||
	{ tail -80 "$scratch/build.log"; die "dpkg-buildpackage failed"; }
say "built in $(( $(date +%s) - t0 ))s"

rm -rf "$out" && mkdir -p "$out" || die "cannot create $out"
changes=$(ls "$scratch"/mcelogd_"$version"_*.changes) || die "no .changes file"
# The .changes names everything the build made.
cp "$changes" "$scratch"/*.deb "$scratch"/*.buildinfo "$out"/ || die "cannot copy to $out"
ls "$scratch"/*.ddeb >/dev/null 2>&1 && cp "$scratch"/*.ddeb "$out"/
cp "$scratch/build.log" "$out/build.log"
for d in "$out"/*.deb; do
	echo "--- ${d##*/}"
	dpkg-deb --info "$d" | sed -n '/^ Package:/,$p'
	dpkg-deb --contents "$d" | awk '{ print "  " $1, $6, $7, $8 }'
done

# Errors and warnings fail; info and pedantic tags are shown, for the reader.
# lintian refuses to run as root unless told it may.
say "lintian $(lintian --version | awk '{ print $2 }') on ${changes##*/}"
lintian --allow-root --display-info --pedantic --show-overrides --fail-on error,warning "$out/${changes##*/}" >"$out/lintian.txt" 2>&1
rc=$?
cat "$out/lintian.txt"
[ "$rc" = 0 ] || die "lintian: errors or warnings (exit $rc)"
say "lintian: $(grep -c '^[EWIP]:' "$out/lintian.txt") tags (no errors or warnings); packages in $out"
