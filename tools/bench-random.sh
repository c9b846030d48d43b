#!/usr/bin/env bash
# make bench: the proof's random tiles on the GPU path (cases/hunt_gpu.h,
# hunt_gpu_random) against the host's, as JSON lines, on a GPU only:
# `tcscope verify` of three instructions (a small mma, a wide wgmma, an FP8
# wgmma) at COUNT random elements each and no hunt, three ways in this one
# run: the GPU path; the same tiles drawn on the host's cores and run through
# the tensor cores and the GPU model in rounds (TCSCOPE_RANDOM_GPU_MIN past
# COUNT); and on the host with the CPU model (--model-on cpu). Each line's
# rate is the random and crafted elements over the command's whole wall time
# (start-up included), then the ratios. Outputs under $BENCH_RANDOM_OUT.
set -u
BIN=${TCSCOPE:-build/tcscope}
OUT=${BENCH_RANDOM_OUT:-build/bench-random}
COUNT=${BENCH_RANDOM_COUNT:-20000000}
INSTR=mma.m16n8k16.f32.f16.f16.f32,wgmma.m64n256k32.f32.e4m3.e4m3,wgmma.m64n64k16.f16.f16.f16
mkdir -p "$OUT"
. "$(dirname "$0")/bench-env.sh"
bench_gpu_or_skip verify_random
declare -A rate
run() {   # NAME ENV ARGS..: one verify, one JSON line; its end-to-end rate in rate[NAME]
  local name=$1 env=$2; shift 2
  local n
  bench_timed "$OUT/$name" env $env "$BIN" verify --backend gpu:0 --profile $profile --instr $INSTR --count "$COUNT" \
    --hunt-count 0 "$@"
  local rc=$bench_rc wall=$bench_wall
  n=$(sed -n 's/^# \([0-9]*\) elements in .*/\1/p' "$OUT/$name.log" | awk '{ s += $1 } END { print s + 0 }')
  rate[$name]=$(awk -v n="$n" -v w="$wall" 'BEGIN { print (w > 0 ? n / w : 0) }')
  printf '{"bench":"verify_random, %s","value":%.3g,"unit":"elements/s end to end","wall_s":%.2f,"elements":%s,"count":%s,"instr":"%s","profile":"%s","exit":%d,"gpu_path_lines":%s,"machine":"%s"}\n' \
    "$name" "${rate[$name]}" "$wall" "$n" "$COUNT" "$INSTR" $profile $rc \
    "$(grep -c '^# random tiles: on the GPU path' "$OUT/$name.log")" "$machine"
}
run "GPU path" ""
run "host draw, GPU model" "TCSCOPE_RANDOM_GPU_MIN=$((COUNT + 1))"
run "host, CPU model" "" --model-on cpu
ratio() { awk -v a="${rate[$1]}" -v b="${rate[$2]}" 'BEGIN { print (b > 0 ? a / b : 0) }'; }
printf '{"bench":"verify_random, GPU path over host draw with the GPU model (end-to-end rates)","value":%.3g,"unit":"ratio","machine":"%s"}\n' \
  "$(ratio "GPU path" "host draw, GPU model")" "$machine"
printf '{"bench":"verify_random, GPU path over the CPU model (end-to-end rates)","value":%.3g,"unit":"ratio","machine":"%s"}\n' \
  "$(ratio "GPU path" "host, CPU model")" "$machine"
