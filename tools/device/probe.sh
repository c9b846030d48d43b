# On the GPU machine: the framework GEMMs of issue 27 item 4 on the exports
# of `tcscope probe export` (cases/probe.h), for `tcscope probe infer` to read
# on any CPU afterwards.
#   1. builds tcscope without CUDA (export needs no GPU: ~20 s on 16 cores);
#   2. exports every case in every format (f16, bf16, f32, e4m3, e5m2) into
#      /tmp/probe/exports/CASE/FORMAT, 16 at a time;
#   3. tools/probe_frameworks.py runs each framework's calls (PyTorch, JAX,
#      Triton, CuPy, and numpy's CPU BLAS), each framework in its own process
#      under a share of the time left, every call failing soft.
# Cases: M = N = 256 with K = 1024 .. 65536 (powers of 2), and three shapes
# that are not powers of two: a BERT-base FFN down projection for 96 tokens
# (M 96, N 768 hidden, K 3072 FFN), 192 x 320 x 10048 and 320 x 192 x 24576
# (N and K multiples of 64 for the script's Triton kernel). Outputs stay
# small (65,536 to 73,728 a product) so every framework's D's come back.
# Under $OUT (at most 8 files):
#   probe-torch.tar.xz, probe-jax.tar.xz, probe-triton.tar.xz,
#   probe-cupy.tar.xz, probe-numpy.tar.xz   CALL/CASE/{manifest.json, call.json,
#                                          step_D.npy, runs_D.npy, verify_D.npy}
#   summary.json    every framework's status and each call's (ok, error, missing)
#   probe-records.tar.xz  records/CALL--CASE.jsonl (tcscope probe infer --out, as many as time allowed,
#                   smallest K first) and records/summary.txt (one line each)
#   probe.log       build, GPU, package versions, export, framework and inference times
# Then on a CPU: tar xJf probe-torch.tar.xz; tcscope probe infer CALL/CASE.
# Usage: [INFER_S=120] [CASES="M,N,K ..."] [FRAMEWORKS=torch,jax,..] [ONLY=CALL,..] tools/device.sh probe [TOTAL_S]
# (default 450: the whole script, build included; INFER_S: kept for the inference at the end; FRAMEWORKS and
# ONLY go to tools/probe_frameworks.py as --frameworks and --only: the frameworks run, and the call ids, e.g.
# one missing case: CASES="192,320,10048" FRAMEWORKS=triton ONLY=triton-dot-e4m3-imprecise128).
# One new case into the committed record, on a CPU, after `tar xJf probe-records.tar.xz` (or probe infer
# CALL/CASE --out NEW.jsonl on the framework tarball): tools/probe_collect.py collect OUT.jsonl.gz
# records/CALL--CASE.jsonl reports/baselines/h200-frameworks.jsonl.gz (the first file's case wins).
# Needs the nettle headers: nettle-dev's .deb among the carried .debs/ (libnettle8 is there already).
TOTAL=${1:-450}
T0=$(date +%s)
LOG="$OUT/probe.log"
if [ ! -f "$DEPS_PREFIX/include/nettle/sha2.h" ] && [ ! -f /usr/include/nettle/sha2.h ]; then
  echo "device-probe: no nettle/sha2.h: carry nettle-dev's .deb in .debs/ (apt-get download nettle-dev)" | tee -a "$LOG"
  exit 2
fi
device_build NVCC= build/tcscope | tee -a "$LOG"
device_facts >> "$LOG"
python3 -m pip list 2>/dev/null | grep -i -E "^(torch|jax|jaxlib|jax-cuda|triton|cupy|numpy|ml.dtypes|nvidia-cublas)" >> "$LOG"

ROOT=/tmp/probe/exports
rm -rf /tmp/probe && mkdir -p "$ROOT"
CASES=${CASES:-"256,256,1024 256,256,2048 256,256,4096 256,256,8192 256,256,16384 256,256,32768 256,256,65536
96,768,3072 192,320,10048 320,192,24576"}
t=$(date +%s)
for c in $CASES; do
  IFS=, read -r m n k <<< "$c"
  for f in f16 bf16 f32 e4m3 e5m2; do
    echo "$m $n $k $f"
  done
done | xargs -P 16 -n 4 sh -c 'build/tcscope probe export --m "$0" --n "$1" --k "$2" --format "$3" \
  --out "'"$ROOT"'/m$0n$1k$2/$3" > /dev/null || echo "export $0 $1 $2 $3 FAILED"' 2>&1 | tee -a "$LOG"
echo "exports: $(find "$ROOT" -name manifest.json | wc -l) folders, $(du -sh "$ROOT" | cut -f1), $(( $(date +%s) - t )) s" | tee -a "$LOG"

# the frameworks: what is left, less INFER_S for the inference and 20 s for the copies
INFER_S=${INFER_S:-120}
LEFT=$(( TOTAL - ($(date +%s) - T0) - INFER_S - 20 ))
[ "$LEFT" -lt 60 ] && LEFT=60
SELECT=()   # FRAMEWORKS, ONLY: a subset (probe_frameworks.py refuses unknown names)
[ -n "${FRAMEWORKS:-}" ] && SELECT+=(--frameworks "$FRAMEWORKS")
[ -n "${ONLY:-}" ] && SELECT+=(--only "$ONLY")
echo "frameworks: ${FRAMEWORKS:-all}; calls: ${ONLY:-all}" | tee -a "$LOG"
python3 tools/probe_frameworks.py "$ROOT" --out /tmp/probe/out --deadline-s "$LEFT" ${SELECT[@]+"${SELECT[@]}"} 2>&1 | tee -a "$LOG"
cp /tmp/probe/out/*.tar.xz /tmp/probe/out/summary.json "$OUT"/ 2>> "$LOG"

# best effort while time is left: tcscope probe infer on every call and case, cheapest (smallest K) first,
# each on all cores; the records (and one summary line each) in probe-records.tar.xz. The same runs on any
# CPU from the framework tarballs: tcscope probe infer CALL/CASE --out RECORD.
mkdir -p /tmp/probe/records
for d in $(ls -d /tmp/probe/out/*/m* 2>/dev/null | awk -F'k' '{print $NF" "$0}' | sort -n | cut -d' ' -f2); do
  [ $(( $(date +%s) - T0 )) -ge $(( TOTAL - 20 )) ] && { echo "infer: out of time before $d" | tee -a "$LOG"; break; }
  [ -f "$d/step_D.npy" ] || continue
  name=$(basename "$(dirname "$d")")--$(basename "$d")
  timeout $(( TOTAL - 10 - ($(date +%s) - T0) )) build/tcscope probe infer "$d" --out "/tmp/probe/records/$name.jsonl" \
    >> /tmp/probe/records/summary.txt 2>&1 || echo "$name: exit $?" >> /tmp/probe/records/summary.txt
done
tail -n 40 /tmp/probe/records/summary.txt >> "$LOG" 2>/dev/null
tar cJf "$OUT/probe-records.tar.xz" -C /tmp/probe records 2>> "$LOG"
ls -la "$OUT" | tee -a "$LOG"
echo "device-probe: $(( $(date +%s) - T0 )) s in all" | tee -a "$LOG"
