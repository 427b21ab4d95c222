/*
 * t_cc: the Andrew benchmark's compiler and linker make programs that work.
 *
 * Writes a two-file C program into /tmp/t_cc, compiles each file with
 * /bin/cc, links them with /bin/ld and runs the result with /bin/mrun (the M
 * interpreter).  The program checks its own answers, covering what the
 * compiler accepts: the preprocessor, recursion, pointers and arrays,
 * strings, every operator, short-circuit && and ||, ++ and --, compound
 * assignment, break and continue, static functions and variables, global
 * initialisers, calls across files.  main returns 42 if every check held,
 * else the number of the first that failed.  Then the failures: a syntax
 * error stops cc, and an undefined symbol stops ld.
 */
#include "test.h"
#include "fsutil.h"

#define DIR "/tmp/t_cc"

static const char lib_h[] =
    "#ifndef LIB_H\n#define LIB_H\n"
    "int lib_copy(char *dst, char *src, int n);\n"
    "int lib_calls(void);\n"
    "#endif\n";

static const char lib_c[] =
    "#include \"lib.h\"\n"
    "static int calls;\n"
    "int lib_copy(char *dst, char *src, int n)\n"
    "{\n"
    "    int i;\n"
    "    calls++;\n"
    "    for (i = 0; i < n - 1 && src[i]; i++)\n"
    "        dst[i] = src[i];\n"
    "    dst[i] = 0;\n"
    "    return i;\n"
    "}\n"
    "int lib_calls(void) { return calls; }\n";

static const char prog_c[] =
    "/* checks itself: 42 means all is well */\n"
    "#include \"lib.h\"\n"
    "#include \"lib.h\"\n"                                /* the guard works */
    "#define N 10\n"
    "#ifdef N\n"
    "int limit = N;\n"
    "#else\n"
    "int limit = 0;\n"
    "#endif\n"
    "#ifndef N\n"
    "this is skipped\n"
    "#endif\n"
    "int table[N];\n"
    "char name[16];\n"
    "char *greeting = \"hello\";\n"
    "int negative = -7;\n"
    "static int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }\n"
    "int sum(int *a, int n) { int i, s; s = 0; for (i = 0; i < n; i++) s += a[i]; return s; }\n"
    "int length(char *s) { int n; n = 0; while (*s++) n++; return n; }\n"
    "int three(int a, int b, int c) { return a * 100 + b * 10 + c; }\n"
    "int main(void)\n"
    "{\n"
    "    int i, x, *p;\n"
    "    char buf[8];\n"
    "    if (fact(5) != 120) return 1;\n"
    "    for (i = 0; i < limit; i++) table[i] = i * i;\n"
    "    if (sum(table, N) != 285) return 2;\n"
    "    p = table;\n"
    "    p += 3;\n"
    "    if (*p != 9 || p[1] != 16 || *(p + 2) != 25) return 3;\n"
    "    if (length(greeting) != 5 || greeting[1] != 'e') return 4;\n"
    "    x = 0;\n"
    "    if (x != 0 && 1 / x) return 5;\n"
    "    if (!(x == 0 || 1 / x)) return 6;\n"
    "    x = 5;\n"
    "    if (x++ != 5 || x != 6 || ++x != 7 || x-- != 7 || --x != 5) return 7;\n"
    "    x = 2 + 3 * 4 - 10 / 2 % 3;\n"
    "    if (x != 12 || negative != -7 || -negative != 7) return 8;\n"
    "    if ((1 << 4 | 3) != 19 || (-16 >> 2) != -4 || (6 & 3) != 2 || (6 ^ 3) != 5) return 9;\n"
    "    if (~0 != -1 || 7 % 3 != 1 || 0x1f != 31 || '\\n' != 10) return 10;\n"
    "    buf[0] = 'o'; buf[1] = 'k'; buf[2] = 0;\n"
    "    if (length(buf) != 2) return 11;\n"
    "    x = 0;\n"
    "    for (i = 0; i < 100; i++) { if (i == 7) break; if (i % 2) continue; x += i; }\n"
    "    if (x != 12) return 12;\n"
    "    lib_copy(name, greeting, 16);\n"
    "    if (name[4] != 'o' || name[5] != 0 || lib_calls() != 1) return 13;\n"
    "    x = 3; x *= 4; x -= 2; x |= 1; x &= 7; x ^= 2;\n"
    "    if (x != 1) return 14;\n"
    "    if (three(1, 2, 3) != 123 || (3 < 4) != 1 || (4 <= 3) != 0) return 15;\n"
    "    i = 0; while (1) { i++; if (i >= 1000) break; }\n"
    "    if (i != 1000) return 16;\n"
    "    return 42;\n"
    "}\n";

static const char bad_c[] = "int main(void) { return 1 +; }\n";

static int write_file(const char *path, const char *text)
{
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY);
    if (fd < 0)
        return -1;
    int n = (int)strlen(text), w = write(fd, text, n);
    close(fd);
    return w == n ? 0 : -1;
}

/* Run argv (quietly if `quiet`); its exit status. */
static int run(char *argv[], int quiet)
{
    int pid = fork();
    if (pid == 0) {
        if (quiet) {
            close(2);
            open("/tmp/t_cc/stderr", O_CREAT | O_TRUNC | O_WRONLY);
        }
        exec(argv[0], argv);
        exit(127);
    }
    int status;
    while (wait(&status) != pid)
        ;
    return status;
}

int main(void)
{
    test_start("t_cc");
    rm_tree(DIR);
    if (!test_check("setup", mkdir(DIR) == 0 && chdir(DIR) == 0 &&
                    write_file("lib.h", lib_h) == 0 && write_file("lib.c", lib_c) == 0 &&
                    write_file("prog.c", prog_c) == 0 && write_file("bad.c", bad_c) == 0,
                    "%s", strerror(errno)))
        return test_summary();

    char *cc_prog[] = { "/bin/cc", "-o", "prog.o", "prog.c", 0 };
    char *cc_lib[] = { "/bin/cc", "-o", "lib.o", "lib.c", 0 };
    char *ld[] = { "/bin/ld", "-o", "prog", "prog.o", "lib.o", 0 };
    char *mrun[] = { "/bin/mrun", "prog", 0 };
    int s = run(cc_prog, 0), t = run(cc_lib, 0);
    test_check("compile", s == 0 && t == 0, "cc: status %d and %d", s, t);
    s = run(ld, 0);
    test_check("link", s == 0, "ld: status %d", s);
    s = run(mrun, 0);
    test_check("run", s == 42, "the program returned %d (42: all checks held; less: the "
               "number of the check that failed)", s);

    char *cc_bad[] = { "/bin/cc", "-o", "bad.o", "bad.c", 0 };
    test_check("syntax_error", run(cc_bad, 1) == 1, "cc accepted a syntax error");
    char *ld_undef[] = { "/bin/ld", "-o", "prog2", "prog.o", 0 };
    test_check("undefined_symbol", run(ld_undef, 1) == 1, "ld linked without lib.o");
    char *ld_twice[] = { "/bin/ld", "-o", "prog3", "prog.o", "lib.o", "lib.o", 0 };
    test_check("defined_twice", run(ld_twice, 1) == 1, "ld linked lib.o twice");

    chdir("/");
    test_check("cleanup", rm_tree(DIR) == 0, "rm_tree: %s", strerror(errno));
    return test_summary();
}
