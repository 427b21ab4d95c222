/*
 * andrew: the modified Andrew benchmark (Ousterhout 1989, section 9,
 * Tables 7 and 8).  Like Satyanarayanan's original it works on the source
 * tree of a program (ours is /src, written at build time by
 * tools/andrew/gensrc.py: about 300 KB of C in a few directories):
 *
 *   copy phase     make the directory tree again under /tmp/andrew, copy
 *                  every file into it, stat every file of the copy, and read
 *                  every byte of every copied file;
 *   compile phase  compile each .c file of the copy with our own compiler,
 *                  a new process for each as make would start (/bin/cc, the
 *                  same compiler for the same target machine on every ISA,
 *                  as the paper used one GCC for SPUR everywhere), then link
 *                  the objects (/bin/ld).
 *
 * Each phase is timed as a whole and printed as a RESULT line with iters=1,
 * the disk traffic of the phase, and how much work it was:
 *
 *   RESULT bench=andrew case=copy-sync iters=1 ns=... loop_ns=... ...
 *          policy=sync dev_writes=... sync_writes=... dev_reads=... files=... kbytes=...
 *
 * (loop_ns is what reading the clock costs: there is no loop.)  As with
 * createdelete, each write policy in turn unless -p names one; the tree is
 * removed after each run, untimed.  The source tree, cc and ld are read
 * once before the first run, so that every run finds them in the cache.
 *
 * On a remote file system (-p nfs or -p sprite: kernel/port/rfs/) the
 * fields count the server's disk, the calls made and this machine's own
 * writes, as createdelete's do.
 *
 *   andrew [-p sync|delayed|writethrough|nfs|sprite] [-s SRC]
 */
#include "user.h"
#include "bench.h"
#include "fsutil.h"

#define DST "/tmp/andrew"

static char buf[8192];
static unsigned int nfiles, nbytes;

static void die(const char *what, const char *path)
{
    fprintf(2, "andrew: %s %s: %s\n", what, path, strerror(errno));
    exit(1);
}

static int is_dot(const char *name)
{
    return name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0));
}

static void copy_file(const char *from, const char *to)
{
    int in = open(from, O_RDONLY);
    if (in < 0)
        die("open", from);
    int out = open(to, O_CREAT | O_TRUNC | O_WRONLY);
    if (out < 0)
        die("create", to);
    int n;
    while ((n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, n) != n)
            die("write", to);
    if (n < 0)
        die("read", from);
    close(in);
    close(out);
}

/* Call fn(path, is_dir) for everything under dir, in directory order;
 * a directory before what it holds. */
static void walk(const char *dir, void (*fn)(const char *path, int is_dir, void *arg), void *arg)
{
    int fd = open(dir, O_RDONLY);
    if (fd < 0)
        die("open", dir);
    struct dirent de;
    char path[MAXPATH];
    struct stat st;
    while (readdir(fd, &de) == 1) {
        if (is_dot(de.d_name))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, de.d_name);
        if (stat(path, &st) < 0)
            die("stat", path);
        fn(path, S_ISDIR(st.st_mode), arg);
        if (S_ISDIR(st.st_mode))
            walk(path, fn, arg);
    }
    close(fd);
}

/* ---- the copy phase ---- */

static const char *src_root;

static void copy_one(const char *path, int is_dir, void *arg)
{
    char to[MAXPATH];
    snprintf(to, sizeof to, "%s%s", DST, path + strlen(src_root));
    if (is_dir) {
        if (mkdir(to) < 0)
            die("mkdir", to);
    } else {
        copy_file(path, to);
        nfiles++;
    }
}

static void stat_one(const char *path, int is_dir, void *arg)
{
    struct stat st;
    if (stat(path, &st) < 0)
        die("stat", path);
    if (!is_dir)
        nbytes += st.st_size;
}

static void read_one(const char *path, int is_dir, void *arg)
{
    if (is_dir)
        return;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        die("open", path);
    while (read(fd, buf, sizeof buf) > 0)
        ;
    close(fd);
}

static void copy_phase(void)
{
    if (mkdir(DST) < 0)
        die("mkdir", DST);
    walk(src_root, copy_one, 0);
    walk(DST, stat_one, 0);
    walk(DST, read_one, 0);
}

/* ---- the compile phase ---- */

static int run(char *argv[])
{
    int pid = fork();
    if (pid < 0)
        die("fork", argv[0]);
    if (pid == 0) {
        exec(argv[0], argv);
        fprintf(2, "andrew: exec %s: %s\n", argv[0], strerror(errno));
        exit(127);
    }
    int status;
    while (wait(&status) != pid)
        ;
    return status;
}

static int objlist = -1;

