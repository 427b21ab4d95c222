/*
 * Privilege: the one distinction the kernel makes between processes
 * (docs/protection.md tells the whole rule and what it does not cover).
 *
 * A process is privileged or not (struct proc's priv).  The first process
 * (pid 1, the shell) is; a child gets its parent's at fork and keeps it
 * across exec, so the shell and every program it runs are privileged
 * unless they give it up.  droppriv() gives it up, for the caller and so
 * for everything it forks afterwards, and nothing gives it back: there
 * are no users or passwords to check, so a call that gave it back would
 * be open to anyone and dropping it would mean nothing.
 *
 * Only a privileged process may do what acts on every process at once:
 * halt the machine (sys_halt) and change the file system's configuration
 * (fsctl FSCTL_SETCONF: write policy, flush age, cache size, disk model)
 * or its contents behind its back (FSCTL_REPAIR: fsck -y).  Reading the
 * configuration and running fsck change nothing and are open to all.
 *
 * Who may kill whom does not depend on privilege: proc.c decides it
 * (killable(), proc_kill()).  Nobody kills pid 1 or a kernel process, and
 * nobody kills a process of another session.
 */
#include "kernel.h"
#include "proc.h"

/* 0 if the current process may change what all processes share, else
 * -EPERM: the check every privileged operation starts with. */
int priv_check(void)
{
    return curproc->priv ? 0 : -EPERM;
}

int32 sys_getpriv(const uint32 *arg)
{
    return curproc->priv;
}

int32 sys_droppriv(const uint32 *arg)
{
    curproc->priv = 0;
    return 0;
}
