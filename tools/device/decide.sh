#!/usr/bin/env bash
# Issue #28 items 1-2, one run: a deciding input for every pair of every
# field's whole range (tcscope decide export, on this machine's CPUs, from
# the committed profile), asked of the backend (decide ask); the inputs the
# profile's model answers otherwise refit their instructions (audit
# --counterexamples, given the misses and every other deciding input of
# those instructions: decide ask's hunt record), merged into the committed
# baseline as tools/device/refit.sh does; then the deciding inputs are built again from
# the merged profile for the whole catalogue and asked again, decide infer
# says field by field what the answers decide (--compare h100: where the
# H100 profile holds another value than the H200's answers decided; then the
# H100 profile is checked against those answers), and the refit
# instructions are hunted against the merged profile.
# Everything in $OUT/decide.tar.xz (folder dec/), the log also in $OUT/decide.log.
# Usage: bash tools/device/decide.sh [BACKEND [BASE]]   (default: gpu h200)
#   BACKEND model:PROFILE runs it here without a GPU (CPU build, the model answering);
#   INSTR=NAME,NAME.. (environment) limits it to those instructions (default all);
#   MUTATIONS=M (environment): mutated inputs per pair the pool and the ladder leave open (default
#   20000: ten times export's default, seconds on 16 cores, and fewer pairs left open);
#   REFIT=0 (environment) asks once and refits nothing: the misses stay in ask1/hunt.jsonl and
#   decide infer names their instructions (a run that stays within six minutes whatever the answers).
# Nothing refit (no miss, or REFIT=0): the first export and its answers are the final ones (export2,
# ask2 are copies of export1, ask1), asked once.
set -u
BACKEND=${1:-gpu}; BASE=${2:-h200}; INSTR=${INSTR:-all}; REFIT=${REFIT:-1}; MUT=${MUTATIONS:-20000}
: "${OUT:?set OUT to an empty folder}"
W=/tmp/dec; rm -rf "$W"; mkdir -p "$W"
LOG="$W/decide.log"
say() { echo "$@" | tee -a "$LOG"; }
T=build/tcscope
if [ "${BACKEND#model:}" != "$BACKEND" ]; then
  PATH=/usr/lib/ccache:$PATH make NVCC= -j"$(nproc)" "$T" > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
  JOBS=$(nproc)
else
  . tools/device-env.sh
  device_build "$T"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee -a "$LOG"
  JOBS=16
fi
say "instructions $INSTR"
say "commit $(cat .tcscope-version 2>/dev/null || git describe --always --dirty 2>/dev/null) backend $BACKEND base $BASE"
pack() { # what there is so far (the audits' records at the end only), so that a run cut short brings some back
  cp "$LOG" "$OUT/decide.log"
  tar cJf "$OUT/decide.tar.xz" --exclude='*/base' --exclude='*/parts' --exclude='*.html' "$@" -C /tmp dec
}
step() { # NAME CMD..: runs CMD, its output in the log, says its exit status and time
  local name=$1 t0 rc; shift; t0=$(date +%s)
  "$@" >> "$LOG" 2>&1; rc=$?
  say "$name rc=$rc secs=$(( $(date +%s) - t0 ))"; return $rc
}
step export1 $T decide export --profile "$BASE" --instr "$INSTR" --out "$W/export1" --threads "$JOBS" --mutations "$MUT"
step ask1 $T decide ask --backend "$BACKEND" --in "$W/export1/decide.jsonl" --profile "$BASE" --out "$W/ask1"
LIST=$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    o = json.loads(l)
    if o.get("kind") == "hunt" and o["mismatches"]: print(o["instr"])' "$W/ask1/hunt.jsonl" | paste -sd,)
say "answered otherwise than $BASE: ${LIST:-none}"
pack --exclude='audit.jsonl'
PROFILE="oracle/profiles/$BASE.profile"
[ "$REFIT" = 1 ] || { [ -n "$LIST" ] && say "REFIT=0: not refit"; LIST=; }
if [ -n "$LIST" ]; then
  TIMING=(--timing "reports/baselines/$BASE-bench.json.gz")
  [ -f "${TIMING[1]}" ] || TIMING=(--no-timing)
  step refit timeout 300 $T audit --backend "$BACKEND" --instr "$LIST" --count 1000000 --hunt-count 100000 \
    --counterexamples "$W/ask1/hunt.jsonl" "${TIMING[@]}" --jobs "$JOBS" --out "$W/refit" --force
  # the committed baseline; a slim one reads its left-out fields from the full record it names, beside it
  mkdir -p "$W/base" && zcat "reports/baselines/$BASE-audit.jsonl.gz" > "$W/base/audit.jsonl" &&
    cp "$PROFILE" "$W/base/audit.profile"
  REF=$(zcat "reports/baselines/$BASE-audit.jsonl.gz" | head -1 |
        python3 -c 'import json,sys; print(json.load(sys.stdin).get("slim", {}).get("from", ""))')
  [ -n "$REF" ] && cp "reports/baselines/$REF" "$W/base/$REF"
  step merge $T audit --merge "$W/base,$W/refit" --prefer "$W/refit" --out "$W/merged" --profile-name "$BASE" --force
  PROFILE="$W/merged/$BASE.profile"
  python3 - "oracle/profiles/$BASE.profile" "$PROFILE" <<'PY' | tee -a "$LOG"
