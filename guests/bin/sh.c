/*
 * sh: the shell.  Prints the prompt "$ ", reads one line and runs it:
 *
 *     prog [args] [< in] [> out | >> out] [| prog [args] ...] [&]
 *
 * Words are separated by blanks; the operators < > >> | & are words of
 * their own even without blanks around them ("ls>f").  No quoting, no
 * variables, no `;`.  `<` reads the standard input from a file, `>` writes
 * the standard output to a file (made empty first, or created), `>>` adds
 * to its end; `|` connects one program's standard output to the next one's
 * input (a pipeline); `&` at the end runs the line without waiting for it.
 *
 * A line is a job.  Its processes (fork, then exec) share a process group
 * of their own, and while the shell waits for it that group is the
 * console's foreground group (setpgid, tcsetpgrp): Ctrl-C kills the job,
 * not the shell (kernel/port/console.c), and the shell says which programs
 * were killed.  At the prompt there is no foreground group, so Ctrl-C only
 * throws the typed line away and the shell prompts again.  When the
 * standard input is not the console (a script: `sh < file`), there is no
 * job control: everything stays in the shell's own group.
 *
 * The kernel's console does the line editing and echo, so a read() of fd 0
 * returns a whole line.  Program lookup is the kernel's business: exec gets
 * the word as typed (and looks a bare name up in /bin).  The harness waits
 * for the prompt (docs/protocol.md), so the prompt is printed exactly as
 * "$ ", with nothing after it.
 *
 * Built-in commands: cd, exit, halt, help.
 */
#include "user.h"

#define LINEMAX 256
#define MAXCMDS 8               /* programs in one pipeline */
#define MAXBG   16              /* background processes remembered */

/* One program of a pipeline, with its redirections. */
struct cmd {
    char *argv[MAXARG + 1];
    int argc;
    char *in;                   /* < file, or NULL */
    char *out;                  /* > or >> file, or NULL */
    int append;                 /* >> rather than > */
};

struct job {
    struct cmd cmd[MAXCMDS];
    int ncmds;
    int background;             /* & */
};

static int jobcontrol;          /* stdin is the console: jobs get groups */
static int bg[MAXBG];           /* pids running in the background */

/* Read one line (without its newline) into buf.  Returns its length; -1 at
 * end of input with nothing read; -2 if ^C threw the line away.  The
 * console hands over one line per read(), but whatever follows a newline
 * in the same read is kept for the next call rather than lost (e.g. input
 * pasted or piped in). */
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
        if (r < 0 && errno == EINTR)
            return -2;          /* ^C: the console already echoed it */
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

/* ---------------------------------------------------------------- parsing */

static int is_op(char c)
{
    return c == '<' || c == '>' || c == '|' || c == '&';
}

/* Split line into words, copied NUL-terminated into store (which must be
 * twice the line's size: every character may need a NUL after it; and
 * word[] as long as the line).  Returns the number of words. */
static int words(const char *line, char *store, char *word[])
{
    int n = 0;
    const char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0')
            return n;
        word[n++] = store;
        if (p[0] == '>' && p[1] == '>')
            *store++ = *p++;
        if (is_op(*p))
            *store++ = *p++;
        else
            while (*p && *p != ' ' && *p != '\t' && !is_op(*p))
                *store++ = *p++;
        *store++ = '\0';
    }
}

static int syntax(const char *what)
{
    fprintf(2, "sh: syntax error: %s\n", what);
    return -1;
}

