/*
 * sh: the shell.  Prints the prompt "$ ", reads one line, splits it into
 * words at blanks, and runs the first word as a program with the words as
 * its arguments (fork, exec, wait).  No quoting, pipes or redirection.
 *
 * The kernel's console does the line editing and echo, so a read() of fd 0
 * returns a whole line.  Program lookup is the kernel's business: exec gets
 * the word as typed (and looks a bare name up in /bin).  The harness waits for the prompt (docs/protocol.md),
 * so the prompt is printed exactly as "$ ", with nothing after it.
 *
 * Built-in commands: cd, exit, halt, help.
 */
#include "user.h"

#define LINEMAX 256

/* Read one line (without its newline) into buf.  Returns its length, or
 * -1 at end of input with nothing read.  The console hands over one line
 * per read(), but whatever follows a newline in the same read is kept for
 * the next call rather than lost (e.g. input pasted or piped in). */
static char pending[LINEMAX];
static int npending;

static int getline(char *buf, int size)
{
    int n = 0;
    for (;;) {
        /* Take characters from `pending` up to a newline. */
        int i = 0;
        while (i < npending && pending[i] != '\n' && pending[i] != '\r')
            i++;
        int take = i < size - 1 - n ? i : size - 1 - n;
        memcpy(buf + n, pending, take);
        n += take;
        if (i < npending || n == size - 1) {
            /* found a newline (drop it), or the line is too long:
             * the rest of a long line becomes the next line */
            int used = i < npending && take == i ? i + 1 : take;
            if (used == i + 1 && pending[i] == '\r' && used < npending &&
                pending[used] == '\n')
                used++;         /* CR LF is one line end */
            memmove(pending, pending + used, npending - used);
            npending -= used;
            break;
        }
        npending = 0;
        int r = read(0, pending, sizeof(pending));
        if (r <= 0) {
            if (n == 0)
                return -1;
            break;              /* a last line without a newline */
        }
        npending = r;
    }
    buf[n] = '\0';
    return n;
}

/* Split line into words in place; argv is NULL-terminated.  Returns the
 * number of words, or -1 if there are too many for exec. */
static int split(char *line, char *argv[])
{
    int argc = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            *p++ = '\0';
        if (*p == '\0')
            break;
        if (argc == MAXARG)
            return -1;
        argv[argc++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
    }
    argv[argc] = NULL;
    return argc;
}

static void help(void)
{
    printf("built-in commands: cd DIR, exit [STATUS], halt, help\n"
           "programs: `ls /bin` lists them; a name without '/' runs /bin/NAME\n");
}

/* Run a built-in command.  Returns 1 if argv[0] was one. */
static int builtin(int argc, char *argv[])
{
    if (strcmp(argv[0], "cd") == 0) {
        if (argc != 2)
            fprintf(2, "usage: cd DIR\n");
        else if (chdir(argv[1]) < 0)
            fprintf(2, "sh: cd %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    if (strcmp(argv[0], "exit") == 0)
        exit(argc > 1 ? atoi(argv[1]) : 0);
    if (strcmp(argv[0], "halt") == 0) {
        halt();
        fprintf(2, "sh: halt: %s\n", strerror(errno));
        return 1;
    }
    if (strcmp(argv[0], "help") == 0) {
        help();
        return 1;
    }
    return 0;
}

static void run(char *argv[])
{
    int pid = fork();
    if (pid < 0) {
        fprintf(2, "sh: fork: %s\n", strerror(errno));
        return;
    }
    if (pid == 0) {
        exec(argv[0], argv);
        if (errno == ENOENT)
            fprintf(2, "sh: %s: not found\n", argv[0]);
        else
            fprintf(2, "sh: %s: not found (%s)\n", argv[0], strerror(errno));
        exit(127);
    }

    /* Wait for this child; any other child that exits meanwhile (there
     * should be none) is reaped and forgotten. */
    int status, w;
    while ((w = wait(&status)) != pid) {
        if (w < 0) {
            fprintf(2, "sh: wait: %s\n", strerror(errno));
            return;
        }
    }
    if (status == WSTATUS_KILLED)
        fprintf(2, "sh: %s killed\n", argv[0]);
}

int main(int argc, char *argv[])
{
    static char line[LINEMAX];
    char *args[MAXARG + 1];

    for (;;) {
        fputs("$ ", 1);
        if (getline(line, sizeof(line)) < 0)
            break;              /* end of input: leave like `exit` */
        int n = split(line, args);
        if (n < 0) {
            fprintf(2, "sh: too many arguments (at most %d)\n", MAXARG);
            continue;
        }
        if (n == 0 || builtin(n, args))
            continue;
        run(args);
    }
    return 0;
}
