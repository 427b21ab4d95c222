/* memcpy with MOVEM: the kernel's own file (it explains why), linked into
 * the guests' C library too. */
#include "../../../../kernel/arch/m68k/memcpy.S"
