/*
 * memcpy.S: on the VAX, memcpy is MOVC3, the move-characters instruction,
 * as bcopy was in 4.3BSD's and Ultrix's kernel and C library: Table 5 of
 * the paper measured that microcode loop on the MicroVAX II and the 8800,
 * not a loop of MOVLs.  The portable memcpy (kernel/port/string.c,
 * guests/lib/string.c) is still built; kernel/arch/vax/arch.mk links with
 * --wrap=memcpy, so every call to memcpy from another file comes here.
 * The kernel and the guests' C library both link this file.
 *
 * void *__wrap_memcpy(void *dst, const void *src, size_t n)
 * MOVC3's length is a 16-bit word: copy in chunks of at most 32 KB.
 */
#define CHUNK 0x8000

    .text
    .globl __wrap_memcpy
    .type __wrap_memcpy, @function
    .balign 2
__wrap_memcpy:
    .word   0x0040              /* entry mask: r6 (MOVC3 uses r0-r5) */
    movl    4(%ap), %r3         /* destination */
    movl    8(%ap), %r1         /* source */
    movl    12(%ap), %r6        /* bytes left */
1:  movl    %r6, %r0
    beql    3f
    cmpl    %r0, $CHUNK
    blequ   2f
    movl    $CHUNK, %r0
2:  subl2   %r0, %r6
    movc3   %r0, (%r1), (%r3)   /* leaves r1, r3 just past the bytes moved */
    brb     1b
3:  movl    4(%ap), %r0         /* memcpy returns dst */
    ret
