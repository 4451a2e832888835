#!/bin/sh
# mcectl rules and mcelogd --test-config over rule directories: drop-in
# overrides and masks, what --test prints, and errors with file and line (TAP).
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
. "$top_srcdir/tests/tap-cli.sh"

# A corrected memory-controller read error on channel 2 at a physical address
# (Intel, IA32_MCi_STATUS 0x8c00000000000092: VAL MISCV ADDRV, MCACOD 0x92;
# MISC 0x8c: physical address mode, LSB 12), at the given hour and address.
record() {
	printf '{"time":"2026-11-20T%s:00:00.000000Z","source":"tracepoint","cpu":1,"socketid":0,' "$1"
	printf '"bank":7,"vendor":"intel","family":6,"model":143,"status":"0x8c00000000000092",'
	printf '"addr":"%s","misc":"0x000000000000008c"}\n' "$2"
}

echo "1..59"

# Both spellings of the rule directory option, in both programs (one documented).
check "mcectl rules --rules-directory, as mcelogd spells it" run 0 "$MCECTL" rules --rules-directory "$SHIPPED"
check "mcelogd --rules-dir, as mcectl rules once spelt it" \
	run 0 "$MCELOGD" --test-config -c /dev/null --rules-dir "$SHIPPED" --rules-dir "$SHIPPED"

# 1-3: the shipped rules load and show.
check "mcelogd --test-config accepts the shipped rules" \
	run 0 "$MCELOGD" --test-config -c /dev/null --rules-directory "$SHIPPED"
run 0 "$MCECTL" rules --rules-dir "$SHIPPED"
check "mcectl rules lists every shipped rule" \
	[ "$(grep -c '^[a-z]' "$TMP/out")" -eq "$(cat "$SHIPPED"/*.rules | grep -c '^Name=')" ]
run 0 "$MCECTL" rules --rules-dir "$SHIPPED"
check "mcectl rules shows match, key, threshold and actions" \
	sh -c 'grep -q "memory-page-ce (.*10-memory-page.rules:" "$0" &&
	       grep -q "per:       page" "$0" && grep -q "threshold: 10 in 24h" "$0" &&
	       grep -q "actions:   alert soft-offline, priority warning" "$0"' "$TMP/out"

# 4-6: 10 corrected errors on one page within 24h fire the shipped page rule
# once, on the 10th; errors on another page do not add up with them.
: >"$TMP/ten.jsonl"
for h in 00 01 02 03 04 05 06 07 08; do
	record "$h" 0x0000000012345678 >>"$TMP/ten.jsonl"
	record "$h" 0x0000000055555000 >>"$TMP/ten.jsonl"
done
record 09 0x0000000012345abc >>"$TMP/ten.jsonl"
check "rules --test over 19 records succeeds" run 0 "$MCECTL" rules --rules-dir "$SHIPPED" --test "$TMP/ten.jsonl"
check "the page rule fires once, for the page that had 10" \
	sh -c 'grep -c "memory-page-ce" "$0" | grep -qx 1 &&
	       grep -q "^2026-11-20T09:00:00.000000Z memory-page-ce \[page=0x12345\]: 10 in 24h (first 2026-11-20T00:00:00.000000Z), .*ten.jsonl:19: would alert soft-offline$" "$0"' "$TMP/out"
check "the summary counts records, rules and firings, and says nothing was done" \
	has "^19 records, 10 rules, 1 firing (nothing was done)$"

# 7: the 10th record 24h after the first is not within 24h.
: >"$TMP/late.jsonl"
for h in 00 02 04 06 08 10 12 14 16; do record "$h" 0x1000 >>"$TMP/late.jsonl"; done
sed 's/2026-11-20T00/2026-11-21T00/' "$TMP/late.jsonl" | head -1 >>"$TMP/late.jsonl"
run 0 "$MCECTL" rules --rules-dir "$SHIPPED" --test "$TMP/late.jsonl"
check "ten records spanning exactly 24h do not fire" has "^10 records, 10 rules, 0 firings"

