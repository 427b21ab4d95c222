/*
 * Demand paging: the page-fault path, and the switch that turns it on.
 *
 * By default (PAGING_EAGER) the kernel maps every page of a process before
 * the process can touch it: exec maps the program and the whole stack,
 * sbrk maps the heap pages it adds.  Then a page fault is always an error,
 * and kills the process, as the kernel always did.
 *
 * Under PAGING_DEMAND (fsctl(FSCTL_PAGEPOLICY, PAGING_DEMAND); the guest
 * command `policy -paging demand`), sbrk only moves the end of the heap
 * and exec maps the program and the top page of the stack only.  A page of
 * the heap or of the stack is allocated, zero-filled and mapped when the
 * process first touches it: the touch faults, the ISA's trap code decodes
 * the fault (the address, and whether it was a read, a write or an
 * instruction fetch) and calls vm_fault() below, and the instruction runs
 * again.  So a page fault has a service time, which `measure pagefault`
 * measures.  A system call that copies to or from a heap page not touched
 * yet faults inside the ISA's copy routine (usercopy.S) and is served the
 * same way, so it succeeds; an address outside the process's pages still
 * returns EFAULT.
 *
 * What a process may fault in: the heap and the stack
 * [USTACK_TOP - USTACK_SIZE, USTACK_TOP).  The heap is every page of
 * [USER_BASE, brk) not mapped: exec maps every page the program's segments
 * cover, and the guests' linker script (guests/lib/user.ld) leaves no page
 * between its two segments, so a page below brk that is not mapped is one
 * sbrk added.  A fault on a page that is
 * mapped (a store to the program's text), an instruction fetch from a page
 * not mapped yet (the heap and the stack hold no code here), or an
 * address outside both ranges is refused, and the ISA's trap code kills
 * the process (proc_fault) or fails the copy with EFAULT.
 *
 * The mode is read when pages are laid out (sbrk, exec), not when they
 * fault: a page left unmapped under demand paging is still served after
 * the mode goes back to eager.
 *
 * Counters: faults served since boot, and per process (a process's count
 * starts at 0 when its slot gets a new pid).  fsctl(FSCTL_PAGEPOLICY,
 * PAGING_FAULTS or PAGING_MYFAULTS) reads them.
 *
 * Placement.  The paper suite's results under a cache model depend on
 * where the kernel's code and data lie, and must not change while paging
 * is left eager.  So nothing the kernel had moves: this file and the ISA's
 * pagefault.c are linked after everything else (Makefile), and the code
 * that was there reaches them only through calls of the same size as
 * before: sbrk calls heap_grow and exec stack_grow where they called
 * uvm_grow, fsctl(FSCTL_PAGEPOLICY) page_policy where it called
 * kalloc_policy, and the ISA's trap() user_fault where it called
 * proc_fault and copy_fault where it sent a faulting copy to
 * usercopy_fault.  The variables below are three words in .data, where
 * every ISA's kernel has room before whatever follows (in .bss, they would
 * move the first free page, and so every user page, on some); the counts
 * per process are in a page taken when demand paging is first turned on.
 * Each ISA's kernel.ld puts this code where there is room: after the rest
 * of .text, or after .rodata (m68k) or .data (mips).
 */
#include "kernel.h"
#include "proc.h"

#define IN_DATA __attribute__((section(".data")))   /* see "Placement" */

int paging_mode IN_DATA = PAGING_EAGER;
static uint32 faults_total IN_DATA;

/* Per process: a page, taken when demand paging is first turned on (no
 * fault is served before), of a count per process slot. */
struct count {
    int pid;                             /* whose count this is            */
    uint32 faults;
};
static struct count *counts IN_DATA;
_Static_assert(NPROC * sizeof(struct count) <= PGSIZE, "the counts fit in a page");

/* exec's arguments always fit in the stack's top page. */
_Static_assert(MAXARG * MAXARGLEN + (MAXARG + 1) * 4 + 32 <= PGSIZE,
               "exec's arguments fit in one page");

/* p's count of faults served; 0 if demand paging was never on. */
static uint32 proc_faults(struct proc *p)
{
    struct count *c = counts ? &counts[p - proc] : 0;
    return c && c->pid == p->pid ? c->faults : 0;
}

static void count_fault(struct proc *p)
{
    faults_total++;
    if (!counts)
        return;
    struct count *c = &counts[p - proc];
    if (c->pid != p->pid) {              /* the slot has a new process     */
        c->pid = p->pid;
        c->faults = 0;
    }
    c->faults++;
}

/* sbrk's growth: mapped now, or left to fault in. */
int heap_grow(pagetable_t pt, uaddr from, uaddr to, int perm)
{
    if (paging_mode == PAGING_DEMAND)
        return 0;
    return uvm_grow(pt, from, to, perm);
}

/* exec's stack: all of it, or only the top page, where the arguments go
 * (the rest faults in as the stack grows), where the ISA can take a page
 * fault on any stack access (machine.h: USER_STACK_FAULTS). */
int stack_grow(pagetable_t pt, uaddr from, uaddr to, int perm)
{
    if (paging_mode == PAGING_DEMAND && USER_STACK_FAULTS)
        from = to - PGSIZE;
    return uvm_grow(pt, from, to, perm);
}

/* fsctl(FSCTL_PAGEPOLICY, p): where a page comes from (PAGES_*,
 * kalloc.c), when it is mapped (PAGING_*), or a query (abi.h). */
int page_policy(int p)
{
    switch (p) {
    case PAGING_DEMAND:
        if (!counts && !(counts = kalloc()))
            return -ENOMEM;
        /* fall through */
    case PAGING_EAGER: {
        int old = paging_mode;
        paging_mode = p;
        return old;
    }
    case PAGING_MODE:     return paging_mode;
    case PAGING_FAULTS:   return (int)faults_total;
    case PAGING_MYFAULTS: return (int)proc_faults(curproc);
    case ENTRY_ALIGN:     return USER_PC_ALIGN;
    case FORK_COPY: case FORK_COW: case FORK_MODE: case FORK_COPIES:
    case FORK_COWFAULTS:  return fork_policy(p);   /* cow.c */
    default:              return kalloc_policy(p);
    }
}

/* May process p fault in the page at va? */
static int in_region(struct proc *p, uaddr va)
{
    if (va >= USTACK_TOP - USTACK_SIZE && va < USTACK_TOP)
        return 1;
    return va >= USER_BASE && va < p->brk;
}

int vm_fault(uaddr va, int access)
{
    struct proc *p = curproc;
    if (!p || access == FAULT_FETCH || !in_region(p, va))
        return -EFAULT;
    va = PGROUNDDOWN(va);
    if (arch_pt_lookup(p->pagetable, va, 0))
        return cow_fault(p->pagetable, va);  /* mapped: a write to a shared
                                              * page (cow.c), or refused  */
    void *page = kalloc_user(va);        /* zeroed                         */
    if (!page)
        return -ENOMEM;
    if (arch_pt_map(p->pagetable, va, V2P(page), PERM_R | PERM_W) < 0) {
        kfree(page);
        return -ENOMEM;
    }
    count_fault(p);
    return 0;
}
