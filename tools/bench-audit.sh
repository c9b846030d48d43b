#!/usr/bin/env bash
# make bench: the main job's wall time on this machine, as JSON lines: the
# gemm figures (tcscope's own wgmma GEMM and cuBLASLt, TFLOP/s), then the
# whole catalogue audit with its defaults (N, hunt families, timing, --jobs =
# CPUs), again with the CPU model (--model-on cpu, on a GPU: the ratio of the
# wall times), and `tcscope regress` against this GPU's committed baseline (the H100's
# where there is none), with the GPU model, with the CPU's, and the recorded
# model replayed on the CPU (--model), with their ratios. On a GPU
# always; without one only with BENCH_AUDIT=1 (the audit then runs on the
# recorded model; regress needs a GPU). Outputs under $BENCH_AUDIT_OUT.
set -u
BIN=${TCSCOPE:-build/tcscope}
OUT=${BENCH_AUDIT_OUT:-build/bench-audit}
mkdir -p "$OUT"
gpu=$("$BIN" list --backend gpu >/dev/null 2>&1 && echo yes || echo no)
. "$(dirname "$0")/bench-env.sh"
# tcscope's own wgmma GEMM beside cuBLASLt at SIZE^3, one `tcscope gemm` run:
# the same inputs, the same timing (cudaEvent median of 20 after 5 warm-up).
SIZE=${BENCH_GEMM_SIZE:-4096}
if [ "$gpu" = yes ]; then
  "$BIN" gemm --json --path f16,tcscope-wgmma-f16,e4m3,tcscope-wgmma-e4m3 --m "$SIZE" --n "$SIZE" --k "$SIZE" \
    --samples 1000 --warmup 5 --reps 20 >"$OUT/gemm.jsonl" 2>"$OUT/gemm.err"
  rc=$?
  python3 - "$OUT/gemm.jsonl" "$machine" $rc "$SIZE" <<'PY'
import json, sys
# the cases of a gemm record ({"kind": "gemm"} between header and trailer), or older tcscope-gemm lines
lines = [l for l in open(sys.argv[1]).read().splitlines()
         if json.loads(l).get("kind") == "gemm" or json.loads(l).get("record") == "tcscope-gemm"]
if not lines:
    print(json.dumps({"bench": "gemm_%s" % sys.argv[4], "error": "no records (see gemm.err)", "machine": sys.argv[2],
                      "exit": int(sys.argv[3])}))
for line in lines:
    r = json.loads(line)
    o = {"bench": "gemm_%d_%s" % (r["k"], r["path"]), "value": r.get("timing", {}).get("tflops"), "unit": "TFLOP/s",
         "machine": sys.argv[2], "exit": int(sys.argv[3]), "library": r.get("library")}
    if "error_vs_rounded" in r:
        o["median_ulps_vs_rounded_inputs"] = r["error_vs_rounded"]["median_ulps"]
        o["max_ulps_vs_rounded_inputs"] = r["error_vs_rounded"]["max_ulps"]
    for why in ("skipped", "error"):
        if why in r:
            o[why] = r[why]
    print(json.dumps(o))
PY
else
  printf '{"bench":"gemm_%d","skipped":"no GPU (tcscope gemm needs one)","machine":"%s"}\n' "$SIZE" "$machine"
fi
if [ "$gpu" = no ] && [ "${BENCH_AUDIT:-0}" != 1 ]; then
  printf '{"bench":"audit_catalogue","skipped":"no GPU (BENCH_AUDIT=1 times it on the recorded model)","machine":"%s"}\n' "$machine"
  exit 0
