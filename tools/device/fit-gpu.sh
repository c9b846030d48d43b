#!/usr/bin/env bash
# On one H200 (issue #29: the audit's fits counted on the GPU,
# probes/model_gpu_fit.h): the GPU model's tests (test_model_gpu: the fit
# kernels' counts against the CPU's), then `audit --backend gpu:0 --instr
# all --no-timing --count N` twice in one build, the fits counted on the GPU
# (the default) and on the cores (TCSCOPE_FIT_ON=cpu), everything else the
# same. Prints each audit's wall time and stage sums, the slowest fits of
# each, and whether the two wrote the same profile (the fingerprints: the
# counts are exact either way, so every decision must be the same) and the
# same verification elements per instruction.
# Everything under $OUT/fit-gpu.tar.xz (without html and parts);
# $OUT/summary.json the figures.
#
# Usage (from the repository root, $OUT set):
#   bash tools/device/fit-gpu.sh [COUNT]
# COUNT: random elements per instruction (default 200000; a sixteenth per hunt
# family). BUDGET (seconds, default 560) bounds the run, the build included.
set -u
START=$(date +%s)
BUDGET=${BUDGET:-560}
N=${1:-200000}
R=/tmp/fit-gpu
rm -rf "$R"; mkdir -p "$R"
exec > >(tee "$R/run.log") 2>&1
KEEP=20
. tools/device-env.sh
( device_build build/tcscope build/opt/tests/test_model_gpu ) || { cp /tmp/build.log "$R/build.log"; echo "build failed"; device_pack fit-gpu; exit 1; }
{ device_facts; cat .tcscope-version 2>/dev/null; } | tee "$R/machine.txt"
device_step test-model-gpu 150 build/opt/tests/test_model_gpu
grep -E "GPU fit counts|PASSED|FAILED|SKIPPED" "$R/test-model-gpu.log"
for way in gpu cpu; do
  device_step "audit-$way" 200 env TCSCOPE_FIT_ON=$way build/tcscope audit --backend gpu:0 --instr all --no-timing \
    --count "$N" --out "$R/audit-$way" --force
  tail -2 "$R/audit-$way.log"
done
python3 - "$R" <<'PY' || true
import json, os, re, sys
sys.path.insert(0, "tools/device")
from steps_summary import read, steps
R = sys.argv[1]
line = re.compile(r"^(\S+)\s+(VERIFIED|MISMATCH)\s+(\d+)/(\d+).* s:fit=([0-9.]+),")
out = {"machine": read(R, "machine.txt").strip().splitlines(), "steps": steps(R),
       "test_model_gpu": [l for l in read(R, "test-model-gpu.log").splitlines()
                          if re.search(r"GPU fit counts|GPU model = CPU|PASSED|FAILED|SKIPPED", l)]}
ins = {}
for way in ("gpu", "cpu"):
    rows = {}
    for l in read(R, "audit-%s.log" % way).splitlines():
        m = line.match(l)
        if m:
            rows[m.group(1)] = {"status": m.group(2), "elements": int(m.group(4)), "fit_s": float(m.group(5))}
    ins[way] = rows
    slow = sorted(rows.items(), key=lambda kv: -kv[1]["fit_s"])[:5]
    out["audit_" + way] = {"instructions": len(rows),
                           "verified": sum(r["status"] == "VERIFIED" for r in rows.values()),
                           "fit_s_summed": round(sum(r["fit_s"] for r in rows.values()), 1),
                           "slowest_fits": [[n, r["fit_s"]] for n, r in slow]}
    try:   # where the record says the fits were counted
        objs = [json.loads(l) for l in open(os.path.join(R, "audit-" + way, "audit.jsonl"))][1:]
        fe = [o["fit_evaluations"] for o in objs if isinstance(o, dict) and "fit_evaluations" in o]
        out["audit_" + way]["fit_evaluations"] = {"gpu": sum(f["gpu"] for f in fe), "cpu": sum(f["cpu"] for f in fe)}
    except (OSError, ValueError, KeyError):
        pass
def profile(way):   # the fingerprints: from the first [instr] on (the [about] notes name the run)
    text = read(R, "audit-%s/audit.profile" % way)
    return text[text.find("[instr "):].splitlines() if "[instr " in text else []
pg, pc = profile("gpu"), profile("cpu")
out["same_profile"] = bool(pg) and pg == pc
out["profile_lines"] = len(pg)
out["same_elements"] = bool(ins["gpu"]) and all(ins["cpu"].get(n, {}).get("elements") == r["elements"]
                                               for n, r in ins["gpu"].items())
sg, sc = out["steps"].get("audit-gpu", {}), out["steps"].get("audit-cpu", {})
if sg.get("wall_s") and sc.get("wall_s"):
    out["cpu_fit_over_gpu_fit"] = round(sc["wall_s"] / sg["wall_s"], 2)
json.dump(out, open(os.path.join(R, "summary.json"), "w"), indent=1)
for way in ("gpu", "cpu"):
    print("audit, fits on the %s: %s" % (way, json.dumps({**out["steps"].get("audit-" + way, {}), **out.get("audit_" + way, {})})))
print("same profile: %s (%d lines); same elements: %s; wall cpu/gpu: %s" % (out["same_profile"],
      out["profile_lines"], out["same_elements"], out.get("cpu_fit_over_gpu_fit")))
PY
rm -rf "$R"/audit-*/parts "$R"/audit-*/*.html
device_pack fit-gpu
