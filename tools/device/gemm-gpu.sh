#!/usr/bin/env bash
# On one H200 (issue #29 item 2, gemm prediction and choose), within
# BUDGET seconds (default 230: under 4 minutes): the GEMM walk's kernel
# (probes/cuda/model_gpu_gemm.cu) built, its SASS histogram written, then tests/test_gemm_gpu.c on the GPU (the
# histogram holds integer opcodes only; every output of 10 GEMMs and
# choose's evaluation, GPU walk = CPU predictor), make bench's gemm
# prediction figures (bench_gemm_gpu: CPU model vs GPU model, products/s
# and the ratio, measured in the same run), every output of the 8192^3 GEMM
# on the GPU (bench_gemm_gpu 8192 8192, in what time is left), and one
# choose run whose library choices name the model that computed them
# (model_on, model_outputs). Everything in $OUT/gemm-gpu.tar.xz;
# $OUT/summary.json the figures, $OUT/run.log the log. The histogram
# (gemm-gpu/model_gpu_gemm_sass.txt) is committed as
# tests/data/model_gpu_gemm_sass.txt, the bench lines beside make bench's.
#
# Usage (from the repository root, $OUT set): bash tools/device/gemm-gpu.sh [BUDGET]
# SKIP_BUILD=1 reuses build/ (a build of the same tree). The 8192^3 step gets
# what is left of BUDGET less 15 s for the packing (skipped under 30 s; a
# step cut short keeps the lines it printed).
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
  tar cJf "$OUT/gemm-gpu.tar.xz" -C /tmp gemm-gpu
  [ -f "$R/summary.json" ] && cp "$R/summary.json" "$OUT/summary.json"
  cp "$R/run.log" "$OUT/run.log"
  ls -la "$OUT"
}

. tools/device-env.sh
if [ -z "${SKIP_BUILD:-}" ]; then
  ( device_build build/tcscope build/opt/tests/test_gemm_gpu build/opt/bench/bench_gemm_gpu ) || { cp /tmp/build.log "$R/build.log"; echo "build failed"; pack; exit 1; }
fi
device_facts | tee "$R/machine.txt"; cat .tcscope-version 2>/dev/null | tee -a "$R/machine.txt"

# the walk kernel's SASS (test_gemm_gpu checks it)
if tools/model-gpu-sass.sh build/opt/probes/cuda/model_gpu_gemm.cu.o "$R/model_gpu_gemm_sass.txt" \
     tc_model_gpu_gemm_kernel > "$R/sass.log" 2>&1; then
  export TC_MODEL_GPU_GEMM_SASS=$R/model_gpu_gemm_sass.txt
fi
cat "$R/sass.log"
# the SASS, then the GPU walk against the CPU predictor on every output
step test_gemm_gpu 60 build/opt/tests/test_gemm_gpu
grep -E 'GEMM walk|OK|PASSED|FAILED|SKIPPED|ERROR|differ' "$R/test_gemm_gpu.log"
# make bench's gemm prediction figures
step bench_gemm_gpu 60 build/opt/bench/bench_gemm_gpu
cat "$R/bench_gemm_gpu.log"
# choose with the GPU model computing the library paths' outputs (references on the CPU)
step choose 90 build/tcscope choose --m 8192 --n 8192 --k 8192 --max-rel-err 1% --json
grep -oE '"(candidate|model_on)": *"[^"]*"|"model_outputs": *\{[^}]*\}' "$R/choose.log" | head -30
# every output of 8192^3, f16 and e4m3, on the GPU (the CPU's share at 128 x 128 x 8192)
secs=$(( BUDGET - 15 - ($(date +%s) - START) ))
if [ "$secs" -ge 30 ]; then
  step bench_gemm_8192 "$secs" build/opt/bench/bench_gemm_gpu 8192 8192
  cat "$R/bench_gemm_8192.log"
else
  echo "bench_gemm_8192: skipped (no time left)"
fi

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
for b in ("bench_gemm_gpu", "bench_gemm_8192"):
    out[b] = [json.loads(l) for l in read(b + ".log").splitlines() if l.startswith("{")]
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
