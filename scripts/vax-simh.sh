#!/usr/bin/env bash
# Build our SIMH VAX simulator: Debian bookworm's simh 3.8.1 source with the
# project's patch (hw-models/simh/vax-model.patch) and the hardware model:
# the engine (hw-models/core/) and its SIMH side (hw-models/simh/*.c),
# copied into SIMH's tree as VAX/hwmodel/.  Run by `make ARCH=vax` when
# missing.
#
#   scripts/vax-simh.sh          build unless already built
#   scripts/vax-simh.sh --path   print where the simulator binary is (or goes)
#
# The result is a MicroVAX 3900 (KA655) like Debian's /usr/bin/vax, whose
# interval timers count instructions exactly (deterministic runs), which
# understands our XFC markers and which carries the hardware model.  It is
# installed as $OUSTERHOUT_CACHE/simh/<hash>/vax (default ~/.cache/ousterhout),
# where <hash> is that of the sources above: so each version of them gets its
# own binary, and checkouts at different commits never overwrite each other's
# (harness/guest/machines.py asks this script for the path).  About 10 s.  SIMH's
# code is never committed: Debian's source archive provides it.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/scripts/lib.sh"                # CACHE, bookworm_sources
TOP=$CACHE/simh                   # the source tarball, shared by every version
PATCH=$ROOT/hw-models/simh/vax-model.patch
MODEL_SRCS=("$ROOT"/hw-models/core/*.[ch] "$ROOT"/hw-models/core/*.def "$ROOT"/hw-models/simh/*.c)
hash=$(cat "$PATCH" "${MODEL_SRCS[@]}" | sha256sum | cut -c1-16)
DEST=$TOP/$hash
BIN=$DEST/vax
LOG=$DEST/build.log
WORK=$DEST/build

if [ "${1:-}" = --path ]; then echo "$BIN"; exit 0; fi
if [ -x "$BIN" ]; then
    touch "$BIN"            # newer than its sources, for make
    exit 0
fi

mkdir -p "$DEST"
: > "$LOG"
fail() {
    echo "vax-simh: FAILED; last lines of $LOG:" >&2
    tail -n 20 "$LOG" >&2
    exit 1
}
trap fail ERR

echo "vax-simh: building the patched SIMH VAX simulator"
# The source: Debian's orig tarball.  apt-get also wants the .diff.gz, which
# the mirror may not have (404): tolerate that and check for the tarball.
tarball=$(ls "$TOP"/simh_3.8.1.orig.tar.* 2>/dev/null | head -1 || true)
if [ -z "$tarball" ]; then
    bookworm_sources >> "$LOG" 2>&1
    (cd "$TOP" && apt-get source --download-only simh/bookworm >> "$LOG" 2>&1) || true
    tarball=$(ls "$TOP"/simh_3.8.1.orig.tar.* 2>/dev/null | head -1 || true)
    [ -n "$tarball" ] || { echo "simh_3.8.1.orig tarball did not download" >> "$LOG"; false; }
fi

rm -rf "$WORK"
mkdir -p "$WORK"
tar xf "$tarball" -C "$WORK" --strip-components=1
cd "$WORK"
# SIMH's sources have CRLF line endings; our patch is plain LF.
sed -i 's/\r$//' makefile scp.c VAX/*.[ch] sim_ether.[ch] PDP11/pdp11_xq.[ch]
patch -p1 < "$PATCH" >> "$LOG" 2>&1
mkdir -p VAX/hwmodel
cp "${MODEL_SRCS[@]}" VAX/hwmodel/
mkdir -p BIN
make vax CC='gcc -std=gnu99 -U__STRICT_ANSI__ -O2 -D_GNU_SOURCE -I .' LDFLAGS='-lm -lrt' >> "$LOG" 2>&1
install -m 755 BIN/vax "$BIN.tmp"
mv "$BIN.tmp" "$BIN"                 # appears whole, or not at all
cd / && rm -rf "$WORK"
echo "vax-simh: installed $BIN"
