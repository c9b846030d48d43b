#!/usr/bin/env bash
# On one H200 (issue #29, target: `audit --instr all` with at least 10^8
# random + hunt elements per instruction in at most 5 minutes): the audit of
# every instruction with the GPU backend and the GPU model, --hunt-count
# 9100000 (11 families x 9.1e6 ~ 10^8, on the GPU path of cases/hunt_gpu.h
# where it runs: cli/hunt_on.h) beside the default random --count.
# Prints the wall time, the VERIFIED / MISMATCH counts, the elements per
# instruction (the fewest any got; random and hunt apart), how many
# instructions hunted on the GPU path, and the stage seconds summed over the
# instructions (fit, proof random, proof hunt, crafted: the children run
# side by side, so the sums exceed the wall time).
# Everything under $OUT/audit-1e8.tar.xz (without html and parts);
# $OUT/summary.json the figures.
#
# Usage (from the repository root, $OUT set):
#   bash tools/device/audit-1e8.sh [HUNT_COUNT]
# BUDGET (seconds, default 330) bounds the run after the build (the audit gets
# BUDGET - 20 s; the build's own seconds are printed); SKIP_BUILD=1 reuses build/;
# BACKEND (default gpu:0) and MODEL_ON (default gpu) for a dry run elsewhere
# (BACKEND=model:h200 MODEL_ON=cpu INSTR=mma.m16n8k16.f32.f16.f16.f32 HUNT_COUNT=1000).
set -u
START=$(date +%s)
BUDGET=${BUDGET:-330}
HUNT_N=${1:-${HUNT_COUNT:-9100000}}
BACKEND=${BACKEND:-gpu:0}
MODEL_ON=${MODEL_ON:-gpu}
INSTR=${INSTR:-all}
R=/tmp/audit-1e8
rm -rf "$R"; mkdir -p "$R"
exec > >(tee "$R/run.log") 2>&1
KEEP=15
pack() {
  rm -rf "$R"/audit/parts "$R"/audit/*.html
  [ -f "$R/audit/audit.jsonl" ] && xz -9 "$R/audit/audit.jsonl"
  tar cJf "$OUT/audit-1e8.tar.xz" -C /tmp audit-1e8
  [ -f "$R/summary.json" ] && cp "$R/summary.json" "$OUT/summary.json"
  ls -la "$OUT"
}

. tools/device-env.sh
device_task_build pack build/tcscope
START=$(date +%s)   # the budget is the audit's: the build above is not counted
{ device_facts; cat .tcscope-version 2>/dev/null; } | tee "$R/machine.txt"

# the parts of an earlier run are never kept (--force): every instruction runs here
device_step audit $(( BUDGET - 20 )) build/tcscope audit --backend "$BACKEND" --model-on "$MODEL_ON" --instr "$INSTR" \
  --no-timing --hunt-count "$HUNT_N" --out "$R/audit" --force
tail -4 "$R/audit.log"

python3 - "$R" <<'PY' || true
import json, os, re, sys
sys.path.insert(0, "tools/device")
from steps_summary import read, steps
R = sys.argv[1]
line = re.compile(r"^(\S+)\s+(VERIFIED|MISMATCH)\s+(\d+)/(\d+)")
budget = re.compile(r"random=(\d+) hunt=(\d+)\(([^)]*)\) s:fit=([0-9.]+),random=([0-9.]+),hunt=([0-9.]+),"
                    r"crafted=([0-9.]+)")
ins, stage = {}, {"fit": 0.0, "random": 0.0, "hunt": 0.0, "crafted": 0.0}
paths = {}
for l in read(R, "audit.log").splitlines():
    m = line.match(l)
    if not m:
        continue
    o = ins[m.group(1)] = {"status": m.group(2), "mismatches": int(m.group(3)), "elements": int(m.group(4))}
    b = budget.search(l)
    if b:   # the integer controls have no random/hunt split
        o.update(random=int(b.group(1)), hunt=int(b.group(2)), hunt_path=b.group(3))
        paths[b.group(3)] = paths.get(b.group(3), 0) + 1
        for k, g in zip(("fit", "random", "hunt", "crafted"), range(4, 8)):
            stage[k] += float(b.group(g))
fp = [o for o in ins.values() if "random" in o]
def least(key, rows):
    return min((o[key] for o in rows), default=None)
out = {"machine": read(R, "machine.txt").strip().splitlines(), "steps": steps(R),
       "instructions": len(ins),
       "verified": sum(o["status"] == "VERIFIED" for o in ins.values()),
       "mismatch": sum(o["status"] == "MISMATCH" for o in ins.values()),
       "min_elements": least("elements", ins.values()),
       "min_elements_fp": least("elements", fp), "min_random": least("random", fp),
       "min_hunt": least("hunt", fp), "hunt_paths": paths,
       "under_1e8": sorted(n for n, o in ins.items() if "random" in o and o["random"] + o["hunt"] < 10**8),
       "stage_s_summed": {k: round(v, 1) for k, v in stage.items()},
       "mismatched": sorted(n for n, o in ins.items() if o["status"] == "MISMATCH")}
# the record's word for it (verification.hunt_path: "gpu" on the GPU path, absent on the host)
try:
    objs = [json.loads(l) for l in open(os.path.join(R, "audit", "audit.jsonl"))][1:]
    out["record_hunt_path_gpu"] = sum(o.get("verification", {}).get("hunt_path") == "gpu" for o in objs
                                      if isinstance(o, dict))
except (OSError, ValueError):
    out["record_hunt_path_gpu"] = None
json.dump(out, open(os.path.join(R, "summary.json"), "w"), indent=1)
s = out["steps"].get("audit", {})
print("audit: wall %s s, exit %s; %d instructions: %d VERIFIED, %d MISMATCH" %
      (s.get("wall_s"), s.get("exit"), out["instructions"], out["verified"], out["mismatch"]))
print("elements per instruction (min): %s (fingerprinted: %s; random %s, hunt %s); hunt paths %s; "
      "%d fingerprinted under 1e8 random+hunt" % (out["min_elements"], out["min_elements_fp"], out["min_random"],
      out["min_hunt"], paths, len(out["under_1e8"])))
print("record: %s objects with verification.hunt_path gpu" % out["record_hunt_path_gpu"])
print("stages (s, summed over instructions): " + ", ".join("%s %s" % kv for kv in out["stage_s_summed"].items()))
PY
echo "total: $(( $(date +%s) - START )) s"
pack
