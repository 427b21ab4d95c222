/*
 * t_copy: every copy moves the right bytes, whatever the alignments and
 * lengths, and not one byte more.  The copies a faster copy routine (lab 3,
 * docs/labs/lab3-copy.md) could get wrong at its edges:
 *
 *   - memcpy and memmove of the C library (Table 5's bcopy), from and to
 *     every alignment within a word pair, for every length up to 67 and
 *     around the powers of two; memmove also overlapping either way;
 *   - the kernel's copyout, through read(): a file read at offsets inside
 *     and across 1 KB blocks, into buffers at every alignment;
 *   - the kernel's copyin, through write(): the same file written from
 *     unaligned buffers, then read back;
 *   - copyin and copyout through a pipe, for every length up to 600 at
 *     four alignments (pipe.c copies around its ring buffer).
 *
 * Each destination has guard bytes on both sides; a check fails naming
 * the first wrong byte (or the guard that was touched).
 */
#include "test.h"

#define MAXLEN  5200
#define GUARD   16
#define FILESZ  20000
#define PATH    "/tmp/t_copy.dat"

static unsigned char src[MAXLEN + 64];
static unsigned char dst[MAXLEN + 64 + 2 * GUARD];
static unsigned char file_image[FILESZ];

/* Byte i of a pattern: not periodic at any small power of two. */
static unsigned char pattern(uint32_t i, uint32_t salt)
{
    return (unsigned char)(i * 7 + (i >> 8) * 13 + salt * 31 + 1);
}

/* 0 if dst[GUARD+off .. +len) == want[0..len) and the guard bytes around it
 * are 0xee; otherwise describe the first difference in why. */
static int verify(const unsigned char *want, uint32_t off, uint32_t len, char *why, int n)
{
    for (uint32_t i = 0; i < off + GUARD; i++)
        if (dst[i] != 0xee) {
            snprintf(why, n, "guard_byte_%d_before_changed", (int)(off + GUARD - i));
            return 1;
        }
    for (uint32_t i = 0; i < len; i++)
        if (dst[GUARD + off + i] != want[i]) {
            snprintf(why, n, "byte_%u_of_%u_was_0x%02x_not_0x%02x", (unsigned)i, (unsigned)len,
                     dst[GUARD + off + i], want[i]);
            return 1;
        }
    for (uint32_t i = 0; i < GUARD; i++)
        if (dst[GUARD + off + len + i] != 0xee) {
            snprintf(why, n, "guard_byte_%u_after_changed", (unsigned)i);
            return 1;
        }
    return 0;
}

/* Guard-fill the front of dst: enough for a copy of len bytes at offset
 * up to 48 (and its guards); what lies beyond is never looked at. */
static uint32_t cleared;

static void clear_dst(uint32_t len)
{
    cleared = len + 48 + 2 * GUARD;
    if (cleared > sizeof dst)
        cleared = sizeof dst;
    memset(dst, 0xee, cleared);
}

/* The lengths tried: all up to 67, then around 256, 1024 and 4096. */
static const uint32_t long_lens[] = { 127, 128, 129, 255, 256, 257, 1023, 1024, 1025,
                                      4095, 4096, 4097, 5000 };

static int next_len(int k, uint32_t *len)
{
    if (k < 68) {
        *len = (uint32_t)k;
        return 1;
    }
    k -= 68;
    if (k < (int)(sizeof long_lens / sizeof long_lens[0])) {
        *len = long_lens[k];
        return 1;
    }
    return 0;
}

static void library_copies(void)
{
    char why[80];
    int bad = 0;
    uint32_t len;
    for (uint32_t s = 0; s < MAXLEN + 64; s++)
        src[s] = pattern(s, 1);
    for (int k = 0; !bad && next_len(k, &len); k++)
        for (uint32_t so = 0; !bad && so < 8; so++)
            for (uint32_t doff = 0; !bad && doff < 8; doff++) {
                clear_dst(len);
                memcpy(dst + GUARD + doff, src + so, len);
                if (verify(src + so, doff, len, why, sizeof why)) {
                    test_fail("memcpy", "src+%u_dst+%u_len_%u:_%s", (unsigned)so,
                              (unsigned)doff, (unsigned)len, why);
                    bad = 1;
                }
            }
    if (!bad)
        test_pass("memcpy");

    /* memmove within one buffer, the destination before or after the source */
    static unsigned char want[MAXLEN + 64];
    bad = 0;
    for (int k = 0; !bad && next_len(k, &len); k++)
        for (int shift = -9; !bad && shift <= 9; shift++) {
            clear_dst(len);
            uint32_t from = 32, to = (uint32_t)(32 + shift);
            for (uint32_t i = 0; i < len; i++)
                dst[GUARD + from + i] = pattern(i, 2);
            for (uint32_t i = 0; i < len; i++)
                want[i] = pattern(i, 2);
            memmove(dst + GUARD + to, dst + GUARD + from, len);
            /* only the bytes written may differ from what clear_dst left:
             * check the moved block, then that nothing beyond both ranges
             * changed */
            int wrong = 0;
            for (uint32_t i = 0; i < len && !wrong; i++)
                if (dst[GUARD + to + i] != want[i]) {
                    test_fail("memmove", "shift_%d_len_%u:_byte_%u", shift, (unsigned)len,
                              (unsigned)i);
                    wrong = 1;
                }
            uint32_t lo = from < to ? from : to, hi = (from > to ? from : to) + len;
            for (uint32_t i = 0; i < lo + GUARD && !wrong; i++)
                if (dst[i] != 0xee) {
                    test_fail("memmove", "shift_%d_len_%u:_wrote_before", shift, (unsigned)len);
                    wrong = 1;
                }
            for (uint32_t i = GUARD + hi; i < cleared && !wrong; i++)
                if (dst[i] != 0xee) {
                    test_fail("memmove", "shift_%d_len_%u:_wrote_after", shift, (unsigned)len);
                    wrong = 1;
                }
            bad = wrong;
        }
    if (!bad)
        test_pass("memmove");
}

