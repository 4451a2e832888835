# Sourced by the scenarios of the CXL boot that map the device with a region
# (67, and trixie's 69 beside rasdaemon).

# region_up: a ram region over all of mem0's volatile capacity in the fixed
# window (decoder0.0), its memory online; prints the region's name.  Debian
# 12's cxl tool (ndctl 76) first; where it cannot make one (it says "region
# type 'ram' not supported yet"), the same steps
# through the kernel's region ABI (Documentation/ABI/testing/sysfs-bus-cxl):
# create_ram_region, interleave ways and granularity, size, the endpoint
# decoder's mode and DPA size, target0, commit.  kmem then onlines the
# memory (movable), as auto_online_blocks says.
region_up() {
	guest '
for m in dax_cxl device_dax kmem; do modprobe $m 2>/dev/null; done
echo online_movable >/sys/devices/system/memory/auto_online_blocks
c=/sys/bus/cxl/devices
# All of the device: its volatile size (cxl-boot.sh gives it 256 MiB).
size=$(cat $c/mem0/ram/size 2>/dev/null || echo 0x10000000); size=$((size))
# Its JSON on stdout: ndctl 81 (Debian 13) says "created 1 region" on stderr.
out=$(cxl create-region -m -t ram -d decoder0.0 -w 1 -s $size mem0 2>/run/cxl-create-region.err)
r=$(jq -r ".region // .[0].region // empty" <<<"$out" 2>/dev/null)
if ! [[ "$r" =~ ^region[0-9]+$ ]]; then
	echo "cxl create-region (size $size): $out $(cat /run/cxl-create-region.err)"
	ed=$(cd $c/endpoint2 && ls -d decoder*.0 | head -n1)
	step() { echo "+ $*"; eval "$@" || { echo "failed: $*"; dmesg | grep -i "cxl\|region" | tail -n 20; exit 1; }; }
	step "r=\$(cat $c/decoder0.0/create_ram_region)"
	step "echo $r >$c/decoder0.0/create_ram_region"
	step "echo 1 >$c/$r/interleave_ways"
	step "cat $c/decoder0.0/interleave_granularity >$c/$r/interleave_granularity"
	step "echo $size >$c/$r/size"
	echo ram >$c/$ed/mode 2>/dev/null
	step "echo $size >$c/$ed/dpa_size"
	step "echo $ed >$c/$r/target0"
	step "echo 1 >$c/$r/commit"
	[ -e $c/$r/driver ] || step "echo $r >/sys/bus/cxl/drivers/cxl_region/bind"
fi
for i in $(seq 60); do grep -q "System RAM (kmem)" /proc/iomem && break; sleep 0.5; done
grep -q "System RAM (kmem)" /proc/iomem || { echo "no kmem memory for $r"; ls $c /sys/bus/dax/devices; grep . $c/$r/* 2>/dev/null; exit 1; }
echo "$r"' 120
}
