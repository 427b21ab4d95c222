/*
 * Error numbers returned (negated) by system calls.  The values are the
 * traditional UNIX ones so that a student recognises them.
 */
#ifndef ERRNO_H
#define ERRNO_H

#define EPERM         1   /* operation not permitted          */
#define ENOENT        2   /* no such file or directory        */
#define ESRCH         3   /* no such process                  */
#define EINTR         4   /* interrupted                      */
#define EIO           5   /* I/O error                        */
#define E2BIG         7   /* argument list too long           */
#define ENOEXEC       8   /* not an executable                */
#define EBADF         9   /* bad file descriptor              */
#define ECHILD       10   /* no child processes               */
#define EAGAIN       11   /* no free process slot, try again  */
#define ENOMEM       12   /* out of memory                    */
#define EFAULT       14   /* bad address                      */
#define EBUSY        16   /* busy                             */
#define EEXIST       17   /* file exists                      */
#define EXDEV        18   /* across file systems (a remote one) */
#define ENOTDIR      20   /* not a directory                  */
#define EISDIR       21   /* is a directory                   */
#define EINVAL       22   /* invalid argument                 */
#define ENFILE       23   /* file table full                  */
#define EMFILE       24   /* too many open files              */
#define ENOTTY       25   /* not a terminal                   */
#define EFBIG        27   /* file too large                   */
#define ENOSPC       28   /* no space left on device          */
#define ESPIPE       29   /* seek on a pipe                   */
#define EPIPE        32   /* write to a pipe with no reader   */
#define ENAMETOOLONG 36   /* file name too long               */
#define ENOSYS       38   /* no such system call              */
#define ENOTEMPTY    39   /* directory not empty              */
#define EBADMSG      74   /* bad message (a remote reply)     */

/* Sockets (kernel/port/net/socket.c), Linux's numbers as above. */
#define ENOTSOCK     88   /* not a socket                     */
#define EDESTADDRREQ 89   /* destination address required     */
#define EMSGSIZE     90   /* message too long (over the MTU)  */
#define EPROTONOSUPPORT 93 /* protocol not supported          */
#define EOPNOTSUPP   95   /* operation not supported          */
#define EAFNOSUPPORT 97   /* address family not supported     */
#define EADDRINUSE   98   /* address already in use           */
#define EADDRNOTAVAIL 99  /* address not available            */
#define ENETUNREACH 101   /* network unreachable              */
#define ECONNRESET  104   /* connection reset by peer         */
#define ENOBUFS     105   /* no buffer space available        */
#define EISCONN     106   /* already connected                */
#define ENOTCONN    107   /* not connected                    */
#define ETIMEDOUT   110   /* connection timed out             */
#define ECONNREFUSED 111  /* connection refused               */

/* Remote files (kernel/port/rfs/). */
#define ESTALE      116   /* stale file handle: the server's file is gone */

#endif