/* Words into a job.  Returns 0, or -1 after saying what is wrong. */
static int parse(char *word[], int nwords, struct job *j)
{
    memset(j, 0, sizeof *j);
    struct cmd *c = &j->cmd[0];
    j->ncmds = 1;
    for (int i = 0; i < nwords; i++) {
        char *w = word[i];
        if (strcmp(w, "|") == 0) {
            if (c->argc == 0)
                return syntax("no program before |");
            if (j->ncmds == MAXCMDS) {
                fprintf(2, "sh: at most %d programs in a pipeline\n", MAXCMDS);
                return -1;
            }
            c = &j->cmd[j->ncmds++];
        } else if (strcmp(w, "&") == 0) {
            if (i != nwords - 1)
                return syntax("& must end the line");
            j->background = 1;
        } else if (strcmp(w, "<") == 0 || strcmp(w, ">") == 0 || strcmp(w, ">>") == 0) {
            char *file = i + 1 < nwords ? word[i + 1] : 0;
            if (!file || is_op(file[0])) {
                fprintf(2, "sh: syntax error: no file name after %s\n", w);
                return -1;
            }
            char **slot = w[0] == '<' ? &c->in : &c->out;
            if (*slot) {
                fprintf(2, "sh: syntax error: two %s redirections for one program\n",
                        w[0] == '<' ? "input" : "output");
                return -1;
            }
            *slot = file;
            if (w[0] == '>')
                c->append = w[1] == '>';
            i++;
        } else {
            if (c->argc == MAXARG) {
                fprintf(2, "sh: too many arguments (at most %d)\n", MAXARG);
                return -1;
            }
            c->argv[c->argc++] = w;
        }
    }
    if (c->argc == 0 && (j->ncmds > 1 || c->in || c->out || j->background))
        return syntax(j->ncmds > 1 ? "no program after |" : "no program to run");
    return 0;
}

/* ---------------------------------------------------------------- built-ins */

