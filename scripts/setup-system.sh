#!/usr/bin/env bash
# The Debian packages mj needs, in one place: `make test`, `make play` and .ci/run call this.
#
#   scripts/setup-system.sh [--check] venv|build|play|test
#
# venv:  what `make venv` needs (Python's venv support, make).
# build: venv, and what `make compiled` needs (a C compiler, Python's headers).
# play:  build (xmj opens the person's own browser, or prints the address).
# test:  build, plus what the tests use: the original programs (the compatibility oracle), Chromium and
#        CJK fonts for the browser tests, a virtual X display for the original xmj, PostgreSQL for the lobby.
#
# Only missing packages are installed: as root with apt-get, else with sudo (asked for a password only
# when there is a terminal to ask on). When neither is possible it stops at once, saying the one command
# to run. --check installs nothing: it says what is missing, with status 1.
set -euo pipefail

check_only=false
if [[ ${1:-} == --check ]]; then
    check_only=true
    shift
fi
profile=${1:-}
case $profile in
    venv | build | play | test) ;;
    *)
        echo "usage: $0 [--check] venv|build|play|test" >&2
        exit 2
        ;;
esac

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }

missing=()
# venv: the virtual environment
python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
command -v make >/dev/null || missing+=(make)
if [[ $profile != venv ]]; then
    # build: mypyc's C build of the hot modules
    command -v gcc >/dev/null || missing+=(gcc libc6-dev)
    python3 -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(sysconfig.get_path("include") + "/Python.h"))' ||
        missing+=(python3-dev)
fi
if [[ $profile == test ]]; then
    # the original Unix Mah-Jong 1.11: the compatibility oracle of the tests
    [[ -x /usr/games/mj-server && -x /usr/games/mj-player && -x /usr/games/xmj ]] || missing+=(mah-jong)
    # the browser client's tests drive Debian's Chromium with Playwright; the tiles need CJK glyphs
    [[ -x /usr/bin/chromium ]] || missing+=(chromium)
    installed fonts-noto-cjk || missing+=(fonts-noto-cjk)
    # the original xmj runs under a virtual X display (xvfb-run needs xauth)
    command -v xvfb-run >/dev/null || missing+=(xvfb)
    command -v xauth >/dev/null || missing+=(xauth)
    # the lobby's record store is tested on a real PostgreSQL server started from Debian's binaries
    compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
fi
((${#missing[@]})) || exit 0

install=(apt-get install -y -q --no-install-recommends "${missing[@]}")
say_command() {
    echo "mj: missing system packages for 'make $profile': ${missing[*]}" >&2
    echo "mj: run:  sudo sh -c 'apt-get update && ${install[*]}'" >&2
}
if $check_only || ! command -v apt-get >/dev/null; then
    say_command
    exit 1
fi
sudo=()
if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null && { sudo -n true 2>/dev/null || [[ -t 0 ]]; }; then
        sudo=(sudo)
    else
        say_command
        exit 1
    fi
fi
echo "mj: installing system packages for 'make $profile': ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive "${install[@]}" </dev/null
