#!/usr/bin/env bash
# On the GPU machine: audit a few instructions, one process each (the ones a
# sharded audit left out), then hunt every instruction against the profile in
# the tree. Usage: tools/device-rest.sh NAME,NAME,.. [PER_FAMILY]
set -u
LIST=$1; N=${2:-400000}
. tools/device-env.sh
device_build build/tcscope
mkdir -p /tmp/rest; t0=$(date +%s); i=0
for ins in ${LIST//,/ }; do
  timeout "${AUDIT_TIMEOUT:-250}" build/tcscope audit --backend gpu --instr "$ins" --n 1000000 \
    --timing reports/baselines/h100-bench.json --out "/tmp/rest/a$i" --force > "/tmp/rest/a$i.log" 2>&1 &
  i=$((i + 1))
done
wait
echo "audits: $(( $(date +%s) - t0 )) s"; cat /tmp/rest/a*.log | grep -v '^#'
for d in /tmp/rest/a*/; do rm -f "$d"/*.html "$d"/*.svg "$d"/*.md; done
tar czf "$OUT/rest.tgz" -C /tmp rest   # the fetch takes 8 files at most
t0=$(date +%s)
timeout "${HUNT_TIMEOUT:-200}" build/tcscope hunt --backend gpu --instr all --n "$N" --sample 128 --out "$OUT/hunt" \
  > "$OUT/hunt.log" 2>&1
echo "hunt rc=$? in $(( $(date +%s) - t0 )) s"; grep -v ' 0 mismatches' "$OUT/hunt.log" | head -30; tail -1 "$OUT/hunt.log"
[ -f "$OUT/hunt/hunt.jsonl" ] && gzip -9 "$OUT/hunt/hunt.jsonl"
