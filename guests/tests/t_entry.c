/*
 * t_entry: exec refuses, with ENOEXEC, a program whose entry point the
 * processor could not start at, and the machine keeps running.
 *
 * The kernel starts a new program by returning to user mode at the ELF
 * file's entry point.  On SPARC a return (rett) to an address that is not a
 * multiple of 4 traps while traps are off, which stops the processor; on
 * the other ISAs a bad entry point is at best a killed process.  So exec
 * checks the entry point first (kernel/port/exec.c, the rule per ISA in
 * kernel/arch/<isa>/machine.h, docs/protection.md): aligned as the ISA
 * demands of an instruction, inside user space, inside a PT_LOAD segment
 * marked executable.
 *
 * This program copies its own file (/bin/t_entry) with one field changed:
 * the entry point moved off its alignment (each remainder the ISA refuses;
 * none on x86 and the VAX, whose instructions start at any byte), to 0, to
 * the kernel's half, to the last word of the address space, just past the
 * text segment, into the data segment, and the text segment's execute
 * flag cleared.  A child execs each copy: exec must fail with ENOEXEC and
 * the child goes on to exit with a status that says so.  An unchanged copy
 * must still run (`t_entry child` exits with CHILD_OK).
 */
#include "test.h"

#define SELF     "/bin/t_entry"
#define COPY     "/tmp/t_entry.elf"
#define CHILD_OK 42                     /* the unchanged copy, run as `child` */
#define EXEC_FAILED 100                 /* + errno, when exec returned */

/* The parts of a 32-bit ELF file this test edits (the ELF spec's names),
 * in the machine's own byte order, which is the file's. */
struct ehdr {
    uint8_t  ident[16];
    uint16_t type, machine;
    uint32_t version, entry, phoff, shoff, flags;
    uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};
struct phdr {
    uint32_t type, off, vaddr, paddr, filesz, memsz, flags, align;
};
#define PT_LOAD 1
#define PF_X    1

static char *image;
static int image_size;

static int load_self(void)
{
    struct stat st;
    if (stat(SELF, &st) < 0 || st.st_size < sizeof(struct ehdr))
        return -1;
    image_size = (int)st.st_size;
    image = malloc(image_size);
    int fd = open(SELF, O_RDONLY);
    if (!image || fd < 0)
        return -1;
    int n = read(fd, image, image_size);
    close(fd);
    return n == image_size ? 0 : -1;
}

static struct ehdr *eh(void) { return (struct ehdr *)image; }
static struct phdr *ph(int i) { return (struct phdr *)(image + eh()->phoff) + i; }

/* The first PT_LOAD segment that is (x = 1) or is not (x = 0) executable. */
static struct phdr *segment(int x)
{
    for (int i = 0; i < eh()->phnum; i++)
        if (ph(i)->type == PT_LOAD && !!(ph(i)->flags & PF_X) == x)
            return ph(i);
    return 0;
}

/* Write the image to COPY, fork, exec it in the child; the child's exit
 * status: CHILD_OK if the copy ran, EXEC_FAILED + errno if exec failed,
 * WSTATUS_KILLED if the copy ran and was killed. */
static int exec_copy(void)
{
    int fd = open(COPY, O_CREAT | O_WRONLY | O_TRUNC);
    if (fd < 0 || write(fd, image, image_size) != image_size)
        return -1;
    close(fd);
    int pid = fork();
    if (pid == 0) {
        char *argv[] = { COPY, "child", 0 };
        exec(COPY, argv);
        exit(EXEC_FAILED + errno);
    }
    int status = -1;
    if (pid < 0 || wait(&status) != pid)
        return -1;
    return status;
}

/* One crafted entry point: exec must say ENOEXEC. */
static void refused(const char *check, uint32_t entry)
{
    uint32_t saved = eh()->entry;
    eh()->entry = entry;
    int status = exec_copy();
    eh()->entry = saved;
    test_check(check, status == EXEC_FAILED + ENOEXEC,
               "entry 0x%x: child status %d, wanted %d (exec failed with ENOEXEC)",
               (unsigned)entry, status, EXEC_FAILED + ENOEXEC);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "child") == 0)
        return CHILD_OK;
    test_start("t_entry");
    if (load_self() < 0) {
        test_fail("load", "cannot read %s", SELF);
        return test_summary();
    }
    struct phdr *text = segment(1), *data = segment(0);
    uint32_t entry = eh()->entry;
    /* What this ISA demands of an instruction's address (machine.h's
     * USER_PC_ALIGN, which the kernel tells through this query). */
    int align = fsctl(FSCTL_PAGEPOLICY, (void *)ENTRY_ALIGN);
    if (!test_check("setup", text && data && align >= 1 && entry % align == 0,
                    "text %p data %p align %d entry 0x%x", text, data, align, (unsigned)entry))
        return test_summary();

    test_check("unchanged", exec_copy() == CHILD_OK, "an unchanged copy did not run");
    char check[32];
    for (int k = 1; k < align; k++) {
        snprintf(check, sizeof check, "misaligned_%d", k);
        refused(check, entry + k);
    }
    if (align == 1)
        test_skip("misaligned", "an instruction may start at any byte on this ISA");
    refused("null", 0);
    refused("kernel", 0x80000000u);
    refused("last_word", 0xfffffffcu);
    refused("past_text", text->vaddr + ((text->memsz + 3) & ~3u));
    refused("in_data", data->vaddr);

    text->flags &= ~PF_X;
    refused("text_not_executable", entry);
    text->flags |= PF_X;

    test_check("unchanged_again", exec_copy() == CHILD_OK, "an unchanged copy did not run");
    unlink(COPY);
    return test_summary();
}
