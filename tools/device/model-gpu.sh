#!/usr/bin/env bash
# On one H200 (issue #29), in one run of at most 8 minutes: the GPU model
# built, its SASS checked, where the time of hunt, verify and regress goes
# (each command's "# stages:" line: draw, execute, model (the GPU model's
# copies, kernel, CPU share), compare), the GPU model against the CPU model
# in the same run (hunt and verify elements/s: make bench's bench_hunt
# ratios), an audit of the catalogue timed, then the equivalence run
# (tools/model_gpu_check.c: GPU model = CPU model on every instruction x hunt
# family) in what time is left, its element count stated. Everything under
# $OUT/model-gpu.tar.xz; $OUT/summary.json the figures, $OUT/run.log the log.
# The equivalence record (model-gpu/model-gpu-check.json.gz in the archive)
# is committed as reports/baselines/h200-model-gpu-check.json.gz when it
# covers more elements than the committed one (tests/test_model_gpu.c
# replays it through the CPU model).
#
# Usage (from the repository root, $OUT set):
#   bash tools/device/model-gpu.sh [PROFILE] [HUNT_COUNT]
# BUDGET (seconds, default 450) bounds the whole run; SKIP_BUILD=1 reuses build/.
set -u
START=$(date +%s)
BUDGET=${BUDGET:-450}
PROFILE=${1:-h200}
HUNT_N=${2:-50000}
R=/tmp/model-gpu
rm -rf "$R"; mkdir -p "$R"
exec > >(tee "$R/run.log") 2>&1
# the steps: device_step (tools/device-env.sh), KEEP s kept for the packing and the equivalence run
KEEP=40
pack() {
  rm -rf "$R"/regress*/baseline.jsonl "$R"/audit*/parts "$R"/audit*/*.html "$R"/regress*/refit/*/*.html
  device_pack model-gpu
}

. tools/device-env.sh
if [ -z "${SKIP_BUILD:-}" ]; then
  ( device_build build/tcscope build/opt/tools/model_gpu_check build/opt/tests/test_model_gpu \
      build/opt/bench/bench_hunt ) || { cp /tmp/build.log "$R/build.log"; echo "build failed"; pack; exit 1; }
fi
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  lscpu | grep -E 'Model name|^CPU\(s\)'; cat .tcscope-version 2>/dev/null; } | tee "$R/machine.txt"

# the kernel's SASS (integer opcodes only), then the GPU model's own tests on this GPU
if tools/model-gpu-sass.sh build/opt/probes/cuda/model_gpu.cu.o "$R/model_gpu_sass.txt" > "$R/sass.log" 2>&1; then
  export TC_MODEL_GPU_SASS=$R/model_gpu_sass.txt
fi
cat "$R/sass.log"
device_step test_model_gpu 40 build/opt/tests/test_model_gpu
grep -E 'GPU model =|PASSED|FAILED|SKIPPED' "$R/test_model_gpu.log"

# hunt end to end with each model (the CPU's on a fifth of the count: its
# elements/s is the figure), the same backend and seed
B=build/tcscope
device_step hunt-gpu 60 $B hunt --backend gpu:0 --profile "$PROFILE" --instr all --count "$HUNT_N" --samples 0 --model-on gpu
device_step hunt-cpu 45 $B hunt --backend gpu:0 --profile "$PROFILE" --instr all --count $((HUNT_N / 5)) --samples 0 \
  --model-on cpu
# verify: one instruction, random elements and a sixteenth of them per hunt family
V=mma.m16n8k16.f32.f16.f16.f32
device_step verify-gpu 40 $B verify --backend gpu:0 --profile "$PROFILE" --instr $V --count 20000000 --model-on gpu
device_step verify-cpu 40 $B verify --backend gpu:0 --profile "$PROFILE" --instr $V --count 4000000 --model-on cpu
# regress against the committed baseline, with timing (the target: at most 30 s), GPU model
device_step regress-gpu 60 $B regress --backend gpu:0 --out "$R/regress-gpu"
tail -2 "$R/regress-gpu.log"
# make bench's model figures: hunt and verify elements/s, GPU model over CPU model
device_step bench_hunt 50 build/opt/bench/bench_hunt
grep ratio "$R/bench_hunt.log"
# the catalogue's audit with the GPU model, 1e6 random and 62500 per hunt family per instruction
device_step audit-gpu 80 $B audit --backend gpu:0 --instr all --no-timing --out "$R/audit-gpu" --force
echo "audit: $(grep -c ' VERIFIED ' "$R/audit-gpu.log") VERIFIED, $(grep -c ' MISMATCH ' "$R/audit-gpu.log") MISMATCH lines"

# the equivalence run in what is left: GPU model vs CPU model the whole time
secs=$(( $(device_left) - 45 ))
if [ "$secs" -ge 20 ]; then
  t0=$(date +%s)
  timeout $((secs + 30)) build/opt/tools/model_gpu_check --out "$R" --profile "$PROFILE" --seconds "$secs" \
    --cpu-seconds "$secs" --hw gpu:0 > "$R/check.log" 2>&1
  echo "model_gpu_check: exit $? in $(( $(date +%s) - t0 )) s (budget $secs s)"; tail -5 "$R/check.log"
  [ -f "$R/model-gpu-check.json" ] && gzip -9f "$R/model-gpu-check.json"
else
  echo "model_gpu_check: skipped (no time left)"
fi

python3 - "$R" <<'PY' || true
import json, os, sys
sys.path.insert(0, "tools/device")
from steps_summary import read, steps
R = sys.argv[1]
out = {"machine": read(R, "machine.txt").strip().splitlines()}
if read(R, "times.txt").strip():
    out["steps"] = steps(R, int)
s = out.get("steps", {})
for cmd in ("hunt", "verify"):
    g, c = s.get(cmd + "-gpu", {}).get("elements_per_s"), s.get(cmd + "-cpu", {}).get("elements_per_s")
    if g and c:
        out[cmd + "_gpu_over_cpu"] = g / c
out["bench_hunt"] = [json.loads(l) for l in read(R, "bench_hunt.log").splitlines() if l.startswith("{")]
try:
    import gzip
    rec = json.loads(gzip.open(os.path.join(R, "model-gpu-check.json.gz")).readline())
    out["equivalence"] = {k: rec.get(k) for k in ("seconds", "gpu_vs_cpu", "gpu_vs_hw", "pairs", "skipped")}
except Exception as e:
    out["equivalence"] = {"error": str(e)}
json.dump(out, open(os.path.join(R, "summary.json"), "w"), indent=1)
print(json.dumps({k: v for k, v in out.items() if k != "bench_hunt"}, indent=1)[:4000])
PY
echo "total: $(( $(date +%s) - START )) s"
pack
