#!/usr/bin/env bash
# Build the project's QEMU, which two machines on the modelled Ethernet run
# (docs/network.md, "Why QEMU is patched"): QEMU 10.0.2 from Debian's
# source archive (the release the installed qemu-system-* packages are)
# with hw-models/qemu/qemu-wire.patch, which lets the model's plugin hand a
# frame to the card from the vCPU's own thread (qemu_plugin_net_receive)
# and lets virtio-net send inside the guest's notify (tx=sync).  One-machine
# runs use Debian's QEMU; only the wire needs this one.
#
#   scripts/qemu-wire.sh          build unless already built
#   scripts/qemu-wire.sh --path   print the directory its qemu-system-* go in
#
# It builds the emulators the ISA registry (harness/guest/machines.py) puts
# on the wire, into $OUSTERHOUT_CACHE/qemu/<hash>/ (default
# ~/.cache/ousterhout), where <hash> is that of the patch and this script:
# each version gets its own, and checkouts at different commits never
# overwrite each other's.  About 4 minutes on two cores, once; QEMU's code
# is never committed.  Firmware is Debian's (qemu-system-data, seabios,
# openbios), found where Debian's QEMU finds it.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/scripts/lib.sh"                # CACHE, SUDO, qemu_source_tarball
TOP=$CACHE/qemu
PATCH=$ROOT/hw-models/qemu/qemu-wire.patch
hash=$(cat "$PATCH" "$0" | sha256sum | cut -c1-16)
DEST=$TOP/$hash
LOG=$DEST/build.log
WORK=$DEST/build

if [ "${1:-}" = --path ]; then echo "$DEST/bin"; exit 0; fi

# The emulators to build: QEMU's target names (riscv32-softmmu ...) of the
# registry's machines on the wire.
targets=$(cd "$ROOT" && python3 -c 'from harness.guest import machines
print(" ".join(machines.wire_qemu_targets()))')

built() {
    local t
    for t in $targets; do [ -x "$DEST/bin/qemu-system-$t" ] || return 1; done
}
if built; then exit 0; fi

mkdir -p "$TOP"
exec 9> "$TOP/.lock"                    # two test workers: one builds, one waits
flock 9
if built; then exit 0; fi

mkdir -p "$DEST"
: > "$LOG"
fail() {
    echo "qemu-wire: FAILED; last lines of $LOG:" >&2
    tail -n 20 "$LOG" >&2
    exit 1
}
trap fail ERR

echo "qemu-wire: building QEMU $QEMU_VERSION with the wire's patch for $targets (about 4 minutes on two cores, once)"

# What QEMU's build wants beyond the project's other packages: ninja, the
# device-tree library (the RISC-V board), and meson 1.5 or newer with
# pycotap, which Debian 12 does not have: a virtual environment of their
# own from PyPI.
need=()
for p in ninja-build libfdt-dev bzip2; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
    echo "qemu-wire: installing ${need[*]}"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >> "$LOG" 2>&1
fi
VENV=$TOP/venv
if [ ! -x "$VENV/bin/meson" ]; then
    python3 -m venv "$VENV" >> "$LOG" 2>&1
    "$VENV/bin/pip" install -q meson==1.7.0 pycotap==1.3.1 >> "$LOG" 2>&1
fi

tarball=$(qemu_source_tarball)
rm -rf "$WORK"
mkdir -p "$WORK/src" "$WORK/obj"
tar xf "$tarball" -C "$WORK/src" --strip-components=1
cd "$WORK/src"
patch -p1 < "$PATCH" >> "$LOG" 2>&1
# Debian's tarball has no firmware blobs, which QEMU's build unpacks for
# the x86 targets whatever it installs: empty ones stand in (never used:
# firmware comes from Debian's packages).
for f in $(sed -n "/fds = \[/,/\]/s/.*'\(edk2-[^']*\)'.*/\1/p" pc-bios/meson.build); do
    [ -e "pc-bios/$f.bz2" ] || bzip2 < /dev/null > "pc-bios/$f.bz2"
done

cd "$WORK/obj"
"$WORK/src/configure" --python="$VENV/bin/python3" \
    --target-list="$(for t in $targets; do printf '%s-softmmu,' "$t"; done | sed 's/,$//')" \
    --without-default-features --enable-plugins --enable-fdt=system \
    --disable-docs --disable-werror --disable-debug-info --disable-install-blobs \
    --firmwarepath=/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu >> "$LOG" 2>&1
ninja -j"$(nproc)" $(for t in $targets; do printf 'qemu-system-%s ' "$t"; done) >> "$LOG" 2>&1

mkdir -p "$DEST/bin.tmp"
for t in $targets; do install -m 755 "qemu-system-$t" "$DEST/bin.tmp/"; done
rm -rf "$DEST/bin"
mv "$DEST/bin.tmp" "$DEST/bin"          # appears whole, or not at all
cd / && rm -rf "$WORK"
echo "qemu-wire: installed $DEST/bin"
