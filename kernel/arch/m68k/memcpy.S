/*
 * memcpy.S: on the 68k, memcpy moves blocks twelve registers at a time.
 * One MOVEM.L reads 48 bytes into d1-d7/a2-a6 and another writes them out:
 * two instructions per 48 bytes, where a loop of MOVE.L (a0)+,(a1)+ runs
 * one instruction per longword.  MOVEM was the 68020's fastest way through
 * memory, and so the way a 68k library's bcopy moved large blocks; Table 5
 * measured the library's bcopy, so ours is written for the machine too, as
 * the VAX's is MOVC3 (kernel/arch/vax/memcpy.S).
 *
 * The portable memcpy (kernel/port/string.c, guests/lib/string.c) is still
 * built; kernel/arch/m68k/arch.mk links with --wrap=memcpy, so every call
 * to memcpy from another file comes here.  The kernel and the guests' C
 * library both link this file.
 *
 * void *__wrap_memcpy(void *dst, const void *src, size_t n)
 * Both addresses even: 48-byte MOVEMs, then longwords, then bytes.
 * Either odd: bytes.  (The 68020 and later read and write longwords at any
 * even address.)
 */
#define CHUNK 48

    .text
    .globl __wrap_memcpy
    .type __wrap_memcpy, @function
__wrap_memcpy:
    move.l  4(%sp), %a1             /* destination */
    move.l  8(%sp), %a0             /* source */
    move.l  12(%sp), %d0            /* bytes left */
    move.l  %a0, %d1
    btst    #0, %d1
    bne.s   3f                      /* odd source: bytes */
    move.l  %a1, %d1
    btst    #0, %d1
    bne.s   3f                      /* odd destination: bytes */
    cmp.l   #CHUNK, %d0
    blo.s   2f
    movem.l %d2-%d7/%a2-%a6, -(%sp) /* the registers the caller keeps */
1:  movem.l (%a0)+, %d1-%d7/%a2-%a6 /* 48 bytes in */
    movem.l %d1-%d7/%a2-%a6, (%a1)  /* and out */
    lea     CHUNK(%a1), %a1
    sub.l   #CHUNK, %d0
    cmp.l   #CHUNK, %d0
    bhs.s   1b
    movem.l (%sp)+, %d2-%d7/%a2-%a6
2:  moveq   #4, %d1                 /* longwords */
    cmp.l   %d1, %d0
    blo.s   3f
    move.l  (%a0)+, (%a1)+
    subq.l  #4, %d0
    bra.s   2b
3:  tst.l   %d0                     /* bytes */
    beq.s   4f
    move.b  (%a0)+, (%a1)+
    subq.l  #1, %d0
    bra.s   3b
4:  move.l  4(%sp), %d0             /* memcpy returns dst */
    rts
