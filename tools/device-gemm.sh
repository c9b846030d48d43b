#!/usr/bin/env bash
# On the GPU machine: tcscope gemm, every cuBLASLt path, the K sweep
# (16..65536, powers of 4, M = N = 256) and one 4096^3 case, with the
# structure inference, the tf32 input conversion inferred, and the
# predictions. Each record carries its first 512 sampled outputs (positions
# and bits): committed as reports/baselines/h100-gemm.jsonl.gz, CPU tests
# replay them (tests/test_gemm_replay.c). Under $OUT:
#   h100-gemm.jsonl.gz   one tcscope-gemm record per case (reports/SCHEMA.md)
#   gemm-trees.tgz       the inferred structure of each case as SVG
#   gemm.log             build time, progress, a summary table
# Usage: tools/device-gemm.sh [SAMPLES] [TIME_LIMIT_S]
# Time goes mostly to the exact errors and the predictions, samples x K a
# case: at 10000 samples an H100 run (2026-11-24) took ~2.7 s a case at
# K = 4096 and ~11 s at 16384 and stopped at its 170 s limit before the
# K = 65536 row (60 of 72 cases), hence 2500 samples.
set -u
SAMPLES=${1:-2500}
LIMIT=${2:-250}
LOG="$OUT/gemm.log"
. tools/device-env.sh
device_build build/tcscope | tee -a "$LOG"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >> "$LOG" 2>&1
t0=$(date +%s)
# Records are printed case by case: a run cut by the limit keeps the cases it finished.
timeout "$LIMIT" build/tcscope gemm --json --infer --samples "$SAMPLES" --warmup 5 --reps 20 --seed 1 \
  > /tmp/gemm.jsonl 2>> "$LOG"
echo "gemm rc=$? cases=$(wc -l < /tmp/gemm.jsonl) secs=$(( $(date +%s) - t0 ))" | tee -a "$LOG"
gzip -9 < /tmp/gemm.jsonl > "$OUT/h100-gemm.jsonl.gz"
echo "h100-gemm.jsonl.gz: $(wc -c < "$OUT/h100-gemm.jsonl.gz") bytes" | tee -a "$LOG"
python3 - /tmp/gemm.jsonl <<'PY' 2>&1 | tee -a "$LOG"
import json, os, sys
os.makedirs("/tmp/gemm-trees", exist_ok=True)
print("%-10s %6s %6s %6s %10s %9s %9s %6s %6s %6s %5s %-10s %s" % ("path", "M", "K", "algo", "TFLOP/s", "ulp/orig",
      "ulp/rnd", "chunk", "promo", "splitK", "ok", "inputs", "predicted"))
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "skipped" in r or "error" in r:
        print("%-10s %6d %6d  %s" % (r["path"], r["m"], r["k"], r.get("skipped") or "ERROR " + r.get("error")))
        continue
    s = r.get("structure", {}); i = s.get("inferred", {}); p = s.get("prediction", {})
    t = r.get("timing", {})
    if "tree_svg" in s:
        open("/tmp/gemm-trees/%s-%dx%dx%d.svg" % (r["path"], r["m"], r["n"], r["k"]), "w").write(s["tree_svg"])
    c = s.get("input_conversion", {})
    # tf32: the conversion used, "?" when the outputs did not single it out
    cv = (c.get("used", "") + ("" if c.get("decided", True) else "?")) if c else ""
    print("%-10s %6d %6d %6d %10.1f %9.3g %9.3g %6s %6s %6s %5s %-10s %s" % (
        r["path"], r["m"], r["k"], r["algo"]["algo_id"], t.get("tflops", 0),
        r["error_vs_original"]["median_ulps"], r["error_vs_rounded"]["median_ulps"],
        i.get("chunk"), i.get("promote"), i.get("splitk"), s.get("consistent"), cv,
        "%d/%d" % (p["bit_exact"], p["n"]) if p else s.get("error", "")))
    if c.get("candidates") and len(c["candidates"]) > 1:
        print("%-10s %s" % ("", "  ".join("%s %d/%d" % (x["conversion"], x["bit_exact"], c["outputs_tried"])
                                          for x in c["candidates"])))
PY
tar czf "$OUT/gemm-trees.tgz" -C /tmp gemm-trees
tail -3 "$LOG"
