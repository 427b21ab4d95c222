/*
 * crt0.S: where every SPARC guest program starts.
 *
 * exec leaves us at _start with %o0 = argc, %o1 = argv (a NULL-terminated
 * array of pointers on the user stack) and %sp at a 96-byte frame below
 * them, room for this window should it ever be written out: already the
 * calling convention for main(argc, argv).  The kernel zeroes .bss when
 * it loads the program, so there is nothing to set up here.
 */
    .section .text.start
    .globl _start
_start:
    mov   0, %fp            /* a debugger's backtrace stops here */
    call  main
     nop
    call  exit              /* main's return value (%o0) is the exit status */
     nop
1:  ba    1b                /* exit does not return */
     nop
