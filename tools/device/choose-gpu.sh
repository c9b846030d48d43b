#!/usr/bin/env bash
# On one H200 (issue #29 target 3: choose computing every output of an
# M x N x K GEMM up to 8192^3 for each candidate), in at most BUDGET seconds
# (default 360: 6 minutes): built; the walk and exact kernels' SASS
# histograms; tests/test_gemm_gpu.c and tests/test_exact_gpu.c on the GPU
# (choose's evaluation with the walk and the references on the GPU = the
# CPU's statistics); make bench's choose figure (bench_choose_gpu: seconds
# per candidate on every output of S x S x K with the GPU model, the CPU
# model's rate at 128 x 128 x K in the same run, their ratio; each with its
# stages); then `tcscope choose` on EVERY output at 4096^3 and at 8192^3,
# each library path's "# stages:" line (inputs, model: GPU kernels, copies,
# CPU; references computed or shared; metrics) on stderr as it is measured,
# the record at the end with the same stages per choice. Everything in
# $OUT/choose-gpu.tar.xz; $OUT/summary.json the figures, $OUT/run.log the log.
#
# Usage (from the repository root, $OUT set): bash tools/device/choose-gpu.sh [BENCH_S]
# BENCH_S (default 4096): the bench's S = K. SKIP_BUILD=1 reuses build/.
set -u
START=$(date +%s)
BUDGET=${BUDGET:-360}
BENCH_S=${1:-4096}
R=/tmp/choose-gpu
rm -rf "$R"; mkdir -p "$R"
exec > >(tee "$R/run.log") 2>&1
KEEP=12   # seconds kept for the summary and the packing (device_step)

. tools/device-env.sh
if [ -z "${SKIP_BUILD:-}" ]; then
  ( device_build build/tcscope build/opt/tests/test_gemm_gpu build/opt/tests/test_exact_gpu \
      build/opt/bench/bench_choose_gpu ) || { cp /tmp/build.log "$R/build.log"; echo "build failed"; device_pack choose-gpu; exit 1; }
fi
device_facts | tee "$R/machine.txt"; cat .tcscope-version 2>/dev/null | tee -a "$R/machine.txt"

# the kernels' SASS (the tests check it: integer opcodes only)
if tools/model-gpu-sass.sh build/opt/probes/cuda/model_gpu_gemm.cu.o "$R/model_gpu_gemm_sass.txt" \
     tc_model_gpu_gemm_kernel > "$R/sass.log" 2>&1; then
  export TC_MODEL_GPU_GEMM_SASS=$R/model_gpu_gemm_sass.txt
fi
if tools/model-gpu-sass.sh build/opt/probes/cuda/model_gpu_exact.cu.o "$R/model_gpu_exact_sass.txt" \
     tc_model_gpu_exact_kernel >> "$R/sass.log" 2>&1; then
  export TC_MODEL_GPU_EXACT_SASS=$R/model_gpu_exact_sass.txt
fi
cat "$R/sass.log"
device_step test_gemm_gpu 60 build/opt/tests/test_gemm_gpu
grep -E 'GEMM walk|PASSED|FAILED|SKIPPED|ERROR|differ' "$R/test_gemm_gpu.log"
device_step test_exact_gpu 30 build/opt/tests/test_exact_gpu
grep -E 'exact outputs|PASSED|FAILED|SKIPPED|ERROR' "$R/test_exact_gpu.log"
# make bench's choose figure
device_step bench_choose_gpu 75 build/opt/bench/bench_choose_gpu "$BENCH_S" "$BENCH_S"
cat "$R/bench_choose_gpu.log"
# choose on every output: the library paths' walk and the exact references on the GPU
# (--gpu H100: the committed records are the H100's; on another GPU their structures would not be evaluated)
every() {   # every NAME S LIMIT
  device_step "$1" "$3" build/tcscope choose --m "$2" --n "$2" --k "$2" --outputs "$2" --max-rel-err 1% --gpu H100 --json
  grep -E '^# stages:' "$R/$1.log"
}
every choose_all_4096 4096 100
every choose_all_8192 8192 400

python3 - "$R" <<'PY' || true
import json, os, sys
sys.path.insert(0, "tools/device")
from steps_summary import read, steps
R = sys.argv[1]
out = {"machine": read(R, "machine.txt").strip().splitlines(), "steps": steps(R, int),
       "bench_choose_gpu": [json.loads(l) for l in read(R, "bench_choose_gpu.log").splitlines() if l.startswith("{")],
       "sass": read(R, "sass.log").strip()}
for name in ("choose_all_4096", "choose_all_8192"):
    log = read(R, name + ".log").splitlines()
    ch = []
    for l in log:
        try:
            o = json.loads(l)
        except ValueError:
            continue
        if o.get("source") == "library" and "stages" in o:
            ch.append({k: o.get(k) for k in ("candidate", "model_on", "model_outputs", "references_on", "error",
                                             "seconds", "stages")})
    out[name] = {"choices": ch, "stages_lines": [l[2:] for l in log if l.startswith("# stages:")]}
json.dump(out, open(os.path.join(R, "summary.json"), "w"), indent=1)
print(json.dumps(out, indent=1)[:6000])
PY
echo "total: $(( $(date +%s) - START )) s"
device_pack choose-gpu
