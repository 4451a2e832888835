# Sourced by tools/check-arm64.sh and tests/vm/run.sh (VM_ARCH=arm64): makes
# the kernel's binfmt_misc hand aarch64 ELF files to qemu-user, which both
# need (check-arm64.sh runs the arm64 test programs; the VM rig's mmdebstrap
# --arch=arm64 runs the guest root's maintainer scripts).  Installing
# qemu-user-static and binfmt-support is not enough on a machine without
# systemd as PID 1 (a container, a CI runner's chroot): nothing mounts
# /proc/sys/fs/binfmt_misc (systemd's proc-sys-fs-binfmt_misc.automount), and
# binfmt-support's postinst registers nothing without it.
#
# binfmt_aarch64 SAY: does what is missing, saying each step through the
# command SAY (one argument, a line of text), and the result.  The packages
# must be installed.  Returns non-zero, after saying why, when aarch64
# programs still cannot run through qemu-user with the F flag (the
# interpreter opened at registration, so that it works in any root).
binfmt_aarch64() {
	local say=$1 fmt=/proc/sys/fs/binfmt_misc
	if ! grep -q '^flags: .*F' "$fmt/qemu-aarch64" 2>/dev/null; then
		if [ ! -e "$fmt/register" ]; then
			"$say" "mounting binfmt_misc on $fmt (not mounted here)"
			mount -t binfmt_misc binfmt_misc "$fmt" || { "$say" "cannot mount $fmt"; return 1; }
		fi
		"$say" "update-binfmts --enable qemu-aarch64"
		update-binfmts --enable qemu-aarch64 || { "$say" "update-binfmts --enable qemu-aarch64 failed"; return 1; }
		grep -q '^flags: .*F' "$fmt/qemu-aarch64" 2>/dev/null ||
			{ "$say" "qemu-aarch64 is not registered with the F flag"; return 1; }
	fi
	"$say" "binfmt_misc: aarch64 -> $(sed -n 's/^interpreter //p' "$fmt/qemu-aarch64") ($(grep '^flags' "$fmt/qemu-aarch64"))"
}
