# Issue 26, item 6: the slot names the firmware gives, read from the real
# kernel's /sys/firmware/dmi/entries/17-N/raw.  QEMU builds one SMBIOS Memory
# Device (type 17) per DIMM of guest RAM (1 GiB here: one), its Locator
# "<loc_pfx> <n>" and its Bank Locator from -smbios type=17.  The guest has no
# EDAC driver, so mcectl slots lists the slot and no EDAC DIMM; an override
# file is read (and a bad line named) all the same.
VM_DESC="SMBIOS type-17 slot names from the real sysfs, through mcectl slots"
# 23-ignore-ce-no-clear's boot (its guest, kernel options, 61-aer's q35
# machine and this -smbios): a boot of its own cost CI about 45 s for a
# scenario of 2 s.
VM_SMP=1
VM_APPEND="mce=ignore_ce msr.allow_writes=off"
VM_QEMU="-machine q35 -device pcie-root-port,id=rp1,bus=pcie.0,chassis=1,slot=1 -device e1000e,bus=rp1,id=nic1 -smbios type=17,loc_pfx=SLOT,bank=CPU0_CHANNEL_A"

scenario() {
	local out
	check "slots: the kernel exports a type-17 structure" guest 'test -r /sys/firmware/dmi/entries/17-0/raw'
	out=$(guest 'mcectl slots --output json')
	is "$(jq -c '.smbios[0] | [.locator, .bank_locator, .size_kib]' <<<"$out")" '["SLOT 0","CPU0_CHANNEL_A",1048576]' \
		"slots: Locator, Bank Locator and size as QEMU built them"
	is "$(jq -c '.edac' <<<"$out")" '[]' "slots: no EDAC DIMM in a guest without an EDAC driver"
	out=$(guest 'mkdir -p /run/slots.d && printf "x = SLOT 0\nbad\n" >/run/slots.d/b.conf &&
		mcectl slots --slots-dir /run/slots.d 2>&1 >/dev/null; echo "rc=$?"')
	is "$out" $'mcectl slots: /run/slots.d/b.conf:2: expected LABEL = SLOT\nrc=1' \
		"slots: a bad override line is named with file and line, exit 1"
}
