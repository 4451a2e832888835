# Sourced by the scenarios that drive the shipped page rule (memory-page-ce:
# ten corrected errors on one page) with errors written into the bank
# registers through the QEMU monitor: 66, 80.  Needs an Intel guest CPU: the
# kernel's rule, which mcelogd follows, takes a page from an Intel record with
# ADDRV, MISCV and a physical address mode in MISC.

. "$srcdir/tests/vm/lib/free-page.sh"
# hwpoison PFN: 1 if the kernel marked the page poisoned (KPF_HWPOISON, bit 19),
# waiting up to 5 s (the alert is logged just before the page is offlined).
hwpoison() {
	guest "for i in \$(seq 50); do
	f=\$(od -An -tu8 -j \$(($1 * 8)) -N 8 /proc/kpageflags | awk '{ print int(\$1 / 524288) % 2 }')
	[ \"\$f\" = 1 ] && break; sleep 0.1; done; echo \$f"
}
corrupted_kb() { guest "awk '/^HardwareCorrupted:/ { print \$2 }' /proc/meminfo"; }
alerts_for() { # alerts_for KEY: alert entries of this boot for that rule key
	guest "journalctl -b -o json --no-pager MESSAGE_ID=$(msgid ALERT) MCE_RULE_KEY=$1"
}
# wait_alert KEY: how many alerts for KEY this boot, once there is one (10 s at most).
wait_alert() {
	local n=0 i
	for i in $(seq 20); do
		n=$(alerts_for "$1" | grep -c .)
		[ "$n" -ge 1 ] && break
		sleep 0.5
	done
	echo "$n"
}
# inject_ce N ADDR [BANK]: the Nth corrected memory-controller read error at
# ADDR (MCi_STATUS VAL EN MISCV ADDRV, MCACOD 0x0092; MISC 0x86: physical
# address) in BANK (default 3), and wait until mcelogd logged it, so that no
# two share the bank registers.
inject_ce() {
	local st=0x9c00004000010092 a
	a=$(printf '0x%016x' "$2")
	inject_monitor 1 "${3:-3}" $st 0 "$a" 0x0000000000000086 >/dev/null &&
		wait_records "$1" ".status == \"$st\" and .addr == \"$a\"" 30 >/dev/null
}
# admin_rule FILE TEXT: an admin's rule file TEXT (printf format) in the build's
# rules.d (under its sysconfdir: /usr/local/etc for a tree install), and a
# reload that took it (the log's "Rules reloaded" count grew).
admin_rule() {
	guest "
rd=\$(mcelogd --help | sed -n 's|.*configuration file (default \\(.*\\)/mcelogd.conf).*|\\1|p')/rules.d
mkdir -p \$rd
printf '$2' >\$rd/$1
c=\$(journalctl -b -u mcelogd -o cat | grep -c 'Rules reloaded: .* rules in effect')
systemctl reload mcelogd && for i in \$(seq 20); do
	[ \$(journalctl -b -u mcelogd -o cat | grep -c 'Rules reloaded: .* rules in effect') -gt \$c ] && exit 0; sleep 0.5; done; exit 1"
}
