/*
 * Helpers for the test programs in guests/tests/: each check prints one
 * protocol line (docs/protocol.md), and test_summary() the final one.
 *
 *   PASS name=<prog>.<check>
 *   FAIL name=<prog>.<check> why=<words_joined_by_underscores>
 *   SKIP name=<prog>.<check> why=...
 *   SUMMARY passed=N failed=M skipped=K
 *
 * Only the test's main process should call these: a forked child reports
 * back through its exit status or a pipe, and the parent does the check.
 */
#ifndef TEST_H
#define TEST_H

#include "user.h"

void test_start(const char *prog);      /* sets the name prefix */
void test_pass(const char *check);
void test_fail(const char *check, const char *why_fmt, ...)
        __attribute__((format(printf, 2, 3)));
void test_skip(const char *check, const char *why_fmt, ...)
        __attribute__((format(printf, 2, 3)));

/* PASS if cond, else FAIL with the formatted reason.  Returns cond. */
int  test_check(const char *check, int cond, const char *why_fmt, ...)
        __attribute__((format(printf, 3, 4)));

/* A system call that should have failed: PASS iff ret == -1 and errno is
 * `want`.  Returns 1 on PASS. */
int  test_errno(const char *check, long ret, int want);

/* Prints SUMMARY; returns the exit status for main: 0 iff nothing failed. */
int  test_summary(void);

#endif
