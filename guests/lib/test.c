/*
 * The PASS/FAIL/SKIP/SUMMARY lines of the test programs (guests/include/
 * test.h).  A reason is formatted like printf and then made into one
 * protocol value: blanks become '_' and '=' becomes ':', so that the
 * harness can split the line on blanks and each field on its first '='.
 */
#include "test.h"

static const char *prefix = "test";
static int passed, failed, skipped;

void test_start(const char *prog)
{
    prefix = prog;
}

void test_pass(const char *check)
{
    passed++;
    printf("PASS name=%s.%s\n", prefix, check);
}

static void report(const char *word, const char *check, const char *fmt, va_list ap)
{
    char why[160];
    vsnprintf(why, sizeof(why), fmt, ap);
    for (char *p = why; *p; p++) {
        if (*p == ' ' || *p == '\t' || *p == '\n')
            *p = '_';
        else if (*p == '=')
            *p = ':';
    }
    printf("%s name=%s.%s why=%s\n", word, prefix, check, why[0] ? why : "unknown");
}

void test_fail(const char *check, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    failed++;
    report("FAIL", check, fmt, ap);
    va_end(ap);
}

void test_skip(const char *check, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    skipped++;
    report("SKIP", check, fmt, ap);
    va_end(ap);
}

int test_check(const char *check, int cond, const char *fmt, ...)
{
    if (cond) {
        test_pass(check);
    } else {
        va_list ap;
        va_start(ap, fmt);
        failed++;
        report("FAIL", check, fmt, ap);
        va_end(ap);
    }
    return cond;
}

int test_errno(const char *check, long ret, int want)
{
    return test_check(check, ret == -1 && errno == want,
                      "returned %ld errno %d (%s), wanted -1 errno %d (%s)",
                      ret, ret == -1 ? errno : 0, ret == -1 ? strerror(errno) : "none",
                      want, strerror(want));
}

int test_summary(void)
{
    printf("SUMMARY passed=%d failed=%d skipped=%d\n", passed, failed, skipped);
    return failed == 0 ? 0 : 1;
}
