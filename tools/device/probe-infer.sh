#!/usr/bin/env bash
# On the GPU machine (its CPUs only): `tcscope probe infer` on framework D's
# that came back from tools/device-probe.sh, several cases at once. The
# exports are not needed: the inference makes A and B again from each
# manifest (and checks their hashes).
#
# Usage: bash tools/device/probe-infer.sh TARDIR [CASE ...]
#   TARDIR  a carried folder holding device-probe's probe-FRAMEWORK.tar.xz
#           (e.g. out/probe1: out/ is ignored, so carry it by name)
#   CASE    CALL--mMnNkK, as device-probe names its records
#           (torch-matmul-f16--m256n256k4096); none: every case in the
#           tarballs, smallest K first
# Environment: JOBS (cases at once, default 8 of the 16 cores), TOTAL_S (the
# whole run, build included, default 540), PROFILE (default: the profile of
# the GPU each call.json names).
# Under $OUT: probe-infer.tar.xz (records/CALL--CASE.jsonl, one per case
# inferred, and records/summary.txt: one line each, "CASE: exit N" for the
# unexplained, "CASE: out of time" for those not started) and
# probe-infer.log. Then, on any CPU: tools/probe_collect.py collect.
# Carry: .debs/ (with nettle-dev's .deb), .tcscope-version, TARDIR.
set -u
TARDIR=${1:?usage: tools/device/probe-infer.sh TARDIR [CASE ...]}
shift
TOTAL=${TOTAL_S:-540}
JOBS=${JOBS:-8}
T0=$(date +%s)
LOG="$OUT/probe-infer.log"
. tools/device-env.sh
if [ ! -f "$DEPS_PREFIX/include/nettle/sha2.h" ] && [ ! -f /usr/include/nettle/sha2.h ]; then
  echo "probe-infer: no nettle/sha2.h: carry nettle-dev's .deb in .debs/" | tee -a "$LOG"
  exit 2
fi
ls "$TARDIR"/probe-*.tar.xz > /dev/null 2>&1 || { echo "probe-infer: no probe-*.tar.xz in $TARDIR" | tee -a "$LOG"; exit 2; }
device_build NVCC= build/tcscope | tee -a "$LOG"

W=/tmp/probe-infer
rm -rf "$W" && mkdir -p "$W/d" "$W/records"
for t in "$TARDIR"/probe-*.tar.xz; do tar xJf "$t" -C "$W/d" || echo "probe-infer: $t unreadable" | tee -a "$LOG"; done
# the cases: as given, else every CALL/CASE folder with its D's, smallest K first
if [ $# -gt 0 ]; then
  for c in "$@"; do echo "$W/d/${c%%--*}/${c#*--}"; done
else
  ls -d "$W"/d/*/m* | awk -F'k' '{print $NF" "$0}' | sort -n | cut -d' ' -f2
fi > "$W/list"
echo "cases: $(wc -l < "$W/list"), $JOBS at once, $(nproc) cores" | tee -a "$LOG"

# each case under the time left (20 s kept for packing); a case not started in time is said
DEADLINE=$(( T0 + TOTAL - 20 ))
PROF=${PROFILE:+--profile $PROFILE}
export W DEADLINE PROF
xargs -P "$JOBS" -I{} sh -c '
  d={}; name=$(basename "$(dirname "$d")")--$(basename "$d")
  left=$(( DEADLINE - $(date +%s) ))
  if [ ! -f "$d/step_D.npy" ]; then echo "$name: no D in the tarballs"; exit 0; fi
  if [ "$left" -le 10 ]; then echo "$name: out of time"; exit 0; fi
  t=$(date +%s)
  timeout "$left" build/tcscope probe infer "$d" $PROF --out "$W/records/$name.jsonl" > "$W/records/$name.txt" 2>&1
  rc=$?
  cat "$W/records/$name.txt"; rm -f "$W/records/$name.txt"
  [ $rc -eq 0 ] || echo "$name: exit $rc"
  echo "$name: $(( $(date +%s) - t )) s"' < "$W/list" > "$W/records/summary.txt" 2>&1
grep -c '^probe: ' "$W/records/summary.txt" | sed 's/^/inferred: /' | tee -a "$LOG"
grep -E ': (exit|out of time|no D)' "$W/records/summary.txt" | tee -a "$LOG"
tar cJf "$OUT/probe-infer.tar.xz" -C "$W" records 2>> "$LOG"
echo "probe-infer: $(( $(date +%s) - T0 )) s in all" | tee -a "$LOG"
