/*
 * Sizes and limits of the kernel's fixed tables.  Hitting one of these limits
 * returns an error to the process that asked (EAGAIN, EMFILE, ENFILE, ENOMEM),
 * never a panic.
 */
#ifndef PARAM_H
#define PARAM_H

#define NPROC        64            /* process slots                              */
#define NFILE       256            /* open-file table entries, system wide       */
#define NPIPE        64            /* pipes, system wide                         */
#define KSTACKSIZE 8192            /* kernel stack per process                   */
#define PIPESIZE   4096            /* bytes buffered in a pipe (one page)        */
#define HZ          100            /* scheduler ticks per second                 */
#define TICK_NS  (1000000000ull / HZ)
#define CONSBUF     256            /* console line-editing buffer                */
#define NINODE      128            /* in-memory inodes (open files, cwds, cache) */

/* The buffer cache: a pool of BCACHE_MAX blocks is set aside at boot, of
 * which BCACHE_DEFAULT are used until fsctl changes it (BCACHE_MIN or more).
 * 2 MB holds readcache's 1 MB file with room to spare. */
#define BCACHE_MAX     4096
#define BCACHE_DEFAULT 2048
#define BCACHE_MIN       16

/* The kernel's page: what kalloc hands out and the unit user memory is
 * mapped in, 4 KB on every ISA.  (The VAX's hardware page is 512 bytes; its
 * kernel maps eight at a time: kernel/arch/vax/machine.h.) */
#define PGSIZE      4096
#define PGSHIFT     12
#define PGROUNDUP(a)   (((a) + PGSIZE - 1) & ~(PGSIZE - 1))
#define PGROUNDDOWN(a) ((a) & ~(PGSIZE - 1))

/* User address space, the same layout on every ISA: the program is linked at
 * USER_BASE (page 0 stays unmapped so that a NULL pointer faults), the heap
 * grows up from the end of the program (sbrk), and a fixed stack sits below
 * USTACK_TOP, with one unmapped page above it.  Everything at USERTOP and
 * above belongs to the kernel. */
#define USER_BASE    0x00001000u
#define USERTOP      0x80000000u
#define USTACK_TOP   0x7ffff000u
#define USTACK_SIZE  (64 * 1024)

#endif
