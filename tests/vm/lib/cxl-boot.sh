# Sourced by the scenarios of the CXL boot (65, 66): Linux 7.3 from
# trixie-backports under QEMU 10 (kernels.sh), a q35 machine with one CXL
# type-3 memory device behind a CXL host bridge and root port, and a fixed
# memory window of 4 GiB for regions (the machine line of QEMU's
# docs/system/devices/cxl.rst).  An Intel CPU (Haswell-EP) so that
# 66-soft-offline-refused's corrected errors name a page, as in 80.  No
# hypervisor CPUID bit: a kernel that sees one cannot write back and
# invalidate CPU caches for a new region (cpu_cache_has_invalidate_memregion()
# is false under a hypervisor), so without CONFIG_CXL_REGION_INVALIDATION_TEST,
# which Debian's kernel lacks, committing 67's region fails with ENXIO.
VM_KERNEL=7.3
VM_CPU="qemu64,+mce,+mca,-hypervisor,vendor=GenuineIntel,family=6,model=63,stepping=2"
VM_SMP=2
VM_MEM="2G,maxmem=4G,slots=4"
VM_APPEND="mcelogd_vm.check_interval=1"
VM_QEMU="-M q35,cxl=on -object memory-backend-ram,id=cxl-vmem0,share=on,size=256M"
VM_QEMU+=" -device pxb-cxl,bus_nr=12,bus=pcie.0,id=cxl.1 -device cxl-rp,port=0,bus=cxl.1,id=rp0,chassis=0,slot=2"
VM_QEMU+=" -device cxl-type3,bus=rp0,volatile-memdev=cxl-vmem0,id=cxl-mem0"
VM_QEMU+=" -M cxl-fmw.0.targets.0=cxl.1,cxl-fmw.0.size=4G"
# QEMU's path of the device, for its cxl-inject-* commands.
cxl_dev=/machine/peripheral/cxl-mem0
