# Sourced by the hotplug scenarios (50-hotplug, scale/16-many-cpus-hotplug).

# hotplug_status N [SECONDS]: wait (default 10 s) until mcelogd's STATUS= says it
# reads N CPUs; prints the status.
hotplug_status() {
	local limit=${2:-10}
	guest "for i in \$(seq $((limit * 4))); do
	s=\$(systemctl show -p StatusText --value mcelogd.service)
	case \$s in *' on $1 CPUs'*) break ;; esac
	sleep 0.25
done
echo \"\$s\"" $((limit + 60))
}
