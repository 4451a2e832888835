# Sourced by the burst scenarios (40-burst, 37-crash-burst): a paced injector
# of distinct records.

# burst_inject N MCACOD ADDR_BASE [PROGRESS]: the guest script that injects N
# records through mce-inject (flags=sw), record i on CPU i%2, bank i%8, with
# STATUS 0x9c000040_iiii_MCACOD (VAL EN MISCV ADDRV; i in 31:16, so every
# record is its own error signature) and ADDR ADDR_BASE + i pages.  At most
# 16 are in flight: the kernel's record pool (~60) overflows beyond that.
# The kernel's own count comes from the top-level trace buffer, independent
# of mcelogd; with PROGRESS it is written to that file as it grows, and the
# file PROGRESS.done is made at the end.  Prints "injected in Ss".
burst_inject() {
	local n=$1 code=$2 base=$3 progress=${4:-/dev/null}
	cat <<SCRIPT
t=/sys/kernel/tracing
echo 8192 >\$t/buffer_size_kb && echo >\$t/trace && echo 1 >\$t/events/mce/mce_record/enable
emitted() { grep -c 'MC[0-9]: 9c000040[0-9a-f]\{4\}$code' \$t/trace; }
cd /sys/kernel/debug/mce-inject || exit 1
for i in \$(seq 0 $((n - 1))); do
	echo sw >flags
	echo \$((i % 2)) >cpu
	printf '0x9c000040%04x$code\n' \$i >status
	printf '0x%x\n' \$(($base + i * 0x1000)) >addr
	echo 0x86 >misc
	echo \$((i % 8)) >bank
	if [ \$((i % 16)) = 15 ]; then
		for w in \$(seq 500); do e=\$(emitted); [ \$e -gt \$((i - 16)) ] && break; sleep 0.01; done
		echo \$e >$progress
	fi
done
for w in \$(seq 100); do e=\$(emitted); [ \$e -ge $n ] && break; sleep 0.05; done
echo \$e >$progress
[ $progress = /dev/null ] || touch $progress.done
echo injected in \${SECONDS}s
SCRIPT
}
