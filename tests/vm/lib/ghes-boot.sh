# Sourced by the scenarios of the arm64 GHES boot (tests/vm/arm64-ghes):
# Linux 7.3 from trixie-backports, whose ras:arm_event carries the error
# information, context and vendor blocks, sev and cpu (6.12's has the
# section header only), under QEMU 11 (VM_QEMU_VERSION=11, kernels.sh: QEMU
# 10.2 added inject-ghes-v2-error).  ras=on: the HEST and its error sources;
# -bios: the UEFI that installs QEMU's ACPI tables (and loads -kernel and
# -initrd through fw_cfg); acpi=force: ACPI, never the device tree, whatever
# the firmware hands over.  Then the CPER builders (ghes-cper.sh).
VM_KERNEL=7.3
VM_QEMU_VERSION=11
VM_QEMU='-machine ras=on -bios QEMU_EFI.fd'
VM_APPEND='acpi=force'
VM_MEM=2048
. "$srcdir/tests/vm/lib/ghes-cper.sh"
