#!/usr/bin/env bash
# make bench: issue 29's hunt target (at least 5e8 elements/s end to end on
# one H200) as JSON lines, on a GPU only: `tcscope hunt --instr all` with its
# defaults (the GPU path: tiles drawn, run, modelled and compared on the
# GPU), its rate over the command's whole wall time (start-up included) and
# over its own summary line's; the same hunt with the CPU model computing
# the expected answers (--model-on cpu, the host path, at COUNT/8 per family:
# its rate is compared, not its time); and the ratio of the two end-to-end
# rates, measured in this one run. Outputs under $BENCH_HUNT_OUT.
set -u
BIN=${TCSCOPE:-build/tcscope}
OUT=${BENCH_HUNT_OUT:-build/bench-hunt}
COUNT=${BENCH_HUNT_COUNT:-400000}
mkdir -p "$OUT"
. "$(dirname "$0")/bench-env.sh"
bench_gpu_or_skip hunt_catalogue
declare -A rate
hunt() {   # NAME COUNT ARGS..: one hunt, one JSON line; its end-to-end rate in rate[NAME]
  local name=$1 count=$2; shift 2
  local n own
  bench_timed "$OUT/$name" "$BIN" hunt --backend gpu:0 --profile $profile --instr all --count "$count" "$@" \
    --out "$OUT/$name"
  local rc=$bench_rc wall=$bench_wall
  n=$(sed -n 's/^# \([0-9]*\) elements in .*/\1/p' "$OUT/$name.log" | tail -1)
  own=$(sed -n 's/^# [0-9]* elements in [0-9.]* s (\([0-9.e+]*\) elements\/s).*/\1/p' "$OUT/$name.log" | tail -1)
  rate[$name]=$(awk -v n="${n:-0}" -v w="$wall" 'BEGIN { print (w > 0 ? n / w : 0) }')
  printf '{"bench":"hunt_catalogue, %s","value":%.3g,"unit":"elements/s end to end","wall_s":%.2f,"elements":%s,"own_line_elements_per_s":%s,"per_family":%s,"profile":"%s","exit":%d,"path":"%s","machine":"%s"}\n' \
    "$name" "${rate[$name]}" "$wall" "${n:-0}" "${own:-0}" "$count" $profile $rc \
    "$(grep -m1 '^# path:' "$OUT/$name.log" | sed 's/^# path: //; s/"//g')" "$machine"
}
hunt "GPU path, GPU model" "$COUNT"
hunt "host path, CPU model" $((COUNT / 8)) --draw family --model-on cpu
printf '{"bench":"hunt_catalogue, GPU path over CPU model (end-to-end rates)","value":%.3g,"unit":"ratio","machine":"%s","target_gpu_elements_per_s":5e8}\n' \
  "$(awk -v g="${rate[GPU path, GPU model]}" -v c="${rate[host path, CPU model]}" 'BEGIN { print (c > 0 ? g / c : 0) }')" "$machine"
