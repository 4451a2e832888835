# Issue 29, items 3 and 5, on arm64: the guest is a Debian arm64 root with
# systemd as PID 1 on Debian's arm64 kernel under qemu-system-aarch64 -M virt
# -cpu max (TCG); mcelogd comes from the arm64 .deb (dpkg -i, whose
# maintainer scripts enable and start the unit) and runs as the systemd
# service with the real journald.
VM_DESC="aarch64 guest: mcelogd from the arm64 .deb, running under systemd with the real journald"

scenario() {
	local st
	is "$(guest 'uname -m')" aarch64 "arm64: the guest kernel is aarch64"
	note "guest: $(guest 'uname -r; dpkg --print-architecture; . /etc/os-release; echo $PRETTY_NAME' | tr '\n' ' ')"
	is "$(guest 'dpkg-query -W -f="\${Status} \${Architecture}" mcelogd')" "install ok installed arm64" \
		"arm64: mcelogd is installed from the arm64 package"
	check "arm64: the binaries are aarch64 programs" guest \
		'od -An -tx1 -j18 -N2 /usr/sbin/mcelogd | grep -qx " b7 00" && od -An -tx1 -j18 -N2 /usr/bin/mcectl | grep -qx " b7 00"'
	is "$(guest 'readlink /proc/1/exe')" /usr/lib/systemd/systemd "arm64: systemd is PID 1"
	is "$(guest 'systemctl is-active mcelogd.service systemd-journald.service | tr "\n" " "')" "active active " \
		"arm64: mcelogd.service and systemd-journald are active"
	is "$(guest 'systemctl is-enabled mcelogd.service')" enabled "arm64: the package enabled the unit"
	check "arm64: mcelogd logs to the journal (its start-up lines under -u mcelogd)" \
		guest 'journalctl -b -u mcelogd.service -o cat | grep -q .'
	# No mce:mce_record is normal here: a notice, not a warning as on x86.
	is "$(mcelogd_warnings)" "" "arm64: mcelogd logged no warnings at start"
	st=$(guest 'mcectl status --output json')
	note "sources: $(jq -c '[.sources[] | {name, state}]' <<<"$st" | head -c 1200)"
	# No machine-check tracepoint on arm64: the ras:* events are the live sources.
	check "arm64: mcectl status answers, with ras:* sources active" \
		test "$(jq -r '[.sources[] | select((.name | startswith("ras:")) and .state == "active")] | length' <<<"$st")" -gt 0
}
