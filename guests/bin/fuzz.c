/*
 * fuzz: a system-call fuzzer of our own.  `fuzz [-s SEED] [-n CALLS]`
 * makes CALLS calls of every system call in kernel/include/syscall.h
 * (FOR_EACH_SYSCALL), with arguments both valid-looking and hostile, then
 * checks that the kernel is as it was.  `make fuzz ARCH=... SEED=... CALLS=N`
 * runs it through the harness (docs/protection.md, "The fuzzer").
 *
 * Deterministic: the calls come from one xorshift generator seeded by SEED,
 * never from what a call returned, so a seed names a sequence of calls; the
 * program prints it and a hash (FNV-1a) of every call's number and
 * arguments (a pid argument hashed as the slot it came from).
 *
 * The calls run in worker children, one after another: a worker makes
 * calls until it ends (it called exit, or was killed), and the next one
 * goes on from the call after the last it began.  A worker first makes
 * itself harmless to everything but itself: it gives up privilege (no
 * halt, no fsctl that changes the disk), leads its own process group (so
 * setsid() fails and the parent can always kill it), closes the console
 * (nothing it writes can look like a protocol line) and works in
 * /tmp/fuzz, where the paths it is given lie (or, a pointer taken as a
 * path, wherever its bytes say: every new name anywhere is removed after the
 * run).  Pids and groups it is given are its own, its child's, or ones
 * that cannot exist, never any other number: the parent is in its session,
 * so a kill() of it would succeed (docs/protection.md).  The parent
 * is the watchdog and the judge: the worker writes each call (number and
 * arguments) to a pipe before making it, one silent for WATCHDOG_US is
 * killed, and one whose call is not the sequence's next (its calls can
 * overwrite its own memory) is killed and the call made again by the
 * next worker, so the calls counted are the sequence's.  A worker killed
 * by the watchdog (it was blocked in a read of its own pipe, say), by a
 * fault of its own (it shrank its heap below its code, say) or for
 * straying is not a finding: only the kernel's misbehaviour is, and the
 * harness sees that as a panic or a hang.
 *
 * The checks, after all calls: no child left (the process count is back
 * where it started), fsck clean, the free blocks and inodes back where they
 * started once /tmp/fuzz is gone, the free pages back where they started,
 * and the kernel's tables too (open files, in-memory inodes, none locked,
 * pipes, busy buffers: fsctl(FSCTL_TABLES) counts them), the network's
 * packet buffers all free again (netctl(NETCTL_CONF)), the shell (pid 1)
 * alive.  Each prints a PASS or FAIL line; SUMMARY last (docs/protocol.md).
 * The kernel's page and fork policies are put back after each worker
 * (setting them takes privilege, which a worker gives up: a second guard).
 */
#include "test.h"
#include "fsutil.h"
#include "socket.h"
#include "fsformat.h"

#define DIR         "/tmp/fuzz"
#define WATCHDOG_US 300000             /* a worker's time, guest time */
#define NOPID       999999             /* a pid that cannot exist */
#define ALIVE_FD    (NOFILE - 1)       /* the worker's end of its pipe: not an fd the
                                        * fuzzer picks (a length may name it: run_worker) */

/* ---------------------------------------------------------------- generator */

static uint32_t rng;
static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}
static uint32_t pick(uint32_t n) { return next() % n; }

static uint32_t hash = 2166136261u;
static void hash_word(uint32_t w)
{
    for (int i = 0; i < 4; i++, w >>= 8)
        hash = (hash ^ (w & 0xff)) * 16777619u;
}

/* Every call, from the kernel's own list. */
typedef long (*callfn)(long, long, long, long, long);
struct call {
    const char *name;
    int num;
    callfn fn;
};
#define ENTRY(n) { #n, SYS_##n, (callfn)(void (*)(void))n },
static const struct call calls[] = { FOR_EACH_SYSCALL(ENTRY) };
#define NCALLS ((int)(sizeof calls / sizeof calls[0]))

