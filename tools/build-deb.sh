#!/bin/bash
# Builds the Debian package from this checkout, the way a Debian user would
# (dpkg-buildpackage -us -uc -b), and runs lintian on it.  Exits non-zero if
# the build fails or lintian reports an error or a warning.
#
#   tools/build-deb.sh [OUTDIR]      (default OUTDIR: _build/deb)
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
out=${1:-$top/_build/deb}
say() { echo "build-deb: $*"; }
die() { echo "build-deb: $*" >&2; exit 1; }

if [ "$(id -u)" = 0 ]; then
	export DEBIAN_FRONTEND=noninteractive
	need=
	for p in dpkg-dev debhelper lintian; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' || need="$need $p"
	done
	# build-dep ./ reads debian/control: the list lives in one place.
	{ apt-get update -qq &&
		{ [ -z "$need" ] || apt-get install -y -qq --no-install-recommends $need >/dev/null; } &&
		apt-get build-dep -y -qq --no-install-recommends "$top" >/dev/null; } ||
		die "cannot install the build dependencies"
fi
command -v dpkg-buildpackage >/dev/null && command -v lintian >/dev/null && command -v dh >/dev/null ||
	die "needs dpkg-dev, debhelper and lintian (run as root to install them)"

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

say "dpkg-buildpackage -us -uc -b in $src (DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS:-})"
t0=$(date +%s)
(cd "$src" && dpkg-buildpackage -us -uc -b) >"$scratch/build.log" 2>&1 ||
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
