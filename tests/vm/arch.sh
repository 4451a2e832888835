# Sourced by tests/vm/run.sh: what differs between the guest architectures,
# one row each.  VM_ARCH picks the row (default amd64):
#
#   amd64  qemu-system-x86_64 -cpu qemu64,+mce,+mca, console ttyS0, the
#          command channel on the second 16550 (ttyS1), the build under test
#          copied in from --destdir; scenarios in tests/vm/scenarios.
#   arm64  qemu-system-aarch64 -M virt -cpu max (QEMU 10, qemu-system-arm
#          from bookworm-backports), console ttyAMA0; the virt machine has a
#          single PL011, so the command channel is a virtio console (hvc0)
#          on PCI (Debian's arm64 kernel builds in virtio_pci, the generic
#          PCI host and virtio_console; virtio_mmio is a module);
#          the guest root is Debian arm64 (mmdebstrap --arch=arm64, whose
#          maintainer scripts run under qemu-user through binfmt_misc), and
#          mcelogd comes from the arm64 .deb (--deb FILE, dpkg -i in the
#          guest: the package is what the test proves); scenarios in
#          tests/vm/arm64.  Its kernel lanes are the same suites' arm64
#          kernels; 6.1 is bookworm's, fetched like the backports (the host
#          has no arm64 in its dpkg architectures).
#
# Uses from run.sh: $here.

vm_arch=${VM_ARCH:-amd64}
case $vm_arch in
amd64)
	arch_qemu_package=qemu-system-x86      # QEMU 10 from bookworm-backports
	arch_qemu_binary=qemu-system-x86_64
	arch_qemu_firmware=seabios             # packages whose files QEMU finds with -L
	arch_machine=
	arch_default_cpu='qemu64,+mce,+mca'
	arch_default_kernel=6.1
	arch_console=ttyS0
	arch_agent_device=/dev/ttyS1
	arch_agent_qemu='-serial chardev:cmd'
	arch_cache_prefix=                     # cache entries keep their names of before
	arch_host_packages=
	arch_scenarios=$here/scenarios
	;;
arm64)
	arch_qemu_package=qemu-system-arm
	arch_qemu_binary=qemu-system-aarch64
	arch_qemu_firmware=
	# -icount shift=0: QEMU's PMU counts INST_RETIRED (perf's instructions)
	# only with precise instruction counting; without it the kernel's PMUv3
	# driver finds no such event (ENOENT) and only cycles count.  It makes
	# TCG single-threaded, and 1 instruction 1 ns of the guest's clock.
	arch_machine='-M virt -icount shift=0'
	arch_default_cpu=max
	arch_default_kernel=6.12
	arch_console=ttyAMA0
	arch_agent_device=/dev/hvc0
	arch_agent_qemu='-device virtio-serial-pci -device virtconsole,chardev=cmd'
	arch_cache_prefix=arm64-
	# mmdebstrap checks a foreign root's architecture runs here (arch-test);
	# binfmt_misc runs the root's arm64 maintainer scripts (qemu-user-static)
	arch_host_packages='arch-test qemu-user-static binfmt-support'
	arch_scenarios=$here/arm64
	;;
*) echo "Bail out! unknown VM_ARCH=$vm_arch (amd64, arm64)"; exit 1 ;;
esac

# arch_owns NAME: whether a cache entry (image-*, tmp-*, kernel-*, qemu-*)
# belongs to this architecture, so that pruning one architecture's old
# entries never takes the other's.
arch_owns() {
	local n=${1##*/} p
	for p in image- tmp- kernel- qemu-; do
		case $n in "$p"arm64-*) [ "$vm_arch" = arm64 ]; return ;; esac
	done
	[ "$vm_arch" = amd64 ]
}

# arch_deb_packages DEB: the packages a .deb depends on (the first of each
# set of alternatives, without versions): the guest image holds them, so that
# dpkg -i needs nothing else.
arch_deb_packages() {
	{ dpkg-deb -f "$1" Depends; dpkg-deb -f "$1" Pre-Depends; } | tr ',' '\n' | sed -e 's/|.*//' -e 's/(.*)//' -e 's/:any//' -e 's/[[:space:]]//g' |
		grep . | sort -u
}

