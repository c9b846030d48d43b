#!/usr/bin/env bash
# On one H200 (issue #29: `regress` in at most 30 s), in at most 4 minutes:
# build, then `tcscope regress` with timing against this machine's baseline
# (reports/baselines/h200-audit.jsonl.gz, the bench of its run beside it for
# each table's best point, --profile h200): its wall time and its summary
# line (timing s, verify s in N children, refit s) and the timing pass's own
# line (the GPU and SASS opened, the best points, the whole tables); then
# the CPU-model replay (`regress --model`) for the ratio make bench prints;
# then, with time left, regress with the CPU's model computing the expected
# answers (--model-on cpu), make bench's other ratio.
# Everything under $OUT/regress-fast.tar.xz; $OUT/summary.json the figures.
#
# Usage (from the repository root, $OUT set):
#   bash tools/device/regress-fast.sh [PROFILE]
# BUDGET (seconds, default 230) bounds the whole run; SKIP_BUILD=1 reuses build/;
# BACKEND (default gpu:0) for a dry run elsewhere (BACKEND=model:h200 on a machine
# without a GPU: the timing pass is then skipped, as regress says).
set -u
START=$(date +%s)
BUDGET=${BUDGET:-230}
PROFILE=${1:-h200}
BACKEND=${BACKEND:-gpu:0}
R=/tmp/regress-fast
rm -rf "$R"; mkdir -p "$R"
exec > >(tee "$R/run.log") 2>&1
KEEP=15   # seconds kept back for the packing (tools/device-env.sh device_step)
pack() {
  rm -rf "$R"/regress*/refit/*/*.html "$R"/regress*/refit/*/parts
  tar cJf "$OUT/regress-fast.tar.xz" -C /tmp regress-fast
  [ -f "$R/summary.json" ] && cp "$R/summary.json" "$OUT/summary.json"
  ls -la "$OUT"
}

. tools/device-env.sh
device_task_build pack build/tcscope
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  lscpu | grep -E 'Model name|^CPU\(s\)'; cat .tcscope-version 2>/dev/null; } | tee "$R/machine.txt"

B=build/tcscope
REC=reports/baselines/$PROFILE-audit.jsonl.gz
# the target run (default --jobs: one verify child per CPU, a slice of the instructions each)
device_step regress 90 $B regress --backend "$BACKEND" --profile "$PROFILE" --record "$REC" --out "$R/regress" --quiet
# the CPU model replayed (no GPU used): the other side of make bench's ratio
device_step regress-model 75 $B regress --model --profile "$PROFILE" --out "$R/regress-model" --quiet
# with time left: the GPU checked, the expected answers from the CPU's model (--model-on cpu):
# make bench's "CPU model time over GPU model time" (run of 71fe9cf: --jobs 8 was no faster than 16,
# 10.4 s both, the slices' children 4.4 to 5.5 s)
device_step regress-cpu-model 60 $B regress --backend "$BACKEND" --model-on cpu --profile "$PROFILE" --record "$REC" \
  --out "$R/regress-cpu-model" --quiet
for s in regress regress-model regress-cpu-model; do
  echo "$s: $(grep -c '  same ' "$R/$s.log" 2>/dev/null) same, $(grep -c ' DIFFERS ' "$R/$s.log" 2>/dev/null) differ"
  grep -E '^# (timing|verify|[0-9]+ instructions)' "$R/$s.log" 2>/dev/null
  grep ' DIFFERS ' "$R/$s.log" 2>/dev/null | head -5
done

python3 - "$R" <<'PY' || true
import json, os, re, sys
sys.path.insert(0, "tools/device")
from steps_summary import read, steps
R = sys.argv[1]
out = {"machine": read(R, "machine.txt").strip().splitlines(), "steps": steps(R)}
for name, st in out["steps"].items():
    log = read(R, name + ".log")
    st["same"] = len(re.findall(r"^\S+\s+same  ", log, re.M))
    st["differ_lines"] = [l for l in log.splitlines() if " DIFFERS " in l][:20]
    for l in log.splitlines():
        if l.startswith("# timing:"):
            st["timing_line"] = l[2:]
        if l.startswith("# verify:"):
            st["verify_line"] = l[2:]
        m = re.match(r"# \d+ instructions: .* (\d+) s \(timing ([0-9.]+) s, verify ([0-9.]+) s in (\d+) children, "
                     r"refit ([0-9.]+) s\)", l)
        if m:
            st["summary"] = l[2:]
            st["stage_s"] = {"timing": float(m.group(2)), "verify": float(m.group(3)), "refit": float(m.group(5))}
            st["children"] = int(m.group(4))
g = out["steps"].get("regress", {})
for step, name in (("regress-model", "ratio_model_over_gpu"), ("regress-cpu-model", "ratio_cpu_model_over_gpu_model")):
    c = out["steps"].get(step, {})
    if g.get("wall_s") and c.get("wall_s") and g.get("exit") in ("0", "1"):
        # a run cut by its limit (exit 124) gives a lower bound only
        key = name if c.get("exit") in ("0", "1") else name + "_at_least"
        out[key] = round(c["wall_s"] / g["wall_s"], 3)
out["target_s"] = 30
json.dump(out, open(os.path.join(R, "summary.json"), "w"), indent=1)
print(json.dumps(out, indent=1)[:4000])
PY
echo "total: $(( $(date +%s) - START )) s"
pack
