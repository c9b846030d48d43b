#!/usr/bin/env bash
# On one H200 (issue #29: hunt at >= 5e8 elements/s end to end), in at most
# 5 minutes: the hunt's GPU path (cases/hunt_gpu.h: every family's tiles
# drawn, packed, run, modelled and compared on the GPU) against the host
# path in the same run.
#   1. hunt --instr all --count 50000 --samples 0 on the GPU path (the tile
#      stream, the default on a GPU backend: instructions in windows), its
#      elements/s and "# stages:" and "# GPU path:" lines (first: the main
#      figure, before a slow build's budget runs out);
#   2. tests/test_hunt_gpu: the device's draw equals the host's bit for bit
#      (every hunted instruction, every family), and the GPU path's counts
#      per family equal the host path's on the same tiles (mma, mma.sp,
#      wgmma, wgmma.sp; one at a time, in windows, in several rounds);
#   3. the same hunt on the host path (--draw family, the 2026-11-29
#      baseline: 2.94e7 elements/s), the same with the CPU model computing
#      the expected answers (--model-on cpu: make bench's ratio, the GPU
#      path over the CPU model in one run) and one instruction at a time
#      (TCSCOPE_HUNT_GPU_SERIAL=1: the same counts as in windows, checked
#      here record against record); then the default --count 400000 with
#      the replay sample on the GPU path;
#   4. the SASS of the GPU model's kernel (tools/model-gpu-sass.sh): integer
#      only, and against the committed histogram; the draw kernel's
#      histogram (no rule; for the record); tests/test_hunt_tile.
# Everything under $OUT/hunt-gpu.tar.xz; $OUT/summary.json the figures.
#
# Usage (from the repository root, $OUT set): bash tools/device/hunt-gpu.sh [PROFILE]
# BUDGET (seconds, default 300) bounds the whole run; SKIP_BUILD=1 reuses build/.
set -u
START=$(date +%s)
BUDGET=${BUDGET:-300}
PROFILE=${1:-h200}
R=/tmp/hunt-gpu
rm -rf "$R"; mkdir -p "$R"
exec > >(tee "$R/run.log") 2>&1
KEEP=15
pack() {
  for f in "$R"/*/hunt.jsonl; do [ -f "$f" ] && xz -9 "$f"; done
  tar cJf "$OUT/hunt-gpu.tar.xz" -C /tmp hunt-gpu
  [ -f "$R/summary.json" ] && cp "$R/summary.json" "$OUT/summary.json"
  ls -la "$OUT"
}

. tools/device-env.sh
if [ -z "${SKIP_BUILD:-}" ]; then
  ( device_build build/tcscope ) || { cp /tmp/build.log "$R/build.log"; echo "build failed"; pack; exit 1; }
  ( device_build build/opt/tests/test_hunt_gpu build/opt/tests/test_hunt_tile ) \
    || { cp /tmp/build.log "$R/build-tests.log"; echo "the tests' build failed: hunting without them"; }
fi
{ device_facts; cat .tcscope-version 2>/dev/null; } | tee "$R/machine.txt"

B=build/tcscope
# the main figure first (a slow build leaves less time for what follows)
device_step hunt_gpu_path 30 $B hunt --backend gpu:0 --profile "$PROFILE" --instr all --count 50000 --samples 0 \
  --out "$R/hunt_gpu_path"
device_step test_hunt_gpu 60 build/opt/tests/test_hunt_gpu
grep -E 'tiles drawn|the same both ways|at once|FAIL|SKIP|not on this GPU|ERROR' "$R/test_hunt_gpu.log" | head -20
device_step hunt_host_path 30 $B hunt --backend gpu:0 --profile "$PROFILE" --instr all --count 50000 --samples 0 \
  --draw family --out "$R/hunt_host_path"
# make bench's ratio: the same hunt with the CPU model computing the expected answers (the host path)
device_step hunt_cpu_model 60 $B hunt --backend gpu:0 --profile "$PROFILE" --instr all --count 50000 --samples 0 \
  --draw family --model-on cpu --out "$R/hunt_cpu_model"
device_step hunt_gpu_serial 30 env TCSCOPE_HUNT_GPU_SERIAL=1 $B hunt --backend gpu:0 --profile "$PROFILE" --instr all \
  --count 50000 --samples 0 --out "$R/hunt_gpu_serial"
device_step hunt_gpu_path_400k 45 $B hunt --backend gpu:0 --profile "$PROFILE" --instr all --count 400000 \
  --out "$R/hunt_gpu_path_400k"
for s in hunt_gpu_path hunt_gpu_serial hunt_host_path hunt_cpu_model hunt_gpu_path_400k; do
  echo "== $s"; grep -E '^# ' "$R/$s.log" | head -6; grep -v ' 0 mismatches' "$R/$s.log" | grep -v '^#' | head -5
done
# the model kernel's SASS: the committed histogram, and the test's integer-only rule on this build's
# (exit 2: no tool; 1: a floating-point or tensor-core opcode, or not the committed histogram)
device_step sass 20 bash -c "tools/model-gpu-sass.sh build/opt/cases/cuda/hunt_gpu.cu.o $R/hunt_draw_sass.txt hg_draw_kernel;
  echo 'draw kernel floating-point opcodes (no rule):'; grep -E '^(F|D|H|MUFU|I2F|F2I)' $R/hunt_draw_sass.txt | head;
  tools/model-gpu-sass.sh build/opt/probes/cuda/model_gpu.cu.o $R/model_gpu_sass.txt || exit 2;
  if grep -E '^(HMMA|HGMMA|IMMA|DMMA|QGMMA|FFMA|FADD|FMUL|DADD|DMUL|DFMA|HADD2|HMUL2|HFMA2|MUFU|I2F|F2I)' $R/model_gpu_sass.txt;
  then echo 'model kernel SASS: floating-point or tensor-core opcodes above'; exit 1; fi;
  echo 'model kernel SASS: integer only';
  diff <(grep -v '^# \(from\|SASS\)' tests/data/model_gpu_sass.txt) <(grep -v '^# \(from\|SASS\)' $R/model_gpu_sass.txt) &&
  echo 'model kernel SASS: as committed'"
tail -4 "$R/sass.log"
device_step test_hunt_tile 20 build/opt/tests/test_hunt_tile

python3 - "$R" <<'PY' || true
import json, os, sys
sys.path.insert(0, "tools/device")
from steps_summary import read, steps
R = sys.argv[1]
out = {"machine": read(R, "machine.txt").strip().splitlines(), "steps": steps(R)}
g, h = out["steps"].get("hunt_gpu_path", {}), out["steps"].get("hunt_host_path", {})
if g.get("elements_per_s") and h.get("elements_per_s"):
    out["gpu_over_host"] = g["elements_per_s"] / h["elements_per_s"]
c = out["steps"].get("hunt_cpu_model", {})
if g.get("elements_per_s") and c.get("elements_per_s"):   # the GPU path over the CPU model, in one run
    out["gpu_path_over_cpu_model"] = g["elements_per_s"] / c["elements_per_s"]

def counts(name):
    """{instr: (path, elements, families)} of a hunt record, or None."""
    p = os.path.join(R, name, "hunt.jsonl")
    try:
        text = open(p).read()
    except OSError:
        return None
    got = {}
    for line in text.splitlines():
        o = json.loads(line)
        if o.get("kind") == "hunt":
            got[o["instr"]] = (o.get("path"), o["elements"], json.dumps(o["families"], sort_keys=True))
    return got

for name, st in out["steps"].items():   # the GPU path's own line (cli/cmd_hunt.c)
    lines = [l[2:] for l in read(R, name + ".log").splitlines() if l.startswith("# GPU path:")]
    if lines:
        st["gpu_path"] = lines[-1]
w, s1 = counts("hunt_gpu_path"), counts("hunt_gpu_serial")
if w is not None and s1 is not None:
    out["windows_equal_serial"] = w == s1
    out["gpu_path_instructions"] = sum(1 for v in w.values() if v[0] == "gpu")
    out["instructions"] = len(w)
out["target_elements_per_s"] = 5e8
json.dump(out, open(os.path.join(R, "summary.json"), "w"), indent=1)
print(json.dumps(out, indent=1)[:4000])
PY
echo "total: $(( $(date +%s) - START )) s"
pack
