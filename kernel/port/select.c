/*
 * select(nfds, readfds, writefds, exceptfds, timeout): which descriptors
 * can be read or written without sleeping?  Ask each file's readable() or
 * writable() operation; if none is ready, sleep until some file changes
 * (pipes call select_wakeup()) or the timeout passes.  A zero timeout polls
 * once and never sleeps: the case the paper's Table 4 measures.  A NULL
 * timeout waits for ever.  No descriptor is ever "exceptional" here.
 */
#include "kernel.h"
#include "proc.h"
#include "file.h"

int select_chan;          /* what select() sleeps on         */
int select_sleepers;      /* how many processes sleep on it  */

int32 sys_select(const uint32 *arg)
{
    int nfds = (int)arg[0];
    uaddr urd = arg[1], uwr = arg[2], uex = arg[3], utv = arg[4];
    fd_set rd = { 0 }, wr = { 0 }, ex = { 0 };

    if (nfds < 0 || nfds > NOFILE)
        return -EINVAL;
    if ((urd && copyin(&rd, urd, sizeof rd) < 0) ||
        (uwr && copyin(&wr, uwr, sizeof wr) < 0) ||
        (uex && copyin(&ex, uex, sizeof ex) < 0))
        return -EFAULT;
    uint32 mask = nfds == 32 ? ~0u : (1u << nfds) - 1;   /* fds >= nfds ignored */
    rd.bits &= mask;
    wr.bits &= mask;
    ex.bits &= mask;
    for (int fd = 0; fd < nfds; fd++)
        if (((rd.bits | wr.bits | ex.bits) >> fd & 1) && !fd_get(fd))
            return -EBADF;

    uint64 deadline = 0;
    int poll = 0;
    if (utv) {
        struct timeval tv;
        if (copyin(&tv, utv, sizeof tv) < 0)
            return -EFAULT;
        if (tv.tv_sec < 0 || tv.tv_usec < 0 || tv.tv_usec >= 1000000)
            return -EINVAL;
        uint64 ns = (uint64)tv.tv_sec * 1000000000ull + (uint64)tv.tv_usec * 1000;
        poll = (ns == 0);
        deadline = arch_time_ns() + ns;
    }

    fd_set rd_out, wr_out;
    int n;
    for (;;) {
        n = 0;
        FD_ZERO(&rd_out);
        FD_ZERO(&wr_out);
        for (int fd = 0; fd < nfds; fd++) {
            struct file *f = curproc->ofile[fd];
            if (FD_ISSET(fd, &rd) && f->ops->readable(f)) {
                FD_SET(fd, &rd_out);
                n++;
            }
            if (FD_ISSET(fd, &wr) && f->ops->writable(f)) {
                FD_SET(fd, &wr_out);
                n++;
            }
        }
        if (n > 0 || poll || (utv && arch_time_ns() >= deadline))
            break;
        if (curproc->killed)
            return -EINTR;
        select_sleepers++;
        sleep_until(&select_chan, deadline);
        select_sleepers--;
    }

    FD_ZERO(&ex);
    if ((urd && copyout(urd, &rd_out, sizeof rd_out) < 0) ||
        (uwr && copyout(uwr, &wr_out, sizeof wr_out) < 0) ||
        (uex && copyout(uex, &ex, sizeof ex) < 0))
        return -EFAULT;
    return n;
}
