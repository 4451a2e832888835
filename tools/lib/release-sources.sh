# Sourced by tools/fresh-root.sh and tests/vm/run.sh: the apt sources files
# mmdebstrap is given for a Debian release, taken from this host's own, so
# that a root or guest image of any release comes from the mirror (and
# through the proxy) this machine, or CI, can reach.
#
# release_sources SUITE DIR: prints the host's sources files (one path a
# line) that name SUITE.  Where none does and the host runs another release,
# the host release's files with its name replaced by SUITE (HOST-updates and
# HOST-security become SUITE-updates and SUITE-security: the same mirrors)
# are written into DIR, in the same format (.list or deb822 .sources), and
# their paths printed instead.  Prints nothing if neither exists.
release_sources() {
	local suite=$1 dir=$2 f to host found=
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && grep -qE "^[^#]*[[:space:]]$suite([[:space:]]|$)" "$f" && { echo "$f"; found=1; }
	done
	[ -z "$found" ] || return 0
	host=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
	[ -n "$host" ] && [ "$host" != "$suite" ] || return 0
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && grep -qE "^[^#]*[[:space:]]$host([[:space:]]|-|$)" "$f" || continue
		to=$dir/$(echo "$f" | tr / _)
		sed -E "/^[^#]/s/\<$host(-[a-z]+)?\>/$suite\1/g" "$f" >"$to" || return 1
		echo "$to"
	done
}
