# Issue 38, item 1, as 27-erst-panic.sh, with the guest's systemd-pstore.service
# masked (systemd.mask= on the kernel command line, which the reset boot keeps):
# mcelogd finds mce-erst-<id> in /sys/fs/pstore itself, logs it once and
# removes it there under the service's sandbox (ReadWritePaths=/sys/fs/pstore),
# which clears it from ERST.  Outside CI's set: make check-vm-erst.
VM_DESC="a fatal machine check that panicked the guest is logged once from pstore, then removed"
VM_SMP=1
VM_APPEND="systemd.mask=systemd-pstore.service"
VM_QEMU="-object memory-backend-file,id=erstnvram,mem-path=$work/erst-nvram-2.bin,size=0x10000,share=on -device acpi-erst,memdev=erstnvram"
VM_ALONE=1
VM_LAST=1
. "$srcdir/tests/vm/lib/erst-panic.sh"

scenario() { erst_panic_scenario pstore; }
