#!/usr/bin/env bash
# On one H200 (issue #29), in at most 4 minutes: where the time of the
# verification commands goes now that inputs are drawn on every core and
# ahead of the GPU (cases/verify.c run rounds; cmd_hunt draws the next
# instruction while one is checked) and the GPU model's CPU share is spread
# over its declined elements. Built, then each command with the GPU backend
# and the GPU model, its "# stages:" line (draw, execute, model: copies,
# kernel, CPU share; compare; rest) and elements/s:
#   hunt --instr all (the 2026-11-28 run: 1.72e7 elements/s, 8.67 s, 4.10 s
#   of it drawing), verify of one instruction, regress (target 30 s), and an
#   audit of every instruction (what finishes in the time left).
# Everything under $OUT/stages.tar.xz; $OUT/summary.json the figures.
#
# Usage (from the repository root, $OUT set):
#   bash tools/device/stages.sh [PROFILE] [HUNT_COUNT]
# BUDGET (seconds, default 230) bounds the whole run; SKIP_BUILD=1 reuses build/;
# BACKEND (default gpu:0) and MODEL_ON (default gpu) for a dry run elsewhere
# (BACKEND=model:h200 MODEL_ON=cpu on a machine without a GPU).
set -u
START=$(date +%s)
BUDGET=${BUDGET:-230}
PROFILE=${1:-h200}
HUNT_N=${2:-50000}
BACKEND=${BACKEND:-gpu:0}
MODEL_ON=${MODEL_ON:-gpu}
R=/tmp/stages
rm -rf "$R"; mkdir -p "$R"
exec > >(tee "$R/run.log") 2>&1
# the steps: device_step (tools/device-env.sh), KEEP s kept for the packing
KEEP=15
pack() {
  rm -rf "$R"/regress*/baseline.jsonl "$R"/audit*/parts "$R"/audit*/*.html "$R"/regress*/refit/*/*.html
  [ -f "$R/hunt/hunt.jsonl" ] && xz -9 "$R/hunt/hunt.jsonl"
  tar cJf "$OUT/stages.tar.xz" -C /tmp stages
  [ -f "$R/summary.json" ] && cp "$R/summary.json" "$OUT/summary.json"
  ls -la "$OUT"
}

. tools/device-env.sh
device_task_build pack build/tcscope
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  lscpu | grep -E 'Model name|^CPU\(s\)'; cat .tcscope-version 2>/dev/null; } | tee "$R/machine.txt"

B=build/tcscope
# hunt: the 2026-11-28 run's command (its record kept: elements, mismatches, failures)
device_step hunt 45 $B hunt --backend "$BACKEND" --profile "$PROFILE" --instr all --count "$HUNT_N" --samples 0 --model-on "$MODEL_ON" \
  --out "$R/hunt"
device_step verify 30 $B verify --backend "$BACKEND" --profile "$PROFILE" --instr mma.m16n8k16.f32.f16.f16.f32 \
  --count 20000000 --model-on "$MODEL_ON" --quiet
# regress against this machine's own baseline (the H200 audit record and profile), with timing
REC=reports/baselines/$PROFILE-audit.jsonl.gz
device_step regress 60 $B regress --backend "$BACKEND" --model-on "$MODEL_ON" --profile "$PROFILE" --record "$REC" \
  --out "$R/regress" --quiet
tail -2 "$R/regress.log" 2>/dev/null
device_step audit 90 $B audit --backend "$BACKEND" --model-on "$MODEL_ON" --instr all --no-timing --out "$R/audit" --force --quiet
echo "audit: $(grep -c ' VERIFIED ' "$R/audit.log" 2>/dev/null) VERIFIED, $(grep -c ' MISMATCH ' "$R/audit.log" 2>/dev/null) MISMATCH lines"

python3 - "$R" <<'PY' || true
import json, os, sys
sys.path.insert(0, "tools/device")
from steps_summary import read, steps
R = sys.argv[1]
out = {"machine": read(R, "machine.txt").strip().splitlines(), "steps": steps(R)}
json.dump(out, open(os.path.join(R, "summary.json"), "w"), indent=1)
print(json.dumps(out, indent=1)[:4000])
PY
echo "total: $(( $(date +%s) - START )) s"
pack
