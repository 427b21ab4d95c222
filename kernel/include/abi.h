/*
 * Types shared by the kernel and user programs: what crosses the system-call
 * boundary besides plain integers.  (The file system's layout on the disk,
 * which only the kernel and the host tools see, is in fsformat.h.)  Every ISA here is 32-bit, so `long` and
 * pointers are 4 bytes everywhere and these layouts are the same on all four.
 */
#ifndef ABI_H
#define ABI_H

#define NOFILE      32          /* open files per process; fd_set holds them */
#define MAXARG      16          /* exec: at most this many arguments         */
#define MAXARGLEN   128         /* exec: each at most this long, with NUL    */
#define MAXPATH     128         /* longest path name, with NUL               */

/* select(): one bit per descriptor, NOFILE bits. */
typedef struct { unsigned int bits; } fd_set;
#define FD_ZERO(s)      ((s)->bits = 0)
#define FD_SET(fd, s)   ((s)->bits |= 1u << (fd))
#define FD_CLR(fd, s)   ((s)->bits &= ~(1u << (fd)))
#define FD_ISSET(fd, s) (((s)->bits >> (fd)) & 1u)

struct timeval {
    long tv_sec;
    long tv_usec;
};

/* open() flags */
#define O_RDONLY  0x000
#define O_WRONLY  0x001
#define O_RDWR    0x002
#define O_CREAT   0x200
#define O_TRUNC   0x400

/* lseek() whence */
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2

/* wait() status of a process the kernel killed (bad access, illegal
 * instruction): not a value exit() can produce from a byte. */
#define WSTATUS_KILLED  (-1)

/* kstat(): counters the kernel keeps since boot. */
struct kstat {
    unsigned int syscalls;      /* system calls entered              */
    unsigned int traps;         /* all traps from user mode          */
    unsigned int interrupts;    /* device and timer interrupts       */
    unsigned int cswitches;     /* context switches                  */
    unsigned int forks;         /* successful forks                  */
    unsigned int nproc;         /* processes alive now               */
    unsigned int free_pages;    /* physical pages free now           */
    unsigned int total_pages;   /* physical pages managed            */
    /* The file system's block I/O (kernel/port/bio.c, ramdisk.c). */
    unsigned int bcache_hits;   /* bread found the block in the buffer cache  */
    unsigned int bcache_misses; /* ... and had to read it from the disk       */
    unsigned int dev_reads;     /* blocks read from the disk                  */
    unsigned int dev_writes;    /* blocks written to the disk                 */
    unsigned int sync_writes;   /* ... of those, written while a process in a
                                 * system call waited (not by the flusher)    */
    unsigned int dev_model_us;  /* disk time the latency model charged, in us */
};

/* stat() and fstat(). */
struct stat {
    unsigned int st_ino;        /* inode number                               */
    unsigned int st_mode;       /* one of the S_IF* types below               */
    unsigned int st_nlink;      /* directory entries naming it                */
    unsigned int st_size;       /* bytes                                      */
};
#define S_IFMT   0170000
#define S_IFDIR  0040000
#define S_IFCHR  0020000        /* the console                                */
#define S_IFIFO  0010000        /* a pipe                                     */
#define S_IFREG  0100000
#define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)

/* readdir(fd, struct dirent *) -> 1, or 0 at the end of the directory. */
#define NAME_MAX 27             /* longest name in a directory (DIRSIZ - 1)   */
struct dirent {
    unsigned int d_ino;
    char d_name[NAME_MAX + 1];
};

/* fsctl(op, arg): the file system's knobs, for the harness and the tests. */
#define FSCTL_GETCONF 1         /* arg: struct fsconf * to fill               */
#define FSCTL_SETCONF 2         /* arg: struct fsconf * to apply (get, change, set) */
#define FSCTL_FSCK    3         /* arg: struct fsckinfo * or 0; returns the number
                                 * of problems found (and prints them)        */
