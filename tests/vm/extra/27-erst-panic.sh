# Issue 38, item 1: the machine check that panicked the last boot, kept by the
# kernel in ACPI ERST and shown by pstore in the next boot, is logged once by
# the shipped service on the real kernel, with the injected registers, and not
# again after a restart.  QEMU's acpi-erst device keeps its store in a file
# (share=on); a fatal machine check from the monitor makes the guest kernel
# panic, and mce_panic() writes the record to ERST (apei_write_mce()).  The
# guest reboots with panic=-1 and QEMU resets it (set-action reboot=reset,
# for this one reboot) with the same store: pstore shows mce-erst-<id> there,
# unless the guest's systemd-pstore.service moved it to its archive first.
# Here the guest's systemd-pstore.service (enabled, as on Debian 12) moves the
# file to /var/lib/systemd/pstore before mcelogd starts; 28 masks it.
# Outside CI's set (a panic and a second boot): make check-vm-erst.
VM_DESC="a fatal machine check that panicked the guest is logged once in the next boot, from ERST"
VM_SMP=1
VM_QEMU="-object memory-backend-file,id=erstnvram,mem-path=$work/erst-nvram.bin,size=0x10000,share=on -device acpi-erst,memdev=erstnvram"
VM_ALONE=1
VM_LAST=1

. "$srcdir/tests/vm/lib/erst-panic.sh"

scenario() { erst_panic_scenario archive; }
