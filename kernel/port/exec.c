/*
 * exec(path, argv): replace the current process's program.
 *
 * Build a whole new address space first: each PT_LOAD segment of the ELF
 * file, then a stack holding the argument strings and the argv array.
 * Only when all of that worked is the old address space thrown away, so a
 * failed exec returns an error to a process that is still intact.
 * The new program starts at the ELF entry point with argc and argv as the
 * two arguments of the ISA's calling convention; an entry point outside
 * the program's executable segments, or not aligned as the ISA demands of
 * an instruction (USER_PC_ALIGN), is refused with ENOEXEC.
 *
 * The program is read from the file system (exec_open in sysfile.c): a
 * name without a '/' is looked up in /bin, so "sh" means "/bin/sh".
 */
#include "kernel.h"
#include "proc.h"
#include "elf.h"
#include "exec.h"

static int segment_perm(uint32 flags)
{
    int perm = PERM_R;
    if (flags & PF_W)
        perm |= PERM_W;
    if (flags & PF_X)
        perm |= PERM_X;
    return perm;
}

/* Read `n` bytes of the file at `off` into the new address space at `va`,
 * page by page through the kernel's mapping of physical memory. */
static int load_bytes(pagetable_t pt, struct exec_source *src, uaddr va, uint32 off, uint32 n)
{
    while (n > 0) {
        paddr pa = arch_pt_lookup(pt, va, 0);
        uint32 chunk = PGSIZE - (va & (PGSIZE - 1));
        if (chunk > n)
            chunk = n;
        int r = src->read(src, P2V(pa), off, chunk);
        if (r < 0)
            return r;
        va += chunk;
        off += chunk;
        n -= chunk;
    }
    return 0;
}

static int load_elf(pagetable_t pt, struct exec_source *src, uaddr *entry, uaddr *brk)
{
    struct elfhdr eh;
    if (src->read(src, &eh, 0, sizeof eh) < 0 ||
        eh.ident[0] != 0x7f || eh.ident[1] != 'E' || eh.ident[2] != 'L' || eh.ident[3] != 'F' ||
        eh.ident[4] != ELFCLASS32 || eh.ident[5] != ELF_DATA || eh.machine != ELF_MACHINE ||
        eh.phentsize != sizeof(struct proghdr))
        return -ENOEXEC;

    *brk = USER_BASE;
    int runnable = 0;                          /* the entry point is in code */
    for (int i = 0; i < eh.phnum; i++) {
        struct proghdr ph;
        if (src->read(src, &ph, eh.phoff + i * sizeof ph, sizeof ph) < 0)
            return -ENOEXEC;
        if (ph.type != PT_LOAD || ph.memsz == 0)
            continue;
        uaddr top = ph.vaddr + ph.memsz;
        if (ph.filesz > ph.memsz || top < ph.vaddr || ph.vaddr < USER_BASE ||
            top > USTACK_TOP - USTACK_SIZE)
            return -ENOEXEC;
        if (top > *brk)
            *brk = top;                        /* uvm_destroy frees up to here */
        if ((ph.flags & PF_X) && eh.entry - ph.vaddr < ph.memsz)
            runnable = 1;
        int r = uvm_grow(pt, ph.vaddr, top, segment_perm(ph.flags));
        if (r < 0)
            return r;
        if ((r = load_bytes(pt, src, ph.vaddr, ph.off, ph.filesz)) < 0)
            return r;
    }
    *brk = PGROUNDUP(*brk);
    /* The first return to user mode goes to the entry point: it must be an
     * address the ISA can start an instruction at (machine.h), or on SPARC
     * the rett itself would stop the processor; and it must be in an
     * executable segment, which lies in user space (checked above). */
    if (!runnable || eh.entry % USER_PC_ALIGN != 0)
        return -ENOEXEC;
    *entry = eh.entry;
    return 0;
}

/* Lay out argc strings and the argv array at the top of the new stack;
 * return the user stack pointer, and argv's address in *uargv. */
static int push_args(pagetable_t pt, char **argv, int argc, uaddr *sp, uaddr *uargv)
{
    uaddr ptrs[MAXARG + 1];
    uaddr top = USTACK_TOP;
    for (int i = 0; i < argc; i++) {
        uint32 len = strlen(argv[i]) + 1;
        top -= len;
        if (uvm_write(pt, top, argv[i], len) < 0)
            return -ENOMEM;
        ptrs[i] = top;
    }
    ptrs[argc] = 0;
    top &= ~3u;
    top -= (argc + 1) * sizeof(uaddr);
    if (uvm_write(pt, top, ptrs, (argc + 1) * sizeof(uaddr)) < 0)
        return -ENOMEM;
    *uargv = top;
    *sp = top & ~15u;                          /* the ABIs want 16-byte alignment */
    return 0;
}

int exec(const char *path, char **argv)
{
    struct exec_source src;
    int r = exec_open(path, &src);
    if (r < 0)
        return r;

    int argc = 0;
    while (argv[argc])
        argc++;

    pagetable_t pt = arch_pt_create();
    if (!pt) {
        exec_close(&src);
        return -ENOMEM;
    }
    uaddr entry, brk = USER_BASE, sp, uargv;
    r = load_elf(pt, &src, &entry, &brk);
    exec_close(&src);
    if (r < 0 ||
        (r = stack_grow(pt, USTACK_TOP - USTACK_SIZE, USTACK_TOP, PERM_R | PERM_W)) < 0 ||
        (r = push_args(pt, argv, argc, &sp, &uargv)) < 0) {
        uvm_destroy(pt, PGROUNDUP(brk));
        return r;
    }

    /* Commit: from here on the old program is gone. */
    struct proc *p = curproc;
    pagetable_t old = p->pagetable;
    uaddr oldbrk = p->brk;
    p->pagetable = pt;
    p->brk = brk;
    const char *base = path;
    for (const char *s = path; *s; s++)
        if (*s == '/')
            base = s + 1;
    strncpy_safe(p->name, base, sizeof p->name);
    arch_user_enter(p->tf, entry, sp, argc, uargv);
    arch_pt_activate(pt);
    cow_destroy(old, oldbrk);                  /* cow.c: a shared page may stay */
    sched_timer_reset();                       /* see sched.c: determinism */
    return argc;                               /* lands in the first argument register */
}
