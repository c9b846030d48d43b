#!/usr/bin/env bash
# On one H200 (issue #29), in about 3 minutes: the GPU model's wide kernel
# (f64 operands, probes/cuda/model_gpu.cu's tc_model_gpu_wide_kernel, which
# runs oracle/model_wide_core.h, the CPU's model_dot_wide).
#   1. both model kernels' SASS histograms with this machine's cuobjdump:
#      integer only (tests/test_model_gpu.c's rule) and against the committed
#      ones (tests/data/model_gpu_sass.txt, tests/data/model_gpu_wide_sass.txt);
#   2. tests/test_model_gpu on this GPU: the wide kernel equals the CPU model
#      on hunt tiles of the H100 profile's f64 instructions and under 300
#      random wide settings (its element counts in the log);
#   3. hunt of the four f64 mma instructions with the GPU model (the default)
#      and with the CPU model (--model-on cpu), the same count and seed: the
#      elements/s of each, and the same mismatch counts.
# Everything under $OUT/model-gpu-wide.tar.xz; $OUT/summary.json the figures.
#
# Usage (from the repository root, $OUT set): bash tools/device/model-gpu-wide.sh [PROFILE] [COUNT]
# BUDGET (seconds, default 240) bounds the whole run; SKIP_BUILD=1 reuses build/.
set -u
START=$(date +%s)
BUDGET=${BUDGET:-240}
PROFILE=${1:-h200}
COUNT=${2:-400000}
R=/tmp/model-gpu-wide
rm -rf "$R"; mkdir -p "$R"
exec > >(tee "$R/run.log") 2>&1
KEEP=10

. tools/device-env.sh
if [ -z "${SKIP_BUILD:-}" ]; then
  ( device_build build/tcscope build/opt/tests/test_model_gpu ) \
    || { cp /tmp/build.log "$R/build.log"; echo "build failed"; device_pack model-gpu-wide; exit 1; }
fi
{ device_facts; cat .tcscope-version 2>/dev/null; } | tee "$R/machine.txt"

O=build/opt/probes/cuda/model_gpu.cu.o
for k in tc_model_gpu_kernel:model_gpu_sass tc_model_gpu_wide_kernel:model_gpu_wide_sass; do
  kernel=${k%%:*} file=${k#*:}
  if tools/model-gpu-sass.sh "$O" "$R/$file.txt" "$kernel"; then
    if diff <(grep -v '^# \(from\|SASS\)' "tests/data/$file.txt") <(grep -v '^# \(from\|SASS\)' "$R/$file.txt") \
        > "$R/$file.diff"; then
      echo "$kernel SASS: as committed"
    else
      echo "$kernel SASS: differs from tests/data/$file.txt (see $file.diff)"
    fi
  fi
done
[ -f "$R/model_gpu_sass.txt" ] && export TC_MODEL_GPU_SASS=$R/model_gpu_sass.txt
[ -f "$R/model_gpu_wide_sass.txt" ] && export TC_MODEL_GPU_WIDE_SASS=$R/model_gpu_wide_sass.txt
device_step test_model_gpu 90 build/opt/tests/test_model_gpu
grep -E 'GPU model =|wide kernel =|PASSED|FAILED|SKIPPED|ERROR' "$R/test_model_gpu.log"

F64=mma.m8n8k4.f64.f64.f64.f64,mma.m16n8k4.f64.f64.f64.f64,mma.m16n8k8.f64.f64.f64.f64,mma.m16n8k16.f64.f64.f64.f64
B=build/tcscope
device_step hunt_f64_gpu_model 40 $B hunt --backend gpu:0 --profile "$PROFILE" --instr "$F64" --count "$COUNT" \
  --samples 0 --out "$R/hunt_f64_gpu_model"
device_step hunt_f64_cpu_model 60 $B hunt --backend gpu:0 --profile "$PROFILE" --instr "$F64" --count "$COUNT" \
  --samples 0 --model-on cpu --out "$R/hunt_f64_cpu_model"
for s in hunt_f64_gpu_model hunt_f64_cpu_model; do
  echo "== $s"; grep -E '^# ' "$R/$s.log" | head -6; grep -v '^#' "$R/$s.log" | head -6
done

python3 - "$R" <<'PY' || true
import json, os, sys
sys.path.insert(0, "tools/device")
from steps_summary import read, steps
R = sys.argv[1]
out = {"machine": read(R, "machine.txt").strip().splitlines(), "steps": steps(R)}
g, c = out["steps"].get("hunt_f64_gpu_model", {}), out["steps"].get("hunt_f64_cpu_model", {})
if g.get("elements_per_s") and c.get("elements_per_s"):
    out["f64_gpu_model_over_cpu_model"] = g["elements_per_s"] / c["elements_per_s"]
out["test_model_gpu"] = [l for l in read(R, "test_model_gpu.log").splitlines()
                         if "GPU model =" in l or "wide kernel =" in l or "PASSED" in l or "FAILED" in l]
out["sass"] = [l for l in read(R, "run.log").splitlines() if " SASS: " in l]

def counts(name):
    """{instr: (elements, families)} of a hunt record, or None."""
    try:
        text = open(os.path.join(R, name, "hunt.jsonl")).read()
    except OSError:
        return None
    return {o["instr"]: (o["elements"], json.dumps(o["families"], sort_keys=True))
            for o in map(json.loads, text.splitlines()) if o.get("kind") == "hunt"}

a, b = counts("hunt_f64_gpu_model"), counts("hunt_f64_cpu_model")
if a is not None and b is not None:
    out["gpu_model_counts_equal_cpu_model"] = a == b
json.dump(out, open(os.path.join(R, "summary.json"), "w"), indent=1)
print(json.dumps(out, indent=1)[:4000])
PY
for f in "$R"/*/hunt.jsonl; do [ -f "$f" ] && xz -9 "$f"; done
echo "total: $(( $(date +%s) - START )) s"
device_pack model-gpu-wide
