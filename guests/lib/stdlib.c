/*
 * Odds and ends of the C library: errno itself, atoi, strerror.
 */
#include "user.h"

/* The error of the last failed system call.  Written by the stubs in
 * guests/lib/arch/<isa>/syscall.S; never cleared by a successful call. */
int errno;

/* Decimal, with optional leading blanks and sign; stops at the first
 * non-digit. */
int atoi(const char *s)
{
    int neg = 0, v = 0;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '-' || *s == '+')
        neg = *s++ == '-';
    while (*s >= '0' && *s <= '9')
        v = v * 10 + (*s++ - '0');
    return neg ? -v : v;
}

static const char *const messages[] = {
    [EPERM]        = "operation not permitted",
    [ENOENT]       = "no such file or directory",
    [ESRCH]        = "no such process",
    [EINTR]        = "interrupted",
    [EIO]          = "I/O error",
    [E2BIG]        = "argument list too long",
    [ENOEXEC]      = "not an executable",
    [EBADF]        = "bad file descriptor",
    [ECHILD]       = "no child processes",
    [EAGAIN]       = "no free process slot",
    [ENOMEM]       = "out of memory",
    [EFAULT]       = "bad address",
    [EBUSY]        = "busy",
    [EEXIST]       = "file exists",
    [EXDEV]        = "across file systems",
    [ENOTDIR]      = "not a directory",
    [EISDIR]       = "is a directory",
    [EINVAL]       = "invalid argument",
    [ENFILE]       = "file table full",
    [EMFILE]       = "too many open files",
    [ENOTTY]       = "not a terminal",
    [EFBIG]        = "file too large",
    [ENOSPC]       = "no space left on device",
    [ESPIPE]       = "seek on a pipe",
    [EPIPE]        = "broken pipe",
    [ENAMETOOLONG] = "file name too long",
    [ENOSYS]       = "not implemented",
    [ENOTEMPTY]    = "directory not empty",
    [ENOTSOCK]     = "not a socket",
    [EDESTADDRREQ] = "destination address required",
    [EMSGSIZE]     = "message too long",
    [EPROTONOSUPPORT] = "protocol not supported",
    [EOPNOTSUPP]   = "operation not supported",
    [EAFNOSUPPORT] = "address family not supported",
    [EADDRINUSE]   = "address already in use",
    [EADDRNOTAVAIL] = "address not available",
    [ENETUNREACH]  = "network unreachable",
    [ECONNRESET]   = "connection reset by peer",
    [ENOBUFS]      = "no buffer space available",
    [EISCONN]      = "already connected",
    [ENOTCONN]     = "not connected",
    [ETIMEDOUT]    = "connection timed out",
    [ECONNREFUSED] = "connection refused",
    [EBADMSG]      = "bad message",
    [ESTALE]       = "stale file handle",
};

const char *strerror(int err)
{
    if (err > 0 && err < (int)(sizeof(messages) / sizeof(messages[0])) && messages[err])
        return messages[err];
    return "unknown error";
}
