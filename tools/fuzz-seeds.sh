#!/usr/bin/env bash
# Seeds for the fuzz harnesses, cut from the project's own files (case
# library, profiles, records, corpus and chain lines the CLI writes), into
# build/fuzz/seeds/NAME/. `make fuzz-seeds` then merges them (libFuzzer
# -merge=1: only inputs that add coverage) into tests/fuzz/corpus/NAME/.
# usage: tools/fuzz-seeds.sh   (after make build/tcscope)
set -eu
T=build/tcscope
S=build/fuzz/seeds
rm -rf "$S"; mkdir -p "$S"/{value,format,profile,casefile,selector,corpus,record}
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

# selectors: every instr line of the case files, the catalogue's names and some classes
grep -hE '^instr *=' cases/library/fasi2021.case tests/data/cases/*.case | sed 's/^instr *= *//' | sort -u |
  while IFS= read -r v; do printf '%s' "$v" | seed selector; done
$T list --backend exact | awk 'NR % 7 == 1 {print $1}' | while read -r v; do printf '%s' "$v" | seed selector; done
for v in all sparse 'mma.*' 'wgmma.*.f16.f16' 'api=wgmma k=16' 'in=e4m3 acc=f32' 'kmin=32 sparse' 'a=tf32 d=f32'; do
  printf '%s' "$v" | seed selector
done

# corpus and chain lines: one tile of a few instructions, and short chains
for i in mma.m16n8k8.f16.f16.f16.f16 mma.m16n8k32.s32.s8.s8.s32 wgmma.m64n8k16.f32.f16.f16; do
  $T run --backend exact --instr "$i" --random 1 --seed 3 | seed corpus
done
$T run --backend exact --instr mma.m16n8k8.f32.bf16.bf16.f32 --random 1 --chain 2 --seed 3 | seed corpus
$T run --backend exact --instr mma.m16n8k4.f64.f64.f64.f64 --random 2 --chain 1 --seed 3 | seed corpus
seed corpus < tests/data/hostile/corpus-line-ntiles-oom.jsonl

# records (a NUL joins two for compare)
for f in tests/data/records/*.json tests/data/hostile/*.json*; do seed record < "$f"; done
{ cat tests/data/records/exact-f64-sweep.json; printf '\0'; cat tests/data/records/exact-f64-sweep.json; } | seed record
{ cat tests/data/hostile/compare-utf8-key-old.jsonl; printf '\0'; cat tests/data/hostile/compare-utf8-key-new.jsonl; } | seed record
{ cat tests/data/records/synthetic-bench.json; printf "\0"; sed "s/\"latency_cycles\": *[0-9.]*/\"latency_cycles\": 99/" tests/data/records/synthetic-bench.json; } | seed record
head -c 20000 reports/baselines/h100-audit.jsonl | seed record
for d in "$S"/*; do echo "$(basename "$d"): $(ls "$d" | wc -l) seeds"; done
