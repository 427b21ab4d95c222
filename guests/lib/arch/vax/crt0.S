/*
 * crt0.S: where every VAX guest program starts.
 *
 * exec leaves us at _start in user mode with r0 = argc, r1 = argv (a
 * NULL-terminated array of pointers on the user stack) and fp = 0.  The VAX
 * C convention passes arguments on the stack, counted by CALLS, so push
 * them and call main(argc, argv).  The kernel zeroes .bss when it loads
 * the program, so there is nothing else to set up.
 */
    .section .text.start
    .globl _start
_start:
    pushl   %r1                 /* argv */
    pushl   %r0                 /* argc */
    calls   $2, main
    /* main returned: its return value (r0) is the exit status. */
    pushl   %r0
    calls   $1, exit
1:  brb     1b                  /* exit does not return */
