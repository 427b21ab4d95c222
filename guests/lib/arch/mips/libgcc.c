/* The 64-bit division helpers GCC calls on MIPS: the kernel's own file
 * (it explains why), linked into the guests' C library too. */
#include "../../../../kernel/arch/mips/libgcc.c"