/* What each argument of a call is, by letter: p a path, b a buffer, n a
 * length or count, f a file descriptor, k a pid or group, o open flags,
 * c a control op (fsctl's and netctl's, up to FSCTL_LAST: the remote file
 * system's mount, serve and crash among them), i any integer; for sockets, D a domain, T a type, P a protocol, S
 * a socket (mostly the worker's newest), a a socket address and l its
 * length (mostly valid, so that sockets are made, bound, connected and
 * sent on: random words almost never are: seed 2's first 20,000 calls
 * sent not one datagram before).  A call not listed gets "iiiii": every
 * call is fuzzed, the new ones too. */
static const char *shape(int num)
{
    switch (num) {
    case SYS_read: case SYS_write:     return "fbn";
    case SYS_open:                     return "po";
    case SYS_close: case SYS_dup: case SYS_fsync: return "f";
    case SYS_dup2:                     return "ff";
    case SYS_lseek:                    return "fii";
    case SYS_fstat: case SYS_readdir:  return "fb";
    case SYS_stat:                     return "pb";
    case SYS_mkdir: case SYS_unlink: case SYS_rmdir: case SYS_chdir: return "p";
    case SYS_rename:                   return "pp";
    case SYS_exec:                     return "pb";
    case SYS_pipe: case SYS_wait: case SYS_uptime: case SYS_kstat: return "b";
    case SYS_select:                   return "nbbbb";
    case SYS_kill: case SYS_getpgid:   return "k";
    case SYS_setpgid:                  return "kk";
    case SYS_tcsetpgrp:                return "fk";
    case SYS_sbrk:                     return "i";
    case SYS_sleep:                    return "s";
    case SYS_fsctl:                    return "cb";
    case SYS_exit:                     return "i";
    case SYS_socket:                   return "DTP";
    case SYS_bind: case SYS_connect:   return "Sal";
    case SYS_listen:                   return "Si";
    case SYS_accept:                   return "Sbb";
    case SYS_sendto:                   return "Sbnal";
    case SYS_recvfrom:                 return "Sbnbb";
    case SYS_netctl:                   return "cb";
    default:                           return "iiiii";
    }
}

/* The worker's memory for its calls: a buffer of its own, in .data (sbrk
 * cannot take it away before the code goes too). */
#define BUFSIZE 8192
static char buf[BUFSIZE] __attribute__((aligned(4096)));
static const char *paths[] = {
    DIR "/a", DIR "/b", DIR "/d", DIR "/d/e", DIR "/d/a", DIR "/a/x", DIR, DIR "/.",
    DIR "/d/..", DIR "/d/e/../../b", DIR "//a", DIR "/a_name_longer_than_twenty_seven",
    "", "/tmp/fuzz/no/such/dir",
};
static int child = NOPID;               /* the worker's last child */
static uint32_t heap_end;              /* sbrk(0) when the workers start */

static uint32_t pointer(void)
{
    static const uint32_t fixed[] = {
        0, 1, 0x0fff, 0x1000, 0x7fffeffc, 0x7ffff000, 0x7ffffffc, 0x80000000u,
        0x80001000u, 0xc0000000u, 0xf0000000u, 0xfffffffcu, 0xffffffffu,
        0x7fff0000 - 4,                /* just below the stack's lowest page */
    };
    switch (pick(6)) {
    case 0:  return fixed[pick(sizeof fixed / sizeof fixed[0])];
    case 1:  return (uint32_t)(uintptr_t)buf + BUFSIZE - 1 - pick(8);   /* at the end */
    case 2:  return (uint32_t)(uintptr_t)&pick;                         /* read-only code */
    case 3:  return heap_end - pick(16);                                /* the heap's end */
    default: return (uint32_t)(uintptr_t)buf + pick(BUFSIZE / 2);
    }
}

/* Socket addresses, in read-only data (a call cannot overwrite them),
 * in network byte order on either byte order: the loopback's two ports
 * (so a worker's sockets can find each other), any address, port 0, a
 * wrong family, and a peer there is no route to (no NIC) or nobody at. */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NET16(v) (v)
#define NET32(v) (v)
#else
#define NET16(v) ((unsigned short)(((v) >> 8 | (v) << 8) & 0xffff))
#define NET32(v) __builtin_bswap32(v)
#endif
#define LOOPBACK 0x7f000001u
static const struct sockaddr_in addrs[] = {
    { AF_INET, NET16(7000), { NET32(LOOPBACK) }, { 0 } },
    { AF_INET, NET16(7001), { NET32(LOOPBACK) }, { 0 } },
    { AF_INET, NET16(7000), { 0 }, { 0 } },
    { AF_INET, 0, { NET32(LOOPBACK) }, { 0 } },
    { 0, NET16(7000), { NET32(LOOPBACK) }, { 0 } },
    { AF_INET, NET16(7000), { NET32(0x0a000002u) }, { 0 } },
};

