/*
 * System call numbers: the contract between the kernel (kernel/port/syscall.c)
 * and the C library of the guest programs (guests/lib).  The same numbers on
 * every ISA; only how a number and its arguments travel differs (see
 * guests/lib/arch/<isa>/syscall.S and kernel/arch/<isa>/trap*.S).
 *
 * A system call returns a value >= 0 on success and -errno on failure
 * (errno values in errno.h); the C library turns the latter into -1 + errno.
 */
#ifndef SYSCALL_H
#define SYSCALL_H

#define SYS_exit      1   /* exit(status)                                   */
#define SYS_fork      2   /* fork() -> child pid / 0                        */
#define SYS_wait      3   /* wait(int *status) -> pid                       */
#define SYS_pipe      4   /* pipe(int fd[2])                                */
#define SYS_read      5   /* read(fd, buf, n)                               */
#define SYS_write     6   /* write(fd, buf, n)                              */
#define SYS_close     7   /* close(fd)                                      */
#define SYS_kill      8   /* kill(pid)                                      */
#define SYS_exec      9   /* exec(path, argv)                               */
#define SYS_getpid   10   /* getpid()                                       */
#define SYS_sbrk     11   /* sbrk(increment) -> old break                   */
#define SYS_sleep    12   /* sleep(microseconds)                            */
#define SYS_dup      13   /* dup(fd)                                        */
#define SYS_select   14   /* select(nfds, rd, wr, ex, struct timeval *)     */
#define SYS_uptime   15   /* uptime(uint64_t *ns): time since boot          */
#define SYS_open     16   /* open(path, flags)           (file system)      */
#define SYS_fstat    17   /* fstat(fd, struct stat *)    (file system)      */
#define SYS_mkdir    18   /* mkdir(path)                 (file system)      */
#define SYS_unlink   19   /* unlink(path)                (file system)      */
#define SYS_chdir    20   /* chdir(path)                 (file system)      */
#define SYS_lseek    21   /* lseek(fd, off, whence)      (file system)      */
#define SYS_sync     22   /* sync()                      (file system)      */
#define SYS_fsync    23   /* fsync(fd)                   (file system)      */
#define SYS_rmdir    24   /* rmdir(path)                 (file system)      */
#define SYS_stat     25   /* stat(path, struct stat *)   (file system)      */
#define SYS_readdir  26   /* readdir(fd, struct dirent *)(file system)      */
#define SYS_halt     27   /* halt(): flush and power the machine off        */
#define SYS_kstat    28   /* kstat(struct kstat *): kernel event counters   */
#define SYS_fsctl    29   /* fsctl(op, arg): write policy, cache, fsck      */
#define SYS_dup2     30   /* dup2(fd, newfd): newfd becomes a copy of fd    */
#define SYS_setpgid  31   /* setpgid(pid, pgid): move a process to a group  */
#define SYS_getpgid  32   /* getpgid(pid) -> its process group              */
#define SYS_tcsetpgrp 33  /* tcsetpgrp(fd, pgid): the terminal's foreground */
#define SYS_setsid   34   /* setsid() -> a new session (and group) led by me */
#define SYS_getpriv  35   /* getpriv() -> 1 if privileged (docs/protection.md) */
#define SYS_droppriv 36   /* droppriv(): give up privilege, for good       */
/* The network (kernel/port/net/, docs/network.md).  sendto and recvfrom
 * take no flags argument: a call has five arguments at most. */
#define SYS_socket   37   /* socket(domain, type, protocol) -> fd          */
#define SYS_bind     38   /* bind(fd, struct sockaddr *, addrlen)           */
#define SYS_connect  39   /* connect(fd, struct sockaddr *, addrlen)        */
#define SYS_listen   40   /* listen(fd, backlog)                            */
#define SYS_accept   41   /* accept(fd, struct sockaddr *, int *addrlen) -> fd */
#define SYS_sendto   42   /* sendto(fd, buf, n, struct sockaddr *to, tolen) */
#define SYS_recvfrom 43   /* recvfrom(fd, buf, n, struct sockaddr *from, int *fromlen) */
#define SYS_netctl   44   /* netctl(op, arg): the interface and its counters */
#define SYS_rename   45   /* rename(from, to)            (file system)      */
#define NSYSCALL     46

/* Every call by name, for code generated from the list: the kernel's
 * dispatch table and handler prototypes (kernel/port/syscall.c, kernel.h)
 * and each ISA's user stubs (guests/lib/arch/<isa>/syscall.S) expand
 * X(name) once per call.  A new call: a number above, NSYSCALL one more,
 * its name here, and sys_NAME in the kernel (the compiler checks all four). */
#define FOR_EACH_SYSCALL(X) FOR_EACH_BASE_SYSCALL(X) FOR_EACH_NET_SYSCALL(X) \
    FOR_EACH_LATE_SYSCALL(X)

/* The parts of the list.  The C library makes the network's stubs in an
 * object of their own (guests/lib/arch/<isa>/netcalls.S), and the calls
 * added after them likewise (latecalls.S: rename), so that a program that
 * makes none of those calls links exactly the stubs it linked before they
 * were added: its code and data stay where they were, and so do the
 * benchmarks' results under a cache model. */
#define FOR_EACH_BASE_SYSCALL(X) \
    X(exit)  X(fork)  X(wait)   X(pipe)   X(read)   X(write)  X(close) \
    X(kill)  X(exec)  X(getpid) X(sbrk)   X(sleep)  X(dup)    X(select) \
    X(uptime) X(open) X(fstat)  X(mkdir)  X(unlink) X(chdir)  X(lseek) \
    X(sync)  X(fsync) X(rmdir)  X(stat)   X(readdir) X(halt)  X(kstat) \
    X(fsctl) X(dup2)  X(setpgid) X(getpgid) X(tcsetpgrp) X(setsid) \
    X(getpriv) X(droppriv)
#define FOR_EACH_NET_SYSCALL(X) \
    X(socket) X(bind) X(connect) X(listen) X(accept) X(sendto) X(recvfrom) \
    X(netctl)
#define FOR_EACH_LATE_SYSCALL(X) \
    X(rename)

#endif
