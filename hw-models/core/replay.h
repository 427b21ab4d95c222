/*
 * replay.h: one machine of a two-machine run, again, alone (replay.c).
 *
 * Recording (wire_record=FILE), each node of a pair writes down the frames
 * its wire hands its guest, and when.  Replaying (wire_replay=FILE), one
 * machine runs on a wire whose peer is that file: the same frames reach
 * its guest at the same points of its execution, so it executes the same
 * instructions as it did in the pair, with no peer to keep in step with.
 * The lockstep's cost is the difference (harness/model/overhead.py); a
 * student can also take one machine of a network run alone under a
 * debugger.
 *
 * "When" cannot be the frame's time on the common timeline: a console
 * character wakes an idle machine at a time that depends on when the
 * other machine acknowledged it (wire.c, input_wake), and on how the
 * characters reached the guest, both host timing.  So a frame's time is
 * kept relative to an anchor that falls at the same point of the
 * machine's execution in both runs, and numbered by it (its epoch):
 *   - the machine's last console wake, while it has sent nothing since
 *     (a server idle in netd: the first frame wakes it);
 *   - else its first frame sent after that wake (a client that typed its
 *     command: every frame to it follows its first).
 * An epoch begins at the first console wake after anything was sent or
 * taken, and at the first frame sent after a console wake; further wakes
 * in a row (a line typed a character at a time) only move its anchor.
 * A frame of a later epoch than the machine's is not yet due.
 */
#ifndef HWMODEL_REPLAY_H
#define HWMODEL_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

/* Open FILE to write (record) or read (play); an error message or NULL. */
const char *replay_record(const char *path);
const char *replay_play(const char *path);
bool replay_playing(void);
void replay_close(void);

/* The anchor's events (see the top), with the machine's time.  Joining:
 * the time to go on from (playing, the recording's). */
uint64_t replay_joined(uint64_t now);
void replay_console_wake(uint64_t now);
void replay_sent(uint64_t now);

/* Recording: a frame that arrived at t_arr was handed to the guest. */
void replay_taken(uint64_t t_arr, const uint8_t *frame, uint32_t len, uint64_t typed);

/* Playing: the next frame's arrival (UINT64_MAX: none, or not yet in
 * this epoch); and taking it, its bytes in *frame. */
uint64_t replay_next(uint64_t typed);
uint32_t replay_take(const uint8_t **frame);

#endif
