#!/usr/bin/env bash
# On one H200 (issue #29 item 2, gemm prediction and choose), in under 4
# minutes: the GEMM walk's kernel (probes/cuda/model_gpu_gemm.cu) built, its
# SASS histogram written and checked (integer opcodes only:
# tests/test_model_gpu.c with TC_MODEL_GPU_GEMM_SASS), tests/test_gemm_gpu.c
# on the GPU (every output of 10 GEMMs and choose's evaluation, GPU walk =
# CPU predictor), make bench's gemm prediction figures (bench_gemm_gpu: CPU
# model vs GPU model, products/s and the ratio, measured in the same run),
# and one choose run whose library choices name the model that computed
# them (model_on, model_outputs). Everything in $OUT/gemm-gpu.tar.xz;
# $OUT/summary.json the figures, $OUT/run.log the log. The histogram
# (gemm-gpu/model_gpu_gemm_sass.txt) is committed as
# tests/data/model_gpu_gemm_sass.txt, the bench lines beside make bench's.
#
# Usage (from the repository root, $OUT set): bash tools/device/gemm-gpu.sh
# SKIP_BUILD=1 reuses build/ (a build of the same tree).
set -u
START=$(date +%s)
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
  tar cJf "$OUT/gemm-gpu.tar.xz" -C /tmp gemm-gpu
  [ -f "$R/summary.json" ] && cp "$R/summary.json" "$OUT/summary.json"
  cp "$R/run.log" "$OUT/run.log"
  ls -la "$OUT"
}

. tools/device-env.sh
if [ -z "${SKIP_BUILD:-}" ]; then
  ( device_build build/tcscope build/opt/tests/test_gemm_gpu build/opt/tests/test_model_gpu \
      build/opt/bench/bench_gemm_gpu ) || { cp /tmp/build.log "$R/build.log"; echo "build failed"; pack; exit 1; }
fi
device_facts | tee "$R/machine.txt"; cat .tcscope-version 2>/dev/null | tee -a "$R/machine.txt"

# the walk kernel's SASS, checked by the model's own SASS test
if tools/model-gpu-sass.sh build/opt/probes/cuda/model_gpu_gemm.cu.o "$R/model_gpu_gemm_sass.txt" \
     tc_model_gpu_gemm_kernel > "$R/sass.log" 2>&1; then
  export TC_MODEL_GPU_GEMM_SASS=$R/model_gpu_gemm_sass.txt
fi
cat "$R/sass.log"
step test_model_gpu 60 build/opt/tests/test_model_gpu
grep -E 'gemm_sass|PASSED|FAILED|SKIPPED|ERROR' "$R/test_model_gpu.log"
# the GPU walk against the CPU predictor on every output
step test_gemm_gpu 60 build/opt/tests/test_gemm_gpu
grep -E 'GEMM walk|OK|PASSED|FAILED|SKIPPED|ERROR|differ' "$R/test_gemm_gpu.log"
# make bench's gemm prediction figures
step bench_gemm_gpu 90 build/opt/bench/bench_gemm_gpu
cat "$R/bench_gemm_gpu.log"
# choose with the GPU model computing the library paths' outputs (references on the CPU)
step choose 60 build/tcscope choose --m 8192 --n 8192 --k 8192 --max-rel-err 1% --json
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
ch = []
for l in read("choose.log").splitlines():
    try:
        o = json.loads(l)
    except ValueError:
        continue
    if o.get("source") == "library" and "model_on" in o:
        ch.append({k: o.get(k) for k in ("candidate", "model_on", "model_outputs", "error", "seconds")})
out["choose_library"] = ch
json.dump(out, open(os.path.join(R, "summary.json"), "w"), indent=1)
print(json.dumps(out, indent=1)[:4000])
PY
echo "total: $(( $(date +%s) - START )) s"
pack
