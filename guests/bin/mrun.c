/*
 * mrun: run an M executable (the output of cc and ld, guests/include/mobj.h)
 * in an interpreter, and exit with what its main returned (its low byte).
 * It exists to test the compiler: the Andrew benchmark only compiles and
 * links, but t_cc runs what it compiled and checks the answers.
 *
 *   mrun FILE
 *
 * The machine: code words from address 0; data, then bss, then a 64 KB
 * stack, as bytes from DATA_BASE.  One stack holds both frames and
 * expression values, so a local's address is an ordinary pointer.  A call
 * pushes the arguments, then the return address and the caller's frame
 * pointer; the callee's parameters are at fp+8 upward (the last one
 * nearest), its locals below fp.  A bad address, a division by zero or more
 * than 200 million instructions stops the program with a message and
 * status 255.
 */
#include "user.h"
#include "mobj.h"

#define STACK   (64 * 1024)
#define MAXSTEPS 200000000u

static unsigned int *code, ncode;
static unsigned char *mem;              /* DATA_BASE .. DATA_BASE + memsize */
static unsigned int memsize;
static unsigned int pc, sp, fp;         /* sp and fp are addresses in mem */

static void fault(const char *why, unsigned int what)
{
    fprintf(2, "mrun: %s (0x%x) at pc %u\n", why, what, pc);
    exit(255);
}

static unsigned char *at(unsigned int addr, unsigned int n)
{
    if (addr < DATA_BASE || addr - DATA_BASE > memsize - n)
        fault("bad address", addr);
    return mem + (addr - DATA_BASE);
}

static unsigned int load(unsigned int addr)
{
    unsigned int v;
    memcpy(&v, at(addr, 4), 4);
    return v;
}

static void stor(unsigned int addr, unsigned int v)
{
    memcpy(at(addr, 4), &v, 4);
}

static void push(unsigned int v)
{
    sp -= 4;
    if (sp < DATA_BASE + memsize - STACK)
        fault("stack overflow", sp);
    stor(sp, v);
}

static unsigned int pop(void)
{
    unsigned int v = load(sp);
    sp += 4;
    return v;
}

static int run(unsigned int entry)
{
    pc = entry;
    push(0);                            /* main's return address: 0 = stop */
    push(0);                            /* the frame pointer before it */
    fp = sp;
    unsigned int steps = 0;
    for (;;) {
        if (++steps > MAXSTEPS)
            fault("too many instructions", steps);
        if (pc >= ncode)
            fault("pc outside the code", pc);
        unsigned int w = code[pc++];
        int arg = M_ARG(w);
        int a, b;
        switch (M_OP(w)) {
        case M_PUSHI:  push((unsigned int)arg); break;
        case M_PUSHW:  push(code[pc++]); break;
        case M_LOADL:  push(load(fp + arg)); break;
        case M_STOREL: stor(fp + arg, load(sp)); break;
        case M_ADDRL:  push(fp + arg); break;
        case M_LOADG:  push(load((unsigned int)arg)); break;
        case M_STOREG: stor((unsigned int)arg, load(sp)); break;
        case M_ADDRG:
        case M_ADDRD:  push((unsigned int)arg); break;
        case M_LOADW:  push(load(pop())); break;
        case M_LOADB:  push(*at(pop(), 1)); break;
        case M_STOREW: b = (int)pop(); a = (int)pop(); stor((unsigned int)a, (unsigned int)b);
                       push((unsigned int)b); break;
        case M_STOREB: b = (int)pop(); a = (int)pop(); *at((unsigned int)a, 1) = (unsigned char)b;
                       push((unsigned int)b); break;
        case M_DUP:    push(load(sp)); break;
        case M_POP:    pop(); break;
        case M_NEG:    push((unsigned int)-(int)pop()); break;
        case M_NOT:    push(!pop()); break;
        case M_BNOT:   push(~pop()); break;
        case M_JMP:    pc = (unsigned int)arg; break;
        case M_JZ:     if (!pop()) pc = (unsigned int)arg; break;
        case M_JNZ:    if (pop()) pc = (unsigned int)arg; break;
        case M_CALL:
            pc++;                       /* past the argument count */
            push(pc);
            push(fp);
            fp = sp;
            pc = (unsigned int)arg;
            break;
        case M_ENTER:
            sp -= (unsigned int)arg;
            if (sp < DATA_BASE + memsize - STACK)
                fault("stack overflow", sp);
            memset(at(sp, (unsigned int)arg), 0, (unsigned int)arg);
            break;
        case M_RET:
        case M_RETV: {
            unsigned int v = M_OP(w) == M_RETV ? pop() : 0;
            sp = fp;
            fp = pop();
            pc = pop();
            if (pc == 0)
                return (int)v;
            sp += 4 * code[pc - 1];     /* the caller's argument count */
            push(v);
            break;
        }
        default:
            b = (int)pop();
            a = (int)pop();
            switch (M_OP(w)) {
            case M_ADD: a += b; break;
            case M_SUB: a -= b; break;
            case M_MUL: a *= b; break;
            case M_DIV: if (!b) fault("division by zero", 0); a /= b; break;
            case M_MOD: if (!b) fault("division by zero", 0); a %= b; break;
            case M_AND: a &= b; break;
            case M_OR:  a |= b; break;
            case M_XOR: a ^= b; break;
            case M_SHL: a = (int)((unsigned int)a << (b & 31)); break;
            case M_SHR: a >>= (b & 31); break;
            case M_EQ:  a = a == b; break;
            case M_NE:  a = a != b; break;
            case M_LT:  a = a < b; break;
            case M_LE:  a = a <= b; break;
            case M_GT:  a = a > b; break;
            case M_GE:  a = a >= b; break;
            default:    fault("bad instruction", w);
            }
            push((unsigned int)a);
        }
    }
}

int main(int argc, char *argv[])
{
    if (argc != 2) {
        fprintf(2, "usage: mrun FILE\n");
        return 2;
    }
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0) {
        fprintf(2, "mrun: %s: %s\n", argv[1], strerror(errno));
        return 255;
    }
    char *buf = malloc(st.st_size);
    int got = 0, n;
    while (buf && got < (int)st.st_size && (n = read(fd, buf + got, st.st_size - got)) > 0)
        got += n;
    close(fd);
    struct mobj_header *h = (struct mobj_header *)buf;
    if (!buf || got < (int)sizeof *h || h->magic != MEXE_MAGIC ||
        sizeof *h + h->ncode * 4 + h->ndata != (unsigned int)got) {
        fprintf(2, "mrun: %s is not an M executable\n", argv[1]);
        return 255;
    }
    code = (unsigned int *)(buf + sizeof *h);
    ncode = h->ncode;
    memsize = h->ndata + h->nbss + STACK;
    mem = calloc(memsize, 1);
    if (!mem) {
        fprintf(2, "mrun: out of memory\n");
        return 255;
    }
    memcpy(mem, buf + sizeof *h + h->ncode * 4, h->ndata);
    sp = DATA_BASE + memsize;
    return run(h->entry) & 0xff;
}
