#!/usr/bin/env bash
# bootstrap.sh - install the Debian packages bbmap needs to build and test for
# every supported LLVM major. Idempotent: packages already present are skipped,
# and `apt-get update` runs only when something is missing.
#
# Usage: scripts/bootstrap.sh [--with-sources]
#   --with-sources  also add deb-src lines for the Debian archives apt is
#                   configured with, for `apt-get source`
set -euo pipefail

MAJORS=${BBMAP_LLVM_MAJORS:-"19 22"}
WITH_SOURCES=0
for arg in "$@"; do
  case "$arg" in
    --with-sources) WITH_SOURCES=1 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "bootstrap.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

pkgs="cmake ninja-build make python3 python3-jsonschema python3-yaml file binutils dpkg-dev time tcl zlib1g-dev libzstd-dev libedit-dev libffi-dev libxml2-dev libcurl4-openssl-dev qemu-user valgrind linux-perf graphviz groff-base"
for n in $MAJORS; do
  pkgs="$pkgs llvm-$n-dev llvm-$n-tools clang-$n lld-$n bolt-$n libclang-rt-$n-dev"
done
# Raw instrumentation profiles of version 8 come from clang-14 (with its
# profile runtime) and are read by llvm-profdata-14 only (test/instrprof).
pkgs="$pkgs clang-14 llvm-14 libclang-rt-14-dev"
# Format A of BOLT address translation comes from BOLT 16 only.
pkgs="$pkgs bolt-16"
# clang-format-19: the formatter the project's C++ style is checked with.
pkgs="$pkgs clang-format-19"
# bench/large-cppcheck.sh builds cppcheck as Debian does, with its rule
# engine (PCRE).
pkgs="$pkgs libpcre3-dev"
# arm64: Debian's cross sysroot in /usr/aarch64-linux-gnu (C and C++
# libraries, crt files, libgcc), which clang --target=aarch64-linux-gnu
# finds by itself; the programs run under qemu-aarch64 -L (qemu-user).
pkgs="$pkgs libc6-dev-arm64-cross libgcc-12-dev-arm64-cross libstdc++-12-dev-arm64-cross"
# bbmap-profile's malloc (tools/bbmap-profile/CMakeLists.txt).
pkgs="$pkgs libmimalloc-dev"
# GoogleTest: the unit tests of unittests/ (cmake/BBMapUnitTests.cmake).
pkgs="$pkgs libgtest-dev"

missing=""
for p in $pkgs; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done

need_update=0
# deb-src lines for `apt-get source`: one per Debian archive the machine
# already installs packages from (the repositories `apt-cache policy` lists
# with origin Debian), so sources come from the mirror it is configured with.
debsrc_from_configured() {
  apt-cache policy | awk '
    $2 ~ /^[a-z]+:\/\// { uri = $2; split($3, sc, "/"); next }
    /^ *release / && /o=Debian,/ && uri != "" {
      print "deb-src " uri " " sc[1] " " sc[2]; uri = "" }' | sort -u
}
if [ "$WITH_SOURCES" -eq 1 ]; then
  src=/etc/apt/sources.list.d/bbmap-deb-src.list
  if [ ! -f "$src" ]; then
    entries=$(debsrc_from_configured)
    if [ -z "$entries" ]; then
      echo "bootstrap.sh: no Debian archive configured to take deb-src from" >&2
      exit 1
    fi
    printf '%s\n' "$entries" | $SUDO tee "$src" >/dev/null
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