static uint32_t length(void)
{
    static const uint32_t fixed[] = { 0, 1, 4, 64, 4095, 4096, 4097, 8192, 65536,
                                      0x7fffffff, 0x80000000u, 0xffffffffu, 0xfffff000u };
    return pick(3) ? pick(256) : fixed[pick(sizeof fixed / sizeof fixed[0])];
}

static uint32_t integer(void)
{
    static const uint32_t fixed[] = { 0, 1, 2, 3, 0xffffffffu, 0x80000000u, 0x7fffffff,
                                      4096, 0xfffff000u, 100000 };
    return pick(2) ? fixed[pick(sizeof fixed / sizeof fixed[0])] : next();
}

/* A pid argument is generated as a slot of this table, and becomes the
 * pid only in the worker that makes the call (its own pid, its child's):
 * the parent, which checks each call against its own copy of the
 * sequence, sees the slot.  The worker's memory is not to be trusted (a
 * read may have overwritten `child`), so its pids are asked of the
 * kernel: its own from getpid(), the child only if it is in the worker's
 * group, which the parent is not. */
#define NPIDSLOTS 7
static int pid_of(uint32_t slot)
{
    switch (slot) {
    case 0:  return 0;
    case 1:  return -1;
    case 2:  return getpid();
    case 3:  return getpgid(child) == getpid() ? child : NOPID;
    case 5:  return 0x7fffffff;
    case 6:  return (int)0x80000000;
    default: return NOPID;
    }
}

/* A socket argument is generated as a slot too, mostly: it becomes the
 * worker's newest socket (socket() or accept() made it) only in the
 * worker, since only the worker knows what its calls returned. */
static int newest_socket = -1;

enum slot { NOT_A_SLOT, PID_SLOT, SOCKET_SLOT };

/* One argument of the given kind; one time in four, of any kind, whatever
 * the call wants; *slot says whether it is a pid or socket slot.  Not for a pid: any number
 * but the worker's own pids could name the parent, which is in the
 * worker's session, so kill() may reach it (docs/protection.md) and the
 * run would end there (seed 1 on riscv killed its parent, pid 3, with an
 * 'n' given to kill). */
static uint32_t arg(char kind, enum slot *slot)
{
    if (kind != 'k' && pick(4) == 0)
        kind = "pbnfkoci"[pick(8)];
    *slot = kind == 'k' ? PID_SLOT : NOT_A_SLOT;
    if (kind == 'S') {
        if (pick(4)) {
            *slot = SOCKET_SLOT;
            return 0;
        }
        kind = 'f';
    }
    switch (kind) {
    case 'p': return pick(5) ? (uint32_t)(uintptr_t)paths[pick(sizeof paths / sizeof paths[0])]
                             : pointer();
    case 'b': return pointer();
    case 'n': return length();
    case 'f': {
        static const int fds[] = { -1, 0, 1, 2, 3, 4, 5, 6, NOFILE - 2, NOFILE, NOFILE + 1,
                                   1000, (int)0x80000000 };   /* not ALIVE_FD */
        return (uint32_t)fds[pick(sizeof fds / sizeof fds[0])];
    }
    case 'k': return pick(NPIDSLOTS);
    case 'o': return pick(2) ? pick(8) | (pick(2) ? O_CREAT : 0) | (pick(4) ? 0 : O_TRUNC)
                             : integer();
    case 's': return pick(4) ? pick(2000) : pick(20000);   /* microseconds, no hang */
    case 'D': return pick(8) ? AF_INET : integer();
    case 'T': return pick(8) ? (pick(2) ? SOCK_STREAM : SOCK_DGRAM) : integer();
    case 'P': {
        static const uint32_t protos[] = { IPPROTO_ICMP, IPPROTO_TCP, IPPROTO_UDP };
        return pick(2) ? 0 : pick(4) ? protos[pick(3)] : integer();
    }
    case 'a': {                         /* half of them the loopback's first port */
        uint32_t i = pick(2) ? 0 : pick(sizeof addrs / sizeof addrs[0]);
        return pick(4) ? (uint32_t)(uintptr_t)&addrs[i] : pointer();
    }
    case 'l': return pick(4) ? sizeof(struct sockaddr_in) : length();
    case 'c': return pick(4) ? pick(FSCTL_LAST + 3) : integer();  /* a control op: every
                                        * fsctl (and netctl) op, and some beyond */
    default:  return integer();
    }
}

