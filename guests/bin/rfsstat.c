/*
 * rfsstat: the remote file systems' counters since boot (FSCTL_RFSSTAT,
 * kernel/port/rfs/; each counter is described in kernel/include/abi.h,
 * FOR_EACH_RFSSTAT): a client's (rpc_*, rfs_*) and a server's (srv_*).
 *
 *   rfsstat          every counter that is not 0
 *   rfsstat -a       every counter
 *   rfsstat -s       also the mounted server's disk counters (asked by a call)
 *
 * The first line: `rfs proto=nfs` (what is mounted, or none), then one
 * `name=value` line per counter, and with -s `server_dev_writes=...` ...
 */
#include "user.h"
#include "fsutil.h"

#define NAME(n) #n,
static const char *const names[] = { FOR_EACH_RFSSTAT(NAME) };
#undef NAME

int main(int argc, char *argv[])
{
    int all = 0, server = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-a") == 0) {
            all = 1;
        } else if (strcmp(argv[i], "-s") == 0) {
            server = 1;
        } else {
            fprintf(2, "usage: rfsstat [-a] [-s]\n");
            return 2;
        }
    }
    struct rfsstat s;
    struct rfspeer p;
    struct fsconf c;
    if (fsctl(FSCTL_GETCONF, &c) < 0 || fsctl(FSCTL_RFSSTAT, &s) < 0 ||
        (server && fsctl(FSCTL_RFSPEER, &p) < 0)) {
        fprintf(2, "rfsstat: %s\n", strerror(errno));
        return 1;
    }
    printf("rfs proto=%s\n", c.remote ? policy_name(POLICY_WRITETHROUGH + (int)c.remote) : "none");
    const unsigned int *v = (const unsigned int *)&s;
    for (unsigned int i = 0; i < sizeof names / sizeof names[0]; i++)
        if (all || v[i])
            printf("%s=%u\n", names[i], v[i]);
    if (server && p.proto)
        printf("server_dev_reads=%u\nserver_dev_writes=%u\nserver_sync_writes=%u\n"
               "server_calls=%u\nserver_dup_replays=%u\n", p.dev_reads, p.dev_writes,
               p.sync_writes, p.srv_calls, p.srv_dup_replays);
    return 0;
}
