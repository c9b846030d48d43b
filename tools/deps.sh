#!/usr/bin/env bash
# Checks tcscope's Debian build dependencies; installs the missing ones when
# run as root, else prints the exact apt-get line. `deps.sh check` only checks.
set -u
PKGS="build-essential python3 gzip libmpfr-dev libgmp-dev libjansson-dev libcmocka-dev liblzma-dev nettle-dev libarchive-dev gnuplot-nox"
if [ -n "${DEPS_PREFIX:-}" ]; then exit 0; fi   # headers come from an unpacked prefix
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "${1:-}" != check ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "tcscope: installing$missing" >&2
  apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >&2 && exit 0
  echo "tcscope: apt-get failed" >&2; exit 2
fi
echo "tcscope: missing Debian packages:$missing" >&2
echo "  sudo apt-get install -y$missing" >&2
exit 2
