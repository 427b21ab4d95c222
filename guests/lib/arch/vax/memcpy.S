/* memcpy as MOVC3: the kernel's own file (it explains why), linked into the
 * guests' C library too. */
#include "../../../../kernel/arch/vax/memcpy.S"
