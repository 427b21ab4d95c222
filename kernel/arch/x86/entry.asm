; First instructions of the x86 kernel, reached through multiboot v1
; (QEMU's -kernel, or GRUB from the ISO).  The loader leaves us in 32-bit
; protected mode with paging off, eax = 0x2BADB002 and ebx = the multiboot
; information.  The kernel is linked at KERNBASE + 1 MB but loaded at 1 MB;
; this file's code and page directory sit in section .boot, which is linked
; where it is loaded (kernel.ld), so it can run before paging is on; its
; page directory is in .bootdata beside it (writable, not executable).
;
; We turn paging on with a boot page directory of 4 MB pages that maps the
; first 4 MB both where they are (so the next instruction still exists) and
; at KERNBASE, plus all of RAM at KERNBASE, then jump to the upper half and
; call main().  kernel/arch/x86/mmu.c later builds the real kernel mapping.

KERNBASE    equ 0x80000000
MB_MAGIC    equ 0x1BADB002
MB_FLAGS    equ 0x00000003          ; page-align modules, give us memory info
PDE_4MB     equ 0x83                ; present | writable | 4 MB page
CR0_PG      equ 0x80000000
CR0_WP      equ 0x00010000          ; the kernel, too, obeys read-only pages
CR4_PSE     equ 0x00000010          ; allow 4 MB pages

section .multiboot
align 4
    dd MB_MAGIC
    dd MB_FLAGS
    dd -(MB_MAGIC + MB_FLAGS)

section .boot progbits alloc exec nowrite align=4096
global entry
extern main
entry:
    mov eax, cr4
    or eax, CR4_PSE
    mov cr4, eax
    mov eax, boot_pgdir
    mov cr3, eax
    mov eax, cr0
    or eax, CR0_PG | CR0_WP
    mov cr0, eax
    mov eax, .upper                 ; an absolute jump: into the upper half
    jmp eax
.upper:
    mov esp, boot_stack_top
    xor ebp, ebp
    call main
.hang:
    hlt
    jmp .hang

section .bootdata progbits alloc noexec write align=4096
boot_pgdir:
    dd PDE_4MB                      ; 0 - 4 MB, identity, for the jump above
    times (KERNBASE >> 22) - 1 dd 0
%assign i 0
%rep 32                             ; KERNBASE + 0 .. 128 MB -> 0 .. 128 MB
    dd (i << 22) | PDE_4MB
%assign i i + 1
%endrep
    times 1024 - (KERNBASE >> 22) - 32 dd 0

section .bss
align 16
boot_stack:
    resb 8192
boot_stack_top:
