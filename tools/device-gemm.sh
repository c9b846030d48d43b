#!/usr/bin/env bash
# On the GPU machine: tcscope gemm, tcscope's own wgmma kernel
# (tcscope-wgmma-f16, tcscope-wgmma-e4m3; its structure is known by
# construction, so its records say whether the inference recovers it) and
# every cuBLASLt path, the K sweep (16..65536, powers of 4, M = N = 256) and
# one 4096^3 case, with the structure inference, the tf32 input conversion
# inferred, and the predictions. Each record carries its first 512 sampled
# outputs (positions and bits): committed as
# reports/baselines/h100-gemm.jsonl.gz, CPU tests replay them
# (tests/test_gemm_replay.c). Under $OUT:
#   h100-gemm.jsonl.gz   one tcscope-gemm record per case (reports/SCHEMA.md)
#   gemm-trees.tgz       the inferred structure of each case as SVG
#   gemm.log             build time, progress, a summary table
# Usage: tools/device-gemm.sh [SAMPLES] [TIME_LIMIT_S]
# Time goes mostly to the exact errors and the predictions, samples x K a
# case: at 10000 samples an H100 run (2026-11-24) took ~2.7 s a case at
# K = 4096 and ~11 s at 16384 and stopped at its 170 s limit before the
# K = 65536 row (60 of 72 cases), hence 2500 samples; at 2500 a 250 s limit
# still stopped in that row (66 of 72). The own kernel runs first (its 16
# cases, at most OWN_LIMIT s), then the cuBLASLt paths with what is left of
# TIME_LIMIT_S (default 410: the K = 65536 row needs ~15 s a path, an
# estimate from that run, not measured per case).
set -u
SAMPLES=${1:-2500}
LIMIT=${2:-410}
OWN_LIMIT=${OWN_LIMIT:-150}
LOG="$OUT/gemm.log"
. tools/device-env.sh
device_build build/tcscope | tee -a "$LOG"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >> "$LOG" 2>&1
t0=$(date +%s)
# Records are printed case by case: a run cut by the limit keeps the cases it finished.
OWN=tcscope-wgmma-f16,tcscope-wgmma-e4m3
LIBRARY=f16,bf16,tf32,e4m3,e4m3-fast,e5m2,e5m2-fast,f32,f32-bf16x9
timeout "$OWN_LIMIT" build/tcscope gemm --json --infer --samples "$SAMPLES" --warmup 5 --reps 20 --seed 1 \
  --path "$OWN" > /tmp/gemm.jsonl 2>> "$LOG"
echo "gemm own rc=$? cases=$(wc -l < /tmp/gemm.jsonl) secs=$(( $(date +%s) - t0 ))" | tee -a "$LOG"
left=$(( LIMIT - ($(date +%s) - t0) ))
timeout "$(( left > 1 ? left : 1 ))" build/tcscope gemm --json --infer --samples "$SAMPLES" --warmup 5 --reps 20 \
  --seed 1 --path "$LIBRARY" >> /tmp/gemm.jsonl 2>> "$LOG"
echo "gemm cublaslt rc=$? cases=$(wc -l < /tmp/gemm.jsonl) secs=$(( $(date +%s) - t0 ))" | tee -a "$LOG"
gzip -9 < /tmp/gemm.jsonl > "$OUT/h100-gemm.jsonl.gz"
echo "h100-gemm.jsonl.gz: $(wc -c < "$OUT/h100-gemm.jsonl.gz") bytes" | tee -a "$LOG"
python3 - /tmp/gemm.jsonl <<'PY' 2>&1 | tee -a "$LOG"
import json, os, sys
os.makedirs("/tmp/gemm-trees", exist_ok=True)
# algo: cuBLASLt's algorithm id, "own" for tcscope's kernel; built: whether the
# inferred structure is the one the own kernel has by construction
print("%-18s %6s %6s %6s %10s %9s %9s %6s %6s %6s %5s %5s %-10s %s" % ("path", "M", "K", "algo", "TFLOP/s", "ulp/orig",
      "ulp/rnd", "chunk", "promo", "splitK", "ok", "built", "inputs", "predicted"))
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "skipped" in r or "error" in r:
        print("%-18s %6d %6d  %s" % (r["path"], r["m"], r["k"], r.get("skipped") or "ERROR " + r.get("error")))
        continue
    s = r.get("structure", {}); i = s.get("inferred", {}); p = s.get("prediction", {})
    t = r.get("timing", {})
    if "tree_svg" in s:
        open("/tmp/gemm-trees/%s-%dx%dx%d.svg" % (r["path"], r["m"], r["n"], r["k"]), "w").write(s["tree_svg"])
    c = s.get("input_conversion", {})
    # tf32: the conversion used, "?" when the outputs did not single it out
    cv = (c.get("used", "") + ("" if c.get("decided", True) else "?")) if c else ""
    print("%-18s %6d %6d %6s %10.1f %9.3g %9.3g %6s %6s %6s %5s %5s %-10s %s" % (
        r["path"], r["m"], r["k"], r["algo"]["algo_id"] if "algo" in r else "own", t.get("tflops", 0),
        r["error_vs_original"]["median_ulps"], r["error_vs_rounded"]["median_ulps"],
        i.get("chunk"), i.get("promote"), i.get("splitk"), s.get("consistent"), s.get("matches_construction", ""), cv,
        "%d/%d" % (p["bit_exact"], p["n"]) if p else s.get("error", "")))
    if c.get("candidates") and len(c["candidates"]) > 1:
        print("%-18s %s" % ("", "  ".join("%s %d/%d" % (x["conversion"], x["bit_exact"], c["outputs_tried"])
                                          for x in c["candidates"])))
PY
tar czf "$OUT/gemm-trees.tgz" -C /tmp gemm-trees
tail -3 "$LOG"
