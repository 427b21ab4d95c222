/*
 * The console as a file (descriptors 0, 1 and 2 of every process).
 *
 * Output goes character by character to the ISA's console device.  Input
 * arrives one character per call to console_intr() from the device's
 * interrupt handler, and is edited a line at a time the way a UNIX terminal
 * in "cooked" mode does: echo, backspace, ^U to erase the line, ^D for end
 * of file.  read() returns once a whole line (or ^D) is there.
 *
 * ^C interrupts: it throws away whatever was typed and not yet read, makes
 * a read() that is waiting return EINTR (so a shell at its prompt prints a
 * fresh one), and kills the foreground process group, the job the shell
 * is waiting for (tcsetpgrp; proc.c has the groups).  With no foreground
 * group (0, the shell at its prompt) it kills nothing.  There are no signal
 * handlers: an interrupted program ends as a killed one does (wait() gives
 * WSTATUS_KILLED).
 *
 * The receive interrupt is on only while input is wanted: while a process
 * sleeps in read() for it, or while a foreground job runs (its ^C, and
 * whatever it reads).  At other times, which are the shell's between
 * commands (after tcsetpgrp(0), printing the prompt, on its way to read()),
 * a typed character waits in the device.  Why: whatever the moment it is
 * typed, it is then taken at the same point, in the idle loop once the
 * shell sleeps in read(), and the guest runs the same code in the same
 * order every time.  Taken at once, as it was before, the first key of a
 * command, sent as soon as the prompt appears, interrupted the shell in
 * user mode between its write() and read() in some runs and found it
 * asleep in others; the caches a hardware model keeps then held different
 * lines when the command started, and its first iterations missed
 * differently (hw-models/README.md, "Is a model deterministic?").
 */
#include "kernel.h"
#include "proc.h"
#include "file.h"

#define CTRL(c) ((c) - '@')

static struct {
    char buf[CONSBUF];
    uint32 r;        /* next character read() returns        */
    uint32 w;        /* end of the completed lines           */
    uint32 e;        /* end of the line being edited         */
    uint32 intrs;    /* ^Cs typed so far: a waiting read() sees it change */
    int fg;          /* foreground process group, 0 if none  */
    int readers;     /* processes asleep in console_read()   */
    int rx_on;       /* the receive interrupt is on          */
} cons;

/* The receive interrupt on while input is wanted (see the top). */
static void rx_update(void)
{
    int want = cons.readers > 0 || cons.fg != 0;
    if (want != cons.rx_on) {
        cons.rx_on = want;
        arch_console_rx(want);
    }
}

void console_putc(int c)
{
    if (c == '\n')
        arch_console_putc('\r');      /* terminals want CR LF */
    arch_console_putc(c);
}

static void echo_erase(void)
{
    console_putc('\b');
    console_putc(' ');
    console_putc('\b');
}

static void interrupt(void)
{
    console_putc('^');
    console_putc('C');
    console_putc('\n');
    cons.e = cons.w = cons.r;             /* discard the typed-ahead input */
    cons.intrs++;
    wakeup(&cons.r);
    if (cons.fg)
        proc_kill_group(cons.fg);
}

void console_intr(int c)
{
    switch (c) {
    case CTRL('C'):
        interrupt();
        break;
    case CTRL('U'):
        while (cons.e != cons.w && cons.buf[(cons.e - 1) % CONSBUF] != '\n') {
            cons.e--;
            echo_erase();
        }
        break;
    case '\b':
    case 0x7f:
        if (cons.e != cons.w) {
            cons.e--;
            echo_erase();
        }
        break;
    default:
        if (c == 0 || cons.e - cons.r >= CONSBUF)
            break;                        /* buffer full: drop it */
        if (c == '\r')
            c = '\n';
        if (c != CTRL('D'))
            console_putc(c);
        cons.buf[cons.e++ % CONSBUF] = (char)c;
        if (c == '\n' || c == CTRL('D') || cons.e - cons.r == CONSBUF) {
            cons.w = cons.e;              /* a line is complete */
            wakeup(&cons.r);
            select_wakeup();
        }
    }
}

static int console_read(struct file *f, uaddr ubuf, uint32 n)
{
    uint32 done = 0, intrs = cons.intrs;
    while (cons.r == cons.w) {
        if (curproc->killed || cons.intrs != intrs)
            return -EINTR;
        cons.readers++;
        rx_update();
        sleep(&cons.r);
        cons.readers--;
        rx_update();
    }
    while (done < n && cons.r != cons.w) {
        char c = cons.buf[cons.r % CONSBUF];
        if (c == CTRL('D')) {
            if (done == 0)
                cons.r++;                 /* ^D alone: end of file, read 0 */
            break;
        }
        cons.r++;
        if (copyout(ubuf + done, &c, 1) < 0)
            return done ? (int)done : -EFAULT;
        done++;
        if (c == '\n')
            break;
    }
    return done;
}

static int console_write(struct file *f, uaddr ubuf, uint32 n)
{
    char chunk[128];
    for (uint32 done = 0; done < n;) {
        uint32 len = n - done < sizeof chunk ? n - done : sizeof chunk;
        if (copyin(chunk, ubuf + done, len) < 0)
            return done ? (int)done : -EFAULT;
        for (uint32 i = 0; i < len; i++)
            console_putc(chunk[i]);
        done += len;
    }
    return n;
}

/* The console is the terminal of session 1, the first process's; a
 * session started by setsid() has none (proc.c). */
#define CONSOLE_SESSION 1

/* tcsetpgrp(fd, pgid): make group pgid the console's foreground, the one
 * ^C kills; 0 for none.  fd must be the console and the caller of its
 * session (else ENOTTY: the console is not its terminal, and it may not
 * choose what the console's ^C kills), the group one of that session. */
int32 sys_tcsetpgrp(const uint32 *arg)
{
    struct file *f = fd_get((int)arg[0]);
    int pgid = (int)arg[1];
    if (!f)
        return -EBADF;
    if (f != &console_file || curproc->sid != CONSOLE_SESSION)
        return -ENOTTY;
    if (pgid < 0)
        return -EINVAL;
    if (pgid && !proc_group_exists(pgid, curproc->sid))
        return -EPERM;
    cons.fg = pgid;
    rx_update();
    return 0;
}

static int console_readable(struct file *f) { return cons.r != cons.w; }
static int console_writable(struct file *f) { return 1; }

static const struct fileops console_ops = {
    .read = console_read, .write = console_write,
    .readable = console_readable, .writable = console_writable,
    .close = 0,                           /* the console never goes away */
};

struct file console_file = { .ops = &console_ops, .ref = 1, .readable = 1, .writable = 1 };