fi
bench_timed "$OUT/audit" "$BIN" audit --instr all --out "$OUT/audit" --force
rc=$bench_rc audit_s=$bench_wall
printf '{"bench":"audit_catalogue","value":%.1f,"unit":"s","machine":"%s","exit":%d,"verified":%d,"mismatch":%d,"jobs":%d,"stages":"%s"}\n' \
  "$audit_s" "$machine" $rc "$(grep -c ' VERIFIED ' "$OUT/audit.log")" \
  "$(grep -c ' MISMATCH ' "$OUT/audit.log")" "$(nproc)" "$(grep -m1 '^# stages:' "$OUT/audit.log" | sed 's/^# //; s/"//g')"
[ "$gpu" = yes ] || exit 0
# the same audit with the CPU model computing the expected answers (--model-on cpu): issue 29's
# ratio, the CPU model's wall time over the GPU model's, in this run
bench_timed "$OUT/audit-cpu" "$BIN" audit --instr all --model-on cpu --out "$OUT/audit-cpu" --force
rc=$bench_rc cpu_s=$bench_wall
printf '{"bench":"audit_catalogue, model on cpu","value":%.1f,"unit":"s","machine":"%s","exit":%d,"verified":%d,"mismatch":%d,"stages":"%s"}\n' \
  "$cpu_s" "$machine" $rc "$(grep -c ' VERIFIED ' "$OUT/audit-cpu.log")" "$(grep -c ' MISMATCH ' "$OUT/audit-cpu.log")" \
  "$(grep -m1 '^# stages:' "$OUT/audit-cpu.log" | sed 's/^# //; s/"//g')"
printf '{"bench":"audit_catalogue, CPU model time over GPU model time","value":%.3g,"unit":"ratio","machine":"%s"}\n' \
  "$(awk -v c="$cpu_s" -v g="$audit_s" 'BEGIN { print (g > 0 ? c / g : 0) }')" "$machine"
# regress against this GPU's own committed baseline where there is one (an H200:
# h200-audit.jsonl.gz and the bench of its run; issue 29's target is 30 s there),
# else the H100's: with timing, once with each model computing the expected
# answers (the GPU model is the default on a GPU), then the recorded model
# replayed on the CPU alone (`regress --model`); the ratios of the wall times,
# the same run. Each summary line's stage seconds go into its figure.
base=()
case "$machine" in *H200*) base=(--profile h200 --record reports/baselines/h200-audit.jsonl.gz) ;; esac
declare -A wall
for on in gpu cpu model; do
  args=(--model-on $on "${base[@]}")
  [ $on = model ] && args=(--model ${base[@]:0:2})
  bench_timed "$OUT/regress-$on" "$BIN" regress "${args[@]}" --out "$OUT/regress-$on"
  rc=$bench_rc wall[$on]=$bench_wall
  stages=$(sed -n 's/^# [0-9]* instructions: .*(\(timing .*\))$/\1/p' "$OUT/regress-$on.log" | tail -1)
  what="model on $on"; [ $on = model ] && what="the recorded model replayed on the CPU (--model)"
  printf '{"bench":"regress_catalogue, %s","value":%.1f,"unit":"s","machine":"%s","exit":%d,"same":%d,"differ":%d,"stages":"%s","baseline":"%s"}\n' \
    "$what" "${wall[$on]}" "$machine" $rc "$(grep -c '  same ' "$OUT/regress-$on.log")" \
    "$(grep -c ' DIFFERS ' "$OUT/regress-$on.log")" "$stages" "${base[*]:-h100 (default)}"
done
printf '{"bench":"regress_catalogue, CPU model time over GPU model time","value":%.3g,"unit":"ratio","machine":"%s"}\n' \
  "$(awk -v c="${wall[cpu]}" -v g="${wall[gpu]}" 'BEGIN { print (g > 0 ? c / g : 0) }')" "$machine"
printf '{"bench":"regress_catalogue, --model (CPU) time over GPU time","value":%.3g,"unit":"ratio","machine":"%s","target_gpu_s":30}\n' \
  "$(awk -v c="${wall[model]}" -v g="${wall[gpu]}" 'BEGIN { print (g > 0 ? c / g : 0) }')" "$machine"