struct gen {
    int32_t index;                      /* its number in the sequence */
    int32_t call;
    uint32_t a[5];
    uint32_t pids;                      /* bit i: a[i] is a pid slot */
    uint32_t sockets;                   /* bit i: a[i] is the newest socket */
};

/* The next call of the sequence, number index. */
static void generate(struct gen *g, int index)
{
    g->index = index;
    g->call = (int)pick(NCALLS);
    g->pids = g->sockets = 0;
    const char *s = shape(calls[g->call].num);
    for (int i = 0; i < 5; i++) {
        enum slot slot = NOT_A_SLOT;
        g->a[i] = s[i] ? arg(s[i], &slot) : (pick(8) ? 0 : integer());
        g->pids |= (uint32_t)(slot == PID_SLOT) << i;
        g->sockets |= (uint32_t)(slot == SOCKET_SLOT) << i;
    }
    hash_word((uint32_t)calls[g->call].num);
    for (int i = 0; i < 5; i++)
        hash_word(g->a[i]);
}

/* ---------------------------------------------------------------- worker */

/* Make calls from the generator's state (the parent's, inherited), the
 * first numbered `index`, up to `end`.  Before each, tell the parent which
 * (the whole struct gen): that is the worker's heartbeat, the parent's
 * proof that the worker still makes the calls of the sequence, and where
 * the next worker goes on if this one ends. */
static void worker(int index, int end, int alive_fd)
{
    droppriv();
    setpgid(0, 0);                      /* a group of its own: setsid() fails */
    dup2(alive_fd, ALIVE_FD);
    for (int fd = 0; fd < ALIVE_FD; fd++)
        close(fd);
    if (chdir(DIR) < 0)
        exit(0);                        /* no call begun: the parent stops the run */
    for (; index < end; index++) {
        struct gen g;
        generate(&g, index);
        write(ALIVE_FD, &g, sizeof g);
        long a[5];
        for (int i = 0; i < 5; i++)
            a[i] = (g.pids >> i & 1) ? pid_of(g.a[i]) :
                   (g.sockets >> i & 1) ? newest_socket : (long)g.a[i];
        long r = calls[g.call].fn(a[0], a[1], a[2], a[3], a[4]);
        if ((calls[g.call].num == SYS_socket || calls[g.call].num == SYS_accept) && r >= 0)
            newest_socket = (int)r;
        if (calls[g.call].num == SYS_fork) {
            if (r == 0)
                exit(0);                /* the new child: gone at once */
            if (r > 0)
                child = (int)r;
        }
    }
    exit(0);
}

/* Run calls index.. in a worker, the parent its watchdog: a worker that
 * makes no progress for WATCHDOG_US is killed.  Returns the number of the
 * last call it began (index - 1: none); *how what ended it: 0 it finished
 * or exited, 1 killed by a fault of its own (or by itself), 2 by the
 * watchdog, 3 it strayed from the sequence.  The parent's generator (and
 * the hash) ends just after that call, where the next worker begins.
 *
 * A worker is not to be believed: its calls may write any bytes anywhere
 * in its own memory (its generator, its stack, the registers saved there),
 * into its pipe, or close it.  Seed 2 on m68k had one worker go on for
 * 977,000 "calls" in a few seconds, never calling exit, while the parent
 * counted them as the sequence's.  So the parent generates the sequence
 * itself and takes a worker's record only if it is the very next call,
 * index, arguments and all; anything else ends the worker, and the call
 * is made again by the next one.  And the end of the pipe is not the end
 * of the worker: the parent kills it (ESRCH if it is gone) before it
 * waits, or a worker that closed its pipe and then blocked would hang the
 * run in wait(). */
