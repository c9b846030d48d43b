#!/usr/bin/env bash
# Seeds for the fuzz harnesses, cut from the project's own files (case
# library, profiles, records, corpus and chain lines the CLI writes), into
# build/fuzz/seeds/NAME/. `make fuzz-seeds` then merges them (libFuzzer
# -merge=1: only inputs that add coverage) into tests/fuzz/corpus/NAME/.
# usage: tools/fuzz-seeds.sh   (after make build/tcscope)
set -eu
T=build/tcscope
S=build/fuzz/seeds
rm -rf "$S"; mkdir -p "$S"/{value,format,profile,casefile,selector,corpus,record,archive}
seed() { cat > "$(mktemp -p "$S/$1" s.XXXXXX)"; }
# a format byte for the value harness: one of the 52 letters (it takes data[0] % formats)
fbyte() { local L=ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz; printf '%s' "${L:$((RANDOM % 52)):1}"; }

# values: every distinct a/b/c/expect text of the case library, behind a format byte
grep -hE '^(a|b|c|expect) *=' cases/library/fasi2021.case tests/data/cases/*.case |
  sed 's/^[a-z]* *= *//; s/ x [0-9]*//g' | tr ',' '\n' | sed 's/^ *//; s/ *$//' | sort -u | head -n 300 |
  while IFS= read -r v; do printf '%s%s' "$(fbyte)" "$v" | seed value; done
for v in 1.5 -2e-3 65504.25 0x1.8p-9 -0X.Fp3 inf -infinity nan -nan bits:0x38 bits:0x7fff 0x1p-100000000 \
         1e-100000000 0.1 123456789012345678901234567890 0x1.fffffffffffffffffffp0; do
  printf '%s%s' "$(fbyte)" "$v" | seed value
done

# formats, rounding and overflow names
$T formats --json | sed -n 's/.*"name":"\([^"]*\)".*/\1/p' | while read -r f; do printf '%s' "$f" | seed format; done
for f in fp16 half bfloat16 float32 e5m10 e4m3fn e3m2nf e2m1fn e8m0 e11m52 e5m2_b-3 e4m3fn_b7 \
         rne rna rz ru rd ro rs inf sat nan; do printf '%s' "$f" | seed format; done

# profiles: the shipped one in sections, the test ones whole
awk '/^\[/{n++} {print > ("'"$S"'/profile/h100-" n)}' oracle/profiles/h100.profile
for f in tests/profiles/*.profile tests/data/records/*.profile; do seed profile < "$f"; done

# case files: the test samples, the hostile ones, and the library case by case (one in 40)
for f in tests/data/cases/*.case tests/data/hostile/*.case; do seed casefile < "$f"; done
awk '/^\[/{n++} n % 40 == 1 {print > ("'"$S"'/casefile/lib-" n)}' cases/library/fasi2021.case
# every key, outcome and variation once, in cases that parse
seed casefile <<'CASES'
[perm.f16]
instr  = a=f16 b=f16 c=f32 d=f32 kmin=8
probes = "order # of the terms"
feature = order
level  = 2
a      = 1, -1, 0x1p-24 x 2
b      = 1, 1, 1, 1
c      = -0
row    = 1
col    = 2
vary   = permutations 6
expect = invariant
if exact rz -> "toward zero"; if 0x1p-23 -> "exact"

[tiles.bf16]
instr  = mma.m16n8k16.f32.bf16.bf16.f32
probes = same tile, many SMs
a      = bits:0x3f80, 2
b      = 0.5, 0.25
vary   = tiles 3
expect = invariant
expect = exact

[runs.tf32]
instr  = a=tf32 api=mma
probes = run to run
a      = inf
b      = 1
vary   = runs 2
expect = nan
if nan -> "inf times 1 is inf"

[mono.e4m3]
instr  = in=e4m3 acc=f32 k=32
probes = monotone in b[0]
a      = 448, -448
b      = 1, 1
vary   = b[0] 2
expect = monotone

[sparse.f16]
instr  = api=mma.sp sparse in=f16
probes = 2:4 structure kept
a      = 1, 0, 0, 2
b      = 1, 1, 1, 1
expect = 0x1.8p1
CASES

# selectors: every instr line of the case files, the catalogue's names and some classes
grep -hE '^instr *=' cases/library/fasi2021.case tests/data/cases/*.case | sed 's/^instr *= *//' | sort -u |
  while IFS= read -r v; do printf '%s' "$v" | seed selector; done
$T list --backend exact | awk 'NR % 7 == 1 {print $1}' | while read -r v; do printf '%s' "$v" | seed selector; done
for v in all sparse 'mma.*' 'wgmma.*.f16.f16' 'api=wgmma k=16' 'in=e4m3 acc=f32' 'kmin=32 sparse' 'a=tf32 d=f32'; do
  printf '%s' "$v" | seed selector
done

# corpus and chain lines: one tile of a few instructions, and short chains
# (the objects of the records run --random prints: the harness parses lines)
objs() { grep -E '^\{"kind":"(tiles|chain)"'; }
for i in mma.m16n8k8.f16.f16.f16.f16 mma.m16n8k32.s32.s8.s8.s32 wgmma.m64n8k16.f32.f16.f16; do
  $T run --backend exact --instr "$i" --random 1 --seed 3 | objs | seed corpus
