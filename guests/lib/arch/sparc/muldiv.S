/* Multiply and divide for V7 code: the kernel's own file (it explains why),
 * linked into the guests' C library too. */
#include "../../../../kernel/arch/sparc/muldiv.S"
