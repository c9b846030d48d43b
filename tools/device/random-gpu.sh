#!/usr/bin/env bash
# On one H200, in one run of at most BUDGET seconds (default 330): the proof's
# random tiles on the GPU path and the GPU model's constants (the GPU tests
# test_random_gpu, test_hunt_gpu, test_model_gpu), the hunt's windows
# (`hunt --instr all --count 400000`, twice), and regress at its default
# count against the H200 baseline; each step timed (date before and after),
# its result lines in $R/NAME.log, the run in $OUT/random-gpu.tar.xz.
# h200-random-gpu.json holds a run's summary (reports/SCHEMA.md).
#
# Usage (from the repository root, $OUT set): bash tools/device/random-gpu.sh
set -u
START=$(date +%s); BUDGET=${BUDGET:-330}; R=/tmp/random-gpu; rm -rf $R; mkdir -p $R
. tools/device-env.sh
( device_build build/tcscope build/opt/tests/test_random_gpu build/opt/tests/test_hunt_gpu \
    build/opt/tests/test_model_gpu ) || { cp /tmp/build.log "$OUT/"; exit 1; }
{ nvidia-smi --query-gpu=index,name,driver_version,uuid --format=csv; nproc; cat .tcscope-version; } | tee $R/machine.txt
left() { echo $(( BUDGET - ($(date +%s) - START) )); }
# t NAME SECONDS CMD..: CMD under a timeout (skipped past the budget), its exit and wall time in $R/times.txt
t() {
  local n=$1 lim=$2; shift 2
  [ "$(left)" -gt $((lim + 10)) ] || { echo "$n skipped"; return; }
  local t0 t1 rc; t0=$(date +%s.%N); timeout "$lim" "$@" > "$R/$n.log" 2>&1; rc=$?; t1=$(date +%s.%N)
  awk -v n="$n" -v rc=$rc -v a="$t0" -v b="$t1" 'BEGIN{printf "%s rc %d %.2f s\n", n, rc, b-a}' | tee -a $R/times.txt
  grep -E "^# (timing|verify:|[0-9]+ instr|[0-9]+ elements)|FAIL|PASSED|equal to the host" "$R/$n.log" | tail -5
}
B=build/tcscope
t test_random_gpu 60 build/opt/tests/test_random_gpu
t test_hunt_gpu 60 build/opt/tests/test_hunt_gpu
t test_model_gpu 60 build/opt/tests/test_model_gpu
t hunt-400k 60 $B hunt --backend gpu:0 --instr all --count 400000
t hunt-400k-again 60 $B hunt --backend gpu:0 --instr all --count 400000
t regress 60 $B regress --backend gpu:0 --profile h200 --record reports/baselines/h200-audit.jsonl.gz --out $R/r1
find $R -name baseline.jsonl -o -name '*.html' | xargs rm -f
tar cJf "$OUT/random-gpu.tar.xz" -C /tmp random-gpu
