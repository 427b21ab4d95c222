/*
 * The file-system image, made on the host by tools/mkfs, as bytes in the
 * kernel (read-only): ramdisk_init() copies it into the RAM disk at boot.
 * The Makefile passes its path as FS_IMAGE.
 */
    .section .rodata
    .balign 16
    .globl fs_image, fs_image_end
fs_image:
    .incbin FS_IMAGE
fs_image_end:
