/*
 * mount: a server's file system on this machine (kernel/port/rfs/,
 * docs/remote-files.md).
 *
 *   mount                          what is mounted: `mount proto=nfs server=10.0.0.1 path=/`
 *                                  (or `mount proto=none`)
 *   mount -t nfs|sprite ADDR PATH  mount ADDR's file system at PATH under
 *                                  that protocol; PATH "/" makes this a
 *                                  diskless client (every file the server's)
 *
 * The protocol can be changed later with `policy nfs` or `policy sprite`.
 */
#include "socket.h"
#include "fsutil.h"

static void usage(void)
{
    fprintf(2, "usage: mount [-t nfs|sprite ADDR PATH]\n");
    exit(2);
}

int main(int argc, char *argv[])
{
    if (argc == 1) {
        struct rfspeer p;
        if (fsctl(FSCTL_RFSPEER, &p) < 0) {
            fprintf(2, "mount: %s\n", strerror(errno));
            return 1;
        }
        if (p.proto == RFS_NONE) {
            printf("mount proto=none\n");
            return 0;
        }
        struct in_addr a = { htonl(p.addr) };
        char addr[16];
        printf("mount proto=%s server=%s path=%s\n",
               policy_name(POLICY_WRITETHROUGH + (int)p.proto), inet_ntoa_r(a, addr), p.path);
        return 0;
    }
    if (argc != 5 || strcmp(argv[1], "-t") != 0)
        usage();
    struct rfsmount m;
    memset(&m, 0, sizeof m);
    int policy = policy_by_name(argv[2]);
    if (!POLICY_IS_REMOTE(policy))
        usage();
    m.proto = (unsigned)(policy - POLICY_WRITETHROUGH);
    struct in_addr a;
    if (!inet_aton(argv[3], &a)) {
        fprintf(2, "mount: %s: not an address\n", argv[3]);
        return 2;
    }
    m.addr = ntohl(a.s_addr);
    if (strlen(argv[4]) >= sizeof m.path) {
        fprintf(2, "mount: %s: path too long\n", argv[4]);
        return 2;
    }
    strcpy(m.path, argv[4]);
    if (fsctl(FSCTL_MOUNT, &m) < 0) {
        fprintf(2, "mount: %s on %s: %s\n", argv[3], argv[4], strerror(errno));
        return 1;
    }
    printf("mount: %s %s on %s\n", argv[2], argv[3], argv[4]);
    return 0;
}
