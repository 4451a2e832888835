# Issue 25, item 4: CPU hotplug at scale, in 15-many-cpus's 64-vCPU boot.
# 63 CPUs taken offline and brought back one after another, then all at
# once in a burst (parallel writes to the online files): mcelogd's readers
# follow (STATUS= back to 64 CPUs, the counter recorder on 64), and
# corrected errors raised afterwards on CPUs across the range are each
# logged exactly once with their CPU.
VM_DESC="64 vCPUs: 63 CPUs offline and online, one by one and in a burst; readers right, nothing twice"
VM_CPU="qemu64,+mce,+mca,vendor=GenuineIntel,family=6,model=63,stepping=2"  # as 17: one boot for the set
VM_SMP=64
VM_APPEND="mcelogd_vm.check_interval=1"

. "$srcdir/tests/vm/lib/hotplug.sh"

scenario() {
	local t s cpu st n
	t=$(date +%s)
	check "many-cpus hotplug: CPUs 1-63 offline one after another" guest '
		for c in $(seq 1 63); do echo 0 >/sys/devices/system/cpu/cpu$c/online || exit 1; done
		[ "$(cat /sys/devices/system/cpu/online)" = 0 ]' 600
	s=$(hotplug_status 1 120)
	check "many-cpus hotplug: STATUS= says 1 CPU ($s)" grep -q " on 1 CPUs" <<<"$s"
	check "many-cpus hotplug: CPUs 1-63 online one after another" guest '
		for c in $(seq 1 63); do echo 1 >/sys/devices/system/cpu/cpu$c/online || exit 1; done
		[ "$(cat /sys/devices/system/cpu/online)" = 0-63 ]' 600
	s=$(hotplug_status 64 120)
	check "many-cpus hotplug: STATUS= says 64 CPUs again ($s)" grep -q " on 64 CPUs" <<<"$s"
	note "many-cpus hotplug: one by one, 63 down and up, took $(( $(date +%s) - t ))s"

	t=$(date +%s)
	check "many-cpus hotplug: a burst: CPUs 1-63 offline at once, then online at once" guest '
		for c in $(seq 1 63); do echo 0 >/sys/devices/system/cpu/cpu$c/online & done; wait
		[ "$(cat /sys/devices/system/cpu/online)" = 0 ] || exit 1
		for c in $(seq 1 63); do echo 1 >/sys/devices/system/cpu/cpu$c/online & done; wait
		[ "$(cat /sys/devices/system/cpu/online)" = 0-63 ]' 600
	s=$(hotplug_status 64 120)
	check "many-cpus hotplug: after the burst STATUS= says 64 CPUs ($s)" grep -q " on 64 CPUs" <<<"$s"
	note "many-cpus hotplug: the burst took $(( $(date +%s) - t ))s"
	check "many-cpus hotplug: the counter recorder follows: 64 CPUs" guest '
		mcectl status --output json | jq -e ".snapshots[] | select(.name == \"counters\") | .cpus == 64"'

	# The machine checks afterwards: each CPU's poller finds its own bank, so each
	# record comes from the reader reopened on that CPU.
	for cpu in 1 17 32 48 63; do
		st=$(printf '0x9c0000400001%04x' $((0x0a00 + cpu)))
		check "many-cpus hotplug: QEMU accepts a CE on CPU $cpu" inject_monitor "$cpu" 3 "$st" 0 0x2345000 0x86
	done
	wait_records 5 '.status | startswith("0x9c00004000010a")' 120 >/dev/null
	sleep 3 # the kernel polls every second: time for a duplicate to show
	for cpu in 1 17 32 48 63; do
		st=$(printf '0x9c0000400001%04x' $((0x0a00 + cpu)))
		n=$(query_json | jq -c "select(.status == \"$st\") | [.cpu, .source]")
		is "$n" "[$cpu,\"tracepoint\"]" "many-cpus hotplug: the CE on CPU $cpu logged once, from its CPU's reader"
	done
}
