# Sourced by the summary tests (summary.sh, summary-direct.sh), after lib.sh's
# use_workdir: write_entries FROM TO logs entries FROM..TO-1 as mcelogd writes
# them, all from one process named mcelogd (journal-send.c, copied; as root,
# it passes the checks): every severity, storms, labels, and entries that must
# not count (another id, another user, loss reports).  It returns once
# journald has them (journalctl --sync).  Set before calling:
#   entries_starts       how many storm starts the storms cycle through
#   entries_named_after  records after this index carry a bank label (-1: all)
#   entries_pad          if set, every third record's MCE_JSON carries it as
#                        "note" (past journald's 512-byte compression threshold)
#   entries_pace         if set, microseconds between entries (a writer that
#                        trickles while summaries read)
sender=$(mcelogd_sender) || exit 1
sevs=(corrected deferred uncorrected fatal)
ids=(d90772f9176e45e88ae80c46f01c0915 aa342ccf21574871922871263c767d1c 5987c93aca024e54b54a11caec7a116b fd6bd0d477884d02a89dcb47f4c8c599)
entries_starts=97 entries_named_after=-1 entries_pad='' entries_pace=''
write_entries() {
	entries_text "$@" | "$sender" ${entries_pace:+-i "$entries_pace"}
}
# entries_text FROM TO: the entries, FIELD=VALUE lines, an empty line after each.
entries_text() {
	for ((i = $1; i < $2; i++)); do
		case $((i % 10)) in
		[0-5])
			s=$((i % 4)) name=MCE_NO_NAME= long=
			# (printf -v, not $(...): no subshell per entry.)
			printf -v status '0x8c0000400008%04x' $((i % 3))
			printf -v addr '0x%x' $(((i % 7) * 4096 + 64))
			[ "$i" -gt "$entries_named_after" ] && name="MCE_BANK_NAME=Bank $((i % 5))"
			[ -n "$entries_pad" ] && [ $((i % 3)) = 0 ] && long=",\"note\":\"$entries_pad\""
			printf '%s\n' "MESSAGE=${sevs[s]} machine check on CPU $((i % 8)) bank $((i % 5)): test $i" \
				"MESSAGE_ID=${ids[s]}" "MCE_CPU=$((i % 8))" "MCE_BANK=$((i % 5))" "MCE_SEVERITY=${sevs[s]}" \
				"MCE_SOCKET=$((i % 2))" "MCE_SOURCE=tracepoint" "MCE_STATUS=$status" "$name" \
				"MCE_JSON={\"cpu\":$((i % 8)),\"bank\":$((i % 5)),\"socket\":$((i % 2)),\"severity\":\"${sevs[s]}\",\"status\":\"$status\",\"addr\":\"$addr\",\"flags\":[\"VAL\",\"ADDRV\"],\"channel\":$((i % 3)),\"dimm\":$((i % 2)),\"description\":\"test $((i % 3))\"$long}" ""
				;;
		[67])
			printf '%s\n' "MESSAGE=storm on CPU $((i % 8)) bank 2" "MESSAGE_ID=70d655c9451c48899d92ec9f35850b1a" \
				"MCE_CPU=$((i % 8))" "MCE_BANK=2" "MCE_STORM_COUNT=$((i % 7 + 1))" "MCE_STORM_START=start $((i % entries_starts))" \
				"MCE_STORM_CODE=0x00080001" \
				"MCE_JSON={\"event\":\"storm_summary\",\"scope\":\"cpu\",\"cpu\":$((i % 8)),\"bank\":2,\"code\":\"0x00080001\",\"count\":$((i % 7 + 1)),\"storm_start\":\"start $((i % entries_starts))\"}" ""
				;;
		8)
			printf '%s\n' "MESSAGE=storm end" "MESSAGE_ID=412a1d8e9e1f49c6bcf0a213ecde63bc" "MCE_CPU=$((i % 8))" "MCE_BANK=2" \
				"MCE_STORM_START=start $((i % entries_starts))" "MCE_STORM_CODE=0x00080001" \
				"MCE_JSON={\"event\":\"storm_end\",\"scope\":\"cpu\",\"cpu\":$((i % 8)),\"bank\":2,\"code\":\"0x00080001\",\"storm_start\":\"start $((i % entries_starts))\"}" ""
				;;
		9)
			case $((i % 3)) in
			0) printf '%s\n' "MESSAGE=not ours" "MESSAGE_ID=0123456789abcdef0123456789abcdef" "MCE_CPU=1" "MCE_BANK=1" \
				"MCE_SEVERITY=fatal" "MCE_JSON={\"cpu\":1,\"bank\":1,\"severity\":\"fatal\"}" ""
				;;
			1) printf '%s\n' "_UID=65534" "MESSAGE=another user" "MESSAGE_ID=${ids[3]}" "MCE_CPU=1" "MCE_BANK=1" "MCE_SEVERITY=fatal" \
				"MCE_JSON={\"cpu\":1,\"bank\":1,\"severity\":\"fatal\"}" ""
				;;
			2) printf '%s\n' "MESSAGE=lost" "MESSAGE_ID=457a72be995b4ca096a9d0285d16170a" "MCE_CPU=0" \
				"MCE_JSON={\"event\":\"loss\",\"cpu\":0,\"lost\":3}" ""
				;;
			esac ;;
		esac
	done
}