# 8-10: the admin's directory overrides a shipped file by name, masks with
# /dev/null or an empty file.
mkdir -p "$TMP/etc"
sed 's/Threshold=10 in 24h/Threshold=2 in 24h/' "$SHIPPED/10-memory-page.rules" >"$TMP/etc/10-memory-page.rules"
run 0 "$MCECTL" rules --rules-dir "$TMP/etc" --rules-dir "$SHIPPED" --test "$TMP/ten.jsonl"
check "an admin file of the same name replaces the shipped one" \
	sh -c '[ "$(grep -c "memory-page-ce \[page=0x12345\]: 2 in 24h" "$0")" -eq 5 ]' "$TMP/out"
ln -sf /dev/null "$TMP/etc/10-memory-page.rules"
run 0 "$MCECTL" rules --rules-dir "$TMP/etc" --rules-dir "$SHIPPED"
check "a symlink to /dev/null masks a shipped file" sh -c '! grep -q memory-page-ce "$0" && grep -q previous-boot "$0"' "$TMP/out"
rm "$TMP/etc/10-memory-page.rules"
: >"$TMP/etc/50-previous-boot.rules"
run 0 "$MCECTL" rules --rules-dir "$TMP/etc" --rules-dir "$SHIPPED"
check "an empty file masks a shipped file" sh -c '! grep -q previous-boot "$0" && grep -q memory-page-ce "$0"' "$TMP/out"

# 11-14: bad rule files: every error with file and line, nothing runs.
mkdir -p "$TMP/bad"
printf '[Rule]\nName=x\nAction=alert reboot\nThreshold=ten in 1h\nColor=red\n' >"$TMP/bad/a.rules"
check "mcelogd --test-config fails on a bad rule file" \
	run 1 "$MCELOGD" --test-config -c /dev/null --rules-directory "$TMP/bad"
check "each error names file and line" \
	sh -c 'grep -q "a.rules:3: Action=: unknown action .reboot." "$0" &&
	       grep -q "a.rules:4: Threshold=: .ten. is not a count" "$0" &&
	       grep -q "a.rules:5: unknown key .Color. in \[Rule\]" "$0"' "$TMP/err"
check "mcectl rules --test refuses to run bad rules" \
	run 1 "$MCECTL" rules --rules-dir "$TMP/bad" --test "$TMP/ten.jsonl"
check "and says which file" err_has "a.rules:3: Action=: unknown action 'reboot'"

# 15: an unreadable rule file (a directory named like one) is an error, not skipped.
mkdir -p "$TMP/unreadable/x.rules"
run 1 "$MCECTL" rules --rules-dir "$TMP/unreadable"
check "an unreadable rule file is an error naming it" err_has "x.rules: cannot read rule file"

# 16-17: input without records, and usage errors.
echo "nothing here" >"$TMP/empty.txt"
run 1 "$MCECTL" rules --rules-dir "$SHIPPED" --test "$TMP/empty.txt"
check "input without records says so" err_has "no hardware-error record found"
check "an unknown option is a usage error" run 2 "$MCECTL" rules --frobnicate
# 18-22: counts persist across runs (a --state-directory given to --replay),
# and mcectl rules shows them.  Records of the last hours, so still counted.
now=$(date +%s)
at() { date -u -d "@$((now - $1 * 60))" +%Y-%m-%dT%H:%M:%S.000000Z; }
recent() { # recent MINUTES-AGO...: one record on page 0x12345 each
	for m; do
		printf '{"time":"%s","source":"tracepoint","cpu":1,"socketid":0,"bank":7,"vendor":"intel",' "$(at "$m")"
		printf '"family":6,"model":143,"status":"0x8c00000000000092","addr":"0x0000000012345678",'
		printf '"misc":"0x000000000000008c"}\n'
	done
}
mkdir -p "$TMP/state"
recent 300 240 180 120 60 >"$TMP/first.jsonl"
recent 50 40 30 20 10 >"$TMP/second.jsonl"
run 0 "$MCELOGD" --replay "$TMP/first.jsonl" --no-journal --output json --rules-directory "$SHIPPED" \
	--state-directory "$TMP/state"
