#!/usr/bin/env bash
# On a node of several H200s (issue #29 item 4), in one run of at most 8
# minutes: `regress` and `audit --instr all` on one GPU (gpu:0) and on every
# GPU at once (gpu:all; regress with --cross-gpu), the same commit, arguments
# and inputs, each timed; the ratio of the node's wall time to one GPU's
# (the targets: at most 0.6 on 2 GPUs, 0.35 on 4), the fleet records
# (OUT/fleet.json: per-GPU results, the same-bits verdict across GPUs) and the
# logs in $OUT/fleet.tar.xz, the figures in $OUT/summary.json.
#
# Usage (from the repository root, $OUT set):
#   bash tools/device/fleet.sh [AUDIT_COUNT]
# AUDIT_COUNT: random elements per instruction of both audits (default 200000;
# a sixteenth of it per hunt family, or HUNT_COUNT per family: 9100000 is the 1e8 audit of issue #29).
# REGRESS_ONLY=1: the regress steps only; AUDIT_ONLY=1: the audit steps only (AUDIT_LIMIT seconds each,
# default 160); AUDIT_TIMING=1: the audits with their timing (audit's default; else --no-timing).
# REGRESS_ARGS: more arguments of every regress step (--count 1000000: more work per instruction);
# REGRESS_JOBS: --jobs of the gpu:all regress step (each worker's verify children; default: the
# machine's cap shared out; with it, no regress-1-shared step), REGRESS_LIMIT: seconds of each regress
# step (default 90). NAME (default fleet): /tmp/NAME and $OUT/NAME.tar.xz, for several runs in one call.
# BUDGET (seconds, default 460) bounds the run: a step that would pass it is cut short
# (timeout), and says so.
set -u
START=$(date +%s)
BUDGET=${BUDGET:-460}
AUDIT_N=${1:-200000}
NAME=${NAME:-fleet}
R=/tmp/$NAME
rm -rf "$R"; mkdir -p "$R"
exec > >(tee "$R/run.log") 2>&1
left() { echo $(( BUDGET - ($(date +%s) - START) )); }
# step NAME SECONDS CMD..: CMD under a timeout (never past the budget less 20 s
# for the packing), output in $R/NAME.log, exit status and wall time in $R/times.txt
step() {
  local name=$1 secs=$2; shift 2
  local most=$(( $(left) - 20 ))
  [ "$secs" -gt "$most" ] && secs=$most
  if [ "$secs" -lt 5 ]; then echo "$name: skipped (no time left)"; echo "$name skipped 0 0" >> "$R/times.txt"; return; fi
  local t0 t1; t0=$(date +%s.%N)
  timeout "$secs" "$@" > "$R/$name.log" 2>&1
  local rc=$?
  t1=$(date +%s.%N)
  local wall; wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  echo "$name $rc $wall $secs" >> "$R/times.txt"
  echo "$name: exit $rc in $wall s (limit $secs s$([ $rc = 124 ] && echo ', CUT SHORT'))"
  tail -3 "$R/$name.log"
}
pack() {
  find "$R" \( -name baseline.jsonl -o -name '*.html' -o -name parts -o -name cross.txt \) -prune -exec rm -rf {} + 2>/dev/null
  device_pack "$NAME"
}

. tools/device-env.sh
device_task_build pack build/tcscope
NGPU=$(nvidia-smi -L | grep -c '^GPU ')
{ nvidia-smi --query-gpu=index,name,driver_version,uuid --format=csv
  lscpu | grep -E 'Model name|^CPU\(s\)'; cat .tcscope-version 2>/dev/null; } | tee "$R/machine.txt"
echo "$NGPU GPUs, $(nproc) CPUs"
B=build/tcscope
# regress with timing (SASS and timing compared too), one GPU, then all at once with the cross-GPU bits
# against this machine's baseline (PROFILE, default h200: its audit record and profile)
P=${PROFILE:-h200}
RB=(--profile "$P" --record "reports/baselines/$P-audit.jsonl.gz" ${REGRESS_ARGS:-})
RJ=(); [ -n "${REGRESS_JOBS:-}" ] && RJ=(--jobs "$REGRESS_JOBS")
AH=(); [ -n "${HUNT_COUNT:-}" ] && AH=(--hunt-count "$HUNT_COUNT")
AL=${AUDIT_LIMIT:-160}
AT=(--no-timing); [ -n "${AUDIT_TIMING:-}" ] && AT=()
RL=${REGRESS_LIMIT:-90}
[ -n "${AUDIT_ONLY:-}" ] || step regress-1 "$RL" $B regress --backend gpu:0 "${RB[@]}" --out "$R/regress-1"
[ -n "${AUDIT_ONLY:-}" ] || step regress-all "$RL" $B regress --backend gpu:all --cross-gpu "${RJ[@]}" "${RB[@]}" --out "$R/regress-all"
# one GPU with as many verify children as a worker of the node gets (the CPUs shared out): is the
# default (one per CPU, every child on the one GPU) the one GPU's best?
[ -n "${AUDIT_ONLY:-}${REGRESS_JOBS:-}" ] || step regress-1-shared "$RL" $B regress --backend gpu:0 --jobs $(( $(nproc) / NGPU )) "${RB[@]}" --out "$R/regress-1-shared"
# the catalogue's audit (no timing, the arithmetic's share, unless AUDIT_TIMING=1), one GPU, then all (REGRESS_ONLY=1: not run)
[ -n "${REGRESS_ONLY:-}" ] || step audit-1 "$AL" $B audit --backend gpu:0 --instr all "${AT[@]}" --count "$AUDIT_N" "${AH[@]}" \
  --out "$R/audit-1" --force
[ -n "${REGRESS_ONLY:-}" ] || step audit-all "$AL" $B audit --backend gpu:all --instr all "${AT[@]}" --count "$AUDIT_N" \
  "${AH[@]}" --out "$R/audit-all" --force

python3 - "$R" "$NGPU" <<'PY' || true
import json, os, sys
R, n = sys.argv[1], int(sys.argv[2])
steps = {}
for line in open(os.path.join(R, "times.txt")).read().splitlines():
    name, rc, wall, limit = line.split()
    steps[name] = {"exit": None if rc == "skipped" else int(rc), "wall_s": float(wall), "limit_s": float(limit),
                   "cut_short": rc == "124"}
target = {2: 0.6, 4: 0.35}.get(n)
out = {"gpus": n, "machine": open(os.path.join(R, "machine.txt")).read().strip().splitlines(), "steps": steps,
       "target_ratio": target}
for cmd in ("regress", "audit"):
    one, all_ = steps.get(cmd + "-1"), steps.get(cmd + "-all")
    if one and all_ and one["wall_s"] > 0 and not one["cut_short"] and not all_["cut_short"]:
        r = all_["wall_s"] / one["wall_s"]
        out[cmd + "_ratio"] = r
        out[cmd + "_meets_target"] = target is not None and r <= target
fl = {}
for d in ("regress-all", "audit-all"):
    p = os.path.join(R, d, "fleet.json")
    if os.path.exists(p):
        try:
            fl[d] = json.load(open(p))
        except ValueError:
            lines = [json.loads(l) for l in open(p) if l.strip()]
            fl[d] = lines
out["fleet_records"] = sorted(fl)
json.dump(out, open(os.path.join(R, "summary.json"), "w"), indent=1)
print(json.dumps(out, indent=1))
PY
echo "total: $(( $(date +%s) - START )) s"
pack
