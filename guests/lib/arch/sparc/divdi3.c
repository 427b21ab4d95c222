/* 64-bit multiply and divide: the kernel's own file (it explains why),
 * linked into the guests' C library too. */
#include "../../../../kernel/arch/sparc/divdi3.c"
