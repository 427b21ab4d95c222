/*
 * What a guest program can call: the system calls (guests/lib/arch/<isa>/
 * syscall.S) and the small C library built on them (guests/lib/).
 *
 * The system call numbers, error numbers and shared types (fd_set, struct
 * timeval, struct kstat, WSTATUS_KILLED, NOFILE ...) come from the kernel's
 * own headers, so the two sides cannot drift apart.
 *
 * Error convention: the kernel returns -errno; the stubs turn that into a
 * return value of -1 (or (void *)-1 for sbrk) and store the error in `errno`.
 */
#ifndef USER_H
#define USER_H

#include <stdint.h>
#include <stddef.h>
#include <stdarg.h>

#include "syscall.h"
#include "errno.h"
#include "abi.h"

extern int errno;               /* set by a failing system call */

/* ---- system calls (one assembly stub each) ---- */
void  exit(int status) __attribute__((noreturn));
int   fork(void);
int   wait(int *status);        /* -> pid of an exited child; *status its exit
                                 * status, or WSTATUS_KILLED */
int   pipe(int fd[2]);          /* fd[0] read end, fd[1] write end */
int   read(int fd, void *buf, int n);
int   write(int fd, const void *buf, int n);
int   close(int fd);
int   kill(int pid);
int   exec(const char *path, char *const argv[]);
int   getpid(void);
void *sbrk(int increment);      /* -> old break */
int   sleep(unsigned int usec);   /* microseconds, not seconds */
int   dup(int fd);
int   dup2(int fd, int newfd);  /* newfd becomes a copy of fd (closed first if open) */
int   select(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *tv);
int   uptime(uint64_t *ns);     /* nanoseconds since boot */
int   halt(void);               /* powers the machine off (privileged); returns only
                                 * on error: EPERM if not privileged */
int   kstat(struct kstat *k);

/* Jobs (kernel/port/proc.c, console.c): a process group is a job, inherited
 * at fork; the console's foreground group is the one Ctrl-C kills. */
int   setpgid(int pid, int pgid);  /* pid 0: me; pgid 0: a new group led by pid */
int   getpgid(int pid);            /* pid 0: me */
int   tcsetpgrp(int fd, int pgid); /* fd: the console; pgid 0: no foreground job */
int   setsid(void);                /* -> a new session and group, numbered by my pid */

/* Privilege (kernel/port/priv.c, docs/protection.md): inherited from pid 1,
 * kept across exec; needed for halt and fsctl(FSCTL_SETCONF). */
int   getpriv(void);               /* 1 privileged, 0 not */
int   droppriv(void);              /* give it up, for good */

/* guests/lib/arch/<isa>/traps.S: run an instruction this ISA must refuse (tests). */
void  illegal_instruction(void);

/* File system calls (struct stat, struct dirent, struct fsconf in abi.h). */
int   open(const char *path, int flags);      /* O_RDONLY/O_WRONLY/O_RDWR, O_CREAT, O_TRUNC */
int   fstat(int fd, struct stat *st);
int   stat(const char *path, struct stat *st);
int   mkdir(const char *path);
int   unlink(const char *path);
int   rmdir(const char *path);
int   rename(const char *from, const char *to);   /* to replaced, in one step */
int   chdir(const char *path);
int   lseek(int fd, int off, int whence);
int   sync(void);
int   fsync(int fd);
int   readdir(int fd, struct dirent *de);  /* 1: an entry, 0: the end */
int   fsctl(int op, void *arg);         /* FSCTL_GETCONF, FSCTL_SETCONF (privileged), FSCTL_FSCK */

/* ---- printf.c: formatted output ----
 * Conversions: %d %i %u %x %X %o %s %c %p %%, with the length modifiers l and
 * ll, the flags '-' and '0', and a field width (digits or '*').  Each call
 * formats into a buffer and write()s it in as few pieces as possible, so a
 * line from one process is not interleaved with another's. */
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int fprintf(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int snprintf(char *buf, size_t size, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
int vfprintf(int fd, const char *fmt, va_list ap);
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int fputs(const char *s, int fd);       /* no newline added */

/* ---- string.c ---- */
void  *memcpy(void *dst, const void *src, size_t n);
void  *memmove(void *dst, const void *src, size_t n);
void  *memset(void *dst, int c, size_t n);
int    memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int    strcmp(const char *a, const char *b);
int    strncmp(const char *a, const char *b, size_t n);
char  *strcpy(char *dst, const char *src);
char  *strchr(const char *s, int c);

/* ---- malloc.c ---- */
void *malloc(size_t n);
void  free(void *p);
void *realloc(void *p, size_t n);
void *calloc(size_t count, size_t size);

/* ---- stdlib.c ---- */
int         atoi(const char *s);
const char *strerror(int err);  /* "bad address" for EFAULT, ... */

#endif
