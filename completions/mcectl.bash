# bash completion for mcectl(1) and mcelogd(8).  Options come from the
# programs' own --help, so they never fall behind; values are completed for
# the options that take a fixed set.

_mcelogd_help_options() {
	"$@" --help 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u
}

_mcectl() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} verb= i
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in -*) ;; *) verb=${COMP_WORDS[i]}; break ;; esac
	done
	if [[ -z $verb ]]; then
		COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" --help 2>/dev/null | awk '/^  [a-z]+ / { print $1 }') --help --version" -- "$cur"))
		return
	fi
	case $prev in
	-o|--output)
		case $verb in
		decode|pt) COMPREPLY=($(compgen -W "text json" -- "$cur")) ;;
		status|slots|pages|dimms) COMPREPLY=($(compgen -W "table json" -- "$cur")) ;;
		*) COMPREPLY=($(compgen -W "table json csv" -- "$cur")) ;;
		esac
		return ;;
	-b|--by) COMPREPLY=($(compgen -W "dimm channel bank cpu socket page error host row memdev process disk" -- "$cur")); return ;;
	--severity) COMPREPLY=($(compgen -W "corrected deferred uncorrected fatal info" -- "$cur")); return ;;
	-D|--directory|--dmi-dir|--edac-dir|--slots-dir|--rules-directory|--rules-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
	--file|--socket|--test|--state|--config) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	-S|--since|-U|--until|--forget|--machine|--cpu|--bank|-H|--host|--cpu-id|--status|--addr|--misc|--synd|--ipid|--mcgstatus|--mcgcap|--apicid|--capture)
		return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_mcelogd_help_options "${COMP_WORDS[0]}" "$verb")" -- "$cur"))
	elif [[ $verb == decode || $verb == pt ]]; then
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}

_mcelogd() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	case $prev in
	--log-level) COMPREPLY=($(compgen -W "err warning notice info debug" -- "$cur")); return ;;
	--output) COMPREPLY=($(compgen -W "json" -- "$cur")); return ;;
	-c|--config|-r|--replay|--output-file|--metrics-file|--control-socket) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	--tracefs|--state-directory|--rules-directory) COMPREPLY=($(compgen -d -- "$cur")); return ;;
	esac
	COMPREPLY=($(compgen -W "$(_mcelogd_help_options "${COMP_WORDS[0]}")" -- "$cur"))
}

complete -F _mcectl mcectl
complete -F _mcelogd mcelogd
