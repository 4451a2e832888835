# Sourced by the scenarios that poison or offline a guest page (60, 62, 80).

# free_pfns FROM COUNT [N]: the first N (default 1) page frames in
# [FROM, FROM+COUNT) that the buddy allocator holds free (/proc/kpageflags
# bit 10, KPF_BUDDY; see the kernel's Documentation/admin-guide/mm/pagemap.rst),
# one per line: pages the kernel can offline without touching anyone's data.
# Callers search wide windows: late in a long VM run the page cache can fill
# a small one (a 64 MiB window once held no free page).  awk stops reading
# early; od's complaint about that goes nowhere, so that it cannot land in
# the output.
free_pfns() {
	guest "od -An -tu8 -v -w8 -j \$(($1 * 8)) -N \$(($2 * 8)) /proc/kpageflags 2>/dev/null |
		awk -v base=$(($1)) -v want=${3:-1} '{ if (int(\$1 / 1024) % 2 == 1) { print base + NR - 1; if (++n == want) exit } }'"
}