check "five errors: no alert yet" sh -c '! grep -q "\"event\":\"alert\"" "$0"' "$TMP/out"
run 0 "$MCECTL" rules --rules-dir "$SHIPPED" --state "$TMP/state/rules.state"
check "mcectl rules shows the count nearest to firing" \
	has "^  memory-page-ce  *page=0x12345  *5 of 10 in 24h$"
run 0 "$MCELOGD" --replay "$TMP/second.jsonl" --no-journal --output json --rules-directory "$SHIPPED" \
	--state-directory "$TMP/state"
check "the tenth error, in another run, fires the alert" count '"event":"alert","hostname"' 1
check "a replay does not offline this machine's page" err_has "would soft-offline page 0x12345 (not done when replaying)"
run 0 "$MCECTL" rules --rules-dir "$SHIPPED" --state "$TMP/state/rules.state"
check "mcectl rules lists the alert and no count left" \
	sh -c 'grep -q "^Recent alerts: 1$" "$0" && grep -q " memory-page-ce page=0x12345$" "$0" &&
	       ! grep -q "of 10 in 24h" "$0"' "$TMP/out"
# 23-27: cpu-offline, against a stand-in for /sys/devices/system/cpu.
mkdir -p "$TMP/cpurules" "$TMP/cpu/cpu1" "$TMP/cpu/cpu2"
printf '[Rule]\nName=cpu-ce\nMatch=severity=corrected\nKey=cpu\nThreshold=2 in 1h\nAction=alert cpu-offline\n' \
	>"$TMP/cpurules/cpu.rules"
on_cpu() { # on_cpu CPU: two records of that CPU
	for m in 2 1; do
		printf '{"time":"%s","source":"tracepoint","cpu":%s,"bank":7,"vendor":"intel","family":6,' "$(at "$m")" "$1"
		printf '"model":143,"status":"0x8c00000000000092","addr":"0x0000000012345678","misc":"0x000000000000008c"}\n'
	done
}
echo 0-3 >"$TMP/cpu/online"
: >"$TMP/cpu/cpu1/online"
on_cpu 1 >"$TMP/cpu1.jsonl"
run 0 "$MCELOGD" --replay "$TMP/cpu1.jsonl" --no-journal --output json --rules-directory "$TMP/cpurules" \
	--sysfs-cpu "$TMP/cpu" --log-level info
check "cpu-offline writes 0 to the CPU's online file" [ "$(cat "$TMP/cpu/cpu1/online")" = 0 ]
check "and logs it" err_has "Rule 'cpu-ce': CPU 1 taken offline"
echo 1 >"$TMP/cpu/online"
: >"$TMP/cpu/cpu1/online"
run 0 "$MCELOGD" --replay "$TMP/cpu1.jsonl" --no-journal --output json --rules-directory "$TMP/cpurules" \
	--sysfs-cpu "$TMP/cpu"
check "never the last online CPU: an alert says so, the file is untouched" \
	sh -c 'grep -q "\"failed_action\":\"cpu-offline\",\"message\":\"Rule cpu-ce: taking CPU 1 offline failed: it is the last online CPU\"" "$0" &&
	       [ ! -s "$1" ]' "$TMP/out" "$TMP/cpu/cpu1/online"
echo 0-3 >"$TMP/cpu/online"
on_cpu 2 >"$TMP/cpu2.jsonl"
run 0 "$MCELOGD" --replay "$TMP/cpu2.jsonl" --no-journal --output json --rules-directory "$TMP/cpurules" \
	--sysfs-cpu "$TMP/cpu"
check "never a CPU without an online file" has "taking CPU 2 offline failed: the kernel cannot take this CPU offline"
run 0 "$MCELOGD" --replay "$TMP/cpu1.jsonl" --no-journal --rules-directory "$TMP/cpurules"
check "a replay without a stand-in never offlines this machine's CPUs" \
	err_has "would take CPU 1 offline (not done when replaying)"
