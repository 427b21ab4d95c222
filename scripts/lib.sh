# scripts/lib.sh: what the setup scripts share (sourced by them, not run).
#
#   CACHE   the project's one cache directory, outside the repository:
#           $OUSTERHOUT_CACHE, default ~/.cache/ousterhout (the VAX
#           compiler, SIMH builds, QEMU's source, plugin header and the
#           wire's patched QEMU)
#   SUDO    "sudo", unless we are root
#   bookworm_sources   make sure apt can fetch bookworm's source packages
#                      (adds their deb-src line once)
#   QEMU_VERSION, qemu_source_tarball
#                      the release of the installed QEMU, and the path of its
#                      source tarball from Debian's archive, downloaded once
#                      into CACHE/qemu/ (39 MB): the plugin's header and the
#                      wire's patched QEMU both come from it

CACHE=${OUSTERHOUT_CACHE:-$HOME/.cache/ousterhout}

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

bookworm_sources() {
    local list=/etc/apt/sources.list.d/bookworm-src.sources
    grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/debian.sources "$list" && return 0
    $SUDO tee "$list" >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    $SUDO apt-get update -qq
}

QEMU_VERSION=10.0.2

qemu_source_tarball() {
    local dir=$CACHE/qemu tarball
    # `apt-get source --download-only` exits non-zero here because the .dsc
    # of the backport is missing from the mirror, but the orig tarball
    # arrives: ignore its status and look for the tarball.
    _qemu_src_fetch() {
        (cd "$dir" && apt-get source --download-only -qq "qemu/bookworm-backports" \
            >/dev/null 2>&1) || true
    }
    _qemu_src_found() {
        tarball=$(ls "$dir"/qemu_"$QEMU_VERSION"*.orig.tar.* 2>/dev/null | head -1 || true)
        [ -n "$tarball" ]
    }
    if ! _qemu_src_found; then
        mkdir -p "$dir"
        _qemu_src_fetch
        if ! _qemu_src_found; then      # the source index may be missing: update once
            $SUDO apt-get update -qq >/dev/null 2>&1 || true
            _qemu_src_fetch
            _qemu_src_found || true
        fi
        rm -f "$dir"/*.dsc "$dir"/*.debian.tar.* 2>/dev/null || true
    fi
    if [ -z "$tarball" ]; then
        echo "could not download the QEMU $QEMU_VERSION source tarball" >&2
        echo "(needs the deb-src line of bookworm-backports: run make deps)" >&2
        return 1
    fi
    echo "$tarball"
}
