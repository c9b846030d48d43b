# On the GPU machine: audit instructions, one process each (the ones a sharded
# audit left out, or with a larger hunt budget in the proof so that its
# counterexamples refit what the default budget left undecided), then, when
# HUNT_PER_FAMILY is given, hunt every instruction against the profile in the
# tree, or with MERGE=1 against the committed baseline merged with these
# audits ($OUT/merged.tgz). SETTLE=1 first asks the GPU the MMA-Sim questions
# (tools/mmasim_settle.py; answers in $OUT/settle.txt).
# Results in $OUT/re.tgz (the fetch takes 8 files at most) and $OUT/hunt.
# Usage: tools/device.sh reaudit HUNT_N|0 NAME,NAME,.. [HUNT_PER_FAMILY]
HN=$1; LIST=$2; HUNT=${3:-}
hunt_opt=""; [ "$HN" != 0 ] && hunt_opt="--hunt-count $HN"   # 0: the audit's default, n/16
mkdir -p /tmp/re
device_build build/tcscope build/opt/tools/model_eval
device_facts
if [ -n "${SETTLE:-}" ]; then
  python3 tools/mmasim_settle.py questions > /tmp/questions.txt
  build/opt/tools/model_eval --backend gpu < /tmp/questions.txt > "$OUT/settle.txt"
  echo "settle rc=$?: $(wc -l < "$OUT/settle.txt") answers to $(wc -l < /tmp/questions.txt) questions"
fi
t0=$(date +%s); i=0; dirs=""
for ins in ${LIST//,/ }; do
  timeout "${AUDIT_TIMEOUT:-470}" build/tcscope audit --backend gpu --instr "$ins" --count 1000000 $hunt_opt \
    --timing reports/baselines/h100-bench.json.gz --out "/tmp/re/a$i" --force > "/tmp/re/a$i.log" 2>&1 &
  dirs="$dirs,/tmp/re/a$i"; i=$((i + 1))
done
wait
echo "audits: $(( $(date +%s) - t0 )) s"; cat /tmp/re/a*.log | grep -v '^#'
profile=""
if [ -n "${MERGE:-}" ]; then
  mkdir -p /tmp/base /tmp/merged
  zcat reports/baselines/h100-audit.jsonl.gz > /tmp/base/audit.jsonl
  cp oracle/profiles/h100.profile /tmp/base/audit.profile
  build/tcscope audit --merge "/tmp/base$dirs" --out /tmp/merged --profile-name h100 --force > /tmp/merged.log 2>&1
  echo "merge rc=$?"; tail -3 /tmp/merged.log
  rm -f /tmp/merged/*.html; gzip -9 /tmp/merged/audit.jsonl
  tar czf "$OUT/merged.tgz" -C /tmp merged
  profile="--profile /tmp/merged/h100.profile"
fi
for d in /tmp/re/a*/; do rm -f "$d"/*.html "$d"/*.svg "$d"/*.md; done
tar czf "$OUT/re.tgz" -C /tmp re
[ -n "$HUNT" ] || exit 0
t0=$(date +%s)
timeout "${HUNT_TIMEOUT:-200}" build/tcscope hunt --backend gpu --instr all --count "$HUNT" --samples 128 $profile \
  --out "$OUT/hunt" > "$OUT/hunt.log" 2>&1
echo "hunt rc=$? in $(( $(date +%s) - t0 )) s"; grep -v ' 0 mismatches' "$OUT/hunt.log" | head -30; tail -1 "$OUT/hunt.log"
[ -f "$OUT/hunt/hunt.jsonl" ] && gzip -9 "$OUT/hunt/hunt.jsonl"