# 28-35: triggers, without a shell: environment, JSON on stdin, output and
# exit status logged, a hanging one killed at its timeout, a cap on how many
# run at once with the rest queued, none lost.
mkdir -p "$TMP/trig"
cat >"$TMP/trig/t.sh" <<EOT
#!/bin/sh
env | grep -E '^(MCELOGD|MCE)_' | sort >"$TMP/trig/env.\$\$"
cat >"$TMP/trig/stdin.\$\$"
echo "hello from the trigger, \$MCELOGD_KEY"
echo "and its stderr" >&2
exit 3
EOT
cat >"$TMP/trig/hang.sh" <<EOT
#!/bin/sh
echo \$\$ >"$TMP/trig/hang.pid"
echo started; exec sleep 3600
EOT
# One file per run in progress: a run counts the others after making its own
# and removes its own before it exits, so the count is never too low.
cat >"$TMP/trig/slow.sh" <<EOT
#!/bin/sh
: >"$TMP/trig/running/\$\$"
ls "$TMP/trig/running" | wc -l >>"$TMP/trig/slow.max"
sleep 0.3
rm "$TMP/trig/running/\$\$"
EOT
# A program that leaves a child behind: one holding its output, one not.
cat >"$TMP/trig/bg-out.sh" <<EOT
#!/bin/sh
sleep 3600 &
echo \$! >"$TMP/trig/bg-out.pid"
EOT
cat >"$TMP/trig/bg-quiet.sh" <<EOT
#!/bin/sh
sleep 30 >/dev/null 2>&1 &
echo \$! >"$TMP/trig/bg-quiet.pid"
EOT
chmod +x "$TMP/trig/"*.sh
# alive PIDFILE: the process it names still runs (a zombie nobody reaped yet does not).
alive() { st=$(cut -d' ' -f3 "/proc/$(cat "$1")/stat" 2>/dev/null); [ -n "$st" ] && [ "$st" != Z ]; }
not_alive() { ! alive "$1"; }
printf '[Rule]\nName=trig\nMatch=severity=corrected\nKey=page\nThreshold=2 in 1h\nAction=alert trigger\nTrigger=%s a b\n' \
	"$TMP/trig/t.sh" >"$TMP/trig/t.rules"
recent 20 10 >"$TMP/two.jsonl"
run 0 "$MCELOGD" --replay "$TMP/two.jsonl" --no-journal --rules-directory "$TMP/trig" --log-level info
check "a replay does not run triggers unless asked" \
	sh -c 'grep -q "would run .*t.sh a b (not done when replaying without --run-triggers)" "$0" &&
	       ! ls "$1"/env.* >/dev/null 2>&1' "$TMP/err" "$TMP/trig"
run 0 "$MCELOGD" --replay "$TMP/two.jsonl" --no-journal --rules-directory "$TMP/trig" --log-level info \
	--run-triggers
envf=$(ls "$TMP"/trig/env.* 2>/dev/null | head -1)
check "the trigger ran with the alert and the record in its environment" \
	sh -c 'grep -qx "MCELOGD_RULE=trig" "$0" && grep -qx "MCELOGD_KEY=page=0x12345" "$0" &&
	       grep -qx "MCELOGD_COUNT=2" "$0" && grep -qx "MCE_PAGE=0x12345" "$0" && grep -qx "MCE_CPU=1" "$0"' "$envf"
check "and the alert as JSON on its standard input" \
	sh -c 'grep -q "^{\"time\":.*\"event\":\"alert\".*\"rule\":\"trig\"" "$0"' "$(ls "$TMP"/trig/stdin.* | head -1)"
