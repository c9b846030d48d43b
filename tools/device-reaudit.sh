#!/usr/bin/env bash
# On the GPU machine: audit instructions, one process each (the ones a sharded
# audit left out, or with a larger hunt budget in the proof so that its
# counterexamples refit what the default budget left undecided), then, when
# HUNT_PER_FAMILY is given, hunt every instruction against the profile in the
# tree. Results in $OUT/re.tgz (the fetch takes 8 files at most) and $OUT/hunt.
# Usage: tools/device-reaudit.sh HUNT_N|0 NAME,NAME,.. [HUNT_PER_FAMILY]
set -u
HN=$1; LIST=$2; HUNT=${3:-}
hunt_opt=""; [ "$HN" != 0 ] && hunt_opt="--hunt-n $HN"   # 0: the audit's default, n/16
mkdir -p /tmp/re
. tools/device-env.sh
device_build build/tcscope
t0=$(date +%s); i=0
for ins in ${LIST//,/ }; do
  timeout "${AUDIT_TIMEOUT:-470}" build/tcscope audit --backend gpu --instr "$ins" --n 1000000 $hunt_opt \
    --timing reports/baselines/h100-bench.json --out "/tmp/re/a$i" --force > "/tmp/re/a$i.log" 2>&1 &
  i=$((i + 1))
done
wait
echo "audits: $(( $(date +%s) - t0 )) s"; cat /tmp/re/a*.log | grep -v '^#'
for d in /tmp/re/a*/; do rm -f "$d"/*.html "$d"/*.svg "$d"/*.md; done
tar czf "$OUT/re.tgz" -C /tmp re
[ -n "$HUNT" ] || exit 0
t0=$(date +%s)
timeout "${HUNT_TIMEOUT:-200}" build/tcscope hunt --backend gpu --instr all --n "$HUNT" --sample 128 --out "$OUT/hunt" \
  > "$OUT/hunt.log" 2>&1
echo "hunt rc=$? in $(( $(date +%s) - t0 )) s"; grep -v ' 0 mismatches' "$OUT/hunt.log" | head -30; tail -1 "$OUT/hunt.log"
[ -f "$OUT/hunt/hunt.jsonl" ] && gzip -9 "$OUT/hunt/hunt.jsonl"
