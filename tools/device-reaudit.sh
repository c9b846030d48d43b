#!/usr/bin/env bash
# On the GPU machine: re-audit instructions, one process each, with a larger
# hunt budget in the proof (so its counterexamples refit what the default
# budget left undecided). Usage: tools/device-reaudit.sh HUNT_N NAME,NAME,..
set -u
HN=$1; LIST=$2
mkdir -p /tmp/re
. tools/device-env.sh
device_build build/tcscope
t0=$(date +%s); i=0
for ins in ${LIST//,/ }; do
  timeout "${AUDIT_TIMEOUT:-470}" build/tcscope audit --backend gpu --instr "$ins" --n 1000000 --hunt-n "$HN" \
    --timing reports/baselines/h100-bench.json --out "/tmp/re/a$i" --force > "/tmp/re/a$i.log" 2>&1 &
  i=$((i + 1))
done
wait
echo "audits: $(( $(date +%s) - t0 )) s"; cat /tmp/re/a*.log | grep -v '^#'
for d in /tmp/re/a*/; do rm -f "$d"/*.html "$d"/*.svg "$d"/*.md; done
tar czf "$OUT/re.tgz" -C /tmp re
