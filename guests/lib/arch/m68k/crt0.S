/*
 * crt0.S: where every m68k guest program starts.
 *
 * exec leaves us at _start with d0 = argc and d1 = argv (a NULL-terminated
 * array of pointers on the user stack): the kernel's m68k entry convention
 * (kernel/arch/m68k/trap.c, arch_user_enter).  The C convention passes
 * arguments on the stack, so push them and call main(argc, argv).
 */
    .section .text.start
    .globl _start
_start:
    sub.l   %a6, %a6            /* a debugger's backtrace stops here */
    move.l  %d1, -(%sp)
    move.l  %d0, -(%sp)
    jsr     main
    move.l  %d0, -(%sp)         /* main's return value is the exit status */
    jsr     exit
1:  bra.s   1b
