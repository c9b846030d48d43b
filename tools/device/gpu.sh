# On the GPU machine (run tool): build, prove every layout, record the corpus
# (dense and sparse) and the chains with SASS facts, run the GPU tests, bench
# the executor. Results under $OUT, 8 files at most (the run tool's limit):
#   h100-layout.jsonl, h100-corpus-{mma,wgmma,mma-sp,wgmma-sp}.packed.xz,
#   h100-chain.packed.xz, bench.jsonl, device.log
# (packed records, reports/SCHEMA.md "Packed records": tcscope pack F --text
# prints their text)
# Usage: tools/device.sh gpu [ELEMS_PER_INSTR] [CHAINS] [CHAIN_LEN]
N=${1:-10000}
NCH=${2:-4}
LEN=${3:-8}
LOG="$OUT/device.log"
say() { echo "$@" | tee -a "$LOG"; }
device_facts >> "$LOG"
nvcc --version | tail -2 >> "$LOG"
t0=$(date +%s)
if ! make DEPS_PREFIX=$DEPS_PREFIX -j16 build/tcscope build/opt/bench/bench_gpu build/opt/tests/test_backend \
     build/opt/tests/test_layout build/opt/tests/test_sparse > /tmp/build.log 2>&1; then
  tail -40 /tmp/build.log | tee -a "$LOG"; exit 1
fi
say "build: $(( $(date +%s) - t0 )) s"
T=build/tcscope
$T list --backend gpu --all --json > /tmp/list.jsonl 2>&1
say "list: $(grep -c '"supported":true' /tmp/list.jsonl) supported of $(wc -l < /tmp/list.jsonl)"

say "== layout proof"
t0=$(date +%s)
$T run --backend gpu --instr all --check-layout --json > "$OUT/h100-layout.jsonl" 2>> "$LOG"
say "layout rc=$? pass=$(grep -c '"pass"' "$OUT/h100-layout.jsonl") fail=$(grep -c '"fail"' "$OUT/h100-layout.jsonl") secs=$(( $(date +%s) - t0 ))"
grep '"fail"' "$OUT/h100-layout.jsonl" | head -5 | tee -a "$LOG"

say "== corpus ($N elements per instruction)"
t0=$(date +%s)
$T run --backend gpu --instr all --random "$N" --seed 1 2>> "$LOG" > /tmp/corpus.jsonl
say "corpus rc=$? lines=$(wc -l < /tmp/corpus.jsonl) secs=$(( $(date +%s) - t0 ))"
# the record "corpus" split into the committed files' four groups, each a
# record: the same header, its objects, its trailer ("partial" if the run's was)
python3 - <<'EOF'
lines = open("/tmp/corpus.jsonl").read().splitlines()
tiles = '{"kind":"tiles",'
objs = [l for l in lines if l.startswith(tiles)]
ended = bool(lines) and lines[-1].startswith('{"kind":"end",')
groups = (("wgmma-sp", '"instr":"wgmma.sp'), ("mma-sp", '"instr":"mma.sp'), ("wgmma", '"instr":"wgmma.m'))
out = {p: [] for p in ("mma", "wgmma", "mma-sp", "wgmma-sp")}
for l in objs:
    out[next((p for p, s in groups if l.startswith(tiles + s)), "mma")].append(l)
for p, ls in out.items():
    tail = '{"kind":"end","objects":%d}' % len(ls) if ended else \
        '{"kind":"partial","objects":%d,"stopped":"the run stopped (device.log)"}' % len(ls)
    open("/tmp/c-%s.jsonl" % p, "w").write("\n".join(lines[:1] + ls + [tail]) + "\n")
EOF
for p in mma wgmma mma-sp wgmma-sp; do
  $T pack /tmp/c-$p.jsonl --out "$OUT/h100-corpus-$p.packed.xz" >> "$LOG" 2>&1
  say "corpus $p: $(wc -l < /tmp/c-$p.jsonl) lines"
  $T pack reports/baselines/h100-corpus-$p.packed.xz --text > /tmp/old-$p.jsonl
done
# the outputs against the committed record (same seed, same inputs)
for p in mma wgmma mma-sp wgmma-sp; do
  python3 - "$p" <<'EOF' 2>&1 | tee -a "$LOG"
import json, sys
p = sys.argv[1]
old = {}
def objects(f):  # the "tiles" objects of a record (or bare lines of before)
    return (r for r in map(json.loads, f) if r.get("kind", "tiles") == "tiles" and "schema" not in r)
for r in objects(open("/tmp/old-%s.jsonl" % p)):  # the committed record's text
    old[r["instr"]] = r
same = diff = 0
for r in objects(open("/tmp/c-%s.jsonl" % p)):
    o = old.get(r["instr"])
    if o is not None and all(r.get(k) == o.get(k) for k in ("a", "b", "c", "d", "inputs_of", "d_same_as")):
        same += 1
    else:
        diff += 1; print("differs from the committed corpus:", r["instr"])
print("corpus %s against the committed record: %d same, %d different" % (p, same, diff))
EOF
done

say "== chains ($NCH chains x $LEN steps per instruction)"
t0=$(date +%s)
$T run --backend gpu --instr all --chain "$LEN" --random "$NCH" --seed 1 2>> "$LOG" > /tmp/chain.jsonl
say "chains rc=$? lines=$(wc -l < /tmp/chain.jsonl) secs=$(( $(date +%s) - t0 ))"
$T pack /tmp/chain.jsonl --out "$OUT/h100-chain.packed.xz" >> "$LOG" 2>&1
# the objects (the headers differ: date, host)
if cmp -s <(grep '^{"kind":"chain"' /tmp/chain.jsonl) \
          <($T pack reports/baselines/h100-chain.packed.xz --text | grep '^{"kind":"chain"'); then
  say "chains: identical to the committed record"
else
  say "chains: differ from the committed record"
fi

say "== SASS of chain kernels"
for k in tcc_mma_m16n8k16_f32_f16_f16_f32 tcc_wmma_m16n16k8_f32_tf32_tf32_f32 tcc_wgmma_m64n8k16_f32_f16_f16_rs \
         tcc_wgmma_m64n256k32_f16_e5m2_e4m3 tcc_wgmma_m64n64k8_f32_tf32_tf32; do
  say "$k: $(cuobjdump -sass -fun $k $T 2>/dev/null | grep -oE '(HMMA|HGMMA|QGMMA|DMMA)[.A-Z0-9]*' | sort | uniq -c | tr '\n' ' ')"
done

say "== bench"
build/opt/bench/bench_gpu | tee "$OUT/bench.jsonl" >> "$LOG"
cat "$OUT/bench.jsonl"

say "== GPU tests (chains, layouts, sparse)"
for t in test_backend test_layout test_sparse; do
  t0=$(date +%s)
  CMOCKA_MESSAGE_OUTPUT=STDOUT build/opt/tests/$t >> "$LOG" 2>&1
  say "$t rc=$? secs=$(( $(date +%s) - t0 ))"
done
grep -E "FAILED|PASSED" "$LOG" | tail -8
grep -E "mismatches [1-9]" "$LOG" | head -20

say "== wgmma sweeps now through on-GPU chains (make regress on the wgmma baseline)"
t0=$(date +%s)
REGRESS_OUT=/tmp/regress timeout 240 tools/regress.sh reports/baselines/h100-sweep-wgmma.json >> "$LOG" 2>&1
say "regress wgmma rc=$? secs=$(( $(date +%s) - t0 ))"
grep -o '"chain_path":"[^"]*"' /tmp/regress/fresh.json 2>/dev/null | sort | uniq -c | tee -a "$LOG"
tail -3 "$LOG"