check "its output lines are logged" err_has "Trigger of rule 'trig' \[[0-9]*\]: hello from the trigger, page=0x12345"
check "its standard error too" err_has "and its stderr"
check "its exit status is logged" err_has "exited with status 3"
rm "$TMP/trig/t.rules"
# timeout_rule NAME PROGRAM: PROGRAM runs at a page's second error, for at most 300 ms.
timeout_rule() {
	printf '[Rule]\nName=%s\nMatch=severity=corrected\nKey=page\nThreshold=2 in 1h\nAction=trigger\nTrigger=%s\nTriggerTimeout=300ms\n' \
		"$1" "$2" >"$TMP/trig/$1.rules"
}
replay_two() {
	run 0 "$MCELOGD" --replay "$TMP/two.jsonl" --no-journal --rules-directory "$TMP/trig" --log-level info \
		--run-triggers
}
# Neither is waited for: the replay ends (it would wait an hour otherwise), and
# what the trigger left is gone when it has; the log says the timeout did it.
# ended_at_timeout PIDFILE PATTERN...: the process is gone (a SIGKILL is not
# instant: waited for, a bounded time), the log has each pattern.
ended_at_timeout() {
	for _ in $(seq 100); do not_alive "$1" && break; sleep 0.05; done
	not_alive "$1" || return 1
	shift
	for p in "$@"; do grep -q "$p" "$TMP/err" || return 1; done
}
timeout_rule hang "$TMP/trig/hang.sh"
replay_two
check "a hanging trigger is killed at its timeout" ended_at_timeout "$TMP/trig/hang.pid" \
	"still running after 300 ms: killing it" "killed by signal 9 (SIGKILL): it ran past its TriggerTimeout="
rm "$TMP/trig/hang.rules"
timeout_rule bg "$TMP/trig/bg-out.sh"
replay_two
check "a child that keeps the trigger's output open is killed at the timeout too" \
	ended_at_timeout "$TMP/trig/bg-out.pid" "exited, but what it started still held its output after 300 ms"
alive "$TMP/trig/bg-out.pid" && kill "$(cat "$TMP/trig/bg-out.pid")"
timeout_rule bg "$TMP/trig/bg-quiet.sh"
replay_two
sleep 0.2
check "a child left in the background does not outlive the trigger's run" \
	not_alive "$TMP/trig/bg-quiet.pid"
alive "$TMP/trig/bg-quiet.pid" && kill "$(cat "$TMP/trig/bg-quiet.pid")"
rm "$TMP/trig/bg.rules"
printf '[Rule]\nName=slow\nMatch=severity=corrected\nAction=trigger\nTrigger=%s\n' \
	"$TMP/trig/slow.sh" >"$TMP/trig/slow.rules"
mkdir -p "$TMP/trig/running"
recent 10 9 8 7 6 5 4 3 2 1 >"$TMP/ten-now.jsonl"
run 0 "$MCELOGD" --replay "$TMP/ten-now.jsonl" --no-journal --rules-directory "$TMP/trig" --log-level info \
	--run-triggers
check "ten triggers, all run" [ "$(grep -c "Trigger of rule 'slow' \[[0-9]*\] exited with status 0" "$TMP/err")" -eq 10 ]
check "never more than 4 at once; the others waited" \
	sh -c '[ "$(sort -n "$0" | tail -1)" -le 4 ] && grep -q "Trigger of rule .slow. waits: 4 running already" "$1"' \
	"$TMP/trig/slow.max" "$TMP/err"
# What runs as root on a rule's word must be root's (a writable rule file is
# root code execution through Trigger=); a trigger that cannot run is worth a warning.
mkdir "$TMP/trust"
printf '#!/bin/sh\nexit 0\n' >"$TMP/trust/notify.sh"
chmod 755 "$TMP/trust/notify.sh"
trust_rule() { printf '[Rule]\nName=t\nMatch=severity=corrected\nAction=alert trigger\nTrigger=%s\n' "$1" >"$TMP/trust/t.rules"; }
trust_rule "$TMP/trust/missing"
run 0 "$MCELOGD" --test-config -c /dev/null --rules-directory "$TMP/trust"
check "--test-config warns of a Trigger= that cannot run, naming rule, file and line" \
	err_has "t.rules:1: rule 't': Trigger= program '$TMP/trust/missing' cannot run: No such file"
trust_rule "$TMP/trust/notify.sh"
chmod 666 "$TMP/trust/t.rules"
run 1 "$MCELOGD" --test-config -c /dev/null --rules-directory "$TMP/trust"
check "--test-config refuses a rule file everyone can write" \
	err_has "t.rules: refused: '$TMP/trust/t.rules' is writable by everyone (mode 0666)"
