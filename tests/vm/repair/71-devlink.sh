# Issue 38 #3: a devlink health report produced the way a driver produces it
# in the field (devlink_health_report(), then its reporter's recovery), on a
# real kernel.  Debian's kernels have no netdevsim; the repair lane's kernel
# (build-kernel.sh, kernel.config) is built with CONFIG_NETDEVSIM, so this
# runs in that lane's boot, before 70 restarts mcelogd with its own
# configuration: the same machine line (cxl-boot.sh with the repair kernel
# and QEMU 11), so no boot of its own.  The checks are 61-aer's
# (tests/vm/lib/devlink.sh): both devlink events read and kept in the ras
# trace instance, their formats as the test data lays them out, and three
# reports and one aborted recovery of netdevsim's "dummy" reporter, each
# logged once with driver, device, reporter, message and health state.
. "$srcdir/tests/vm/lib/cxl-boot.sh"
. "$srcdir/tests/vm/lib/devlink.sh"
VM_KERNEL=repair
VM_QEMU_VERSION=11
VM_DESC="devlink health: netdevsim's reporter made to report and to fail its recovery, each logged once"

scenario() {
	check "devlink: the kernel has netdevsim (CONFIG_NETDEVSIM, built in)" guest 'test -d /sys/bus/netdevsim'
	devlink_health
}
