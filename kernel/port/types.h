/*
 * Fixed-size integer types for the kernel.  Every ISA we run is 32-bit, but
 * the kernel names sizes explicitly so that nothing depends on that by accident.
 */
#ifndef TYPES_H
#define TYPES_H

typedef unsigned char      uint8;
typedef unsigned short     uint16;
typedef unsigned int       uint32;
typedef unsigned long long uint64;
typedef signed int         int32;
typedef signed long long   int64;
typedef unsigned long      uintptr;   /* an address (pointer-sized)       */
typedef unsigned long      paddr;     /* a physical address               */
typedef unsigned long      uaddr;     /* a user virtual address           */

#define NULL ((void *)0)

/* Where a member lies in its struct: machine.h checks the assembly's
 * offsets with it. */
#ifndef offsetof
#define offsetof(type, member) __builtin_offsetof(type, member)
#endif

#endif
