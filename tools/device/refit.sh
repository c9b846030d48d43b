# On the GPU machine: re-audit instructions with a hunt's failures given as
# counterexamples (asked again on this GPU and fitted from the start), merge
# them into the committed baseline (record + profile), then hunt them again
# against the merged profile with two seeds. Results in $OUT/refit.tgz.
# Usage: tools/device.sh refit NAME[,NAME..] HUNT.jsonl [HUNT_PER_FAMILY]
LIST=$1; CE=$2; HUNT=${3:-4000000}
device_build build/tcscope
t0=$(date +%s)
build/tcscope audit --backend gpu --instr "$LIST" --count 1000000 --hunt-count 400000 --counterexamples "$CE" \
  --timing reports/baselines/h100-bench.json.gz --out /tmp/refit/audit --force 2>&1 | grep -v '^#'
echo "audit: $(( $(date +%s) - t0 )) s"
mkdir -p /tmp/base && zcat reports/baselines/h100-audit.jsonl.gz > /tmp/base/audit.jsonl &&
  cp oracle/profiles/h100.profile /tmp/base/audit.profile
build/tcscope audit --merge /tmp/base,/tmp/refit/audit --out /tmp/refit/merged --profile-name h100 --force \
  > /tmp/refit/merge.log 2>&1
echo "merge rc=$?"
for s in 0x4b1d5eed 0x5eed2; do
  build/tcscope hunt --backend gpu --instr "$LIST" --count "$HUNT" --seed $s --profile /tmp/refit/merged/h100.profile \
    --out "/tmp/refit/hunt$s" 2>&1 | tail -2
done
rm -f /tmp/refit/*/*.html /tmp/refit/audit/*.md
gzip -9 -f /tmp/refit/merged/audit.jsonl /tmp/refit/hunt*/hunt.jsonl
tar czf "$OUT/refit.tgz" -C /tmp refit