static const uint32_t offsets[] = { 0, 1, 2, 3, 511, 1021, 1023, 1024, 1025, 4094, 10000 };
static const uint32_t read_lens[] = { 1, 2, 3, 4, 5, 7, 100, 1023, 1024, 1025, 2049, 5000 };
#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

static int make_file(void)
{
    for (uint32_t i = 0; i < FILESZ; i++)
        file_image[i] = pattern(i, 3);
    int fd = open(PATH, O_CREAT | O_TRUNC | O_RDWR);
    if (fd < 0)
        return -1;
    if (write(fd, file_image, FILESZ) != FILESZ) {
        close(fd);
        return -1;
    }
    return fd;
}

static void kernel_copyout(int fd)
{
    char why[80];
    for (int o = 0; o < NELEM(offsets); o++)
        for (int l = 0; l < NELEM(read_lens); l++)
            for (uint32_t a = 0; a < 4; a++) {
                uint32_t off = offsets[o], len = read_lens[l];
                if (off + len > FILESZ)
                    len = FILESZ - off;
                clear_dst(len);
                if (lseek(fd, (int)off, SEEK_SET) != (int)off) {
                    test_fail("copyout", "lseek_%u:_%s", (unsigned)off, strerror(errno));
                    return;
                }
                int got = read(fd, dst + GUARD + a, len);
                if (got != (int)len) {
                    test_fail("copyout", "read_%u_at_%u_gave_%d", (unsigned)len, (unsigned)off,
                              got);
                    return;
                }
                if (verify(file_image + off, a, len, why, sizeof why)) {
                    test_fail("copyout", "read_at_%u_into_+%u_len_%u:_%s", (unsigned)off,
                              (unsigned)a, (unsigned)len, why);
                    return;
                }
            }
    test_pass("copyout");
}

static void kernel_copyin(int fd)
{
    char why[80];
    /* overwrite pieces of the file from unaligned sources, then read all back */
    for (int o = 0; o < NELEM(offsets); o++)
        for (uint32_t a = 0; a < 4; a++) {
            uint32_t off = offsets[o], len = read_lens[(o + a) % NELEM(read_lens)];
            if (off + len > FILESZ)
                len = FILESZ - off;
            for (uint32_t i = 0; i < len; i++)
                src[a + i] = pattern(off + i, 4 + a + (uint32_t)o);
            if (lseek(fd, (int)off, SEEK_SET) != (int)off ||
                write(fd, src + a, len) != (int)len) {
                test_fail("copyin", "write_%u_at_%u:_%s", (unsigned)len, (unsigned)off,
                          strerror(errno));
                return;
            }
            memcpy(file_image + off, src + a, len);
        }
    for (uint32_t off = 0; off < FILESZ; off += MAXLEN) {
        uint32_t len = FILESZ - off < MAXLEN ? FILESZ - off : MAXLEN;
        clear_dst(len);
        if (lseek(fd, (int)off, SEEK_SET) != (int)off || read(fd, dst + GUARD, len) != (int)len) {
            test_fail("copyin", "read_back_at_%u:_%s", (unsigned)off, strerror(errno));
            return;
        }
        if (verify(file_image + off, 0, len, why, sizeof why)) {
            test_fail("copyin", "file_at_%u:_%s", (unsigned)off, why);
            return;
        }
    }
    test_pass("copyin");
}

static void pipe_copies(void)
{
    char why[80];
    int p[2];
    if (pipe(p) < 0) {
        test_fail("pipe", "pipe: %s", strerror(errno));
        return;
    }
    for (uint32_t i = 0; i < MAXLEN + 64; i++)
        src[i] = pattern(i, 9);
    for (uint32_t len = 1; len <= 600; len++)
        for (uint32_t a = 0; a < 4; a++) {
            clear_dst(len);
            int w = write(p[1], src + a + len, len);
            int r = read(p[0], dst + GUARD + (3 - a), len);
            if (w != (int)len || r != (int)len) {
                test_fail("pipe", "len_%u:_write_%d_read_%d", (unsigned)len, w, r);
                goto out;
            }
            if (verify(src + a + len, 3 - a, len, why, sizeof why)) {
                test_fail("pipe", "len_%u_from_+%u:_%s", (unsigned)len, (unsigned)a, why);
                goto out;
            }
        }
    test_pass("pipe");
out:
    close(p[0]);
    close(p[1]);
}

int main(void)
{
    test_start("t_copy");
    library_copies();
    int fd = make_file();
    if (fd < 0) {
        test_fail("copyout", "creating %s: %s", PATH, strerror(errno));
    } else {
        kernel_copyout(fd);
        kernel_copyin(fd);
        close(fd);
    }
    unlink(PATH);
    pipe_copies();
    return test_summary();
}
