/*
 * Copy-on-write fork, a mode beside the default copying fork, so that the
 * cost of fork can be measured both ways (issue 10).
 *
 * FORK_COPY (the default, what the kernel always did): fork copies every
 * user page of the parent into a new page for the child.
 *
 * FORK_COW (fsctl(FSCTL_PAGEPOLICY, FORK_COW); the guest command
 * `policy -fork cow`): fork maps the parent's pages into the child
 * instead, and makes every writable one read-only in both address spaces.
 * Each physical page has a count of the address spaces that map it.  A
 * write to a shared page faults (from user mode, or from a system call's
 * copyout: every ISA here makes the kernel obey a read-only user page too,
 * so copyout faults into the same path; see below), vm_fault() calls
 * cow_fault(), which gives the writer a copy of its own, or, when the
 * writer is the page's last user, makes the page writable again without
 * copying it.  exit, exec and sbrk give a shared page back to the free
 * list only when its count drops to 0.
 *
 * SPARC's stack is the exception: its register-window traps write to the
 * stack and cannot take a page fault (machine.h: USER_STACK_FAULTS), so
 * fork copies the stack there, under cow as under copy.
 *
 * Read-only pages (program text) are shared too, and stay read-only: a
 * page's "cow" flag says that its mappings are writable in principle, and
 * a write to a read-only page without it is refused, as before.
 *
 * The TLB.  A mapping is changed only by arch_pt_unmap, which removes the
 * page's entry from the TLB on every ISA (riscv sfence.vma, x86 invlpg,
 * m68k pflusha, mips the entry of the address space's ASID, sparc a full
 * SRMMU flush, vax TBIS), and a new arch_pt_map: so a page made read-only
 * or replaced never survives in the TLB with its old rights or frame.
 *
 * Why the kernel's own writes are safe.  A system call that writes to a
 * shared page (read() into a buffer after fork) must copy it too, or the
 * write would reach the other process.  On every ISA here the kernel's
 * user copy obeys the page's read-only bit: x86 runs with CR0.WP set
 * (kernel/arch/x86/entry.asm), riscv's SUM gives no write to a read-only page,
 * mips checks the TLB's D bit in kernel mode, sparc's ACC_R_R and vax's
 * PROT_UR deny every mode, and the 68040's W bit holds for supervisor
 * accesses too.  So copyout faults, the ISA's copy_fault() calls
 * vm_fault(), and the copy is made there; test_cow's pipe test checks it
 * on each ISA.
 *
 * Counters: user pages copied (by fork, or on a write to a shared page)
 * and write faults served, since the first time FORK_COW was set:
 * fsctl(FSCTL_PAGEPOLICY, FORK_COPIES or FORK_COWFAULTS).
 *
 * Placement.  As paging.c ("Placement") explains, the paper suite's
 * results must not move while the mode is left at copy.  This file is
 * linked after paging.c (Makefile), compiled for size so that it fits in
 * the room left before the next page: after .text (x86, riscv, vax),
 * after .rodata (m68k) or .data (mips), and on SPARC, whose .text has no
 * room left, after .bss, before the page `end` rounds up to (kernel.ld).
 * fork, exit, exec and sbrk call it with calls of the same size as the
 * ones they made before (fork_copy for uvm_copy, cow_destroy for
 * uvm_destroy, cow_shrink for uvm_shrink); its state is one pointer in
 * .data, to a page taken when FORK_COW is first set.  Until then each
 * function here only checks that pointer and calls what its caller called
 * before: a call and a test more per fork, exit, exec and shrinking sbrk.
 */
#include "kernel.h"
#include "proc.h"

#define IN_DATA __attribute__((section(".data")))   /* see "Placement" */

/* A page's entry in the counts: how many address spaces map it (0: one,
 * and it is not shared), and whether its mappings may be made writable. */
#define REF_COUNT 0x7f
#define REF_COW   0x80
_Static_assert(NPROC < REF_COUNT, "a page's count fits in its byte (NPROC sharers at most)");

#define REFS_PER_PAGE PGSIZE                 /* one byte per physical page */
#define MAX_REF_PAGES ((PGSIZE - 32) / sizeof(uint8 *))

struct cowstate {
    int mode;                                /* FORK_COPY or FORK_COW      */
    uint32 copies, faults;                   /* the counters               */
    uintptr base;                            /* the first allocatable page */
    uint32 npages;                           /* how many there are         */
    uint8 *refs[MAX_REF_PAGES];              /* pages of counts, one byte each */
};
_Static_assert(sizeof(struct cowstate) <= PGSIZE, "the state fits in a page");

static struct cowstate *cow IN_DATA;

/* The count of the page at physical address pa; 0 if kalloc never hands
 * it out. */
static uint8 *ref(paddr pa)
{
    uintptr page = (uintptr)P2V(PGROUNDDOWN(pa));
    if (page < cow->base)
        return 0;
    uint32 i = (page - cow->base) / PGSIZE;
    if (i >= cow->npages)
        return 0;
    return &cow->refs[i / REFS_PER_PAGE][i % REFS_PER_PAGE];
}

/* The state and the counts, taken from kalloc the first time cow is set. */
static int cow_setup(void)
{
    uintptr start, end;
    arch_mem_range(&start, &end);
    start = PGROUNDUP(start);
    uint32 npages = (end - start) / PGSIZE;
    uint32 nref = (npages + REFS_PER_PAGE - 1) / REFS_PER_PAGE;
    if (nref > MAX_REF_PAGES)
        return -ENOMEM;
    struct cowstate *s = kalloc();           /* zeroed: every count 0 */
    if (!s)
        return -ENOMEM;
    for (uint32 i = 0; i < nref; i++)
        if (!(s->refs[i] = kalloc())) {
            while (i-- > 0)
                kfree(s->refs[i]);
            kfree(s);
            return -ENOMEM;
        }
    s->mode = FORK_COPY;
    s->base = start;
    s->npages = npages;
    cow = s;
    return 0;
}

