/*
 * mips: an integer CPU benchmark, for rating a hardware model the way the
 * paper's Table 1 rates machines (MIPS, VAX-11/780 = 1).
 *
 * It is the calibration half of the hardware models (hw-models/README.md):
 * `python3 -m harness calibrate` fits each machine's CPI so that this
 * program runs at the machine's Table 1 rating.  So it should do what the
 * integer benchmarks of 1989 did (Dhrystone above all), without being any of
 * them: each iteration copies and updates small records through pointers,
 * copies and compares strings, indexes one- and two-dimensional arrays,
 * multiplies and divides a little, switches on a small enumeration, and calls
 * a handful of small functions that the compiler may not inline.  It stays
 * in a few KB of code and data, so it measures the processor, not memory.
 *
 * `mips -n N` runs N iterations (default 20000) and an empty loop of the
 * same count, and prints the protocol's RESULT line (bench=mips
 * case=integer); the harness turns it into a rating (harness/model/calibrate.py).
 * A final check of the computed values makes sure the work was really done.
 */
#include "user.h"
#include "bench.h"

#define NOINLINE __attribute__((noinline))

enum colour { RED, GREEN, BLUE, GREY };

struct record {
    struct record *next;
    enum colour colour;
    int count;
    int weight;
    char label[24];
};

static struct record rec_a, rec_b;
static int table[64];
static int grid[32][32];
static char text_a[40], text_b[40];
static int global_sum;

/* The next colour in a fixed cycle. */
static NOINLINE enum colour next_colour(enum colour c)
{
    switch (c) {
    case RED:   return GREEN;
    case GREEN: return BLUE;
    case BLUE:  return GREY;
    default:    return RED;
    }
}

/* Copy the record that r points to into its successor and change both. */
static NOINLINE void update_records(struct record *r, int i)
{
    struct record *n = r->next;
    struct record *keep = n->next;
    *n = *r;                            /* a whole-record copy, as Dhrystone did */
    n->next = keep;
    n->count = r->count + 1;
    n->colour = next_colour(r->colour);
    r->weight = (r->weight * 5 + i) % 1009;
}

/* Copy a string; return its length. */
static NOINLINE int copy_text(char *dst, const char *src)
{
    int n = 0;
    while ((dst[n] = src[n]) != '\0')
        n++;
    return n;
}

/* Compare two strings: <0, 0, >0. */
static NOINLINE int compare_text(const char *a, const char *b)
{
    while (*a != '\0' && *a == *b)
        a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

/* Some arithmetic on its arguments, with one multiply and one divide. */
static NOINLINE int arith(int x, int y, int *out)
{
    int p = x * 7 + y;
    int q = p / 3;
    *out = p - q * 3;                   /* p mod 3 */
    return q + (x > y ? x - y : y - x);
}

/* Walk a row of the grid and a stretch of the table. */
static NOINLINE int arrays(int i)
{
    int row = i & 31, col = (i >> 5) & 31;
    grid[row][col] += 1;
    grid[col][row] = grid[row][col] + table[i & 63];
    int s = 0;
    for (int k = 0; k < 8; k++)
        s += table[(i + k) & 63];
    table[i & 63] = s & 0xffff;
    return s;
}

static void setup(void)
{
    rec_a.next = &rec_b;
    rec_b.next = &rec_a;
    rec_a.colour = RED;
    rec_a.count = 0;
    rec_a.weight = 1;
    copy_text(rec_a.label, "RECORD NUMBER ONE");
    for (int i = 0; i < 64; i++)
        table[i] = i * 3;
    copy_text(text_a, "AN INTEGER BENCHMARK, STRING 1");
}

/* One iteration; returns a value that depends on all of it. */
static int iteration(int i)
{
    int rem, v = 0;
    update_records(&rec_a, i);
    update_records(&rec_b, i);
    v += copy_text(text_b, text_a);
    text_b[28] = (char)('0' + (i & 7));   /* differ near the end, as often */
    v += compare_text(text_a, text_b) < 0 ? 1 : 2;
    v += arith(i & 1023, v, &rem) + rem;
    v += arrays(i);
    if (rec_b.colour == BLUE && rec_a.count > rec_b.count)
        v++;
    return v;
}

static void usage(void)
{
    fprintf(2, "usage: mips [-n ITERATIONS]\n");
    exit(2);
}

int main(int argc, char *argv[])
{
    uint32_t n = 20000;
    for (int i = 1; i < argc; i++) {
        if (BENCH_ARG_N(argc, argv, i))
            n = atoi(argv[++i]);
        else
            usage();
    }

    setup();
    for (int i = 0; i < 100; i++)       /* warm-up: fault in and fill caches */
        global_sum += iteration(i);

    struct bench_span t, e;
    bench_span_begin(&t, BENCH_TIMED(1));
    for (uint32_t i = 0; i < n; i++) {
        global_sum += iteration((int)i);
        asm volatile("" : : "r"(i));
    }
    bench_span_end(&t, BENCH_TIMED(1));

    bench_span_begin(&e, BENCH_EMPTY(1));
    for (uint32_t i = 0; i < n; i++)
        asm volatile("" : : "r"(i));
    bench_span_end(&e, BENCH_EMPTY(1));

    /* The records swap places every iteration and count up. */
    if (rec_a.count + rec_b.count < (int)n || compare_text(rec_a.label, "RECORD NUMBER ONE") != 0) {
        fprintf(2, "mips: wrong results (counts %d %d)\n", rec_a.count, rec_b.count);
        exit(1);
    }

    struct bench_result r = {
        .bench = "mips", .casename = "integer", .iters = n, .bytes = 0,
        .ns = t.ns, .loop_ns = e.ns, .insns = t.insns, .loop_insns = e.insns,
    };
    bench_report(&r);
    return 0;
}
