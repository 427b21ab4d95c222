/*
 * crt0.S: where every x86 guest program starts.
 *
 * exec leaves us at _start with eax = argc and ecx = argv (a NULL-terminated
 * array of pointers on the user stack): the kernel's x86 entry convention
 * (kernel/arch/x86/trap.c, arch_user_enter).  The C convention passes
 * arguments on the stack, so push them and call main(argc, argv).
 */
    .section .text.start
    .globl _start
_start:
    xorl  %ebp, %ebp            /* a debugger's backtrace stops here */
    pushl %ecx
    pushl %eax
    call  main
    pushl %eax                  /* main's return value is the exit status */
    call  exit
1:  jmp   1b
