/* Constants shared by the x86 assembly files and machine.h. */
#ifndef ASM_H
#define ASM_H
#define SEG_KDATA 0x10
#endif