int fork_policy(int p)
{
    switch (p) {
    case FORK_COW:
    case FORK_COPY: {
        if (!cow && p == FORK_COPY)
            return FORK_COPY;                /* nothing to set up for the default */
        if (!cow) {
            int r = cow_setup();
            if (r < 0)
                return r;
        }
        int old = cow->mode;
        cow->mode = p;
        return old;
    }
    case FORK_MODE:      return cow ? cow->mode : FORK_COPY;
    case FORK_COPIES:    return cow ? (int)cow->copies : 0;
    case FORK_COWFAULTS: return cow ? (int)cow->faults : 0;
    default:             return -EINVAL;
    }
}

/* fork once cow has been set up.  Copying: as uvm_copy, but a page that
 * is copy-on-write in the parent is writable in the child's copy, and
 * the copies are counted.  Sharing: each page of the parent's is mapped
 * into the child, read-only in both if it was writable. */
static int fork_pages(pagetable_t from, pagetable_t to, uaddr start, uaddr end)
{
    /* The stack is shared too where a stack access may fault
     * (USER_STACK_FAULTS); on SPARC the window traps write to it and
     * cannot take a fault, so it is copied. */
    int share = cow->mode == FORK_COW &&
                (USER_STACK_FAULTS || start != USTACK_TOP - USTACK_SIZE);
    for (uaddr va = PGROUNDDOWN(start); va < end; va += PGSIZE) {
        int perm;
        paddr pa = PGROUNDDOWN(arch_pt_lookup(from, va, &perm));
        uint8 *r = pa ? ref(pa) : 0;
        if (!r)
            continue;                        /* unmapped (every user page is kalloc's) */
        if (!share) {
            void *page = kalloc_user(va);
            if (!page)
                return -ENOMEM;
            memcpy(page, P2V(pa), PGSIZE);
            if (arch_pt_map(to, va, V2P(page), (*r & REF_COW) ? perm | PERM_W : perm) < 0) {
                kfree(page);
                return -ENOMEM;
            }
            cow->copies++;
            continue;
        }
        if (arch_pt_map(to, va, pa, perm & ~PERM_W) < 0)
            return -ENOMEM;                  /* nothing shared yet for va  */
        *r = (*r & REF_COW) | ((*r & REF_COUNT) ? (*r & REF_COUNT) + 1 : 2);
        if (perm & PERM_W) {
            *r |= REF_COW;
            arch_pt_unmap(from, va);         /* drops the writable TLB entry */
            arch_pt_map(from, va, pa, perm & ~PERM_W);  /* its table is there */
        }
    }
    return 0;
}

int fork_copy(pagetable_t from, pagetable_t to, uaddr start, uaddr end)
{
    return cow ? fork_pages(from, to, start, end) : uvm_copy(from, to, start, end);
}

/* One address space lets go of the page at pa: free it if it was the last. */
static void page_put(paddr pa)
{
    uint8 *r = ref(pa);
    if (r && (*r & REF_COUNT) > 2) {
        (*r)--;
        return;
    }
    if (r && (*r & REF_COUNT) == 2) {
        *r = (*r & REF_COW) | 1;             /* one user left, still read-only */
        return;
    }
    if (r)
        *r = 0;
    kfree(P2V(PGROUNDDOWN(pa)));
}

void cow_shrink(pagetable_t pt, uaddr from, uaddr to)
{
    if (!cow) {
        uvm_shrink(pt, from, to);
        return;
    }
    for (uaddr va = PGROUNDUP(from); va < to; va += PGSIZE) {
        paddr pa = arch_pt_unmap(pt, va);
        if (pa)
            page_put(pa);
    }
}

void cow_destroy(pagetable_t pt, uaddr brk)
{
    if (!cow) {
        uvm_destroy(pt, brk);
        return;
    }
    cow_shrink(pt, USER_BASE, brk);
    cow_shrink(pt, USTACK_TOP - USTACK_SIZE, USTACK_TOP);
    arch_pt_destroy(pt);
}

/* A write to the mapped page at va: if it is a shared copy-on-write page,
 * give this address space a writable page of its own. */
int cow_fault(pagetable_t pt, uaddr va)
{
    if (!cow)
        return -EFAULT;
    int perm;
    paddr pa = arch_pt_lookup(pt, va, &perm);
    uint8 *r = pa ? ref(pa) : 0;
    if (!r || !(*r & REF_COW) || (perm & PERM_W))
        return -EFAULT;                      /* not copy-on-write: refused  */
    pa = PGROUNDDOWN(pa);
    paddr mine = pa;
    if ((*r & REF_COUNT) > 1) {
        void *page = kalloc_user(va);
        if (!page)
            return -ENOMEM;
        memcpy(page, P2V(pa), PGSIZE);
        mine = V2P(page);
        cow->copies++;
        *r = (*r & REF_COUNT) == 2 ? (REF_COW | 1) : *r - 1;
    } else {
        *r = 0;                              /* the last user takes it over */
    }
    arch_pt_unmap(pt, va);                   /* drops the read-only TLB entry */
    arch_pt_map(pt, va, mine, perm | PERM_W);   /* its table is there: no failure */
    cow->faults++;
    return 0;
}
