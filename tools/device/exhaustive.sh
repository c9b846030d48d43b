#!/usr/bin/env bash
# On the GPU machine's host CPUs (issue #28 item 3): tools/exhaustive_f32 for
# the formats named, one after another, each format whole (all 2^32 float32
# inputs x every rounding, overflow, ftz and daz mode) or not at all, while the
# time budget allows. Lines land in $OUT/cvt-exhaustive.jsonl, the log in
# $OUT/exhaustive.log; the lines name the commit (.tcscope-version) and encoder.
# Usage: bash tools/device/exhaustive.sh BUDGET_S FMT[,FMT..] [THREADS]
# (a format whose sweep would not end within the budget is cut by timeout and
# leaves no line: a record never holds part of a format).
set -u
BUDGET=$1; FMTS=$2; THREADS=${3:-$(nproc)}
T0=$(date +%s)
. tools/device-env.sh
device_build build/opt/tools/exhaustive_f32 | tee -a "$OUT/exhaustive.log"
for f in ${FMTS//,/ }; do
  left=$(( BUDGET - ($(date +%s) - T0) ))
  [ "$left" -gt 30 ] || { echo "exhaustive: no time left for $f" | tee -a "$OUT/exhaustive.log"; break; }
  t=$(date +%s)
  timeout "$left" build/opt/tools/exhaustive_f32 --threads "$THREADS" --only "$f" >> "$OUT/cvt-exhaustive.jsonl"
  echo "exhaustive $f: exit $?, $(( $(date +%s) - t )) s on $THREADS threads" | tee -a "$OUT/exhaustive.log"
done
