/*
 * crt0.S: where every MIPS guest program starts.
 *
 * exec leaves us at _start with a0 = argc, a1 = argv (a NULL-terminated
 * array of pointers on the user stack) and sp 16-byte aligned, which is
 * already main(argc, argv)'s calling convention, except that o32 also
 * wants the caller to leave 16 bytes at sp for main to store a0-a3 in.
 * The kernel zeroes .bss when it loads the program: nothing else to do.
 */
    .section .text.start, "ax"
    .globl _start
_start:
    move  $fp, $zero              /* a debugger's backtrace stops here */
    move  $ra, $zero
    addiu $sp, $sp, -16
    jal   main
    move  $a0, $v0                /* main's return value is the exit status */
    jal   exit
1:  b     1b                    /* exit does not return */
