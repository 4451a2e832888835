# The rig itself: a guest that stops answering (one froze silently in a CI
# run, and its boot then sat out QEMU's whole time limit) must be caught at
# the first unanswered request, with QEMU's view of where its CPUs were, and
# stopped, so that the checks left in its boot fail at once.  The guest is
# paused through the monitor, which is how a frozen guest looks from outside.
# Stops the guest: runs last in its boot (52-suspend's, which has no other
# last scenario, so this costs no boot of its own: until its machine line
# came from tests/vm/lib/s3-boot.sh, it differed from 47's and 52's and cost
# CI a boot of about 50 s).
VM_DESC="rig: an unresponsive guest is reported with QEMU's view of it, and stopped"
. "$srcdir/tests/vm/lib/s3-boot.sh"
VM_LAST=1

scenario() {
	local out rc
	check "rig: the guest answers before it is paused" guest true 20
	hmp stop >/dev/null
	out=$(guest true 5); rc=$?
	printf '%s\n' "$out" | diag
	is "$rc" 255 "rig: a request to the paused guest fails (255: no answer)"
	# The request's own limit (5 s, and the rig's 15 s margin) said so, not QEMU's
	# end of the boot: by what the rig reported, not by how long this host took.
	check "rig: ... after its own limit, not QEMU's" grep -qx "guest: no answer within 20s" <<<"$out"
	check "rig: the unresponsive guest's VM was stopped" sh -c "! kill -0 $vm_pid 2>/dev/null"
	check "rig: the report has QEMU's run state" grep -q '^VM status: paused' "$vm_dir/unresponsive.txt"
	check "rig: the report has each CPU's RIP and where it is in the kernel" \
		sh -c "[ \$(grep -c '^RIP=.*(_text+0x[0-9a-f]*)$' '$vm_dir/unresponsive.txt') = 2 ]"
	out=$(guest true 5); rc=$?
	is "$rc/$out" "255/guest: VM not running" "rig: the next request fails at once"
	diag <"$vm_dir/unresponsive.txt"
	# This boot's failures are the test's doing: no second dump of it.
	rm -f "$vm_dir/unresponsive.txt"
}
