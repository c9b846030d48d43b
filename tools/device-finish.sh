#!/usr/bin/env bash
# On the GPU machine: audit the instructions of @FILE (one process each),
# merge them with an earlier audit folder, then hunt every instruction
# against the merged profile. Usage: tools/device-finish.sh PREV_DIR LIST_FILE [PER_FAMILY]
set -u
PREV=$1; LIST=$(cat "$2"); N=${3:-400000}
mkdir -p /tmp/deps
for f in .debs/*.deb; do dpkg -x "$f" /tmp/deps; done
export DEPS_PREFIX=/tmp/deps/usr PATH=$PATH:/usr/local/cuda/bin
make DEPS_PREFIX=$DEPS_PREFIX -j16 build/tcscope > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
mkdir -p /tmp/prev && cp "$PREV"/* /tmp/prev/ && gunzip -f /tmp/prev/audit.jsonl.gz
t0=$(date +%s); dirs=/tmp/prev; i=0
for ins in ${LIST//,/ }; do
  timeout "${SHARD_TIMEOUT:-240}" build/tcscope audit --backend gpu --instr "$ins" --n 1000000 --seed 0x7c5c0a1 \
    --timing reports/baselines/h100-bench.json --out "/tmp/a$i" > "/tmp/a$i.log" 2>&1 &
  i=$((i + 1))
done
wait
for ((j = 0; j < i; j++)); do [ -f /tmp/a$j/audit.jsonl ] && dirs="$dirs,/tmp/a$j"; cat /tmp/a$j.log | grep -v '^#'; done
echo "audit of the rest: $(( $(date +%s) - t0 )) s"
build/tcscope audit --merge "$dirs" --out "$OUT/audit" --profile-name h100 > /tmp/merge.log 2>&1; echo "merge rc=$?"; tail -3 /tmp/merge.log
rm -f "$OUT/audit/audit.html"
cp "$OUT/audit/h100.profile" oracle/profiles/h100.profile
t0=$(date +%s)
timeout 280 build/tcscope hunt --backend gpu --instr all --n "$N" --sample 128 --out "$OUT/hunt" > "$OUT/hunt.log" 2>&1
echo "hunt rc=$? in $(( $(date +%s) - t0 )) s"; grep -v ' 0 mismatches' "$OUT/hunt.log" | head -40; tail -2 "$OUT/hunt.log"
gzip -9 "$OUT/hunt/hunt.jsonl" "$OUT/audit/audit.jsonl"
ls -la "$OUT" "$OUT"/*/
