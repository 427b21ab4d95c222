/*
 * latecalls.S: the stubs of the calls added after the network's (rename),
 * made by syscall.S from FOR_EACH_LATE_SYSCALL (kernel/include/syscall.h),
 * in an object of their own: a program that makes none of them does not
 * link them, and its layout stays as it was.
 */
#define SYSCALL_STUBS FOR_EACH_LATE_SYSCALL
#include "syscall.S"
