#!/usr/bin/env bash
# bootstrap.sh - install the Debian packages bbmap needs to build and test for
# every supported LLVM major. Idempotent: packages already present are skipped,
# and `apt-get update` runs only when something is missing.
#
# Usage: scripts/bootstrap.sh [--with-sources]
#   --with-sources  also enable deb-src and fetch what `apt-get source` needs
set -euo pipefail

MAJORS=${BBMAP_LLVM_MAJORS:-"19 22"}
WITH_SOURCES=0
for arg in "$@"; do
  case "$arg" in
    --with-sources) WITH_SOURCES=1 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "bootstrap.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

pkgs="cmake ninja-build python3 python3-jsonschema file binutils dpkg-dev time tcl zlib1g-dev libzstd-dev libedit-dev libffi-dev libxml2-dev libcurl4-openssl-dev qemu-user valgrind"
for n in $MAJORS; do
  pkgs="$pkgs llvm-$n-dev llvm-$n-tools clang-$n lld-$n bolt-$n libclang-rt-$n-dev"
done
# Format A of BOLT address translation comes from BOLT 16 only.
pkgs="$pkgs bolt-16"
# clang-format-19: the formatter the project's C++ style is checked with.
pkgs="$pkgs clang-format-19"

missing=""
for p in $pkgs; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done

need_update=0
if [ "$WITH_SOURCES" -eq 1 ]; then
  src=/etc/apt/sources.list.d/bbmap-deb-src.sources
  if [ ! -f "$src" ]; then
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' |
      $SUDO tee "$src" >/dev/null
    need_update=1
  fi
fi

if [ -n "$missing" ]; then need_update=1; fi
if [ "$need_update" -eq 1 ]; then
  $SUDO apt-get update -q
fi
if [ -n "$missing" ]; then
  echo "bootstrap.sh: installing:$missing"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
else
  echo "bootstrap.sh: all packages present"
fi
