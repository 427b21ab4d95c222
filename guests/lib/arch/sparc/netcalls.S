/*
 * netcalls.S: the network's system call stubs, made by syscall.S from
 * FOR_EACH_NET_SYSCALL (kernel/include/syscall.h), in an object of their
 * own: a program that makes no network call does not link them.
 */
#define SYSCALL_STUBS FOR_EACH_NET_SYSCALL
#include "syscall.S"
