/*
 * The parts of the 32-bit ELF format that exec needs: the file header and
 * the program headers (PT_LOAD segments).  Field names follow the ELF spec.
 */
#ifndef ELF_H
#define ELF_H

#include "types.h"

#define ELF_MAGIC 0x464C457Fu        /* "\x7FELF" read as a little-endian word */

struct elfhdr {
    uint8  ident[16];                /* magic, class, data (endianness), ... */
    uint16 type, machine;
    uint32 version, entry, phoff, shoff, flags;
    uint16 ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct proghdr {
    uint32 type, off, vaddr, paddr, filesz, memsz, flags, align;
};

#define ELFCLASS32   1
#define ELFDATA2LSB  1                 /* little-endian (x86, RISC-V, VAX) */
#define ELFDATA2MSB  2                 /* big-endian (m68k)                */
#define PT_LOAD      1
#define PF_X         1
#define PF_W         2
#define PF_R         4

#endif
