#!/bin/sh
# mkfsroot.sh DIR STRIP GENSRC ELF...: lay out, in DIR, the tree that
# tools/mkfs turns into the file-system image: the guest programs in /bin
# (stripped: the guest needs no symbols), the Andrew benchmark's source
# tree in /src (written by the command GENSRC), and an empty /tmp for the
# benchmarks' scratch files.
set -eu
dir=$1; strip=$2; gensrc=$3; shift 3
rm -rf "$dir"
mkdir -p "$dir/bin" "$dir/tmp"
for f in "$@"; do
    $strip --strip-all -o "$dir/bin/$(basename "$f")" "$f"
done
$gensrc "$dir/src"
