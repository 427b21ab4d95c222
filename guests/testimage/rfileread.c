/*
 * rfileread: /bin/measure with 002's remote file read compiled in
 * (`fileread -m` and `-e LABEL`: cmd_fileread_made in guests/bin/measure.c),
 * for harness/rfs/fileread.py, which boots the tests' image.  The
 * benchmarks' image keeps its /bin/measure unchanged to the byte: a bigger
 * measure would move every file that follows it on the disk, and with them
 * the local suite's file benchmarks (docs/measure.md, "Remote file read").
 *
 *   rfileread fileread -k KB -m          make the files, empty the cache
 *   rfileread fileread -k KB -e LABEL    read them: seq-LABEL, random-LABEL
 */
#define MEASURE_FILES_MADE 1
#include "../bin/measure.c"
