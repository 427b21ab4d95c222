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
};

struct fsckinfo {
    unsigned int problems;          /* 0: consistent                          */
    unsigned int files, dirs;       /* allocated inodes                       */
    unsigned int used_blocks;       /* data blocks in use                     */
    unsigned int free_blocks;       /* data blocks free                       */
    unsigned int repairs;           /* FSCTL_REPAIR: blocks it changed         */
};

#endif