/* Compile each .c file in its own directory, as make in that directory
 * would, with the shared headers from ../include. */
static void compile_one(const char *path, int is_dir, void *arg)
{
    int len = (int)strlen(path);
    if (is_dir || len < 2 || strcmp(path + len - 2, ".c") != 0)
        return;
    const char *slash = strchr(path + strlen(DST) + 1, '/');
    char dir[MAXPATH], obj[MAXPATH], *src = (char *)slash + 1;
    snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    snprintf(obj, sizeof obj, "%.*so", (int)strlen(src) - 1, src);
    if (chdir(dir) < 0)
        die("chdir", dir);
    char *argv[] = { "/bin/cc", "-I", "../include", "-o", obj, src, 0 };
    if (run(argv) != 0) {
        fprintf(2, "andrew: cc %s failed\n", path);
        exit(1);
    }
    /* The object's name for ld, which runs in DST. */
    fprintf(objlist, "%s/%s\n", dir + strlen(DST) + 1, obj);
}

static void compile_phase(void)
{
    objlist = open(DST "/objects", O_CREAT | O_TRUNC | O_WRONLY);
    if (objlist < 0)
        die("create", DST "/objects");
    walk(DST, compile_one, 0);
    close(objlist);
    if (chdir(DST) < 0)
        die("chdir", DST);
    char *argv[] = { "/bin/ld", "-o", "prog", "@objects", 0 };
    if (run(argv) != 0) {
        fprintf(2, "andrew: ld failed\n");
        exit(1);
    }
    chdir("/");
}

/* ---- timing and reporting ---- */

static void report(const char *phase, int policy, struct bench_span *t, struct bench_span *e,
                   struct io_counts *io)
{
    char casename[32], fields[128], extra[200];
    snprintf(casename, sizeof casename, "%s-%s", phase, policy_name(policy));
    io_fields(fields, sizeof fields, policy, io);
    snprintf(extra, sizeof extra, "policy=%s %s files=%u kbytes=%u", policy_name(policy),
             fields, nfiles, nbytes / 1024);
    struct bench_result r = {
        .bench = "andrew", .casename = casename, .iters = 1,
        .ns = t->ns, .loop_ns = e->ns, .insns = t->insns, .loop_insns = e->insns,
        .extra = extra,
    };
    bench_report(&r);
}

static void one_run(int k, int policy)
{
    struct io_counts io;
    struct bench_span t, e;
    rm_tree(DST);                               /* left over from a failed run */
    if (policy_set(policy) < 0)                 /* writes whatever is dirty */
        die("fsctl", "policy");
    nfiles = nbytes = 0;

    io_snap(&io);
    bench_span_begin(&t, BENCH_TIMED(k));
    copy_phase();
    bench_span_end(&t, BENCH_TIMED(k));
    io_since(&io);
    bench_span_begin(&e, BENCH_EMPTY(k));
    bench_span_end(&e, BENCH_EMPTY(k));
    report("copy", policy, &t, &e, &io);

    io_snap(&io);
    bench_span_begin(&t, BENCH_TIMED(k + 1));
    compile_phase();
    bench_span_end(&t, BENCH_TIMED(k + 1));
    io_since(&io);
    bench_span_begin(&e, BENCH_EMPTY(k + 1));
    bench_span_end(&e, BENCH_EMPTY(k + 1));
    report("compile", policy, &t, &e, &io);

    if (rm_tree(DST) < 0)
        die("remove", DST);
}

int main(int argc, char *argv[])
{
    int only = -1;
    src_root = "/src";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-p") == 0 && i + 1 < argc && policy_by_name(argv[i + 1]) >= 0)
            only = policy_by_name(argv[++i]);
        else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
            src_root = argv[++i];
        else {
            fprintf(2, "usage: andrew [-p sync|delayed|writethrough|nfs|sprite] [-s SRC]\n");
            return 2;
        }
    }
    /* Warm-up, untimed: a clean cache, and the source tree, compiler and
     * linker read once, so that every policy's run starts with them in the
     * cache (the first would otherwise also pay for reading them from the
     * disk). */
    sync();
    walk(src_root, read_one, 0);
    read_one("/bin/cc", 0, 0);
    read_one("/bin/ld", 0, 0);

    int before = policy_get();
    static const int policies[] = { POLICY_SYNC, POLICY_DELAYED, POLICY_WRITETHROUGH };
    int k = 1;
    for (int p = 0; p < 3; p++) {
        if (only >= 0 && p > 0)
            break;
        one_run(k, only >= 0 ? only : policies[p]);   /* -p: that one alone */
        k += 2;
    }
    policy_set(before);
    return 0;
}
