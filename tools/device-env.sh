# Sourced by the tools/device-*.sh scripts on the GPU machine: the Debian
# libraries the machine lacks, unpacked from the carried .debs/ into
# /tmp/deps (never into /), and device_build TARGET.. (exits on failure).
mkdir -p /tmp/deps
for f in .debs/*.deb; do dpkg -x "$f" /tmp/deps; done
export DEPS_PREFIX=/tmp/deps/usr PATH=$PATH:/usr/local/cuda/bin
device_build() {
  local t0; t0=$(date +%s)
  make DEPS_PREFIX=$DEPS_PREFIX -j16 "$@" > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
  echo "build: $(( $(date +%s) - t0 )) s"
}
