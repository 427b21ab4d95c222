/*
 * replay.c: the frames of one node of a pair, written down and played
 * again (replay.h says why and what "when" means here).
 *
 * The file: REPLAY_MAGIC (16 bytes), then records, each a byte that says
 * which and its fields, little-endian as on the hosts this runs on:
 *   'J'  the time the machine went on from when it joined the wire
 *        (uint64): the later of the two machines' joining times, which
 *        the one replayed alone could not know;
 *   'F'  a frame the guest was handed, in the order it was: its epoch
 *        (uint32), its length (uint32), its arrival less its epoch's
 *        anchor (int64, the model's time unit), the console characters
 *        the guest had taken by then (uint64: a frame never goes in before
 *        them), and its bytes.
 * A recording is only good for the same kernel, profile and program on
 * the same front end: nothing in it says which (the harness keeps it
 * beside the run that made it).
 */
#include <stdio.h>
#include <string.h>

#include "replay.h"
#include "wire.h"

#define REPLAY_MAGIC "ousterhout-rply"          /* 16 bytes with its NUL */

static struct {
    FILE *f;
    bool play;
    uint32_t epoch;
    uint64_t anchor;
    bool woke;                          /* a console wake (or the join) since the last send */
    bool active;                        /* a frame sent or taken since the last wake */
    /* Playing: the next frame's record, read ahead. */
    bool have;
    uint32_t r_epoch, r_len;
    int64_t r_off;
    uint64_t r_typed;
    uint64_t joined;                    /* the recording's 'J' */
    uint8_t r_data[WIRE_FRAME_MAX];
} R;

static bool read_ahead(void);

static const char *open_file(const char *path, const char *mode)
{
    static char msg[300];
    memset(&R, 0, sizeof(R));
    R.f = fopen(path, mode);
    if (!R.f) {
        snprintf(msg, sizeof(msg), "wire_%s: cannot open %s", *mode == 'w' ? "record" : "replay",
                 path);
        return msg;
    }
    return NULL;
}

const char *replay_record(const char *path)
{
    const char *err = open_file(path, "wb");
    if (!err && fwrite(REPLAY_MAGIC, 1, sizeof(REPLAY_MAGIC), R.f) != sizeof(REPLAY_MAGIC))
        err = "wire_record: cannot write";
    return err;
}

const char *replay_play(const char *path)
{
    static char msg[300];
    const char *err = open_file(path, "rb");
    if (err)
        return err;
    char magic[sizeof(REPLAY_MAGIC)];
    if (fread(magic, 1, sizeof(magic), R.f) != sizeof(magic) ||
        memcmp(magic, REPLAY_MAGIC, sizeof(magic)) != 0) {
        snprintf(msg, sizeof(msg), "wire_replay: %s is not a recording (wire_record=)", path);
        fclose(R.f);
        R.f = NULL;
        return msg;
    }
    R.play = true;
    read_ahead();                       /* the 'J' that comes first, if any */
    return NULL;
}

bool replay_playing(void)
{
    return R.play;
}

void replay_close(void)
{
    if (R.f)
        fclose(R.f);
    R.f = NULL;
    R.have = false;
}

/* ------------------------------------------------------------ the anchor */

uint64_t replay_joined(uint64_t now)
{
    if (R.f && !R.play) {
        fputc('J', R.f);
        fwrite(&now, sizeof(now), 1, R.f);
    } else if (R.play && R.joined > now) {
        now = R.joined;
    }
    R.anchor = now;
    R.woke = true;
    return now;
}

void replay_console_wake(uint64_t now)
{
    if (R.active) {
        R.epoch++;
        R.active = false;
    }
    R.anchor = now;
    R.woke = true;
}

void replay_sent(uint64_t now)
{
    if (R.woke) {
        R.epoch++;
        R.anchor = now;
        R.woke = false;
    }
    R.active = true;
}

/* ------------------------------------------------------------ recording */

void replay_taken(uint64_t t_arr, const uint8_t *frame, uint32_t len, uint64_t typed)
{
    R.active = true;
    if (!R.f || R.play)
        return;
    int64_t off = (int64_t)(t_arr - R.anchor);
    fputc('F', R.f);
    fwrite(&R.epoch, sizeof(R.epoch), 1, R.f);
    fwrite(&len, sizeof(len), 1, R.f);
    fwrite(&off, sizeof(off), 1, R.f);
    fwrite(&typed, sizeof(typed), 1, R.f);
    fwrite(frame, 1, len, R.f);
}

/* ------------------------------------------------------------ playing */

static bool read_ahead(void)
{
    if (R.have)
        return true;
    if (!R.f || !R.play)
        return false;
    int kind;
    while ((kind = fgetc(R.f)) == 'J')
        if (fread(&R.joined, sizeof(R.joined), 1, R.f) != 1)
            return false;
    if (kind != 'F' || fread(&R.r_epoch, sizeof(R.r_epoch), 1, R.f) != 1 ||
        fread(&R.r_len, sizeof(R.r_len), 1, R.f) != 1 ||
        fread(&R.r_off, sizeof(R.r_off), 1, R.f) != 1 ||
        fread(&R.r_typed, sizeof(R.r_typed), 1, R.f) != 1 || R.r_len > WIRE_FRAME_MAX ||
        fread(R.r_data, 1, R.r_len, R.f) != R.r_len)
        return false;                   /* the end (or a record cut short: the end too) */
    R.have = true;
    return true;
}

uint64_t replay_next(uint64_t typed)
{
    if (!read_ahead() || R.r_epoch > R.epoch || (R.r_epoch == R.epoch && typed < R.r_typed))
        return WIRE_NEVER;
    if (R.r_epoch < R.epoch)            /* the run has gone another way: due at once */
        return 0;
    int64_t t = (int64_t)R.anchor + R.r_off;
    return t < 0 ? 0 : (uint64_t)t;
}

uint32_t replay_take(const uint8_t **frame)
{
    *frame = R.r_data;
    R.have = false;
    R.active = true;
    return R.r_len;
}
