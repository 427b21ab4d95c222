# scripts/lib.sh: what the setup scripts share (sourced by them, not run).
#
#   CACHE   the project's one cache directory, outside the repository:
#           $OUSTERHOUT_CACHE, default ~/.cache/ousterhout (the VAX
#           compiler, SIMH builds, QEMU's plugin header)
#   SUDO    "sudo", unless we are root
#   bookworm_sources   make sure apt can fetch bookworm's source packages
#                      (adds their deb-src line once)

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
