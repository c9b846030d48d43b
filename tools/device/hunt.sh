# On the GPU machine (the device tool): build, then the boundary-directed
# search (tcscope hunt) of every instruction against the committed profile,
# and optionally an audit of a list of instructions. Results under $OUT.
# Usage: tools/device.sh hunt [PER_FAMILY] [AUDIT_INSTRS|@FILE|-] [AUDIT_N]
N=${1:-400000}
AUDIT=${2:--}
AUDIT_N=${3:-1000000}
case "$AUDIT" in @*) AUDIT=$(cat "${AUDIT#@}") ;; esac
device_build build/tcscope
device_facts | tee "$OUT/smi.csv"
t0=$(date +%s)
timeout "${HUNT_TIMEOUT:-300}" build/tcscope hunt --backend gpu --instr all --count "$N" --samples "${SAMPLE:-128}" \
  --out "$OUT/hunt" > "$OUT/hunt.log" 2> "$OUT/hunt.err"
echo "hunt rc=$? in $(( $(date +%s) - t0 )) s"
tail -3 "$OUT/hunt.log"; grep -v ' 0 mismatches' "$OUT/hunt.log" | head -60; head -5 "$OUT/hunt.err"
# the record packed (reports/SCHEMA.md "Packed records"): the samples as bits, xz
[ -f "$OUT/hunt/hunt.jsonl" ] && build/tcscope pack "$OUT/hunt/hunt.jsonl" --out "$OUT/hunt/hunt.packed.xz" \
  && rm "$OUT/hunt/hunt.jsonl"
if [ "$AUDIT" != "-" ]; then
  t0=$(date +%s)
  timeout "${AUDIT_TIMEOUT:-200}" build/tcscope audit --backend gpu --instr "$AUDIT" --count "$AUDIT_N" --no-timing \
    --out "$OUT/audit" > "$OUT/audit.log" 2>&1
  echo "audit rc=$? in $(( $(date +%s) - t0 )) s"; grep -v '^#' "$OUT/audit.log" | head -30
  rm -f "$OUT/audit/audit.html"
  [ -f "$OUT/audit/audit.jsonl" ] && gzip -9 "$OUT/audit/audit.jsonl"
fi
ls -la "$OUT" "$OUT"/*/ 2>/dev/null
