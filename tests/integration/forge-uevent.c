/* SPDX-License-Identifier: MIT */
/*
 * Sends a forged CPU uevent ("offline@/devices/system/cpu/cpuN") straight to
 * one netlink port: a local process posing as the kernel.  status.sh aims it
 * at mcelogd's uevent socket, which must drop it (only the kernel's port 0
 * may speak there).  Usage: forge-uevent PORTID CPU
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
	char msg[512];
	int fd, n, cpu;

	if (argc != 3) {
		fprintf(stderr, "usage: %s PORTID CPU\n", argv[0]);
		return 2;
	}
	to.nl_pid = (unsigned) strtoul(argv[1], NULL, 0);
	cpu = atoi(argv[2]);
	n = snprintf(msg, sizeof(msg), "offline@/devices/system/cpu/cpu%d%cACTION=offline%c"
		     "DEVPATH=/devices/system/cpu/cpu%d%cSUBSYSTEM=cpu%cSEQNUM=1%c", cpu, 0, 0, cpu, 0, 0, 0);
	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (fd < 0 || sendto(fd, msg, (size_t) n, 0, (struct sockaddr *) &to, sizeof(to)) != n) {
		perror("forge-uevent");
		return 1;
	}
	close(fd);
	return 0;
}