#define FSCTL_DROPCACHE 4       /* arg unused: write back every dirty block, then
                                 * empty the buffer cache (EBUSY if a block is
                                 * in use)                                    */
#define FSCTL_PAGEPOLICY 5      /* arg: a PAGES_* policy, as an integer, for the
                                 * user pages allocated from now on; returns the
                                 * old one.  (Not the file system's, but this is
                                 * the call for the kernel's knobs.)  Or a
                                 * PAGING_* mode (when pages are allocated) or
                                 * FORK_* mode (what fork does with them),
                                 * returning the old mode, or a PAGING_ or
                                 * FORK_ query. */
#define FSCTL_REPAIR  6         /* as FSCTL_FSCK, then repair what it can
                                 * (fsck -y): returns, and fills in, the
                                 * problems left                              */
#define FSCTL_TABLES  7         /* arg: struct ktables * to fill (counted now:
                                 * a walk of the tables, so not in kstat,
                                 * which the benchmarks call)                 */
/* Remote files (kernel/port/rfs/, docs/remote-files.md). */
#define FSCTL_MOUNT   8         /* arg: struct rfsmount *: mount a server's file
                                 * system at a path (privileged)              */
#define FSCTL_SERVE   9         /* arg: struct rfsserve *: serve this machine's
                                 * file system (privileged)                   */
#define FSCTL_RFSSTAT 10        /* arg: struct rfsstat *: this kernel's remote
                                 * file counters, client and server           */
#define FSCTL_RFSPEER 11        /* arg: struct rfspeer *: the first mount, and
                                 * its server's disk counters (asked by RPC)  */