static int run_worker(int index, int end, int *how)
{
    int p[2];
    if (pipe(p) < 0)
        return -2;
    int pid = fork();
    if (pid == 0) {
        close(p[0]);
        worker(index, end, p[1]);
    }
    close(p[1]);
    if (pid < 0) {
        close(p[0]);
        return -2;
    }
    int last = index - 1, watchdog = 0, broke = 0, have = 0;
    unsigned char got[16 * sizeof(struct gen)];
    while (!watchdog && !broke) {
        fd_set rd;
        FD_ZERO(&rd);
        FD_SET(p[0], &rd);
        struct timeval tv = { 0, WATCHDOG_US };
        if (select(p[0] + 1, &rd, 0, 0, &tv) == 0) {
            watchdog = 1;
            break;
        }
        int n = read(p[0], got + have, sizeof got - have);
        if (n <= 0)
            break;                      /* it is gone, or closed its end */
        have += n;
        int used = 0;
        for (; have - used >= (int)sizeof(struct gen); used += sizeof(struct gen)) {
            struct gen said, want;
            uint32_t at = rng, h = hash;
            memcpy(&said, got + used, sizeof said);
            generate(&want, last + 1);
            if (last + 1 >= end || memcmp(&said, &want, sizeof want) != 0) {
                rng = at;               /* that call is the next worker's */
                hash = h;
                broke = 1;
                break;
            }
            last++;
        }
        memmove(got, got + used, have - used);
        have -= used;
    }
    /* Alive with its pipe ended: it closed its end (or put another file
     * there).  Gone already: ESRCH, a zombie until the wait. */
    if (kill(pid) == 0 && !watchdog)
        broke = 1;
    close(p[0]);
    int status = 0, w;
    while ((w = wait(&status)) != pid && w >= 0)
        ;
    *how = watchdog ? 2 : broke ? 3 : status == WSTATUS_KILLED ? 1 : 0;
    return last;
}

/* ---------------------------------------------------------------- checks */

static struct fsckinfo fsck_info(void)
{
    struct fsckinfo info;
    memset(&info, 0, sizeof info);
    if (fsctl(FSCTL_FSCK, &info) < 0)
        info.problems = 0xffffffffu;
    return info;
}

static void setup_dir(void)
{
    rm_tree(DIR);
    mkdir(DIR);
    mkdir(DIR "/d");
    int fd = open(DIR "/a", O_CREAT | O_WRONLY);
    write(fd, "a file for the fuzzer\n", 22);
    close(fd);
}

/* A worker may remove /tmp/fuzz (rmdir of its own empty cwd is allowed),
 * or put a file in its place: then the next one would work wherever the
 * parent is (the root, seed 1 on riscv did).  Make it again. */
static void ensure_dir(void)
{
    struct stat st;
    if (stat(DIR, &st) < 0 || !S_ISDIR(st.st_mode))
        setup_dir();
}

#define NET_QUIET_S 30

/* Whether the free pages and free packet buffers are back to the counts
 * before the run. */
static int back(const struct kstat *k0, const struct netconf *nc0)
{
    struct kstat k;
    struct netconf nc;
    kstat(&k);
    netctl(NETCTL_CONF, &nc);
    return k.free_pages == k0->free_pages && nc.nbufs_free == nc0->nbufs_free;
}

/* The network's packet buffers, its tables and its kernel process are
 * made once, by the first socket(), and kept for good (net_start() in
 * kernel/port/net/netif.c), as the buffer cache is.  Made here, before
 * the counts are taken: else the first worker's socket() would look like
 * a leak of a process and 68 pages (the 1,000,000-call runs of seed 2
 * said "processes 3 -> 4, free pages 30073 -> 30005" on riscv, mips and
 * x86 before this). */
static void start_network(void)
{
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    if (s >= 0)
        close(s);
}

/* Every name in the file system before the run, as paths.  A path a
 * worker is given may be any bytes in its memory, and its cwd may be
 * wherever a chdir took it: what it makes, anywhere, is its own doing, not
 * the kernel's, and is removed after the run (and counted, the first few
 * named) so that the leak checks see only what the kernel kept.  (The
 * root alone was looked at before: m68k's 1,000,000 calls of seed 2 left
 * a directory elsewhere, "files 89 dirs 10 before, 89 11 after", fsck
 * clean.)  Workers are children: what they write here is their copy. */
