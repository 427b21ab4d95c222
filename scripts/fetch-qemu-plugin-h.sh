#!/usr/bin/env bash
# Put QEMU's plugin API header, qemu-plugin.h, at the path given as $1.
#
# No Debian package ships it, so take it from the QEMU source tarball in
# Debian's source archive (the same release as the installed QEMU, 10.0.2
# from bookworm-backports).  The header is QEMU's code (GPL-2.0-or-later):
# it is fetched at build time into build/ and never committed.
#
# The header is cached in the project's cache directory (scripts/lib.sh:
# ~/.cache/ousterhout/), from the tarball that scripts/lib.sh downloads once.
set -euo pipefail

. "$(dirname "$0")/lib.sh"              # CACHE, QEMU_VERSION, qemu_source_tarball
dest=${1:?usage: fetch-qemu-plugin-h.sh DEST/qemu-plugin.h}
cached=$CACHE/qemu-plugin-$QEMU_VERSION.h

if [ ! -s "$cached" ]; then
    echo "hw-models: fetching qemu-plugin.h from the QEMU $QEMU_VERSION source tarball"
    tarball=$(qemu_source_tarball)
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    tar xf "$tarball" -C "$tmp" --wildcards '*/include/qemu/qemu-plugin.h'
    mkdir -p "$CACHE"
    cp "$tmp"/qemu-*/include/qemu/qemu-plugin.h "$cached.tmp"
    mv "$cached.tmp" "$cached"
fi

mkdir -p "$(dirname "$dest")"
cp "$cached" "$dest"
