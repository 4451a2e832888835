# Sourced by the scenarios of 52-suspend's boot (47-rsyslog, 52-suspend,
# 99-rig-unresponsive), so that they share one boot by construction: a boot
# costs CI about 45 s before its first scenario (TCG boot, dpkg -i), and a
# scenario whose machine line differed by a character got one of its own.
# S3 offered (PIIX4_PM.disable_s3=0, for 52), the kernel polling the banks
# every second; 47 and 99 need neither.
VM_QEMU="-global PIIX4_PM.disable_s3=0"
VM_APPEND="mcelogd_vm.check_interval=1"
