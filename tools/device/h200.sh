# On an H200 (issue #18 item 3): build, prove the layouts, record the corpus
# and the chains with the H100 records' seeds (so every output compares with
# the H100's on the same inputs), then the catalogue audit (timing measured
# first, alone; --jobs = CPUs). Results in $OUT: h200-layout.jsonl,
# h200-corpus.jsonl.gz, h200-chain.jsonl.gz, h200-audit.tgz, device.log.
N=${1:-10000}; NCH=${2:-4}; LEN=${3:-8}
LOG="$OUT/device.log"
say() { echo "$@" | tee -a "$LOG"; }
device_build build/tcscope
device_facts | tee -a "$LOG"
T=build/tcscope
t0=$(date +%s)
$T run --backend gpu --instr all --check-layout --json > "$OUT/h200-layout.jsonl" 2>> "$LOG"
say "layout rc=$? pass=$(grep -c '"pass"' "$OUT/h200-layout.jsonl") fail=$(grep -c '"fail"' "$OUT/h200-layout.jsonl") secs=$(( $(date +%s) - t0 ))"
t0=$(date +%s)
$T run --backend gpu --instr all --random "$N" --seed 1 2>> "$LOG" | gzip -9 > "$OUT/h200-corpus.jsonl.gz"
say "corpus rc=${PIPESTATUS[0]} lines=$(gzip -dc "$OUT/h200-corpus.jsonl.gz" | wc -l) secs=$(( $(date +%s) - t0 ))"
python3 - <<'PY' 2>&1 | tee -a "$LOG"
import gzip, json, os, subprocess
def objects(f):  # the "tiles" objects of a record (or bare lines of before)
    return (r for r in map(json.loads, f) if r.get("kind", "tiles") == "tiles" and "schema" not in r)
new = {}
for r in objects(gzip.open(os.environ["OUT"] + "/h200-corpus.jsonl.gz", "rt")):
    new[r["instr"]] = r
same = diff = missing = 0
for p in ("mma", "wgmma", "mma-sp", "wgmma-sp"):
    text = subprocess.run(["build/tcscope", "pack", "reports/baselines/h100-corpus-%s.packed.xz" % p, "--text"],
                          check=True, capture_output=True, text=True).stdout  # a packed record's text
    for o in objects(text.splitlines()):
        r = new.get(o["instr"])
        if r is None:
            missing += 1
        elif all(r.get(k) == o.get(k) for k in ("a", "b", "c", "d", "inputs_of", "d_same_as")):
            same += 1
        else:
            diff += 1; print("H200 differs from the H100 corpus:", o["instr"])
print("corpus against the H100's (same inputs): %d instructions same, %d differ, %d missing" % (same, diff, missing))
PY
t0=$(date +%s)
$T run --backend gpu --instr all --chain "$LEN" --random "$NCH" --seed 1 2>> "$LOG" | gzip -9 > "$OUT/h200-chain.jsonl.gz"
say "chains rc=${PIPESTATUS[0]} secs=$(( $(date +%s) - t0 ))"
cmp -s <(gzip -dc "$OUT/h200-chain.jsonl.gz" | grep '^{"kind":"chain"') \
       <($T pack reports/baselines/h100-chain.packed.xz --text | grep '^{"kind":"chain"') \
  && say "chains: identical to the H100 record" || say "chains: differ from the H100 record"
t0=$(date +%s)
timeout "${AUDIT_TIMEOUT:-400}" $T audit --instr all --out /tmp/h200 --profile-name h200 --force > /tmp/h200.log 2>&1
say "audit rc=$? secs=$(( $(date +%s) - t0 )) verified=$(grep -c ' VERIFIED ' /tmp/h200.log)"
grep -v ' VERIFIED ' /tmp/h200.log | head -10 | tee -a "$LOG"
rm -rf /tmp/h200/*.html; cp /tmp/h200/parts/bench.json /tmp/h200/ 2>/dev/null; rm -rf /tmp/h200/parts
gzip -9 -f /tmp/h200/audit.jsonl; cp /tmp/h200.log /tmp/h200/audit.log
tar czf "$OUT/h200-audit.tgz" -C /tmp h200