done
$T run --backend exact --instr mma.m16n8k8.f32.bf16.bf16.f32 --random 1 --chain 2 --seed 3 | objs | seed corpus
$T run --backend exact --instr mma.m16n8k4.f64.f64.f64.f64 --random 2 --chain 1 --seed 3 | objs | seed corpus
# twins: a wgmma and its .rs (inputs_of, d_same_as); two chain lines of one key (same_as)
$T run --backend exact --instr wgmma.m64n8k16.f32.f16.f16 --random 1 --seed 5 | objs > "$S/twin1"
$T run --backend exact --instr wgmma.m64n8k16.f32.f16.f16.rs --random 1 --seed 5 | objs >> "$S/twin1"
seed corpus < "$S/twin1"
$T run --backend exact --instr all --random 1 --chain 1 --seed 5 2>/dev/null | objs | python3 -c '
import json, sys
lines = sys.stdin.read().splitlines()
byname = {json.loads(l)["instr"]: l for l in lines}
for l in lines:
    twin = json.loads(l).get("same_as")
    if twin and len(byname[twin]) < 20000:
        print(byname[twin]); print(l); break' | seed corpus
rm -f "$S/twin1"
seed corpus < tests/data/hostile/corpus-line-ntiles-oom.jsonl

# records (a NUL joins two for compare); small ones only, so that the corpus stays small
for f in tests/data/records/*.json tests/data/hostile/*.json*; do
  [ "$(wc -c < "$f")" -le 12000 ] && seed record < "$f"
done
{ cat tests/data/records/exact-f64-sweep.json; printf '\0'; cat tests/data/records/exact-f64-sweep.json; } | seed record
# the UTF-8 cut of item 7, small: a 200-byte key and a 300-byte value of 2-byte characters
python3 - <<'PY' | seed record
import json
h = {"schema": "tcscope-record/1", "kind": "audit", "tcscope_version": "x", "date": "d", "host": "h",
     "backend": "exact", "gpu": "g", "driver": "1", "cuda": "2", "clock_mhz": None, "seeds": ["0x1"]}
def rec(fp):
    o = {"kind": "audit", "instr": "mma.m16n8k8.f16.f16.f16.f16", "fingerprint": fp, "evidence": {},
         "verification": {"elements": 1, "mismatches": 0, "verified": True}, "timing": None}
    return "\n".join(json.dumps(x, ensure_ascii=False) for x in [h, o, {"kind": "end", "objects": 1}]) + "\n"
print(rec({"\u00e9" * 100: "x", "note": "a" + "\u00e9" * 150}) + "\0" +
      rec({"\u00e9" * 100: "y", "note": "a" + "\u00e9" * 149 + "b"}), end="")
PY
{ cat tests/data/records/synthetic-bench.json; printf "\0"; sed "s/\"latency_cycles\": *[0-9.]*/\"latency_cycles\": 99/" tests/data/records/synthetic-bench.json; } | seed record
# the timing probes' own bench document, two instructions of it
python3 - reports/baselines/h100-bench.json.gz <<'PY' | seed record
import gzip, json, sys
d = json.load(gzip.open(sys.argv[1]))
d["instructions"] = d["instructions"][:2]
d.pop("wgmma_type_best", None); d.pop("cublas", None)
print(json.dumps(d))
PY
# a record of each kind with every optional field, and a changed copy to compare with
python3 - <<'PY' > "$S/kinds"
import json
h = {"schema": "tcscope-record/1", "kind": "mixed", "tcscope_version": "x", "date": "d", "host": "h",
     "backend": "exact", "gpu": "g", "driver": "1", "cuda": "2", "clock_mhz": None, "seeds": ["0x1"]}
objs = [
  {"kind": "corpus", "instr": "mma.m16n8k8.f16.f16.f16.f16", "count": 3, "hash": "0x12", "outputs": ["0x1", "0x2"],
   "inputs": [{"a": ["0x1"], "b": ["0x2"], "c": "0x0"}, {"a": ["0x3"], "b": ["0x4"], "c": "0x0"}]},
  {"kind": "bench", "instr": "mma.m16n8k8.f16.f16.f16.f16", "latency_cycles": 33.0, "throughput_fma_clk_sm": 1024,
   "fraction_of_peak": 0.5, "tflops": 300.5, "latency_cycles_runs": [33, 34, 35], "sass": "HMMA", "emulated": False},
  {"kind": "audit", "instr": "mma.m16n8k8.f16.f16.f16.f16", "fingerprint": {"block": "8", "acc": "f32:rz"},
   "evidence": {}, "verification": {"elements": 10, "mismatches": 0, "verified": True}, "timing": None},
]
def rec(o):
    return "\n".join(json.dumps(x) for x in [h] + o + [{"kind": "end", "objects": len(o)}]) + "\n"
new = json.loads(json.dumps(objs))
new[0]["hash"] = "0x13"; new[0]["outputs"][1] = "0x5"
new[1]["latency_cycles"] = 50.0; new[1]["latency_cycles_runs"] = [50, 51]
new[2]["fingerprint"]["acc"] = "f32:rne"; new[2]["verification"]["mismatches"] = 2
print(rec(objs) + "\0" + rec(new), end="")
PY
seed record < "$S/kinds"; rm -f "$S/kinds"
for d in "$S"/*; do echo "$(basename "$d"): $(ls "$d" | wc -l) seeds"; done

# archives: the hostile test archives under 1 KB (not the caps' ones: each reads 64 MiB or more)
for f in tests/data/hostile/km-*.tar.xz; do
  if [ "$(wc -c < "$f")" -le 1024 ]; then seed archive < "$f"; fi
done
