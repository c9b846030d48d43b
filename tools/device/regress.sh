# On the GPU machine (issues #16, #20): build, then `tcscope regress` against the
# committed baseline (wall time, must exit 0); regress with one profile field
# changed by hand (must exit 1 naming it); the fleet path on this machine's GPUs
# (gpu:all: NVML enumeration, pinning, merge). Logs and records in $OUT/regress.tgz.
[ -n "${SKIP_BUILD:-}" ] || device_build build/tcscope
d=/tmp/dr; mkdir -p $d
device_facts
t0=$(date +%s.%N)
build/tcscope regress --out $d/regress > $d/regress.log 2> $d/regress.err
rc=$?
echo "regress: exit $rc in $(awk -v a=$t0 -v b=$(date +%s.%N) 'BEGIN{printf "%.1f", b-a}') s"
tail -1 $d/regress.log; grep -v '  same ' $d/regress.log | head -8; tail -2 $d/regress.err
python3 - <<'PY'
s = open('oracle/profiles/h100.profile').read()
i = s.index('[instr mma.m16n8k8.f32.f16.f16.f32]')
j = s.index('align_bits = 25', i)
open('/tmp/dr/changed.profile', 'w').write(s[:j] + 'align_bits = 24' + s[j + 15:])
PY
t0=$(date +%s)
build/tcscope regress --profile $d/changed.profile --no-timing \
  --instr mma.m16n8k8.f32.f16.f16.f32,mma.m16n8k16.f32.bf16.bf16.f32,wgmma.m64n64k16.f32.bf16.bf16 --out $d/regress-changed > $d/regress-changed.log 2>&1
echo "regress (align_bits of mma.m16n8k8.f32.f16.f16.f32 changed to 24; 3 instructions, --no-timing): exit $? in $(( $(date +%s) - t0 )) s"
grep -v '  same ' $d/regress-changed.log | head -12
t0=$(date +%s)
build/tcscope audit --backend gpu:all --instr mma.m16n8k8.f32.f16.f16.f32,wgmma.m64n64k16.f32.bf16.bf16 --no-timing \
  --out $d/fleet-audit > $d/fleet-audit.log 2>&1
echo "audit --backend gpu:all (2 instructions): exit $? in $(( $(date +%s) - t0 )) s"; tail -4 $d/fleet-audit.log
rm -rf $d/regress*/baseline.jsonl $d/regress*/refit/*/*.html $d/fleet-audit/gpu*/parts
tar czf "$OUT/regress.tgz" -C /tmp dr
