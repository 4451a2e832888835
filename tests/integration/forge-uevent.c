/* SPDX-License-Identifier: MIT */
/*
 * Sends a forged uevent straight to one netlink port: a local process
 * posing as the kernel.  status.sh aims a CPU's "offline" at mcelogd's
 * uevent socket, which must drop it (only the kernel's port 0 may speak
 * there); memory-online.sh sends memory and CXL uevents to a daemon whose
 * --sysfs-memory stand-in makes it take them as the kernel's.
 * Usage: forge-uevent PORTID CPU
 *        forge-uevent PORTID ACTION DEVPATH SUBSYSTEM
 */
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char *argv[])
{
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };
	static unsigned seqnum = 1;
	char msg[1024], cpu_path[64];
	const char *action, *devpath, *subsystem;
	int fd, n;

	if (argc == 3) {
		snprintf(cpu_path, sizeof(cpu_path), "/devices/system/cpu/cpu%d", atoi(argv[2]));
		action = "offline";
		devpath = cpu_path;
		subsystem = "cpu";
	} else if (argc == 5) {
		action = argv[2];
		devpath = argv[3];
		subsystem = argv[4];
	} else {
		fprintf(stderr, "usage: %s PORTID CPU\n       %s PORTID ACTION DEVPATH SUBSYSTEM\n", argv[0], argv[0]);
		return 2;
	}
	to.nl_pid = (unsigned) strtoul(argv[1], NULL, 0);
	/* The kernel's layout (lib/kobject_uevent.c): "ACTION@DEVPATH", then KEY=value strings, each NUL-ended. */
	n = snprintf(msg, sizeof(msg), "%s@%s%cACTION=%s%cDEVPATH=%s%cSUBSYSTEM=%s%cSEQNUM=%u%c", action, devpath, 0,
		     action, 0, devpath, 0, subsystem, 0, seqnum, 0);
	if (n < 0 || (size_t) n >= sizeof(msg)) {
		fprintf(stderr, "forge-uevent: message too long\n");
		return 2;
	}
	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (fd < 0 || sendto(fd, msg, (size_t) n, 0, (struct sockaddr *) &to, sizeof(to)) != n) {
		perror("forge-uevent");
		return 1;
	}
	close(fd);
	return 0;
}
