# On the GPU machine (the device tool): build, then audit every instruction on
# the GPU in SHARDS parallel processes, merge, and leave the record, profile
# and reports under $OUT/audit. Usage: tools/device.sh audit [SHARDS] [N]
SHARDS=${1:-4}
N=${2:-1000000}
INSTR=${3:-all}            # a name, "all", a comma-separated list, or @FILE holding one
case "$INSTR" in @*) INSTR=$(cat "${INSTR#@}") ;; esac
device_build build/tcscope
device_facts > /tmp/smi.csv
t0=$(date +%s)
dirs=""
# FIRST and COUNT (environment): run shards FIRST..FIRST+COUNT-1 of SHARDS only,
# so one catalogue audit can be split over two calls of the device tool.
FIRST=${FIRST:-0}; LAST=$(( FIRST + ${COUNT:-$SHARDS} ))
for ((i = FIRST; i < LAST; i++)); do
  timeout "${SHARD_TIMEOUT:-480}" build/tcscope audit --backend gpu --instr "$INSTR" --count "$N" --shard "$i/$SHARDS" \
    --timing "${TIMING:-reports/baselines/h100-bench.json.gz}" --out "/tmp/audit$i" --force > "/tmp/audit$i.log" 2>&1 &
done
wait
dirs=""
for ((i = FIRST; i < LAST; i++)); do
  if [ -f "/tmp/audit$i/audit.jsonl" ]; then dirs="$dirs${dirs:+,}/tmp/audit$i"; else echo "shard $i wrote nothing"; fi
done
echo "audit shards done in $(( $(date +%s) - t0 )) s"
cat /tmp/smi.csv /tmp/audit*.log > "$OUT/audit.log"
build/tcscope audit --merge "$dirs" --out "$OUT/audit" --profile-name h100
echo "merge rc=$?"
grep -c VERIFIED "$OUT/audit.log"; grep -vE "VERIFIED|^#" "$OUT/audit.log" | head -40
rm -f "$OUT/audit/audit.html"
[ -f "$OUT/audit/audit.jsonl" ] && gzip -9 "$OUT/audit/audit.jsonl"   # the fetch limit is 16 MB a file
ls -la "$OUT/audit"