chmod 644 "$TMP/trust/t.rules"
chmod 757 "$TMP/trust/notify.sh"
run 1 "$MCELOGD" --test-config -c /dev/null --rules-directory "$TMP/trust"
check "--test-config refuses a trigger program everyone can write" \
	err_has "t.rules:1: rule 't': Trigger= program refused: '$TMP/trust/notify.sh' is writable by everyone"
chmod 755 "$TMP/trust/notify.sh"
check "and accepts them when only their owner can write them" \
	run 0 "$MCELOGD" --test-config -c /dev/null --rules-directory "$TMP/trust"
# Review M15: the directory holding a rule file's name counts, not only where
# a symlink leads.  A symlink anyone could have placed, pointing at a file
# only root can write (whose text someone else may have chosen: a log), is
# refused; the same symlink in a directory only root can write is taken.
mkdir "$TMP/open" "$TMP/closed"
chmod 777 "$TMP/open"
ln -s "$TMP/trust/t.rules" "$TMP/open/t.rules"
ln -s "$TMP/trust/t.rules" "$TMP/closed/t.rules"
run 1 "$MCELOGD" --test-config -c /dev/null --rules-directory "$TMP/open"
check "--test-config refuses a rule file whose name sits in a directory everyone can write (M15)" \
	err_has "t.rules: refused: '$TMP/open' is writable by everyone (mode 0777)"
check "... and takes the same symlink in a directory only root can write" \
	run 0 "$MCELOGD" --test-config -c /dev/null --rules-directory "$TMP/closed"
# A record's strings reach a trigger's environment cleaned, whatever their
# source: a replayed label cannot add a line or a terminal escape.
cat >"$TMP/trust/label.sh" <<EOT
#!/bin/sh
printf '%s' "\$MCE_LABEL" >"$TMP/trust/label.out"
EOT
chmod 755 "$TMP/trust/label.sh"
printf '[Rule]\nName=lbl\nMatch=severity=corrected\nKey=label\nAction=trigger\nTrigger=%s\n' "$TMP/trust/label.sh" \
	>"$TMP/trust/t.rules"
printf '{"time":"2026-11-20T10:00:06.000000Z","source":"ras:mc_event","event":"memory_controller","severity":"corrected",%s\n' \
	'"description":"x","error_type":"corrected","error_count":1,"label":"DIMM_A1\nMCELOGD_RULE=forged\u001b[31mred","mc":0}' \
	>"$TMP/trust/label.jsonl"
run 0 "$MCELOGD" --replay "$TMP/trust/label.jsonl" --no-journal --rules-directory "$TMP/trust" --run-triggers \
	--log-level info
check "the trigger ran with the record's label" [ -s "$TMP/trust/label.out" ]
check "its newline and ESC did not reach the environment" \
	sh -c '[ "$(wc -l <"$0")" -eq 0 ] && ! grep -q "$(printf "\033")" "$0" && grep -q "DIMM_A1.MCELOGD_RULE=forged.\[31mred" "$0"' \
	"$TMP/trust/label.out"
# The test hooks never make a replay act on this machine.
run 2 "$MCELOGD" --replay /dev/null --no-journal --rules-directory "$SHIPPED" --sysfs-memory /sys/devices/system/memory
check "a replay refuses --sysfs-memory pointing at the real sysfs" \
	err_has "--sysfs-memory '/sys/devices/system/memory' is this machine's sysfs: a replay never offlines"
run 2 "$MCELOGD" --replay /dev/null --no-journal --rules-directory "$SHIPPED" --sysfs-cpu /sys/devices/system/cpu/../cpu
check "and --sysfs-cpu, however spelled" err_has "is this machine's sysfs: a replay never takes its CPUs offline"
run 2 "$MCELOGD" --replay /dev/null --no-journal --rules-directory "$SHIPPED" --sysfs-edac /sys/bus/../bus
check "and --sysfs-edac" err_has "is this machine's sysfs: a replay never asks its memory for repairs"
run 2 env STATE_DIRECTORY="$TMP/fakestate" "$MCELOGD" --replay /dev/null --no-journal --rules-directory "$SHIPPED" \
	--bert "$top_srcdir/tests/integration/data/bert-region.bin"
