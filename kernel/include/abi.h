/*
 * Types shared by the kernel and user programs: what crosses the system-call
 * boundary besides plain integers.  Every ISA here is 32-bit, so `long` and
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
};

#endif
