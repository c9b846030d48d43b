#!/usr/bin/env bash
# On one H200 (issue #29 item 2, gemm prediction and choose), within
# BUDGET seconds (default 230: under 4 minutes): the GEMM walk's kernel
# (probes/cuda/model_gpu_gemm.cu) and the exact outputs' (model_gpu_exact.cu)
# built, their SASS histograms written, then tests/test_gemm_gpu.c on the
# GPU (the histogram holds integer opcodes only; every output of 10 GEMMs and
# choose's evaluation, GPU walk = CPU predictor), tests/test_exact_gpu.c
# (its histogram too; the GPU's exact outputs = the MPFR oracle), make bench's gemm
# prediction figures (bench_gemm_gpu: CPU model vs GPU model, products/s
# and the ratio, measured in the same run), a sampled choose run whose
# library choices name the model that computed them (model_on,
# model_outputs, references_on). choose on EVERY output, with where its
# time goes, is tools/device/choose-gpu.sh's. Everything in $OUT/gemm-gpu.tar.xz;
# $OUT/summary.json the figures, $OUT/run.log the log. The histograms
# (gemm-gpu/model_gpu_{gemm,exact}_sass.txt) are committed as
# tests/data/model_gpu_{gemm,exact}_sass.txt.
#
# Usage (from the repository root, $OUT set): bash tools/device/gemm-gpu.sh [BUDGET]
# SKIP_BUILD=1 reuses build/ (a build of the same tree).
set -u
START=$(date +%s)
BUDGET=${1:-230}
R=/tmp/gemm-gpu
rm -rf "$R"; mkdir -p "$R"
exec > >(tee "$R/run.log") 2>&1
# step NAME SECONDS CMD..: CMD under a timeout, its output in $R/NAME.log,
# its exit status and wall time in $R/times.txt
step() {
  local name=$1 secs=$2; shift 2
  local t0 t1 rc wall; t0=$(date +%s.%N)
  timeout "$secs" "$@" > "$R/$name.log" 2>&1
  rc=$?; t1=$(date +%s.%N)
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  echo "$name $rc $wall" >> "$R/times.txt"
  echo "$name: exit $rc in $wall s (limit $secs s)"
}
pack() {
  device_pack gemm-gpu
}

. tools/device-env.sh
if [ -z "${SKIP_BUILD:-}" ]; then
  ( device_build build/tcscope build/opt/tests/test_gemm_gpu build/opt/tests/test_exact_gpu \
      build/opt/bench/bench_gemm_gpu ) || { cp /tmp/build.log "$R/build.log"; echo "build failed"; pack; exit 1; }
fi
device_facts | tee "$R/machine.txt"; cat .tcscope-version 2>/dev/null | tee -a "$R/machine.txt"

# the walk kernel's SASS (test_gemm_gpu checks it)
if tools/model-gpu-sass.sh build/opt/probes/cuda/model_gpu_gemm.cu.o "$R/model_gpu_gemm_sass.txt" \
     tc_model_gpu_gemm_kernel > "$R/sass.log" 2>&1; then
  export TC_MODEL_GPU_GEMM_SASS=$R/model_gpu_gemm_sass.txt
fi
if tools/model-gpu-sass.sh build/opt/probes/cuda/model_gpu_exact.cu.o "$R/model_gpu_exact_sass.txt" \
     tc_model_gpu_exact_kernel >> "$R/sass.log" 2>&1; then
  export TC_MODEL_GPU_EXACT_SASS=$R/model_gpu_exact_sass.txt
fi
cat "$R/sass.log"
# the SASS, then the GPU walk against the CPU predictor on every output
step test_gemm_gpu 60 build/opt/tests/test_gemm_gpu
grep -E 'GEMM walk|OK|PASSED|FAILED|SKIPPED|ERROR|differ' "$R/test_gemm_gpu.log"
# the exact outputs (choose's references) against the MPFR oracle
step test_exact_gpu 30 build/opt/tests/test_exact_gpu
grep -E 'exact outputs|OK|PASSED|FAILED|SKIPPED|ERROR' "$R/test_exact_gpu.log"
# make bench's gemm prediction figures
step bench_gemm_gpu 60 build/opt/bench/bench_gemm_gpu
cat "$R/bench_gemm_gpu.log"
# choose (10^4 sampled outputs) with the GPU model computing the library paths' outputs and the references
# --gpu H100: the committed records are the H100's; on another GPU their structures would not be evaluated
step choose 90 build/tcscope choose --m 8192 --n 8192 --k 8192 --max-rel-err 1% --gpu H100 --json
grep -oE '"(candidate|model_on)": *"[^"]*"|"model_outputs": *\{[^}]*\}' "$R/choose.log" | head -30
python3 - "$R" <<'PY' || true
import json, os, re, sys
R = sys.argv[1]
def read(name):
    try:
        return open(os.path.join(R, name)).read()
    except OSError:
        return ""
out = {"machine": read("machine.txt").strip().splitlines(), "steps": {}}
for line in read("times.txt").splitlines():
    name, rc, wall = line.split()
    out["steps"][name] = {"exit": int(rc), "wall_s": float(wall)}
out["bench_gemm_gpu"] = [json.loads(l) for l in read("bench_gemm_gpu.log").splitlines() if l.startswith("{")]
out["sass"] = read("sass.log").strip()
for name in ("choose",):
    ch = []
    for l in read(name + ".log").splitlines():
        try:
            o = json.loads(l)
        except ValueError:
            continue
        if o.get("source") == "library" and "model_on" in o:
            ch.append({k: o.get(k) for k in ("candidate", "model_on", "model_outputs", "references_on", "error",
                                             "seconds")})
            ch[-1]["outputs"] = (o.get("workload") or {}).get("outputs")
    out[name] = ch
json.dump(out, open(os.path.join(R, "summary.json"), "w"), indent=1)
print(json.dumps(out, indent=1)[:4000])
PY
echo "total: $(( $(date +%s) - START )) s"
pack
