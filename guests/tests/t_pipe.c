/*
 * t_pipe: pipes behave like UNIX pipes.
 *
 *   - what is written can be read back, in order;
 *   - read returns 0 (end of file) once the last writer has closed;
 *   - write with no reader left fails with EPIPE;
 *   - 64 KB written in one call reach a reading child intact, byte for
 *     byte (far more than a pipe buffers, so the writer must block and
 *     resume);
 *   - a dup'ed descriptor shares the pipe, and the pipe lives until the
 *     last of the two is closed;
 *   - descriptors that are not open give EBADF.
 */
#include "test.h"

#define BIG (64 * 1024)

/* Byte i of the big transfer: not periodic at any small power of two, so
 * a lost, repeated or reordered chunk shows. */
static unsigned char pattern(uint32_t i)
{
    return (unsigned char)(i * 7 + (i >> 8) * 13 + (i >> 16));
}

static void roundtrip(void)
{
    int p[2];
    char buf[16] = { 0 };
    if (pipe(p) < 0) {
        test_fail("roundtrip", "pipe: %s", strerror(errno));
        return;
    }
    int w = write(p[1], "hello", 5);
    int r = read(p[0], buf, sizeof(buf));
    test_check("roundtrip", w == 5 && r == 5 && memcmp(buf, "hello", 5) == 0,
               "write %d read %d", w, r);

    /* two writes come out as one stream */
    write(p[1], "ab", 2);
    write(p[1], "cd", 2);
    r = read(p[0], buf, sizeof(buf));
    test_check("stream", r == 4 && memcmp(buf, "abcd", 4) == 0, "read %d", r);

    close(p[1]);
    r = read(p[0], buf, sizeof(buf));
    test_check("eof", r == 0, "read after the writer closed returned %d", r);
    close(p[0]);
}

static void no_reader(void)
{
    int p[2];
    if (pipe(p) < 0) {
        test_fail("epipe", "pipe: %s", strerror(errno));
        return;
    }
    close(p[0]);
    test_errno("epipe", write(p[1], "x", 1), EPIPE);
    close(p[1]);
}

static void big(void)
{
    int p[2];
    if (pipe(p) < 0) {
        test_fail("big", "pipe: %s", strerror(errno));
        return;
    }
    int pid = fork();
    if (pid < 0) {
        test_fail("big", "fork: %s", strerror(errno));
        return;
    }
    if (pid == 0) {
        /* The child reads everything and checks it: exit 0 if all is
         * well, 1 on wrong data, 2 on a wrong length. */
        static unsigned char buf[1000];   /* odd size: reads straddle writes */
        uint32_t got = 0;
        int n, wrong = 0;
        close(p[1]);
        while ((n = read(p[0], buf, sizeof(buf))) > 0) {
            for (int i = 0; i < n; i++)
                if (buf[i] != pattern(got + i))
                    wrong = 1;
            got += n;
        }
        exit(wrong ? 1 : got != BIG ? 2 : 0);
    }
    close(p[0]);

    unsigned char *data = malloc(BIG);
    if (data == NULL) {
        test_fail("big_write", "malloc of %d bytes failed", BIG);
        close(p[1]);
        wait(NULL);
        return;
    }
    for (uint32_t i = 0; i < BIG; i++)
        data[i] = pattern(i);
    int w = write(p[1], data, BIG);
    if (w >= 0 && w < BIG) {
        /* A short write is allowed by some systems; finish the job. */
        printf("t_pipe: write of %d bytes returned %d\n", BIG, w);
        int total = w;
        while (total < BIG && (w = write(p[1], data + total, BIG - total)) > 0)
            total += w;
        w = total;
    }
    close(p[1]);
    free(data);
    test_check("big_write", w == BIG, "wrote %d of %d bytes (%s)", w, BIG,
               w < 0 ? strerror(errno) : "short");

    int status = -2;
    int r = wait(&status);
    test_check("big_read", r == pid && status == 0, "child %s",
               r != pid ? "lost" : status == 1 ? "read wrong bytes" :
               status == 2 ? "read a wrong number of bytes" : "failed");
}

static void dup_shares(void)
{
    int p[2];
    char buf[8];
    if (pipe(p) < 0) {
        test_fail("dup", "pipe: %s", strerror(errno));
        return;
    }
    int d = dup(p[1]);
    if (!test_check("dup", d >= 0 && d != p[0] && d != p[1], "dup returned %d", d)) {
        close(p[0]);
        close(p[1]);
        return;
    }
    int w = write(d, "y", 1);
    int r = read(p[0], buf, sizeof(buf));
    test_check("dup_writes", w == 1 && r == 1 && buf[0] == 'y', "write %d read %d", w, r);

    close(p[1]);                /* the dup still holds the pipe open */
    w = write(d, "z", 1);
    r = read(p[0], buf, sizeof(buf));
    test_check("dup_keeps_open", w == 1 && r == 1 && buf[0] == 'z', "write %d read %d", w, r);

    close(d);                   /* now the last writer is gone */
    r = read(p[0], buf, sizeof(buf));
    test_check("dup_eof", r == 0, "read after closing both writers returned %d", r);
    close(p[0]);
}

static void bad_fds(void)
{
    char c = 0;
    test_errno("close_negative", close(-1), EBADF);
    test_errno("close_unopened", close(NOFILE - 1), EBADF);
    test_errno("close_too_big", close(NOFILE + 100), EBADF);
    test_errno("read_unopened", read(NOFILE - 1, &c, 1), EBADF);
    test_errno("write_unopened", write(NOFILE - 1, &c, 1), EBADF);
    test_errno("dup_unopened", dup(NOFILE - 1), EBADF);

    int p[2];
    if (pipe(p) == 0) {
        close(p[1]);
        test_errno("close_twice", close(p[1]), EBADF);
        test_errno("write_read_end", write(p[0], &c, 1), EBADF);
        close(p[0]);
        if (pipe(p) == 0) {
            test_errno("read_write_end", read(p[1], &c, 1), EBADF);
            close(p[0]);
            close(p[1]);
        }
    }
}

int main(void)
{
    test_start("t_pipe");
    roundtrip();
    no_reader();
    big();
    dup_shares();
    bad_fds();
    return test_summary();
}
