/*
 * crt0.S: where every RISC-V guest program starts.
 *
 * exec leaves us at _start with a0 = argc, a1 = argv (a NULL-terminated
 * array of pointers on the user stack) and sp 16-byte aligned, which is
 * already the calling convention for main(argc, argv).  The kernel zeroes
 * .bss when it loads the program, so there is nothing to set up here.
 */
    .section .text.start
    .globl _start
_start:
    /* Zero fp and ra so a debugger's backtrace stops here. */
    li s0, 0
    li ra, 0
    call main
    /* main returned: its return value (a0) is the exit status. */
    call exit
1:  j 1b                    /* exit does not return */
