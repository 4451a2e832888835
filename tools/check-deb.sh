#!/bin/bash
# Installs the Debian package built by tools/build-deb.sh and checks what a
# user gets: the files in their places, the unit enabled and valid, the
# tmpfiles snippet applied, the configuration a conffile, the programs
# running with only the package's declared dependencies; then purges it and
# checks that nothing is left.  Meant for a fresh root, as root:
#
#   tools/fresh-root.sh tools/check-deb.sh            (Debian 12)
#   tools/fresh-root.sh --release trixie tools/check-deb.sh
#
# There it builds the package first (tools/build-deb.sh, with
# DEB_BUILD_OPTIONS=nocheck unless DEB_BUILD_OPTIONS is set), then removes
# every package the build installed, so that apt installs the .deb into
# the minimal root with what its Depends name and nothing else.  Given
# .deb files as arguments, it installs those instead and builds nothing.
# TAP output; exits non-zero if a check fails.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" = 0 ] || { echo "check-deb: needs root (it installs packages)" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
check() { # check DESCRIPTION COMMAND...: ok if COMMAND succeeds
	local d=$1; shift
	if "$@" >/tmp/check-deb.out 2>&1; then ok "$d"; else not_ok "$d"; sed 's/^/# /' /tmp/check-deb.out; fi
}
installed() { dpkg-query -W -f='${db:Status-Status}\n' "$1" 2>/dev/null | grep -qx installed; }

if [ $# -gt 0 ]; then
	debs=("$@")
else
	apt-get update -qq || exit 1
	# Manually installed packages before the build: what stays afterwards.
	before=$(apt-mark showmanual | sort)
	out=$(mktemp -d /tmp/mcelogd-debs.XXXXXX)
	DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS-nocheck} "$top/tools/build-deb.sh" "$out" || exit 1
	# apt-get build-dep marks what it installs as manual: those go again,
	# with everything they pulled in.
	added=$(comm -13 <(echo "$before") <(apt-mark showmanual | sort) | tr '\n' ' ')
	echo "check-deb: removing what the build installed: $added"
	# shellcheck disable=SC2086
	apt-get purge -y -qq $added >/dev/null && apt-get autoremove --purge -y -qq >/dev/null || exit 1
	debs=("$out"/mcelogd_*.deb)
fi
. /etc/os-release
echo "# Debian ${VERSION_ID:-?} ($VERSION_CODENAME), ${debs[*]##*/}"

# ------------------------------------------------------------ install
check "installs into this root with its Depends only" apt-get install -y -qq --no-install-recommends "${debs[@]}"
installed mcelogd || { echo "Bail out! mcelogd is not installed"; exit 1; }

# The unit and tmpfiles directories are the release's own (systemd.pc):
# /lib on Debian 12, /usr/lib on Debian 13.
unit=$(dpkg -L mcelogd | grep -m1 '/systemd/system/mcelogd\.service$')
for f in /usr/sbin/mcelogd /usr/bin/mcectl "$unit" \
	/usr/lib/tmpfiles.d/mcelogd.conf /usr/lib/systemd/catalog/mcelogd.catalog \
	/etc/mcelogd/mcelogd.conf /usr/lib/mcelogd/rules.d/10-memory-page.rules \
	/usr/share/mcelogd/drop-ins/msr-clear.conf /usr/share/mcelogd/drop-ins/cpu-offline.conf \
	/usr/share/mcelogd/drop-ins/metrics.conf /usr/share/mcelogd/drop-ins/repair.conf \
	/usr/share/mcelogd/prometheus/mcelogd.rules.yml \
	/usr/share/mcelogd/pipelines/rsyslog-mcelogd.conf \
	/usr/share/man/man8/mcelogd.8.gz /usr/share/man/man1/mcectl.1.gz \
	/usr/share/man/man5/mcelogd.conf.5.gz /usr/share/man/man5/mcelogd.rules.5.gz \
	/usr/share/bash-completion/completions/mcectl /usr/share/bash-completion/completions/mcelogd \
	/usr/share/zsh/vendor-completions/_mcectl /usr/share/doc/mcelogd/copyright; do
	check "ships $f" test -s "$f"
done
check "the unit runs /usr/sbin/mcelogd" grep -qx 'ExecStart=/usr/sbin/mcelogd --foreground' "$unit"
check "the five shipped rules" test "$(ls /usr/lib/mcelogd/rules.d/*.rules | wc -l)" = 5
check "/etc/mcelogd/mcelogd.conf is a conffile" grep -qx /etc/mcelogd/mcelogd.conf /var/lib/dpkg/info/mcelogd.conffiles
# dh_installsystemd's postinst: enabled (deb-systemd-helper), also with no
# systemd running; dh_installtmpfiles': /var/lib/mcelogd made now.
check "enabled: multi-user.target wants mcelogd.service" \
	test -L /etc/systemd/system/multi-user.target.wants/mcelogd.service
if command -v systemd-tmpfiles >/dev/null; then
	check "postinst applied the tmpfiles snippet: /var/lib/mcelogd 0700" \
		test "$(stat -c %a /var/lib/mcelogd 2>/dev/null)" = 700
fi
check "mcelogd --test-config accepts the shipped configuration and rules" /usr/sbin/mcelogd --test-config
check "mcectl decodes a record" sh -c \
	'mcectl decode --status 0xdc2040000400011b --bank 21 --cpu-id amd:0x19:0x61 | grep -q "corrected: Generic-level cache read error"'

# systemd itself, for systemd-analyze verify and systemctl is-enabled:
# the package needs only libsystemd0, a fresh root has no systemd.
if ! installed systemd; then apt-get install -y -qq --no-install-recommends systemd >/dev/null; fi
check "systemctl is-enabled mcelogd" sh -c 'systemctl is-enabled mcelogd | grep -qx enabled'
# verify loads the unit and checks the programs it runs (ExecReload's
# /bin/kill is procps', a Depends).  Not the man pages: a minimal root has
# no man-db, and they are checked above as files.
check "systemd-analyze verify mcelogd.service" systemd-analyze verify --man=no "$unit"
check "the catalog is in journalctl's database" sh -c \
	'journalctl --update-catalog && journalctl --list-catalog d90772f9176e45e88ae80c46f01c0915 | grep -q d90772f9176e45e88ae80c46f01c0915'

# -------------------------------------------------------------- purge
check "purges" apt-get purge -y -qq mcelogd
check "nothing of it left in /etc" sh -c '! test -e /etc/mcelogd && ! test -e /etc/systemd/system/multi-user.target.wants/mcelogd.service'
check "nothing of it left in /usr" sh -c '! test -e /usr/sbin/mcelogd && ! test -e /usr/lib/mcelogd && ! test -e /usr/share/mcelogd'

echo "1..$n"
[ "$failed" = 0 ] && echo "check-deb: all $n checks passed" || echo "check-deb: $failed of $n checks FAILED"
[ "$failed" = 0 ]
