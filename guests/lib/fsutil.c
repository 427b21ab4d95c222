/*
 * File-system helpers for the guest programs (guests/include/fsutil.h):
 * write-policy and page-policy names, changing the policy, counting device writes, and
 * removing a whole directory tree.
 */
#include "user.h"
#include "fsutil.h"

static const char *const names[] = {
    [POLICY_SYNC] = "sync", [POLICY_DELAYED] = "delayed",
    [POLICY_WRITETHROUGH] = "writethrough",
    [POLICY_NFS] = "nfs", [POLICY_SPRITE] = "sprite",
};

static const char *const page_names[] = {
    [PAGES_LIST] = "list", [PAGES_COLOURED] = "coloured", [PAGES_RANDOM] = "random",
};

const char *pages_name(int pages)
{
    if (pages >= 0 && pages < (int)(sizeof page_names / sizeof page_names[0]))
        return page_names[pages];
    return "unknown";
}

int pages_by_name(const char *name)
{
    for (int p = 0; p < (int)(sizeof page_names / sizeof page_names[0]); p++)
        if (strcmp(name, page_names[p]) == 0)
            return p;
    return -1;
}

const char *policy_name(int policy)
{
    if (policy >= 0 && policy < (int)(sizeof names / sizeof names[0]))
        return names[policy];
    return "unknown";
}

int policy_by_name(const char *name)
{
    for (int p = 0; p < (int)(sizeof names / sizeof names[0]); p++)
        if (strcmp(name, names[p]) == 0)
            return p;
    return -1;
}

int policy_get(void)
{
    struct fsconf c;
    if (fsctl(FSCTL_GETCONF, &c) < 0)
        return -1;
    return c.remote ? POLICY_WRITETHROUGH + (int)c.remote : (int)c.policy;
}

int policy_set(int policy)
{
    struct fsconf c;
    if (fsctl(FSCTL_GETCONF, &c) < 0)
        return -1;
    if (POLICY_IS_REMOTE(policy))
        c.remote = (unsigned)(policy - POLICY_WRITETHROUGH);
    else
        c.policy = (unsigned)policy;
    return fsctl(FSCTL_SETCONF, &c);
}

void io_snap(struct io_counts *c)
{
    struct kstat k;
    if (kstat(&k) < 0) {
        memset(c, 0, sizeof *c);
        return;
    }
    c->dev_reads = k.dev_reads;
    c->dev_writes = k.dev_writes;
    c->sync_writes = k.sync_writes;
    c->misses = k.bcache_misses;
    struct fsconf conf;
    struct rfspeer p;
    struct rfsstat r;
    c->srv_reads = c->srv_writes = c->srv_sync_writes = c->rpcs = c->retrans = 0;
    /* Our calls counted before the one that asks the server (so a span
     * counts its first io_snap's: io_since takes it off). */
    if (fsctl(FSCTL_GETCONF, &conf) < 0 || !conf.remote ||
        fsctl(FSCTL_RFSSTAT, &r) < 0 || fsctl(FSCTL_RFSPEER, &p) < 0)
        return;
    c->srv_reads = p.dev_reads;
    c->srv_writes = p.dev_writes;
    c->srv_sync_writes = p.sync_writes;
    c->rpcs = r.rpc_calls;
    c->retrans = r.rpc_retrans;
}

void io_since(struct io_counts *c)
{
    struct io_counts now;
    io_snap(&now);
    c->dev_reads = now.dev_reads - c->dev_reads;
    c->dev_writes = now.dev_writes - c->dev_writes;
    c->sync_writes = now.sync_writes - c->sync_writes;
    c->misses = now.misses - c->misses;
    c->srv_reads = now.srv_reads - c->srv_reads;
    c->srv_writes = now.srv_writes - c->srv_writes;
    c->srv_sync_writes = now.srv_sync_writes - c->srv_sync_writes;
    c->rpcs = now.rpcs - c->rpcs - (now.rpcs != c->rpcs);   /* io_snap's own call */
    c->retrans = now.retrans - c->retrans;
}

void io_fields(char *buf, int size, int policy, const struct io_counts *c)
{
    if (POLICY_IS_REMOTE(policy))
        snprintf(buf, size, "dev_writes=%u sync_writes=%u dev_reads=%u rpcs=%u retrans=%u "
                 "local_writes=%u", c->srv_writes, c->srv_sync_writes, c->srv_reads, c->rpcs,
                 c->retrans, c->dev_writes);
    else
        snprintf(buf, size, "dev_writes=%u sync_writes=%u dev_reads=%u", c->dev_writes,
                 c->sync_writes, c->dev_reads);
}

int rm_tree(const char *path)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return -1;
    if (!S_ISDIR(st.st_mode))
        return unlink(path);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    struct dirent de;
    char sub[MAXPATH];
    int status = 0;
    /* Removing entries while reading the directory is safe here: a removed
     * entry's slot is left empty, and the rest do not move. */
    while (readdir(fd, &de) == 1) {
        if (strcmp(de.d_name, ".") == 0 || strcmp(de.d_name, "..") == 0)
            continue;
        if (snprintf(sub, sizeof sub, "%s/%s", path, de.d_name) >= (int)sizeof sub ||
            rm_tree(sub) < 0)
            status = -1;
    }
    close(fd);
    if (rmdir(path) < 0)
        status = -1;
    return status;
}