#define FSCTL_RFSCRASH 12       /* arg: milliseconds down: crash the server now
                                 * (as struct rfsserve's crash_after), return
                                 * when it is up again (privileged)           */
#define FSCTL_LAST    FSCTL_RFSCRASH    /* the highest op (the fuzzer tries each) */

/* Page-allocation policies (kernel/port/kalloc.c). */
#define PAGES_LIST      0       /* the free list's head (the default)        */
#define PAGES_COLOURED  1       /* the virtual page's cache colour           */
#define PAGES_RANDOM    2       /* a pseudo-random colour                    */

/* Paging modes (kernel/port/paging.c), set by FSCTL_PAGEPOLICY for the
 * heap and stack pages laid out from then on, and the queries it answers
 * (they change nothing, and return the value asked for). */
#define PAGING_EAGER    16      /* every page mapped before use (the default) */
#define PAGING_DEMAND   17      /* heap and stack pages mapped at first touch */
#define PAGING_MODE     32      /* query: the paging mode now                 */
#define PAGING_FAULTS   33      /* query: page faults served since boot       */
#define PAGING_MYFAULTS 34      /* query: ... of them, for the calling process */
#define ENTRY_ALIGN     38      /* query: what exec demands an entry point be a
                                 * multiple of on this ISA (its machine.h's
                                 * USER_PC_ALIGN; tests/t_entry)              */

/* Fork modes (kernel/port/cow.c), set by FSCTL_PAGEPOLICY for the forks
 * from then on, and the queries it answers. */
#define FORK_COPY       18      /* fork copies every user page (the default)  */
#define FORK_COW        19      /* fork shares them, copy-on-write            */
#define FORK_MODE       35      /* query: the fork mode now                   */
#define FORK_COPIES     36      /* query: user pages copied since boot, by fork
                                 * or by a write to a shared page (counted
                                 * from the first time FORK_COW is set)       */
#define FORK_COWFAULTS  37      /* query: writes to shared pages served since
                                 * boot (a copy, or the last sharer's takeover) */

/* Write policies (kernel/port/writeback.c). */
#define POLICY_SYNC         0   /* UNIX: metadata written at once, data on close */
#define POLICY_DELAYED      1   /* Sprite: written when flush_age_ms old     */
#define POLICY_WRITETHROUGH 2   /* every change written at once              */

struct fsconf {
    unsigned int policy;            /* POLICY_*; changing it first writes
                                     * every dirty block                      */
    unsigned int flush_age_ms;      /* delayed: a dirty block's age at which
                                     * the flusher writes it (guest time)     */
    unsigned int cache_blocks;      /* buffers in the cache (resizing empties it) */
    unsigned int cache_max;         /* at most this many (read-only)          */
    unsigned int disk_blocks;       /* size of the disk (read-only)           */
    /* The disk's latency model; all 0 (the default) is a RAM disk with no
     * delay.  Each request costs overhead, plus seek and rotation when it
     * does not start where the last one ended, plus BSIZE at kb_per_s. */
    unsigned int disk_overhead_ns;
    unsigned int disk_seek_ns;
    unsigned int disk_rotation_ns;
    unsigned int disk_kb_per_s;     /* 0: instant transfer                    */
    /* The remote file systems' protocol, RFS_* (kernel/port/rfs/): every
     * mount's.  Changing it writes back what the clients hold and mounts
     * each again under the new one (ENOTCONN with no mount).  */
    unsigned int remote;
};

/* Remote file-system protocols (kernel/port/rfs/rfs.h). */
#define RFS_NONE        0       /* no mount                                   */
#define RFS_NFS         1       /* NFS version 2: stateless, write-through on close */
#define RFS_SPRITE      2       /* Sprite: client caches, delayed write-back  */

struct rfsmount {
    unsigned int addr;              /* the server's IPv4 address, host order  */
    unsigned int proto;             /* RFS_NFS or RFS_SPRITE                  */
    char path[64];                  /* where: "/" (a diskless client) or a
                                     * directory's absolute path              */
};

struct rfsserve {
    unsigned int crash_after;       /* crash after serving this many calls
                                     * (0: never): its memory is lost, its
                                     * disk (the RAM disk) kept               */
    unsigned int crash_writes;      /* ... or after serving this many writes
                                     * (WRITE calls; 0: never)                */
    unsigned int down_ms;           /* ... and answer nothing for this long   */
};

/* The counters of FSCTL_RFSSTAT, since boot: a client's (rpc_*, rfs_*)
 * and a server's (srv_*). */
#define FOR_EACH_RFSSTAT(X) \
    X(rpc_calls)       /* calls made (each try after the first is a retransmission) */ \
    X(rpc_retrans)     /* calls sent again after a timeout              */ \
    X(rpc_frags_out)   /* fragments sent, calls and replies             */ \
    X(rpc_frags_in)    /* fragments received                            */ \
    X(rpc_bad)         /* fragments dropped: malformed                  */ \
    X(rpc_stray)       /* replies no call waited for (late copies)      */ \
    X(rpc_nobuf)       /* messages not sent or not taken: no buffer, no slot */ \
    X(rfs_blocks_read) /* client: cache blocks filled from the server   */ \
    X(rfs_blocks_written) /* client: cache blocks written to the server */ \
    X(rfs_cache_hits)  /* client: block reads found in its cache        */ \
    X(rfs_attr_hits)   /* client (nfs): attributes from its cache       */ \
    X(rfs_name_hits)   /* client (nfs): lookups from its name cache     */ \
    X(rfs_dropped)     /* client: dirty blocks dropped unwritten (the file removed) */ \
    X(rfs_recoveries)  /* client (sprite): server reboots seen, files reopened */ \
    X(rfs_reopens)     /* client (sprite): REOPEN calls                 */ \
    X(rfs_callbacks)   /* client (sprite): recalls served               */ \
    X(srv_calls)       /* server: calls served                          */ \
    X(srv_dup_replays) /* server: a done call's reply sent again        */ \
    X(srv_dup_busy)    /* server: a copy of a call being served dropped */ \
    X(srv_sync_writes) /* server: device writes made while a call waited */ \
    X(srv_recalls)     /* server (sprite): dirty data recalled from a client */ \
    X(srv_nocache)     /* server (sprite): caching turned off (write-sharing) */ \
    X(srv_crashes)     /* server: crashes (FSCTL_SERVE's crash_after)   */ \
    X(srv_lost_blocks) /* server: dirty blocks its crashes lost         */

#define RFSSTAT_FIELD(name) unsigned int name;
struct rfsstat {
    FOR_EACH_RFSSTAT(RFSSTAT_FIELD)
};
#undef RFSSTAT_FIELD

struct rfspeer {
    unsigned int proto;             /* RFS_*: RFS_NONE if nothing is mounted  */
    unsigned int addr;              /* the server                             */
    char path[64];                  /* the first mount's path                 */
    /* the server's, since its boot: kstat's dev_reads and dev_writes, and
     * rfsstat's srv_sync_writes (the writes a call waited for) */
    unsigned int dev_reads, dev_writes, sync_writes;
    unsigned int srv_calls, srv_dup_replays;
};

struct fsckinfo {
    unsigned int problems;          /* 0: consistent                          */
    unsigned int files, dirs;       /* allocated inodes                       */
    unsigned int used_blocks;       /* data blocks in use                     */
    unsigned int free_blocks;       /* data blocks free                       */
    unsigned int repairs;           /* FSCTL_REPAIR: blocks it changed         */
};

/* FSCTL_TABLES: what the kernel holds now.  A system call that returns
 * must give back what it took, so these come back to where they were once
 * the processes that hold things are gone (the fuzzer checks it,
 * guests/bin/fuzz.c). */
struct ktables {
    unsigned int files_open;        /* open-file table entries in use         */
    unsigned int inodes_held;       /* in-memory inodes referenced (ref > 0)  */
    unsigned int inodes_locked;     /* ... of those, locked (busy)            */
    unsigned int pipes_open;        /* pipes with an end open                 */
    unsigned int bufs_busy;         /* buffer-cache blocks held (busy)        */
};

/* Sockets (kernel/port/net/socket.c, docs/network.md): BSD's, for IPv4.
 * Ports and addresses in a sockaddr_in are in network byte order
 * (big-endian), as in BSD: htons(), htonl() (user.h) convert. */
#define AF_INET         2
#define SOCK_STREAM     1       /* TCP                                        */
#define SOCK_DGRAM      2       /* UDP, or with IPPROTO_ICMP: ICMP echo       */
#define IPPROTO_ICMP    1       /* SOCK_DGRAM: send echo requests, receive the
                                 * replies (Linux's "ping socket")            */
#define IPPROTO_TCP     6
#define IPPROTO_UDP    17
#define INADDR_ANY      0x00000000u    /* host byte order                     */
#define INADDR_LOOPBACK 0x7f000001u    /* 127.0.0.1                            */
#define SOMAXCONN       8       /* listen(): the longest backlog               */

struct in_addr {
    unsigned int s_addr;        /* network byte order                         */
};

struct sockaddr_in {
    unsigned short sin_family;  /* AF_INET                                    */
    unsigned short sin_port;    /* network byte order                         */
    struct in_addr sin_addr;
    unsigned char  sin_zero[8];
};

struct sockaddr {
    unsigned short sa_family;
    char sa_data[14];
};

/* netctl(op, arg): the network interface and the stack's counters. */
#define NETCTL_STATS    1       /* arg: struct netstat * to fill              */
#define NETCTL_CONF     2       /* arg: struct netconf * to fill              */

struct netconf {
    unsigned int nic;           /* 1: a NIC was found at boot; 0: loopback only */
    unsigned char mac[6];       /* the NIC's Ethernet address                 */
    unsigned short mtu;         /* bytes of IP datagram per frame (1500)      */
    unsigned int addr;          /* IPv4 address, host byte order (0: none)    */
    unsigned int netmask;       /* host byte order                            */
    unsigned int nbufs;         /* packet buffers in the pool (0: not started) */
    unsigned int nbufs_free;    /* ... free now                               */
};

/* The counters, since boot.  Every frame or datagram dropped is counted
 * under the reason it was dropped for, once. */
#define FOR_EACH_NETSTAT(X) \
    X(rx_frames)      /* frames the NIC handed to the stack            */ \
    X(rx_bytes)       /* ... their bytes (Ethernet header included)    */ \
    X(tx_frames)      /* frames handed to the NIC                      */ \
    X(tx_bytes)                                                          \
    X(rx_intr)        /* NIC interrupts                                */ \
    X(rx_nobuf)       /* frames dropped: no free buffer to replace the
                       * receive ring's                                */ \
    X(rx_missed)      /* frames the NIC dropped itself: no receive
                       * descriptor was free (the LANCE's own count)   */ \
    X(rx_errors)      /* frames the NIC received damaged, or too long
                       * for one receive buffer                        */ \
    X(tx_ring_full)   /* frames dropped: the transmit ring was full    */ \
    X(tx_nobuf)       /* sends refused: no free buffer (ENOBUFS)       */ \
    X(eth_runt)       /* frames shorter than an Ethernet header        */ \
    X(eth_oversize)   /* frames longer than 1514 bytes                 */ \
    X(eth_not_mine)   /* frames for another station (or multicast)     */ \
    X(eth_unknown_type) /* neither IPv4 nor ARP                        */ \
    X(arp_in)         /* ARP packets accepted                          */ \
    X(arp_bad)        /* ARP packets malformed or not IPv4-over-Ethernet */ \
    X(arp_requests)   /* requests sent                                 */ \
    X(arp_replies)    /* replies sent                                  */ \
    X(arp_dropped)    /* packets dropped waiting for an address        */ \
    X(ip_in)          /* datagrams accepted                            */ \
    X(ip_out)         /* datagrams sent (loopback included)            */ \
    X(ip_bad_header)  /* version, header length or total length wrong,
                       * or the frame shorter than the datagram        */ \
    X(ip_bad_checksum)                                                   \
    X(ip_fragment)    /* fragments: not reassembled, dropped           */ \
    X(ip_not_mine)    /* for another address                           */ \
    X(ip_unknown_proto)                                                  \
    X(ip_no_route)    /* sends refused: no interface reaches it        */ \
    X(loop_frames)    /* datagrams through the loopback                */ \
    X(icmp_in)                                                           \
    X(icmp_bad)       /* too short or bad checksum                     */ \
    X(icmp_echo_replies) /* echo requests the kernel answered          */ \
    X(udp_in)                                                            \
    X(udp_out)                                                           \
    X(udp_bad)        /* length or checksum wrong                      */ \
    X(udp_no_port)    /* no socket bound to the port                   */ \
    X(udp_queue_full) /* the socket's queue was full                   */ \
    X(tcp_in)         /* segments accepted                             */ \
    X(tcp_out)        /* segments sent                                 */ \
    X(tcp_bad)        /* header length or checksum wrong               */ \
    X(tcp_resets_out) /* RSTs sent (closed port, aborted connection)   */ \
    X(tcp_resets_in)  /* RSTs accepted                                 */ \
    X(tcp_retransmits) /* segments sent again on a timeout             */ \
    X(tcp_timeouts)   /* connections dropped after too many            */ \
    X(tcp_out_of_order) /* segments dropped: not the next expected     */ \
    X(tcp_backlog_full) /* connection requests dropped: backlog full   */ \
    X(tcp_connects)   /* connections this side opened                  */ \
    X(tcp_accepts)    /* connections accepted                          */

#define NETSTAT_FIELD(name) unsigned int name;
struct netstat {
    FOR_EACH_NETSTAT(NETSTAT_FIELD)
};
#undef NETSTAT_FIELD

#endif