#define KNOWN_NAMES 256
#define STRAYS_NAMED 8
static char known[KNOWN_NAMES][MAXPATH];
static uint32_t known_size[KNOWN_NAMES];      /* its size before, in bytes */
static char known_dir[KNOWN_NAMES];           /* a directory */
static int nknown, named;

static int is_known(const char *path)
{
    for (int i = 0; i < nknown; i++)
        if (strcmp(known[i], path) == 0)
            return 1;
    return 0;
}

/* A name made of a worker's memory, printable. */
static void say_stray(const char *path)
{
    char shown[MAXPATH];
    int i;
    for (i = 0; path[i] && i < MAXPATH - 1; i++)
        shown[i] = path[i] > ' ' && path[i] < 127 ? path[i] : '?';
    shown[i] = 0;
    printf("fuzz: a worker left %s: removed\n", shown);
}

/* Walk the tree under dir.  With remember: note every path; else remove
 * every path not noted.  Returns how many (-1: too many to note). */
static int strays(const char *dir, int remember)
{
    int fd = open(dir, O_RDONLY), n = 0;
    struct dirent de;
    struct stat st;
    char path[MAXPATH];
    while (fd >= 0 && readdir(fd, &de) == 1) {
        if (strcmp(de.d_name, ".") == 0 || strcmp(de.d_name, "..") == 0)
            continue;
        if (snprintf(path, sizeof path, "%s/%s", strcmp(dir, "/") ? dir : "",
                     de.d_name) >= (int)sizeof path)
            continue;
        if (remember) {
            if (nknown == KNOWN_NAMES) {
                n = -1;
                break;
            }
            strcpy(known[nknown], path);
            int there = stat(path, &st) == 0;
            known_dir[nknown] = there && S_ISDIR(st.st_mode);
            known_size[nknown++] = there ? st.st_size : 0;
            n++;
        } else if (!is_known(path)) {
            if (named++ < STRAYS_NAMED)
                say_stray(path);
            rm_tree(path);
            n++;
            continue;
        }
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            int m = strays(path, remember);
            if (m < 0) {
                n = -1;
                break;
            }
            n += m;
        }
    }
    if (fd >= 0)
        close(fd);
    return n;
}

/* The disk blocks a file of `size` bytes without holes takes: its data
 * and its indirect blocks (kernel/include/fsformat.h). */
static uint32_t file_blocks(uint32_t size)
{
    uint32_t n = (size + BSIZE - 1) / BSIZE, b = n;
    if (n > NDIRECT)
        b++;
    if (n > NDIRECT + NINDIRECT)
        b += 1 + (n - NDIRECT - NINDIRECT + NINDIRECT - 1) / NINDIRECT;
    return b;
}

/* What the workers did to the files and directories that were there
 * before (a worker may open one by a pointer taken as a path, truncate
 * it, write to it or remove it; a name it made and that was removed
 * leaves its directory larger): each named, the first few; the blocks
 * they take now less those they took, which the free count must match;
 * the files and directories removed, which the inode counts must.  (Three
 * m68k runs of 1,000,000 calls of seed 2 found a directory made outside
 * the root, a program truncated, 14 blocks, and a program removed,
 * /bin/t_efault.) */
struct damage {
    int32_t blocks;                     /* taken now less taken before */
    unsigned files_gone, dirs_gone;
};

static struct damage damage(uint32_t root_before)
{
    struct stat st;
    struct damage d = { 0, 0, 0 };
    int shown = 0;
    for (int i = -1; i < nknown; i++) {
        const char *path = i < 0 ? "/" : known[i];
        uint32_t before = i < 0 ? root_before : known_size[i];
        int there = stat(path, &st) == 0;
        uint32_t after = there ? st.st_size : 0;
        if (!there && i >= 0) {
            if (known_dir[i])
                d.dirs_gone++;
            else
                d.files_gone++;
        }
        if (there && after == before)
            continue;
        if (shown++ < STRAYS_NAMED)
            printf(there ? "fuzz: a worker changed %s: %u -> %u bytes\n"
                         : "fuzz: a worker removed %s (%u bytes)\n",
                   path, (unsigned)before, (unsigned)after);
        d.blocks += (int32_t)file_blocks(after) - (int32_t)file_blocks(before);
    }
    return d;
}

