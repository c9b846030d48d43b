# On the GPU machine (issue #16): regress against a baseline profile with one
# field changed by hand (must exit 1 naming it), then the catalogue audited
# through the driver's JIT (gpu:jit: the kernels compiled by the driver from
# this binary's PTX). Results in $OUT/jit.tgz.
device_build build/tcscope
mkdir -p /tmp/dj
python3 - <<'PY'
s = open('oracle/profiles/h100.profile').read()
i = s.index('[instr mma.m16n8k8.f32.f16.f16.f32]')
j = s.index('align_bits = 25', i)
open('/tmp/dj/changed.profile', 'w').write(s[:j] + 'align_bits = 24' + s[j + 15:])
PY
if [ -z "${SKIP_REGRESS:-}" ]; then
t0=$(date +%s)
  build/tcscope regress --profile /tmp/dj/changed.profile --instr mma.m16n8k8.f32.f16.f16.f32,mma.m16n8k16.f32.bf16.bf16.f32,wgmma.m64n64k16.f32.bf16.bf16 \
    --out /tmp/dj/regress-changed > /tmp/dj/regress-changed.log 2>&1
  echo "regress (one field changed): exit $? in $(( $(date +%s) - t0 )) s"; cat /tmp/dj/regress-changed.log
fi
t0=$(date +%s)
build/tcscope audit --backend gpu:jit --instr mma.m16n8k8.f32.f16.f16.f32 --no-timing --out /tmp/dj/jit1 > /tmp/dj/jit1.log 2>&1
echo "jit, one instruction: exit $? in $(( $(date +%s) - t0 )) s"; tail -2 /tmp/dj/jit1.log
t0=$(date +%s)
# the driver's compile cache, shared by the children (each process JITs the kernels it loads)
export CUDA_CACHE_PATH=/tmp/dj/cache CUDA_CACHE_MAXSIZE=4294967296
timeout "${JIT_TIMEOUT:-330}" build/tcscope audit --backend gpu:jit --instr all --no-timing --no-cases --out /tmp/dj/jit \
  > /tmp/dj/jit.log 2>/tmp/dj/jit.err
echo "jit, catalogue: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c ' VERIFIED ' /tmp/dj/jit.log) verified"
grep -v ' VERIFIED ' /tmp/dj/jit.log | head; tail -3 /tmp/dj/jit.err
rm -rf /tmp/dj/cache /tmp/dj/*/*.html /tmp/dj/jit/parts/*/*.md /tmp/dj/regress-changed/baseline.jsonl
tar czf "$OUT/jit.tgz" -C /tmp dj   # the parts too: a run cut by the timeout keeps them
