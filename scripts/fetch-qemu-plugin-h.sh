#!/usr/bin/env bash
# Put QEMU's plugin API header, qemu-plugin.h, at the path given as $1.
#
# No Debian package ships it, so take it from the QEMU source tarball in
# Debian's source archive (the same release as the installed QEMU, 10.0.2
# from bookworm-backports).  The header is QEMU's code (GPL-2.0-or-later):
# it is fetched at build time into build/ and never committed.
#
# The header is cached in the project's cache directory (scripts/lib.sh:
# ~/.cache/ousterhout/), so a machine downloads the 39 MB tarball once.
# `apt-get source --download-only` exits non-zero here because the .dsc of
# the backport is missing from the mirror, but the orig tarball arrives:
# we ignore its exit status and check for the tarball instead.
set -euo pipefail

. "$(dirname "$0")/lib.sh"              # CACHE, SUDO
dest=${1:?usage: fetch-qemu-plugin-h.sh DEST/qemu-plugin.h}
version=10.0.2
cached=$CACHE/qemu-plugin-$version.h

if [ ! -s "$cached" ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    echo "hw-models: fetching qemu-plugin.h from the QEMU $version source tarball"
    fetch() {
        (cd "$tmp" && apt-get source --download-only -qq "qemu/bookworm-backports" >/dev/null 2>&1) || true
        tarball=$(ls "$tmp"/qemu_"$version"*.orig.tar.* 2>/dev/null | head -1 || true)
    }
    fetch
    if [ -z "$tarball" ]; then          # the source index may be missing: update once
        $SUDO apt-get update -qq >/dev/null 2>&1 || true
        fetch
    fi
    if [ -z "$tarball" ]; then
        echo "hw-models: could not download the QEMU $version source tarball" >&2
        echo "hw-models: (needs the deb-src line of bookworm-backports: run make deps)" >&2
        exit 1
    fi
    tar xf "$tarball" -C "$tmp" --wildcards '*/include/qemu/qemu-plugin.h'
    mkdir -p "$CACHE"
    cp "$tmp"/qemu-*/include/qemu/qemu-plugin.h "$cached.tmp"
    mv "$cached.tmp" "$cached"
fi

mkdir -p "$(dirname "$dest")"
cp "$cached" "$dest"
