#!/bin/sh
# Installs everything mcelogd needs to build and test on Debian 12 or 13 (run
# as root): every program the build, tools/run-daemon.sh, tools/run-tests.sh and
# the tests call, beyond what a minimal Debian (mmdebstrap --variant=minbase)
# has.  tools/fresh-root.sh checks exactly that: CI runs the README's
# commands in such a root, so a tool missing here fails there.
# The VM rig (tests/vm/run.sh) installs its own host packages (QEMU,
# mmdebstrap, cpio, socat, jq, and kmod and xz-utils for the guest kernels'
# modules) when make check-vm runs it; tests/vm/repair/build-kernel.sh (make
# check-vm-repair) installs what a kernel build needs (flex, bison, bc,
# libelf-dev, libssl-dev).
set -eu

# package             what calls it
packages="
build-essential       gcc, make: the build
autoconf automake     autogen.sh (autoreconf)
pkg-config            configure (libraries), tests/fuzz/run.sh
libsystemd-dev libjson-c-dev libmnl-dev   the libraries
libcmocka-dev         the unit tests
libipt-dev            mcectl pt (Intel PT decoding) and its tests
libpfm4-dev           the counter snapshot: PMU event names of Counters= (mcelogd)
clang @CLANG_RT@      the clang build; make fuzz (libFuzzer)
systemd               systemd-journald and journalctl: tests/integration, tests/catalog.sh
jq                    tests/integration/*.sh
socat                 tests/integration/status.sh (raw clients of the control socket)
util-linux            unshare, setpriv, mountpoint: tests/integration, tools/run-daemon.sh
bsdutils              logger: tests/integration/journal.sh
hostname              tests/integration/journal.sh
tzdata                tests/unit/test-timespec (local time zones)
time                  /usr/bin/time: bench/decode-bench.sh
linux-perf            perf stat: bench/journal-bench.sh (means of short runs)
strace                tests/integration/summary.sh (that a summary's second half ran in a thread)
valgrind              make check-valgrind: the daemon under memcheck in tools/run-tests.sh
mandoc                mandoc -l man/mcelogd.8: the man pages in the tree (no test)
prometheus            prometheus and promtool: tests/integration/metrics.sh, alerts.sh
prometheus-node-exporter   its textfile collector: tests/integration/metrics.sh, alerts.sh
prometheus-alertmanager    tests/integration/alerts.sh (the shipped rules' alerts, delivered to a webhook)
zsh                   tests/completions.sh (zsh -n on the zsh completion)
curl                  tests/integration/metrics.sh, alerts.sh, fleet.sh (HTTP to node_exporter, Prometheus, journal-remote)
systemd-journal-remote   systemd-journal-upload and -remote: tests/integration/fleet.sh
python3-minimal       tests/integration/rules-daemon.sh (a NOTIFY_SOCKET listener for RELOADING=1/READY=1), alerts.sh (webhook-receiver.py)
"
# libFuzzer and the sanitizer runtimes ship apart from clang, under the
# release's clang version: Debian 12's clang is 14, Debian 13's 19.
. /etc/os-release
case ${VERSION_CODENAME:-} in
bookworm) clang_rt=libclang-rt-14-dev ;;
trixie) clang_rt=libclang-rt-19-dev ;;
*) echo "Debian ${VERSION_CODENAME:-?}: not Debian 12 or 13; taking libclang-rt-dev, whatever clang it follows"
	clang_rt=libclang-rt-dev ;;
esac
packages=$(printf '%s\n' "$packages" | sed -e 's/  .*//' -e "s/@CLANG_RT@/$clang_rt/" | tr '\n' ' ')
# Debian builds libipt for x86 only (Intel PT is x86 hardware); configure
# builds without it elsewhere.
case $(dpkg --print-architecture) in
amd64|i386|x32) ;;
*) packages=$(echo "$packages" | sed 's/ libipt-dev / /') ;;
esac

# syslog-ng-core: tests/integration/pipelines.sh.  Debian lets only one syslog
# daemon be installed: on a machine that runs rsyslog, installing syslog-ng
# would remove it, so the test is skipped there instead (it says why);
# rsyslog's own recipe runs in the VM guest.
if dpkg-query -W -f='${Status}\n' rsyslog 2>/dev/null | grep -q 'install ok installed'; then
	echo "Not installing syslog-ng-core: rsyslog is installed (tests/integration/pipelines.sh will skip)"
else
	packages="$packages syslog-ng-core"
fi

missing=
for p in $packages; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "Installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
