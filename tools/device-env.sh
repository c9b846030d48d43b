# The shared steps of every task on the GPU machine, sourced by tools/device.sh
# (and by a task file that begins with `. tools/device-env.sh`: sourcing it twice
# is harmless: each .deb is unpacked once). The Debian libraries the
# machine lacks, unpacked from the carried .debs/ into /tmp/deps (never into /);
# device_build TARGET.. (exits on failure); device_task_build PACK TARGET.. (a
# task's build, packed and stopped on failure); device_facts (the GPU and CPU,
# for a task's log); device_pack NAME (a task folder back as one archive). Before a
# device call: git describe --always --dirty >
# .tcscope-version, and carry it with .debs/.
set -u
export DEPS_PREFIX=/tmp/deps/usr
case ":$PATH:" in *:/usr/local/cuda/bin:*) ;; *) export PATH=$PATH:/usr/local/cuda/bin ;; esac
mkdir -p /tmp/deps
for f in .debs/*.deb; do   # each .deb once (a second sourcing finds it done)
  [ -f "$f" ] && [ ! -f "/tmp/deps/.done-${f##*/}" ] && dpkg -x "$f" /tmp/deps && touch "/tmp/deps/.done-${f##*/}"
done
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
# device_task_build PACK TARGET..: a task's build (none with SKIP_BUILD=1);
# when it fails, its log in $R/build.log (R: the task's folder), PACK run
# (the task's packing, a command split on spaces) and exit 1.
device_task_build() {
  local pack=$1; shift
  [ -n "${SKIP_BUILD:-}" ] && return 0
  ( device_build "$@" ) && return 0
  cp /tmp/build.log "$R/build.log"; echo "build failed"; $pack; exit 1
}
# The GPU (name, driver, clocks, memory) and the CPU, a line each.
device_facts() {
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv,noheader 2>&1
  lscpu | grep -E 'Model name|^CPU\(s\)'
}
# device_pack NAME: /tmp/NAME (the task's folder, already pruned of what
# need not travel) as $OUT/NAME.tar.xz, with its summary.json and run.log
# beside it, so that a run cut short still brings back what it has.
device_pack() {
  tar cJf "$OUT/$1.tar.xz" -C /tmp "$1"
  [ -f "/tmp/$1/summary.json" ] && cp "/tmp/$1/summary.json" "$OUT/summary.json"
  cp "/tmp/$1/run.log" "$OUT/run.log"
  ls -la "$OUT"
}
# A task's timed steps, under the budget: START (date +%s at the start),
# BUDGET (seconds for the whole task), R (its folder) and KEEP (seconds kept
# back for what follows the steps: the packing, a last run; default 15).
device_left() { echo $(( BUDGET - ($(date +%s) - START) )); }
# device_step NAME SECONDS CMD..: CMD under a timeout (never past the budget
# less KEEP; skipped under 5 s), its output in $R/NAME.log, its exit status
# and wall time a line of $R/times.txt, its last "# " lines shown.
device_step() {
  local name=$1 secs=$2; shift 2
  local most=$(( $(device_left) - ${KEEP:-15} ))
  [ "$secs" -gt "$most" ] && secs=$most
  if [ "$secs" -lt 5 ]; then echo "$name: skipped (no time left)"; echo "$name skipped 0" >> "$R/times.txt"; return; fi
  local t0 t1 rc wall; t0=$(date +%s.%N)
  timeout "$secs" "$@" > "$R/$name.log" 2>&1
  rc=$?; t1=$(date +%s.%N)
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  echo "$name $rc $wall" >> "$R/times.txt"
  echo "$name: exit $rc in $wall s (limit $secs s)"
  grep -E '^# ' "$R/$name.log" | tail -3
}
