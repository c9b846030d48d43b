#!/usr/bin/env bash
# On one H200 or a node (issue #29): regress at its default count against
# the number of verify children. Each child makes a CUDA context, and the
# machine makes them one at a time (doc/findings.md), while the checks'
# work at the default count is a few seconds of the host's: is the default
# (one child per CPU, at most 16, shared out among a node's GPUs) the
# fastest, on one GPU and on all? Each run twice, the runs interleaved;
# the wall time of each (date before and after) and its "# " lines.
#
# Usage (from the repository root, $OUT set):
#   bash tools/device/regress-jobs.sh
# JOBS_1 (default "4 6 8 16"): --jobs of the gpu:0 runs; JOBS_ALL (default
# "2 3 4 8"): --jobs of the gpu:all --cross-gpu runs (each worker's; only
# with two GPUs or more); NT_JOBS (default "4 16"): gpu:0 --no-timing
# (no gate: each child checks as soon as it has its context). A list set
# empty runs none; a job count "d" is regress's default (no --jobs).
# COUNTS (default 1e5, regress's default): the --count of each run, in
# turn. ROUNDS (default 2). CROSS_ALONE=1: also, each round, a --cross-gpu
# worker's cross-GPU step alone on gpu:0 (--cross-run all beside one check
# child of one element an instruction, no timing).
# BUDGET (seconds, default 330) bounds the run; SKIP_BUILD=1 reuses build/.
set -u
START=$(date +%s)
BUDGET=${BUDGET:-330}
R=/tmp/regress-jobs
rm -rf "$R"; mkdir -p "$R"
exec > >(tee "$R/run.log") 2>&1
KEEP=15

. tools/device-env.sh
device_task_build "device_pack regress-jobs" build/tcscope
NGPU=$(nvidia-smi -L | grep -c '^GPU ')
{ device_facts; echo "$NGPU GPUs, $(nproc) CPUs"; cat .tcscope-version 2>/dev/null; } | tee "$R/machine.txt"
B=build/tcscope
RB=(--profile h200 --record reports/baselines/h200-audit.jsonl.gz)
# jobs J: regress's --jobs J, or nothing for "d" (its default)
jobs() { [ "$1" = d ] || echo "--jobs $1"; }
for round in $(seq 1 "${ROUNDS:-2}"); do
  for n in ${COUNTS:-1e5}; do
    for j in ${JOBS_1-4 6 8 16}; do
      device_step "r1-c$n-j$j-$round" 90 $B regress --backend gpu:0 "${RB[@]}" --count "$n" $(jobs "$j") --out "$R/o"
    done
    if [ "$NGPU" -ge 2 ]; then
      for j in ${JOBS_ALL-2 3 4 8}; do
        device_step "rall-c$n-j$j-$round" 90 $B regress --backend gpu:all --cross-gpu "${RB[@]}" --count "$n" \
          $(jobs "$j") --out "$R/o"
      done
    fi
    [ -n "${CROSS_ALONE:-}" ] && [ "$n" = "$(echo ${COUNTS:-1e5} | cut -d' ' -f1)" ] && \
      device_step "cross-alone-$round" 60 $B regress --backend gpu:0 "${RB[@]}" --no-timing --count 1 --hunt-count 1 \
        --jobs 1 --cross-run all --out "$R/o"
    for j in ${NT_JOBS-4 16}; do
      device_step "r1nt-c$n-j$j-$round" 90 $B regress --backend gpu:0 "${RB[@]}" --no-timing --count "$n" \
        $(jobs "$j") --out "$R/o"
    done
  done
done
python3 - "$R" <<'PY' || true
import json, os, sys
R = sys.argv[1]
steps = {}
for line in open(os.path.join(R, "times.txt")).read().splitlines():
    name, rc, wall = line.split()
    log = os.path.join(R, name + ".log")
    lines = [l.rstrip() for l in open(log)] if os.path.exists(log) else []
    steps[name] = {"exit": None if rc == "skipped" else int(rc), "wall_s": float(wall),
                   "lines": [l for l in lines if l.startswith("# ") and ("timing:" in l or "verify:" in l
                             or "instructions:" in l or "cross-GPU inputs:" in l or l.startswith("# GPU "))]}
out = {"machine": open(os.path.join(R, "machine.txt")).read().strip().splitlines(), "steps": steps}
json.dump(out, open(os.path.join(R, "summary.json"), "w"), indent=1)
for k, v in steps.items():
    print(k, v["exit"], v["wall_s"])
PY
rm -rf "$R/o"
echo "total: $(( $(date +%s) - START )) s"
device_pack regress-jobs