static void help(void)
{
    printf("built-in commands: cd DIR, exit [STATUS], halt, help\n"
           "programs: `ls /bin` lists them; a name without '/' runs /bin/NAME\n"
           "  prog < in    read the standard input from file in\n"
           "  prog > out   write the standard output to file out (>> adds to its end)\n"
           "  a | b        a's output is b's input\n"
           "  prog &       run without waiting\n"
           "Ctrl-C stops the running program; Ctrl-D at the prompt leaves the shell\n");
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

static int is_builtin(const char *name)
{
    return strcmp(name, "cd") == 0 || strcmp(name, "exit") == 0 ||
           strcmp(name, "halt") == 0 || strcmp(name, "help") == 0;
}

/* ---------------------------------------------------------------- running */

/* Make fd the descriptor `to` (0 or 1). */
static void move_fd(int fd, int to)
{
    if (fd != to) {
        dup2(fd, to);
        close(fd);
    }
}

/* Open the command's files onto descriptors 0 and 1.  -1 after a message. */
static int redirect(struct cmd *c)
{
    if (c->in) {
        int fd = open(c->in, O_RDONLY);
        if (fd < 0) {
            fprintf(2, "sh: cannot read %s: %s\n", c->in, strerror(errno));
            return -1;
        }
        move_fd(fd, 0);
    }
    if (c->out) {
        /* No O_APPEND in our kernel: >> seeks to the end once, which is
         * the same as long as nobody else writes the file meanwhile. */
        int fd = open(c->out, O_WRONLY | O_CREAT | (c->append ? 0 : O_TRUNC));
        if (fd < 0 || (c->append && lseek(fd, 0, SEEK_END) < 0)) {
            fprintf(2, "sh: cannot write %s: %s\n", c->out, strerror(errno));
            return -1;
        }
        move_fd(fd, 1);
    }
    return 0;
}

/* In the child: join the job's group (pgid 0: start it), take the pipe
 * ends as standard input and output, redirect, exec. */
static void child(struct cmd *c, int pgid, int in, int out, int other)
{
    if (jobcontrol)
        setpgid(0, pgid);
    if (other >= 0)
        close(other);               /* the next program's end of our pipe */
    if (in >= 0)
        move_fd(in, 0);
    if (out >= 0)
        move_fd(out, 1);
    if (redirect(c) < 0)
        exit(1);
    exec(c->argv[0], c->argv);
    if (errno == ENOENT)
        fprintf(2, "sh: %s: not found\n", c->argv[0]);
    else
        fprintf(2, "sh: %s: not found (%s)\n", c->argv[0], strerror(errno));
    exit(127);
}

/* A child the shell did not wait for by name was reaped: if it was a
 * background job's, say so. */
static void reaped_other(int pid, int status)
{
    for (int i = 0; i < MAXBG; i++)
        if (bg[i] == pid) {
            bg[i] = 0;
            if (status == WSTATUS_KILLED)
                printf("[%d] killed\n", pid);
            else
                printf("[%d] done, status %d\n", pid, status);
        }
}

static void remember_bg(int pid)
{
    for (int i = 0; i < MAXBG; i++)
        if (bg[i] == 0) {
            bg[i] = pid;
            return;
        }
}

static void run(struct job *j)
{
    int pid[MAXCMDS], n = 0, pgid = 0;
    int in = -1;                    /* read end of the pipe from the last program */
    for (int i = 0; i < j->ncmds; i++) {
        int p[2] = { -1, -1 };
        if (i < j->ncmds - 1 && pipe(p) < 0) {
            fprintf(2, "sh: pipe: %s\n", strerror(errno));
            break;
        }
        int k = fork();
        if (k < 0) {
            fprintf(2, "sh: fork: %s\n", strerror(errno));
            if (p[0] >= 0) {
                close(p[0]);
                close(p[1]);
            }
            break;
        }
        if (k == 0)
            child(&j->cmd[i], pgid, in, p[1], p[0]);
        /* Parent: the child joins the group too; whichever runs first. */
        if (!pgid)
            pgid = k;
        if (jobcontrol) {
            setpgid(k, pgid);
            if (i == 0 && !j->background)
                tcsetpgrp(0, pgid);
        }
        if (in >= 0)
            close(in);
        if (p[1] >= 0)
            close(p[1]);
        in = p[0];
        pid[n++] = k;
    }
    if (in >= 0)
        close(in);

    if (j->background) {
        if (n > 0)
            printf("[%d]\n", pgid);
        for (int i = 0; i < n; i++)
            remember_bg(pid[i]);
        return;
    }

    /* Wait for every program of the job. */
    for (int left = n; left > 0;) {
        int status, w = wait(&status);
        if (w < 0) {
            fprintf(2, "sh: wait: %s\n", strerror(errno));
            break;
        }
        int mine = 0;
        for (int i = 0; i < n; i++)
            if (pid[i] == w) {
                mine = 1;
                left--;
                if (status == WSTATUS_KILLED)
                    fprintf(2, "sh: %s killed\n", j->cmd[i].argv[0]);
            }
        if (!mine)
            reaped_other(w, status);
    }
    if (jobcontrol)
        tcsetpgrp(0, 0);            /* back at the prompt: no foreground job */
}

int main(int argc, char *argv[])
{
    static char line[LINEMAX], store[2 * LINEMAX];
    static struct job job;
    char *word[LINEMAX];

    /* Job control only on the console; and at the prompt, no foreground
     * job (a shell started from a shell takes over the console this way). */
    jobcontrol = tcsetpgrp(0, 0) == 0;

    for (;;) {
        fputs("$ ", 1);
        int len = getline(line, sizeof(line));
        if (len == -2)
            continue;           /* ^C at the prompt: a fresh one */
        if (len < 0)
            break;              /* end of input: leave like `exit` */
        int n = words(line, store, word);
        if (n == 0 || parse(word, n, &job) < 0)
            continue;
        struct cmd *c = &job.cmd[0];
        if (job.ncmds == 1 && is_builtin(c->argv[0])) {
            if (c->in || c->out || job.background)
                fprintf(2, "sh: %s is built in: it cannot be redirected or put "
                        "in the background\n", c->argv[0]);
            else
                builtin(c->argc, c->argv);
            continue;
        }
        run(&job);
    }
    return 0;
}