check "--replay --bert without --state-directory is refused, and marks nothing" \
	sh -c 'grep -q "bert with --replay needs --state-directory" "$0" && [ ! -e "$1/bert-logged" ]' \
	"$TMP/err" "$TMP/fakestate"
# The shipped cxl-device-health rule: a CXL device's health report in its
# failure log alerts once a day per device; one in its warning log does
# not; and memory-uncorrected leaves it alone while still taking poison.
cxl() {
	printf '{"time":"2026-11-27T21:%s:00.000000Z","source":"cxl:%s","event":"%s","severity":"%s",' "$1" "$2" "$2" "$3"
	printf '"description":"x","memdev":"%s","log":"%s"}\n' "$4" "$5"
}
{ cxl 10 cxl_memory_module uncorrected mem0 failure; cxl 11 cxl_memory_module uncorrected mem0 failure
  cxl 12 cxl_memory_module corrected mem1 warning; cxl 13 cxl_poison uncorrected mem0 failure; } >"$TMP/cxl.jsonl"
run 0 "$MCECTL" rules --rules-dir "$SHIPPED" --test "$TMP/cxl.jsonl"
check "cxl-device-health alerts once for mem0's failure-log health reports" \
	sh -c '[ "$(grep -c "cxl-device-health \[label=mem0\]: .*cxl.jsonl:1: would alert" "$0")" = 1 ] && ! grep -q "label=mem1" "$0"' "$TMP/out"
check "memory-uncorrected takes the poison, not the health reports" \
	sh -c '[ "$(grep -c "memory-uncorrected" "$0")" = 1 ] && grep -q "memory-uncorrected: .*cxl.jsonl:4: would alert" "$0"' "$TMP/out"
check "four records, two firings" has "^4 records, 10 rules, 2 firings"

# Action=repair is opt-in: no shipped rule asks for it; a rule of the admin's that does
# says, under --test, which device and DPA it would ask (mcelogd.rules(5), REPAIR).
check "no shipped rule asks for a memory repair" sh -c '! grep -q "^Action=.*repair" "$0"/*.rules' "$SHIPPED"
mkdir -p "$TMP/repair-rules"
printf '[Rule]\nName=cxl-repair\nMatch=kind=cxl_dram|cxl_poison\nKey=label dpa\nAction=alert repair\n' \
	>"$TMP/repair-rules/90-repair.rules"
{ printf '{"time":"2026-11-20T10:00:00.000000Z","event":"cxl_dram","source":"tracepoint","severity":"corrected",'
  printf '"memdev":"mem0","dpa":"0x0000000000002000","type":"ECC Error","transaction_type":"Host Read",'
  printf '"channel":2,"rank":0,"nibble_mask":"0x21"}\n'
  printf '{"time":"2026-11-20T10:30:00.000000Z","event":"cxl_dram","source":"tracepoint","severity":"corrected",'
  printf '"memdev":"mem0","dpa":"0x0000000000003000","type":"ECC Error","transaction_type":"Host Inject Poison"}\n'
  printf '{"time":"2026-11-20T11:00:00.000000Z","source":"cxl:cxl_poison","event":"cxl_poison",'
  printf '"severity":"uncorrected","memdev":"mem0","dpa":"0x0000000000004000"}\n'; } >"$TMP/repair.jsonl"
run 0 "$MCECTL" rules --rules-dir "$TMP/repair-rules" --test "$TMP/repair.jsonl"
check "--test: the repair it would ask for, from the DRAM record" \
	has "^  would ask mem0 for a memory repair at DPA 0x2000 (with \\[Memory\\] Repair=yes, if the device offers one)$"
check "--test: none for an injected error, and why" \
	has "^  no memory repair of mem0: the error was injected (transaction type Host Inject Poison)"
check "--test: none from a poison list entry, and why" \
	has "^  no memory repair: only a CXL DRAM or general media event names memory a device can repair$"
exit $failed
