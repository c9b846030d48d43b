# Sourced by the tools/device-*.sh scripts on the GPU machine: the Debian
# libraries the machine lacks, unpacked from the carried .debs/ into
# /tmp/deps (never into /), and device_build TARGET.. (exits on failure).
# Before a device call: git describe --always --dirty > .tcscope-version, and
# carry it with .debs/.
mkdir -p /tmp/deps
for f in .debs/*.deb; do dpkg -x "$f" /tmp/deps; done
export DEPS_PREFIX=/tmp/deps/usr PATH=$PATH:/usr/local/cuda/bin
# the headers the build needs beyond MPFR/GMP/jansson: say which .deb is missing before make fails on it
for h in lzma.h:liblzma-dev nettle/sha2.h:nettle-dev archive.h:libarchive-dev; do
  [ -f "/usr/include/${h%%:*}" ] || [ -f "$DEPS_PREFIX/include/${h%%:*}" ] \
    || { echo "tcscope: ${h%%:*} missing here: carry ${h#*:} (.deb) in .debs/"; exit 1; }
done
device_build() {
  local t0; t0=$(date +%s)
  # the version in records: the commit the lead stamped (.tcscope-version, carried), since
  # git on this machine does not see the tree that was sent
  local v=(); [ -f .tcscope-version ] && v=(TC_GIT_VERSION="$(cat .tcscope-version)")
  make DEPS_PREFIX=$DEPS_PREFIX "${v[@]}" -j16 "$@" > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
  echo "build: $(( $(date +%s) - t0 )) s"
}