import sys
def load(p):
    d, cur = {}, None
    for l in open(p):
        l = l.strip()
        if l.startswith("[instr "): cur = l[7:-1]; d[cur] = {}
        elif cur and "=" in l and not l.startswith("#"):
            k, v = l.split("=", 1); d[cur][k.strip()] = v.strip()
    return d
a, b = load(sys.argv[1]), load(sys.argv[2])
for i in sorted(b):
    for k in sorted(b[i]):
        if a.get(i, {}).get(k) != b[i][k]: print("refit changed %s %s: %s -> %s" % (i, k, a.get(i, {}).get(k), b[i][k]))
PY
fi
if [ -n "$LIST" ]; then
  step export2 $T decide export --profile "$PROFILE" --instr "$INSTR" --out "$W/export2" --threads "$JOBS" --mutations "$MUT"
  step ask2 $T decide ask --backend "$BACKEND" --in "$W/export2/decide.jsonl" --profile "$PROFILE" --out "$W/ask2"
else # the profile asked is the final one
  cp -r "$W/export1" "$W/export2" && cp -r "$W/ask1" "$W/ask2" && say "export2, ask2: export1, ask1 (nothing refit)"
fi
pack --exclude='audit.jsonl' --exclude='*.md'
step infer $T decide infer --in "$W/ask2/decide.jsonl" --profile "$PROFILE" --compare oracle/profiles/h100.profile \
  --out "$W/infer"
# the H100 profile against the H200's answers (exit 1: it misses one; the fields are named above by --compare)
step infer-h100 $T decide infer --in "$W/ask2/decide.jsonl" --profile oracle/profiles/h100.profile --instr "$INSTR"
if [ -n "$LIST" ]; then
  # about 22 million elements in all (5 instructions at 400,000 per family took them): the 23 f16-output
  # floors would otherwise take the hunt past the run's 8 minutes
  N=$(echo "$LIST" | tr , '\n' | wc -l); HC=$(( 2000000 / N ))
  [ "$HC" -gt 400000 ] && HC=400000; [ "$HC" -lt 50000 ] && HC=50000
  step hunt timeout 120 $T hunt --backend "$BACKEND" --instr "$LIST" --count "$HC" --profile "$PROFILE" --out "$W/hunt"
fi
grep -E ' rc=|^answered|^refit changed|^\| \*\*all|instructions;|elements in|differ from what|holds .* decided on' "$LOG" |
  tee "$OUT/decide.summary"
rm -rf "$W"/*/*.html "$W"/merged/*.md "$W"/refit/*.md "$W/base" "$W/refit/parts"
for f in "$W"/*/audit.jsonl "$W"/*/hunt.jsonl "$W"/*/decide.jsonl; do [ -f "$f" ] && gzip -9n "$f"; done
if [ -n "${REF:-}" ] && [ -f "$W/merged/audit.jsonl.gz" ]; then
  # audit --merge read the slim base whole (its left-out fields put back) but kept its header's "slim" and
  # the FIELD_sha256 keys: drop both (a full record), then slim it again against the same full record
  python3 - "$W/merged/audit.jsonl.gz" "$W/merged/full.jsonl.gz" <<'PY'
import gzip, json, sys
out = []
for i, l in enumerate(gzip.open(sys.argv[1], "rt")):
    o = json.loads(l)
    if i == 0: o.pop("slim", None)
    for f in ("evidence", "features", "answers"):
        if f in o: o.pop(f + "_sha256", None)
    out.append(json.dumps(o, separators=(",", ":"), ensure_ascii=False))
with open(sys.argv[2], "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as g:
    g.write(("\n".join(out) + "\n").encode())
PY
  python3 tools/audit-slim.py "reports/baselines/$REF" "$W/merged/full.jsonl.gz" "$W/merged/$BASE-audit.jsonl.gz" &&
    rm "$W/merged/audit.jsonl.gz" "$W/merged/full.jsonl.gz"
fi
pack
ls -la "$OUT"
