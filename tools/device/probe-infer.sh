#!/usr/bin/env bash
# On the GPU machine (its 16 cores; no GPU needed): tcscope probe infer on every
# framework case of the tarballs carried in .carry/probe/ (tools/device/probe.sh's
# probe-{torch,jax,triton,cupy,numpy}.tar.xz: CALL/CASE/{manifest.json, call.json,
# step_D.npy, runs_D.npy, verify_D.npy}), many cases at once, one thread each, within
# a total budget. The inputs are not carried: infer makes them again from the
# manifest's seed and checks them against its SHA-256s (no export needed).
# Order: PRIORITY first (the issue's must-show case), then the smallest K first, so
# that as many cases as possible finish; a case still running at the deadline is
# stopped and says so in the summary.
# Under $OUT: probe-records.tar.xz = records/CALL--CASE.jsonl and records/summary.txt
# (one line a case, in the order above), and probe-infer.log.
# Usage: bash tools/device/probe-infer.sh [TOTAL_S]   (default 540: the whole script, build included)
#   JOBS=N      cases at once (default: one per core)
#   MIN_K=K, MAX_K=K   only cases with MIN_K <= K <= MAX_K (e.g. MIN_K=4096: not the cases the first run
#               inferred; MAX_K=3072: only those, to compare)
#   PRIORITY="CALL--CASE ..."   first (default the H200 e4m3 256x256x16384 cases of issue 27)
set -u
TOTAL=${1:-540}
T0=$(date +%s)
LOG="$OUT/probe-infer.log"
JOBS=${JOBS:-$(nproc)}
MIN_K=${MIN_K:-0}
MAX_K=${MAX_K:-65536}
PRIORITY=${PRIORITY:-"torch-scaled_mm-e4m3--m256n256k16384 torch-scaled_mm-e4m3-fast--m256n256k16384"}
. tools/device-env.sh
device_build NVCC= build/tcscope | tee -a "$LOG"
W=/tmp/probe-infer
rm -rf "$W" && mkdir -p "$W/d" "$W/records" "$W/lines"
for t in .carry/probe/probe-*.tar.xz; do
  case "$t" in *probe-records*) continue ;; esac
  tar xJf "$t" -C "$W/d" || echo "probe-infer: cannot unpack $t" | tee -a "$LOG"
done
# the cases: CALL--CASE K, priority ones first, then by K
for d in "$W"/d/*/m*; do
  [ -f "$d/verify_D.npy" ] || continue
  name=$(basename "$(dirname "$d")")--$(basename "$d")
  k=${name##*k}
  { [ "$k" -lt "$MIN_K" ] || [ "$k" -gt "$MAX_K" ]; } && continue
  pri=1
  for p in $PRIORITY; do [ "$p" = "$name" ] && pri=0; done
  echo "$pri $k $name"
done | sort -k1,1n -k2,2n > "$W/order"
echo "probe-infer: $(wc -l < "$W/order") cases, $JOBS at once, $(( TOTAL - ($(date +%s) - T0) )) s left" | tee -a "$LOG"
DEADLINE=$(( T0 + TOTAL - 25 ))   # 25 s kept for packing
export W DEADLINE
one() {
  local name=$1 call=${1%%--*} case=${1#*--} left t0
  left=$(( DEADLINE - $(date +%s) ))
  if [ "$left" -lt 5 ]; then echo "$name: not started (out of time)" > "$W/lines/$name"; return; fi
  t0=$(date +%s)
  timeout "$left" build/tcscope probe infer "$W/d/$call/$case" --threads 1 --out "$W/records/$name.jsonl" \
    > "$W/lines/$name" 2>&1
  local rc=$?
  [ $rc -eq 124 ] && echo "$name: stopped at the deadline after $(( $(date +%s) - t0 )) s" >> "$W/lines/$name"
  [ $rc -ge 2 ] && [ $rc -ne 124 ] && echo "$name: exit $rc" >> "$W/lines/$name"
  echo "$name $(( $(date +%s) - t0 )) s rc $rc" >> "$W/times"
}
export -f one
cut -d' ' -f3 "$W/order" | xargs -P "$JOBS" -I{} bash -c 'one {}'
for name in $(cut -d' ' -f3 "$W/order"); do cat "$W/lines/$name" 2>/dev/null; done > "$W/records/summary.txt"
cp "$W/times" "$W/records/times.txt" 2>/dev/null
S="$W/records/summary.txt"
echo "probe-infer: $(grep -c ': explained' "$S") explained, $(grep -c ': unexplained' "$S") unexplained," \
  "$(grep -c -e 'stopped at the deadline' -e 'not started' "$S") out of time, $(grep -c ': exit ' "$S") failed" | tee -a "$LOG"
tar cJf "$OUT/probe-records.tar.xz" -C "$W" records 2>> "$LOG"
ls -la "$OUT" >> "$LOG"
echo "probe-infer: $(( $(date +%s) - T0 )) s in all" | tee -a "$LOG"
