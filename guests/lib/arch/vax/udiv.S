/* Unsigned division helpers GCC calls on the VAX: the kernel's own file
 * (it explains why), linked into the guests' C library too. */
#include "../../../../kernel/arch/vax/udiv.S"
