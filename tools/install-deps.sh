#!/bin/sh
# Installs everything mcelogd needs to build and test on Debian 12 (run as
# root).  The VM rig (tests/vm/) installs its own extra packages.
set -eu

packages="build-essential autoconf automake pkg-config
	libsystemd-dev libjson-c-dev libmnl-dev libcmocka-dev
	systemd jq util-linux bsdutils clang libclang-rt-14-dev mandoc time"

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