int main(int argc, char **argv)
{
    uint32_t seed = 1;
    int ncalls = 20000;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "-s") == 0)
            seed = (uint32_t)atoi(argv[i + 1]);
        else if (strcmp(argv[i], "-n") == 0)
            ncalls = atoi(argv[i + 1]);
        else
            break;
    }
    if (ncalls < 0 || (argc - 1) % 2) {
        fprintf(2, "usage: fuzz [-s SEED] [-n CALLS]\n");
        return 2;
    }
    test_start("fuzz");

    /* The kernel takes a page for its counts when demand paging or
     * copy-on-write fork is first turned on, for good: take them now, so
     * that the free-page count below is one the run must come back to. */
    int paging = fsctl(FSCTL_PAGEPOLICY, (void *)PAGING_MODE);
    int forking = fsctl(FSCTL_PAGEPOLICY, (void *)FORK_MODE);
    fsctl(FSCTL_PAGEPOLICY, (void *)PAGING_DEMAND);
    fsctl(FSCTL_PAGEPOLICY, (void *)FORK_COW);
    int pages_policy = fsctl(FSCTL_PAGEPOLICY, (void *)PAGES_LIST);
    fsctl(FSCTL_PAGEPOLICY, (void *)(long)paging);
    fsctl(FSCTL_PAGEPOLICY, (void *)(long)forking);
    fsctl(FSCTL_PAGEPOLICY, (void *)(long)pages_policy);

    heap_end = (uint32_t)(uintptr_t)sbrk(0);
    setup_dir();                        /* made and removed: /tmp's entry for it */
    rm_tree(DIR);                       /* stays, as it will after the run */
    if (strays("/", 1) < 0) {
        test_fail("names", "more than %d names in the file system", KNOWN_NAMES);
        return test_summary();
    }
    struct stat root;
    uint32_t root_before = stat("/", &root) == 0 ? root.st_size : 0;
    start_network();
    struct fsckinfo fs0 = fsck_info();
    struct kstat k0;
    struct netconf nc0, nc1;
    netctl(NETCTL_CONF, &nc0);
    struct ktables kt0, kt1;
    kstat(&k0);
    fsctl(FSCTL_TABLES, &kt0);

    int ended[4] = { 0, 0, 0, 0 }, workers = 0, index = 0;
    uint64_t t0, t1;
    uptime(&t0);
    rng = seed ? seed : 1;
    setup_dir();
    while (index < ncalls) {
        /* The worker inherits the generator here, at call `index`. */
        ensure_dir();
        int how = 0, last = run_worker(index, ncalls, &how);
        if (last < -1) {
            test_fail("fork", "worker %d: %s", workers, strerror(errno));
            break;
        }
        if (last < index) {             /* it began no call: the run cannot go on */
            test_fail("progress", "worker %d began no call (call %d)", workers, index);
            break;
        }
        workers++;
        ended[how]++;
        /* The kernel's page and fork policies as they were (a worker
         * cannot change them without privilege: a second guard). */
        fsctl(FSCTL_PAGEPOLICY, (void *)(long)paging);
        fsctl(FSCTL_PAGEPOLICY, (void *)(long)forking);
        fsctl(FSCTL_PAGEPOLICY, (void *)(long)pages_policy);
        index = last + 1;               /* the generator is there already */
        if (workers % 64 == 0)
            setup_dir();
    }
    uptime(&t1);
    /* Every pid a worker may have made has been reaped by it, the parent,
     * or (orphans) the shell. */
    sleep(20000);
    /* A killed worker's TCP connections finish on their own, holding their
     * pages meanwhile: a retransmitted FIN gives up after about 9.4 s, an
     * orphan's FIN_WAIT_2 lasts 10 s at most, TIME_WAIT 2 s
     * (kernel/port/net/tcp_out.c).  Wait for the pages and packet buffers
     * to come back, NET_QUIET_S seconds of guest time at most: a leak
     * stays a leak, and an idle guest's seconds cost little host time. */
    for (int s = 0; s < NET_QUIET_S && !back(&k0, &nc0); s++)
        sleep(1000000);

    rm_tree(DIR);
    int left = strays("/", 0);
    struct damage harm = damage(root_before);
    struct fsckinfo fs1 = fsck_info();
    struct kstat k1;
    kstat(&k1);
    fsctl(FSCTL_TABLES, &kt1);
    netctl(NETCTL_CONF, &nc1);
    struct netstat ns;
    netctl(NETCTL_STATS, &ns);
    printf("fuzz: network reached: %u datagrams through the loopback (udp %u, tcp segments %u, "
           "icmp %u), %u connections opened, %u accepted, %u resets\n", ns.loop_frames,
           ns.udp_out, ns.tcp_out, ns.icmp_in, ns.tcp_connects, ns.tcp_accepts,
           ns.tcp_resets_out);
    printf("fuzz: seed=%u calls=%d workers=%d hash=%08x (finished %d, killed by a fault %d, "
           "by the watchdog %d, strayed %d; %d names left outside /tmp/fuzz) in %u ms\n",
           (unsigned)seed, ncalls, workers, (unsigned)hash, ended[0], ended[1], ended[2],
           ended[3], left,
           (unsigned)((t1 - t0) / 1000000));
    printf("fuzz: before -> after: processes %u -> %u, free pages %u -> %u, free blocks %u -> %u, "
           "files+dirs %u -> %u, open files %u -> %u, inodes held %u -> %u (locked %u), "
           "pipes %u -> %u, busy buffers %u -> %u, free packet buffers %u -> %u\n", k0.nproc, k1.nproc, k0.free_pages,
           k1.free_pages, fs0.free_blocks, fs1.free_blocks, fs0.files + fs0.dirs,
           fs1.files + fs1.dirs, kt0.files_open, kt1.files_open, kt0.inodes_held, kt1.inodes_held,
           kt1.inodes_locked, kt0.pipes_open, kt1.pipes_open, kt0.bufs_busy, kt1.bufs_busy,
           nc0.nbufs_free, nc1.nbufs_free);
    test_check("no_process_left", k1.nproc == k0.nproc, "processes %u before, %u after",
               k0.nproc, k1.nproc);
    test_check("fsck_clean", fs1.problems == 0, "%u problems", fs1.problems);
    test_check("blocks_back", (int32_t)fs0.free_blocks - (int32_t)fs1.free_blocks == harm.blocks,
               "free blocks %u before, %u after, %d more in files the workers changed",
               fs0.free_blocks, fs1.free_blocks, (int)harm.blocks);
    test_check("inodes_back", fs1.files + harm.files_gone == fs0.files &&
                              fs1.dirs + harm.dirs_gone == fs0.dirs,
               "files %u dirs %u before, %u %u after, %u %u the workers removed", fs0.files,
               fs0.dirs, fs1.files, fs1.dirs, harm.files_gone, harm.dirs_gone);
    test_check("pages_back", k1.free_pages == k0.free_pages, "free pages %u before, %u after",
               k0.free_pages, k1.free_pages);
    /* What the kernel holds in its tables: with every worker gone, back
     * where it was (the parent and the shell hold what they held). */
    test_check("files_back", kt1.files_open == kt0.files_open,
               "open-file entries %u before, %u after", kt0.files_open, kt1.files_open);
    test_check("incore_inodes_back", kt1.inodes_held == kt0.inodes_held && kt1.inodes_locked == 0,
               "inodes held %u before, %u after (%u locked)", kt0.inodes_held, kt1.inodes_held,
               kt1.inodes_locked);
    test_check("pipes_back", kt1.pipes_open == kt0.pipes_open, "pipes %u before, %u after",
               kt0.pipes_open, kt1.pipes_open);
    test_check("buffers_back", kt1.bufs_busy == kt0.bufs_busy, "busy buffers %u before, %u after",
               kt0.bufs_busy, kt1.bufs_busy);
    test_check("net_buffers_back", nc1.nbufs_free == nc0.nbufs_free,
               "free packet buffers %u before, %u after (of %u)", nc0.nbufs_free,
               nc1.nbufs_free, nc1.nbufs);
    test_check("shell_alive", kill(1) < 0 && errno == EPERM, "kill(1): errno %d", errno);
    return test_summary();
}
